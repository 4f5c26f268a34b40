import { useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';
import { usePolling } from './polling.js';

/** Cache: its figures (`GET /_cache/stats`), its preferences (`GET|POST /_cache/preferences`), evicting it (`POST /_cache/evict`). */
export function CachePage() {
  const [stats, setStats] = useState(undefined);
  const [prefs, setPrefs] = useState(undefined);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const load = async () => {
    const [s, p] = await Promise.all([call('/_cache/stats'), call('/_cache/preferences')]);
    if (s.status !== 200) return setError(reasonOf(s));
    setStats(s.json);
    if (p.status === 200) setPrefs(p.json);
  };
  usePolling(load, []);
  const save = async (event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      enable_cache: form.get('enable_cache') === 'on',
      max_duration: Number(form.get('max_duration')),
      max_size: Number(form.get('max_size')),
      indices: String(form.get('indices') ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    };
    const r = await call('/_cache/preferences', { method: 'POST', body });
    if (r.status !== 200) return setError(reasonOf(r));
    setError('');
    setMessage('Preferences saved.');
    await load();
  };
  const evict = async () => {
    const r = await call('/_cache/evict', { method: 'POST' });
    if (r.status !== 200) return setError(reasonOf(r));
    setMessage('The cache was emptied.');
    await load();
  };
  return (
    <section aria-labelledby="cache-title">
      <h2 id="cache-title">Cache</h2>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="cache-message">{message}</p>}
      {stats && (
        <dl class="figures">
          <div><dt>Entries</dt><dd data-testid="cache-entries">{stats.entries}</dd></div>
          <div><dt>Hits</dt><dd data-testid="cache-hits">{stats.hits}</dd></div>
          <div><dt>Misses</dt><dd>{stats.misses}</dd></div>
          <div><dt>Hit ratio</dt><dd>{stats.hit_ratio.toFixed(2)}</dd></div>
          <div><dt>Size</dt><dd>{Math.round(stats.bytes / 1024)} KiB</dd></div>
        </dl>
      )}
      <div class="pager">
        <button type="button" onClick={evict}>Empty the cache</button>
      </div>
      {prefs && (
        <form onSubmit={save} class="create" key={JSON.stringify(prefs)}>
          <h3>Preferences</h3>
          <label class="inline">
            <input type="checkbox" name="enable_cache" defaultChecked={prefs.enable_cache} /> Cache searches
          </label>
          <label>
            Longest an answer is kept (seconds)
            <input type="number" name="max_duration" min="1" defaultValue={prefs.max_duration} />
          </label>
          <label>
            Size (MB)
            <input type="number" name="max_size" min="1" defaultValue={prefs.max_size} />
          </label>
          <label>
            Only these indices (comma-separated patterns; empty: every index)
            <input name="indices" defaultValue={(prefs.indices ?? []).join(', ')} />
          </label>
          <button type="submit">Save preferences</button>
        </form>
      )}
    </section>
  );
}
