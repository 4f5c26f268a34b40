import { useEffect, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';

const CATEGORIES = ['docs', 'search', 'indices', 'streams', 'declarative', 'pipelines', 'credentials', 'rules', 'searchrelevancy', 'cache', 'analytics', 'logs', 'cluster'];
const OPERATIONS = ['read', 'write', 'delete'];
const list = (text) => String(text ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** Access control: the credentials (`GET /_credentials`), a new one (`POST`), revoking one (`DELETE`). */
export function Credentials() {
  const [credentials, setCredentials] = useState(undefined);
  const [error, setError] = useState('');
  const [issued, setIssued] = useState(undefined);
  const [revoking, setRevoking] = useState(undefined);
  const load = async () => {
    const r = await call('/_credentials');
    if (r.status === 200) {
      setCredentials(r.json.credentials);
      setError('');
    } else setError(reasonOf(r));
  };
  useEffect(() => {
    load();
  }, []);

  const create = async (event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      indices: list(form.get('indices')),
      categories: form.getAll('categories').map(String),
      ops: form.getAll('ops').map(String),
    };
    const description = String(form.get('description') ?? '').trim();
    if (description) body.description = description;
    const exclude = list(form.get('exclude_fields'));
    if (exclude.length) body.exclude_fields = exclude;
    const maxSize = String(form.get('max_size') ?? '').trim();
    if (maxSize) body.max_size = Number(maxSize);
    const expires = String(form.get('expires_at') ?? '').trim();
    if (expires) body.expires_at = new Date(expires).toISOString();
    const r = await call('/_credentials', { method: 'POST', body });
    if (r.status !== 201) {
      setError(reasonOf(r));
      return;
    }
    event.currentTarget?.reset?.();
    setIssued({ username: r.json.credential.username, password: r.json.password });
    await load();
  };
  const revoke = async (username) => {
    const r = await call(`/_credentials/${encodeURIComponent(username)}`, { method: 'DELETE' });
    setRevoking(undefined);
    if (r.status !== 200) setError(reasonOf(r));
    await load();
  };

  return (
    <section aria-labelledby="credentials-title">
      <h2 id="credentials-title">Access control</h2>
      {error && <p role="alert" class="error">{error}</p>}
      {issued && (
        <div class="issued" role="status" data-testid="issued">
          <p>
            Credential <strong data-testid="issued-username">{issued.username}</strong> created. Its password is shown only now:
          </p>
          <p>
            <code data-testid="issued-password">{issued.password}</code>
          </p>
          <button type="button" onClick={() => setIssued(undefined)}>I have saved it</button>
        </div>
      )}
      {credentials && (
        <table>
          <caption>Credentials</caption>
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Description</th>
              <th scope="col">Indices</th>
              <th scope="col">Categories</th>
              <th scope="col">Operations</th>
              <th scope="col">Expires</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {credentials.map((c) => (
              <tr key={c.username} data-testid="credential-row">
                <th scope="row">{c.username}</th>
                <td>{c.description ?? ''}</td>
                <td>{c.indices.join(', ')}</td>
                <td>{c.categories.join(', ')}</td>
                <td>{c.ops.join(', ')}</td>
                <td>{c.expires_at ?? 'never'}</td>
                <td>
                  {revoking === c.username ? (
                    <button type="button" class="danger" onClick={() => revoke(c.username)}>Confirm revoking {c.username}</button>
                  ) : (
                    <button type="button" onClick={() => setRevoking(c.username)} aria-label={`Revoke ${c.username}`}>Revoke</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={create} class="create" aria-labelledby="create-title">
        <h3 id="create-title">New credential</h3>
        <label>
          Description
          <input name="description" />
        </label>
        <label>
          Indices (comma-separated names or patterns)
          <input name="indices" required placeholder="shop, logs-*" />
        </label>
        <fieldset>
          <legend>Categories</legend>
          {CATEGORIES.map((c) => (
            <label class="inline" key={c}>
              <input type="checkbox" name="categories" value={c} defaultChecked={c === 'search' || c === 'docs'} /> {c}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Operations</legend>
          {OPERATIONS.map((o) => (
            <label class="inline" key={o}>
              <input type="checkbox" name="ops" value={o} defaultChecked={o === 'read'} /> {o}
            </label>
          ))}
        </fieldset>
        <label>
          Fields to hide (comma-separated)
          <input name="exclude_fields" />
        </label>
        <label>
          Largest search size
          <input name="max_size" type="number" min="0" />
        </label>
        <label>
          Expires
          <input name="expires_at" type="datetime-local" />
        </label>
        <button type="submit">Create credential</button>
      </form>
    </section>
  );
}
