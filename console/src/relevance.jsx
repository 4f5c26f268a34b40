import { useEffect, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';
import { useIndices } from './data.jsx';

const COMPONENT_TYPES = ['search', 'suggestion', 'term', 'range', 'geo'];
const WHOLE = 'all';

/**
 * Search relevancy: an index's default props for declarative components
 * (`GET /_searchrelevancy/{index}`; 404: none yet), edited as JSON for one component type or the
 * whole document, saved (`PUT`, checked by the API's schema) or deleted. The admin also edits
 * `_default`, which applies to every index without a setting of its own.
 */
export function RelevancePage({ admin }) {
  const indices = useIndices();
  const choices = admin ? ['_default', ...indices] : indices;
  const [index, setIndex] = useState('');
  const [settings, setSettings] = useState(undefined);
  const [part, setPart] = useState(WHOLE);
  const [text, setText] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const at = () => `/_searchrelevancy/${encodeURIComponent(index)}`;
  useEffect(() => {
    if (choices.length) setIndex((current) => current || choices[0]);
  }, [choices.length]);
  // the text is set where what it shows changes (not in an effect, which would run after the
  // user may have typed): when the settings arrive and when another part is chosen
  const textOf = (stored, which) => JSON.stringify(which === WHOLE ? stored : stored[which] ?? {}, null, 2);
  useEffect(() => {
    if (!index) return undefined;
    let current = true;
    setSettings(undefined);
    setMessage('');
    call(at()).then((r) => {
      if (!current) return; // another index was chosen meanwhile
      if (r.status === 200 || r.status === 404) {
        const stored = r.status === 200 ? r.json.settings : {};
        setError('');
        setSettings(stored);
        setText(textOf(stored, part));
      } else setError(reasonOf(r));
    });
    return () => {
      current = false;
    };
  }, [index]);
  const choose = (which) => {
    setPart(which);
    if (settings) setText(textOf(settings, which));
  };

  const save = async () => {
    let edited;
    try {
      edited = JSON.parse(text);
    } catch (err) {
      return setError(`The settings are not JSON: ${err.message}`);
    }
    const body = part === WHOLE ? edited : { ...settings, [part]: edited };
    if (part !== WHOLE && Object.keys(edited ?? {}).length === 0) delete body[part];
    const r = await call(at(), { method: 'PUT', body });
    if (r.status >= 300) return setError(reasonOf(r));
    setError('');
    setMessage(`Settings for ${index} saved.`);
    setSettings(r.json.settings);
  };
  const remove = async () => {
    const r = await call(at(), { method: 'DELETE' });
    if (r.status !== 200) return setError(reasonOf(r));
    setError('');
    setMessage(`Settings for ${index} deleted.`);
    setSettings({});
  };
  const stored = settings ? Object.keys(settings) : [];
  return (
    <section aria-labelledby="relevance-title">
      <h2 id="relevance-title">Search relevancy</h2>
      <p>Default props of declarative components, per index; a request's own values come first.</p>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="relevance-message">{message}</p>}
      <div class="pager">
        <label>
          Index
          <select name="relevance-index" value={index} onChange={(e) => setIndex(e.currentTarget.value)}>
            {choices.map((i) => (
              <option key={i} value={i}>{i === '_default' ? '_default (every index)' : i}</option>
            ))}
          </select>
        </label>
        <label>
          Settings of
          <select name="relevance-part" value={part} onChange={(e) => choose(e.currentTarget.value)}>
            <option value={WHOLE}>every component type</option>
            {COMPONENT_TYPES.map((t) => (
              <option key={t} value={t}>{t} components</option>
            ))}
          </select>
        </label>
      </div>
      {settings && (
        <div class="editor">
          <p data-testid="relevance-stored">{stored.length ? `Stored for: ${stored.join(', ')}` : `No settings for ${index} yet.`}</p>
          <label>
            Settings (JSON)
            <textarea name="relevance-settings" rows={10} value={text} onInput={(e) => setText(e.currentTarget.value)} />
          </label>
          <div class="pager">
            <button type="button" onClick={save}>Save settings</button>
            {stored.length > 0 && <button type="button" class="danger" onClick={remove}>Delete settings</button>}
          </div>
        </div>
      )}
    </section>
  );
}
