import { useEffect, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';
import { may } from './rights.js';

const enc = encodeURIComponent;

/**
 * The two analyzers search UIs use, as appbase's indices are seeded with them (docs/analysis.md):
 * prefix matching (`autosuggest_analyzer`, edge n-grams of 1 to 20) and inner-fragment matching
 * (`ngram_analyzer`, n-grams of 2 to 9), both searched with `simple`.
 */
const TOKEN_CHARS = ['letter', 'digit', 'punctuation', 'symbol'];
export const SEARCH_ANALYSIS = {
  analysis: {
    filter: {
      autosuggest_filter: { type: 'edge_ngram', min_gram: 1, max_gram: 20, token_chars: TOKEN_CHARS },
      ngram_filter: { type: 'ngram', min_gram: 2, max_gram: 9, token_chars: TOKEN_CHARS },
    },
    analyzer: {
      autosuggest_analyzer: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'autosuggest_filter'] },
      ngram_analyzer: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'ngram_filter'] },
    },
  },
  index: { max_ngram_diff: 8 },
};
/** The sub-fields a text field gets with them: `{field}.autosuggest` and `{field}.search`. */
const SEARCH_SUBFIELDS = {
  autosuggest: { type: 'text', analyzer: 'autosuggest_analyzer', search_analyzer: 'simple' },
  search: { type: 'text', analyzer: 'ngram_analyzer', search_analyzer: 'simple' },
};

/** A mapping whose text fields (at any depth) get the search sub-fields, their own kept. */
function withSearchSubfields(mappings) {
  const walk = (properties) =>
    Object.fromEntries(Object.entries(properties ?? {}).map(([name, node]) => {
      if (node.properties) return [name, { ...node, properties: walk(node.properties) }];
      if (node.type !== 'text') return [name, node];
      return [name, { ...node, fields: { ...SEARCH_SUBFIELDS, ...(node.fields ?? {}) } }];
    }));
  return { ...mappings, properties: walk(mappings.properties) };
}

/**
 * Analyzers can be added only to a closed index: it is closed, given them, and opened again (also
 * when a step fails). Returns the failure, if any.
 */
async function addAnalysis(index) {
  const at = `/${enc(index)}`;
  const settings = await call(`${at}/_settings`);
  if (settings.status !== 200) return reasonOf(settings);
  const analyzers = settings.json?.[index]?.settings?.index?.analysis?.analyzer ?? {};
  if (analyzers.autosuggest_analyzer && analyzers.ngram_analyzer) return undefined;
  const closed = await call(`${at}/_close`, { method: 'POST' });
  if (closed.status !== 200) return reasonOf(closed);
  const set = await call(`${at}/_settings`, { method: 'PUT', body: SEARCH_ANALYSIS });
  const opened = await call(`${at}/_open`, { method: 'POST' });
  if (set.status !== 200) return reasonOf(set);
  if (opened.status !== 200) return reasonOf(opened);
  return undefined;
}

/**
 * Search-as-you-type on a text field of an existing index: the analyzers (`addAnalysis`), then
 * `{field}.autosuggest` and `{field}.search` mapped, and the stored documents indexed again so the
 * sub-fields cover them too. Returns the steps' failure, if any.
 */
async function addSearchAsYouType(index, field) {
  const at = `/${enc(index)}`;
  const mapping = await call(`${at}/_mapping`);
  if (mapping.status !== 200) return reasonOf(mapping);
  const current = mapping.json[index]?.mappings?.properties?.[field];
  if (!current) return `the index has no field [${field}]`;
  if (current.type !== 'text') return `[${field}] is a ${current.type} field, not text`;
  const failed = await addAnalysis(index);
  if (failed) return failed;
  const fields = { ...(current.fields ?? {}), ...SEARCH_SUBFIELDS };
  const put = await call(`${at}/_mapping`, { method: 'PUT', body: { properties: { [field]: { ...current, fields } } } });
  if (put.status !== 200) return reasonOf(put);
  const again = await call(`${at}/_update_by_query?conflicts=proceed&refresh=true`, { method: 'POST', body: {} });
  return again.status === 200 ? undefined : reasonOf(again);
}

const EXAMPLE_MAPPING = '{\n  "properties": {\n    "title": { "type": "text" }\n  }\n}';

/**
 * A new index (`PUT /{index}` with its mapping, and the search analyzers unless told not to), or
 * an app (`PUT /_apps/{app}`, then the analyzers and the mapping). Either answers with the new
 * index's own read-write credential, shown here once, as the API shows it once.
 */
function CreateIndex({ onCreated }) {
  const [error, setError] = useState('');
  const [issued, setIssued] = useState(undefined);
  const create = async (event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('new-index') ?? '').trim();
    const app = form.get('new-kind') === 'app';
    const analyzers = form.get('new-analyzers') === 'on';
    let mappings;
    try {
      mappings = JSON.parse(String(form.get('new-mapping') ?? '') || '{}');
    } catch (err) {
      return setError(`The mapping is not JSON: ${err.message}`);
    }
    if (analyzers) mappings = withSearchSubfields(mappings);
    const r = app
      ? await call(`/_apps/${enc(name)}`, { method: 'PUT' })
      : await call(`/${enc(name)}`, { method: 'PUT', body: { mappings, ...(analyzers ? { settings: SEARCH_ANALYSIS } : {}) } });
    if (r.status !== 200) return setError(reasonOf(r));
    setIssued(r.json?.credentials?.read_write);
    if (app) {
      const failed = analyzers ? await addAnalysis(name) : undefined;
      if (failed) return setError(`The app was created; its analyzers were refused: ${failed}`);
      if (Object.keys(mappings.properties ?? {}).length) {
        const mapped = await call(`/${enc(name)}/_mapping`, { method: 'PUT', body: mappings });
        if (mapped.status !== 200) return setError(`The app was created; its mapping was refused: ${reasonOf(mapped)}`);
      }
    }
    setError('');
    onCreated(name, app);
  };
  return (
    <form onSubmit={create} class="create">
      <h3>New index or app</h3>
      <fieldset>
        <legend>Kind</legend>
        <label class="inline">
          <input type="radio" name="new-kind" value="index" defaultChecked />
          index
        </label>
        <label class="inline">
          <input type="radio" name="new-kind" value="app" />
          app (documents addressed as /app/type/id)
        </label>
      </fieldset>
      <label>
        Name
        <input name="new-index" required />
      </label>
      <label class="inline">
        <input type="checkbox" name="new-analyzers" defaultChecked />
        Search-as-you-type: the autosuggest (edge n-gram) and n-gram analyzers, and each text field's .autosuggest and .search sub-fields
      </label>
      <label>
        Mapping (JSON)
        <textarea name="new-mapping" rows={6} defaultValue={EXAMPLE_MAPPING} />
      </label>
      {error && <p role="alert" class="error">{error}</p>}
      {issued && (
        <div class="issued" role="status">
          <p>
            Its read-write credential — the password is shown only now: <code data-testid="issued-rw-username">{issued.username}</code> /{' '}
            <code data-testid="issued-rw-password">{issued.password}</code>
          </p>
          <button type="button" onClick={() => setIssued(undefined)}>I have saved it</button>
        </div>
      )}
      <button type="submit">Create</button>
    </form>
  );
}

/** The dynamic settings offered in the form (any other as JSON). */
const EDITABLE = [
  ['number_of_replicas', 'Replicas'],
  ['refresh_interval', 'Refresh interval'],
  ['max_result_window', 'Largest from + size'],
];

/**
 * One index's actions: close or open it, its settings (a form for the common ones, or JSON),
 * its aliases (added, removed), search-as-you-type on a text field, deletion after the name is
 * typed again.
 */
function IndexActions({ index, status, onChanged, onDeleted, canWrite, canDelete }) {
  const [settings, setSettings] = useState(undefined);
  const [aliases, setAliases] = useState([]);
  const [edit, setEdit] = useState({});
  const [asJson, setAsJson] = useState(false);
  const [json, setJson] = useState('');
  const [alias, setAlias] = useState('');
  const [field, setField] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const at = `/${enc(index)}`;

  const read = async () => {
    const [st, al] = await Promise.all([call(`${at}/_settings`), call(`${at}/_alias`)]);
    if (st.status !== 200) return setError(reasonOf(st));
    const own = st.json[index]?.settings?.index ?? {};
    setSettings(st.json[index]?.settings ?? {});
    setEdit(Object.fromEntries(EDITABLE.map(([name]) => [name, own[name] ?? ''])));
    setJson(JSON.stringify({ index: Object.fromEntries(EDITABLE.map(([name]) => [name, own[name]]).filter(([, v]) => v !== undefined)) }, null, 2));
    setAliases(al.status === 200 ? Object.keys(al.json[index]?.aliases ?? {}) : []);
  };
  useEffect(() => {
    setMessage('');
    setError('');
    setConfirming(false);
    setTyped('');
    read();
  }, [index]);

  const done = async (r, text) => {
    if (r.status >= 300) return setError(reasonOf(r));
    setError('');
    // the page is read again before the outcome is shown: a reload that arrived after the user
    // began the next edit would put the index's old values back into the form under their typing
    await read();
    setMessage(text);
    onChanged();
  };
  const toggle = async () => {
    const closing = status !== 'close';
    await done(await call(`${at}/${closing ? '_close' : '_open'}`, { method: 'POST' }), `${index} ${closing ? 'closed' : 'opened'}.`);
  };
  const saveSettings = async (event) => {
    event.preventDefault();
    let body;
    if (asJson) {
      try {
        body = JSON.parse(json);
      } catch (err) {
        return setError(`The settings are not JSON: ${err.message}`);
      }
    } else {
      const index = Object.fromEntries(EDITABLE.map(([name]) => [name, edit[name]]).filter(([, v]) => String(v).trim() !== '').map(([k, v]) => [k, String(v).trim()]));
      body = { index };
    }
    const named = Object.keys(body.index && typeof body.index === 'object' ? body.index : body);
    await done(await call(`${at}/_settings`, { method: 'PUT', body }), `Settings of ${index} saved (${named.join(', ')}).`);
  };
  const addAlias = async (event) => {
    event.preventDefault();
    const name = alias.trim();
    if (!name) return;
    await done(await call('/_aliases', { method: 'POST', body: { actions: [{ add: { index, alias: name } }] } }), `Alias ${name} added.`);
    setAlias('');
  };
  const removeAlias = async (name) =>
    done(await call('/_aliases', { method: 'POST', body: { actions: [{ remove: { index, alias: name } }] } }), `Alias ${name} removed.`);
  const searchAsYouType = async () => {
    const failed = await addSearchAsYouType(index, field.trim());
    if (failed) return setError(`Search-as-you-type: ${failed}`);
    setError('');
    setMessage(`${field.trim()}.autosuggest and ${field.trim()}.search added.`);
    await read();
  };
  const remove = async () => {
    // an app is unregistered with its index (its credentials go too); any other index is deleted
    const apps = await call('/_apps');
    const isApp = apps.status === 200 && apps.json.apps.some((a) => a.app === index);
    const r = await call(isApp ? `/_apps/${enc(index)}` : at, { method: 'DELETE' });
    if (r.status >= 300) return setError(reasonOf(r));
    onDeleted(index);
  };

  return (
    <div class="editor" data-testid="index-actions">
      <h3>{index} <span class="muted" data-testid="index-status">{status === 'close' ? 'closed' : 'open'}</span></h3>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="index-message">{message}</p>}
      <div class="pager">
        {canWrite && <button type="button" onClick={toggle}>{status === 'close' ? 'Open' : 'Close'} {index}</button>}
        {canDelete && !confirming && <button type="button" class="danger" onClick={() => setConfirming(true)}>Delete {index}…</button>}
      </div>
      {confirming && (
        <div class="confirm" role="group" aria-label={`Delete ${index}`}>
          <p>Deleting {index} deletes its documents for good. Type its name to confirm.</p>
          <label>
            Name of the index to delete
            <input name="confirm-name" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} autocomplete="off" />
          </label>
          <div class="pager">
            <button type="button" class="danger" disabled={typed !== index} onClick={remove}>Delete {index} for good</button>
            <button type="button" onClick={() => { setConfirming(false); setTyped(''); }}>Keep it</button>
          </div>
        </div>
      )}
      {canWrite && <form onSubmit={saveSettings}>
        <h4>Settings</h4>
        <label class="inline">
          <input type="checkbox" name="settings-as-json" checked={asJson} onChange={(e) => setAsJson(e.currentTarget.checked)} />
          Edit as JSON (any dynamic setting)
        </label>
        {asJson ? (
          <label>
            Settings (JSON)
            <textarea name="settings-json" rows={6} value={json} onInput={(e) => setJson(e.currentTarget.value)} />
          </label>
        ) : (
          <div class="form-grid">
            {EDITABLE.map(([name, label]) => (
              <label key={name}>
                {label} ({name})
                <input name={`setting-${name}`} value={edit[name] ?? ''} onInput={(e) => { const value = e.currentTarget.value; setEdit((was) => ({ ...was, [name]: value })); }} />
              </label>
            ))}
          </div>
        )}
        <div class="pager"><button type="submit">Save settings</button></div>
      </form>}
      {settings && (
        <details>
          <summary>All settings</summary>
          <pre data-testid="index-settings">{JSON.stringify(settings, null, 2)}</pre>
        </details>
      )}
      <h4>Aliases</h4>
      <ul data-testid="aliases">
        {aliases.length === 0 && <li>none</li>}
        {aliases.map((a) => (
          <li key={a} data-testid="alias">
            {a}{' '}
            {canWrite && <button type="button" class="danger" onClick={() => removeAlias(a)} aria-label={`Remove alias ${a}`}>Remove</button>}
          </li>
        ))}
      </ul>
      {canWrite && <form class="pager" onSubmit={addAlias}>
        <label>
          New alias
          <input name="new-alias" value={alias} onInput={(e) => setAlias(e.currentTarget.value)} />
        </label>
        <button type="submit">Add alias</button>
      </form>}
      {canWrite && <h4>Search-as-you-type</h4>}
      {canWrite && <div class="pager">
        <label>
          Text field
          <input name="autosuggest-field" value={field} onInput={(e) => setField(e.currentTarget.value)} />
        </label>
        <button type="button" onClick={searchAsYouType} disabled={!field.trim() || status === 'close'}>Add search-as-you-type</button>
      </div>}
    </div>
  );
}

/**
 * Indices (with the `indices` category): the indices with their state, documents, size and
 * aliases; one chosen is closed or opened, its settings and aliases changed, made
 * search-as-you-type, or deleted after a confirmation; a new index or app created.
 */
export function IndicesPage({ me }) {
  const canCreate = may(me, 'indices', 'write');
  const canDelete = may(me, 'indices', 'delete');
  const [indices, setIndices] = useState(undefined);
  const [chosen, setChosen] = useState('');
  const [version, setVersion] = useState(0);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    call('/_cat/indices?format=json&h=index,health,status,docs.count,store.size&s=index').then((r) => {
      if (r.status !== 200) return setError(reasonOf(r));
      setError('');
      setIndices(r.json.filter((i) => !i.index.startsWith('.')));
    });
  }, [version]);
  const refresh = () => setVersion((v) => v + 1);
  const current = indices?.find((i) => i.index === chosen);
  return (
    <section aria-labelledby="indices-title">
      <h2 id="indices-title">Indices</h2>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="indices-message">{message}</p>}
      {indices && (
        <div class="scroll" role="region" aria-label="Indices table" tabindex={0}>
          <table>
            <caption>Indices</caption>
            <thead>
              <tr>
                <th scope="col">Index</th>
                <th scope="col">State</th>
                <th scope="col">Health</th>
                <th scope="col">Documents</th>
                <th scope="col">Size</th>
              </tr>
            </thead>
            <tbody>
              {indices.map((i) => (
                <tr key={i.index} data-testid="indices-row">
                  <th scope="row">
                    <button type="button" class="link" onClick={() => { setChosen(i.index); setMessage(''); }} aria-label={`Manage ${i.index}`}>{i.index}</button>
                  </th>
                  <td data-testid="indices-state">{i.status === 'close' ? 'closed' : 'open'}</td>
                  <td>{i.health}</td>
                  <td>{i['docs.count'] ?? '–'}</td>
                  <td>{i['store.size'] ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {current && (
        <IndexActions
          index={current.index}
          status={current.status}
          canWrite={canCreate}
          canDelete={canDelete}
          onChanged={refresh}
          onDeleted={(name) => {
            setChosen('');
            setMessage(`${name} deleted.`);
            refresh();
          }}
        />
      )}
      {canCreate && (
        <CreateIndex
          onCreated={(name, app) => {
            refresh();
            setChosen(name);
            setMessage(`${app ? 'App' : 'Index'} ${name} created.`);
          }}
        />
      )}
    </section>
  );
}
