import { useEffect, useRef, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';

const CATEGORIES = ['docs', 'search', 'indices', 'streams', 'declarative', 'pipelines', 'credentials', 'rules', 'searchrelevancy', 'cache', 'analytics', 'logs', 'cluster'];
const OPERATIONS = ['read', 'write', 'delete'];
const list = (text) => String(text ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const pad = (n) => String(n).padStart(2, '0');
/** An ISO time as a datetime-local input's value (the browser's time zone). */
const localTime = (iso) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** A credential as the form's fields hold it: texts, and the checked categories and operations. */
const fieldsOf = (c) => ({
  description: c?.description ?? '',
  indices: (c?.indices ?? []).join(', '),
  categories: c?.categories ?? ['search', 'docs'],
  ops: c?.ops ?? ['read'],
  include_fields: (c?.include_fields ?? []).join(', '),
  exclude_fields: (c?.exclude_fields ?? []).join(', '),
  max_size: String(c?.max_size ?? ''),
  per_second: String(c?.rate_limit?.per_second ?? ''),
  per_ip_per_hour: String(c?.rate_limit?.per_ip_per_hour ?? ''),
  expires_at: c?.expires_at ? localTime(c.expires_at) : '',
});

const TEXT_FIELDS = ['description', 'indices', 'include_fields', 'exclude_fields', 'max_size', 'per_second', 'per_ip_per_hour', 'expires_at'];
const readFields = (form) => ({
  ...Object.fromEntries(TEXT_FIELDS.map((name) => [name, String(form.get(name) ?? '').trim()])),
  categories: form.getAll('categories').map(String),
  ops: form.getAll('ops').map(String),
});

/** The API's members for the form's fields; an optional one left empty is null (a PATCH clears it). */
function membersOf(f) {
  const limits = Object.fromEntries(['per_second', 'per_ip_per_hour'].filter((k) => f[k] !== '').map((k) => [k, Number(f[k])]));
  return {
    description: f.description.trim() || null,
    indices: list(f.indices),
    categories: CATEGORIES.filter((c) => f.categories.includes(c)),
    ops: OPERATIONS.filter((o) => f.ops.includes(o)),
    include_fields: list(f.include_fields).length ? list(f.include_fields) : null,
    exclude_fields: list(f.exclude_fields).length ? list(f.exclude_fields) : null,
    max_size: f.max_size === '' ? null : Number(f.max_size),
    rate_limit: Object.keys(limits).length ? limits : null,
    expires_at: f.expires_at ? new Date(f.expires_at).toISOString() : null,
  };
}

/** The members that differ between two sets of members: what a PATCH sends. */
const changed = (before, after) => Object.fromEntries(Object.entries(after).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k])));

/** The fields of a credential, for a new one or prefilled with one being edited. */
function CredentialFields({ values }) {
  return (
    <>
      <label>
        Description
        <input name="description" defaultValue={values.description} />
      </label>
      <label>
        Indices (comma-separated names or patterns)
        <input name="indices" required placeholder="shop, logs-*" defaultValue={values.indices} />
      </label>
      <fieldset>
        <legend>Categories</legend>
        {CATEGORIES.map((c) => (
          <label class="inline" key={c}>
            <input type="checkbox" name="categories" value={c} defaultChecked={values.categories.includes(c)} /> {c}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Operations</legend>
        {OPERATIONS.map((o) => (
          <label class="inline" key={o}>
            <input type="checkbox" name="ops" value={o} defaultChecked={values.ops.includes(o)} /> {o}
          </label>
        ))}
      </fieldset>
      <label>
        Only these fields (comma-separated; empty: every field)
        <input name="include_fields" defaultValue={values.include_fields} />
      </label>
      <label>
        Fields to hide (comma-separated)
        <input name="exclude_fields" defaultValue={values.exclude_fields} />
      </label>
      <label>
        Largest search size
        <input name="max_size" type="number" min="0" defaultValue={values.max_size} />
      </label>
      <fieldset>
        <legend>Rate limits (empty: none)</legend>
        <label>
          Requests a second
          <input name="per_second" type="number" min="1" defaultValue={values.per_second} />
        </label>
        <label>
          Requests an hour from one IP address
          <input name="per_ip_per_hour" type="number" min="1" defaultValue={values.per_ip_per_hour} />
        </label>
      </fieldset>
      <label>
        Expires
        <input name="expires_at" type="datetime-local" defaultValue={values.expires_at} />
      </label>
    </>
  );
}

/**
 * Access control: the credentials (`GET /_credentials`), a new one (`POST`), one edited (`GET`
 * then `PATCH /_credentials/{username}` with the members that changed), revoking one (`DELETE`).
 */
export function Credentials() {
  const [credentials, setCredentials] = useState(undefined);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const [issued, setIssued] = useState(undefined);
  const [revoking, setRevoking] = useState(undefined);
  const [editing, setEditing] = useState(undefined);
  // the newest load wins: an answer that comes after a later load's (the list read on arrival, then again after a change) is dropped
  const loads = useRef(0);
  const load = async () => {
    const n = ++loads.current;
    const r = await call('/_credentials');
    if (n !== loads.current) return;
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
    const form = event.currentTarget;
    const members = membersOf(readFields(new FormData(form)));
    const body = Object.fromEntries(Object.entries(members).filter(([, v]) => v !== null));
    const r = await call('/_credentials', { method: 'POST', body });
    if (r.status !== 201) {
      setError(reasonOf(r));
      return;
    }
    form.reset();
    setError('');
    setIssued({ username: r.json.credential.username, password: r.json.password });
    await load();
  };
  const edit = async (username) => {
    const r = await call(`/_credentials/${encodeURIComponent(username)}`);
    if (r.status !== 200) return setError(reasonOf(r));
    setError('');
    setMessage('');
    setEditing(r.json.credential);
  };
  const update = async (event) => {
    event.preventDefault();
    const patch = changed(membersOf(fieldsOf(editing)), membersOf(readFields(new FormData(event.currentTarget))));
    const names = Object.keys(patch);
    if (names.length === 0) {
      setEditing(undefined);
      return setMessage(`Nothing changed for ${editing.username}.`);
    }
    const r = await call(`/_credentials/${encodeURIComponent(editing.username)}`, { method: 'PATCH', body: patch });
    if (r.status !== 200) return setError(reasonOf(r));
    setError('');
    setMessage(`Credential ${editing.username} updated: ${names.join(', ')}.`);
    await load();
    setEditing(undefined);
  };
  const revoke = async (username) => {
    const r = await call(`/_credentials/${encodeURIComponent(username)}`, { method: 'DELETE' });
    if (r.status !== 200) setError(reasonOf(r));
    await load();
    // the confirmation goes once the list shows the outcome
    setRevoking(undefined);
  };

  return (
    <section aria-labelledby="credentials-title">
      <h2 id="credentials-title">Access control</h2>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="credential-message">{message}</p>}
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
        // a phone scrolls the table, not the page (focusable, so the keyboard scrolls it too)
        <div class="scroll" role="region" aria-label="Credentials table" tabindex={0}>
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
                  <button type="button" onClick={() => edit(c.username)} aria-label={`Edit ${c.username}`}>Edit</button>{' '}
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
        </div>
      )}
      {editing ? (
        <form onSubmit={update} class="create" aria-labelledby="edit-title" key={editing.username}>
          <h3 id="edit-title">Edit {editing.username}</h3>
          <CredentialFields values={fieldsOf(editing)} />
          <div class="pager">
            <button type="submit">Save changes</button>
            <button type="button" onClick={() => setEditing(undefined)}>Cancel</button>
          </div>
        </form>
      ) : (
        <form onSubmit={create} class="create" aria-labelledby="create-title">
          <h3 id="create-title">New credential</h3>
          <CredentialFields values={fieldsOf(undefined)} />
          <button type="submit">Create credential</button>
        </form>
      )}
    </section>
  );
}
