import { useEffect, useRef, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';
import { may } from './rights.js';

const PAGE = 10;
const enc = encodeURIComponent;

/** The indices the credential may read (`_cat/indices`), the system ones left out. */
export function useIndices(version = 0) {
  const [indices, setIndices] = useState([]);
  useEffect(() => {
    call('/_cat/indices?format=json&h=index&s=index').then((r) => {
      if (r.status === 200) setIndices(r.json.map((i) => i.index).filter((i) => !i.startsWith('.')));
    });
  }, [version]);
  return indices;
}

/** The analysis an autosuggest field uses: edge n-grams of 1 to 20 characters at index time. */
const AUTOSUGGEST_ANALYSIS = {
  analysis: {
    filter: { autosuggest_edge_ngram: { type: 'edge_ngram', min_gram: 1, max_gram: 20 } },
    analyzer: { autosuggest: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'autosuggest_edge_ngram'] } },
  },
};

/**
 * Adds `{field}.autosuggest` (edge n-grams, searched with the standard analyzer) to a text field:
 * analyzers can be added only to a closed index, so the index is closed, given the analyzer,
 * opened again (also when a step fails), then the sub-field is mapped and the stored documents
 * indexed again. Returns the steps' failure, if any.
 */
async function addAutosuggest(index, field) {
  const at = `/${enc(index)}`;
  const mapping = await call(`${at}/_mapping`);
  if (mapping.status !== 200) return reasonOf(mapping);
  const current = mapping.json[index]?.mappings?.properties?.[field];
  if (!current) return `the index has no field [${field}]`;
  const settings = await call(`${at}/_settings`);
  const hasAnalyzer = Boolean(settings.json?.[index]?.settings?.index?.analysis?.analyzer?.autosuggest);
  if (!hasAnalyzer) {
    const closed = await call(`${at}/_close`, { method: 'POST' });
    if (closed.status !== 200) return reasonOf(closed);
    const set = await call(`${at}/_settings`, { method: 'PUT', body: AUTOSUGGEST_ANALYSIS });
    const opened = await call(`${at}/_open`, { method: 'POST' });
    if (set.status !== 200) return reasonOf(set);
    if (opened.status !== 200) return reasonOf(opened);
  }
  const fields = { ...(current.fields ?? {}), autosuggest: { type: 'text', analyzer: 'autosuggest', search_analyzer: 'standard' } };
  const put = await call(`${at}/_mapping`, { method: 'PUT', body: { properties: { [field]: { ...current, fields } } } });
  if (put.status !== 200) return reasonOf(put);
  // the documents already stored are indexed again, so the sub-field covers them too
  const again = await call(`${at}/_update_by_query?conflicts=proceed&refresh=true`, { method: 'POST', body: {} });
  return again.status === 200 ? undefined : reasonOf(again);
}

/**
 * A new index with its mapping (`PUT /{index}`), or an app (`PUT /_apps/{app}`, then the mapping
 * with `PUT /{app}/_mapping`). Either answers with the new index's own read-write credential,
 * shown here once, as the API shows it once.
 */
function CreateIndex({ onCreated }) {
  const [error, setError] = useState('');
  const [issued, setIssued] = useState(undefined);
  const create = async (event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('new-index') ?? '').trim();
    const app = form.get('new-kind') === 'app';
    let mappings;
    try {
      mappings = JSON.parse(String(form.get('new-mapping') ?? '{}'));
    } catch (err) {
      return setError(`The mapping is not JSON: ${err.message}`);
    }
    const r = app ? await call(`/_apps/${enc(name)}`, { method: 'PUT' }) : await call(`/${enc(name)}`, { method: 'PUT', body: { mappings } });
    if (r.status !== 200) return setError(reasonOf(r));
    setIssued(r.json?.credentials?.read_write);
    if (app && Object.keys(mappings.properties ?? {}).length) {
      const mapped = await call(`/${enc(name)}/_mapping`, { method: 'PUT', body: mappings });
      if (mapped.status !== 200) return setError(`The app was created; its mapping was refused: ${reasonOf(mapped)}`);
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
      <label>
        Mapping (JSON)
        <textarea name="new-mapping" rows={6} defaultValue={'{\n  "properties": {\n    "title": { "type": "text" }\n  }\n}'} />
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

/** Data browser: an index's documents, ten at a time; one shown, edited, deleted or added as JSON; its mapping and settings. */
export function DataBrowser({ me }) {
  // what the credential may do here (the gateway refuses the rest anyway: this hides what would fail)
  const canSearch = may(me, 'search');
  const canWrite = may(me, 'docs', 'write');
  const canDelete = may(me, 'docs', 'delete');
  const canManage = may(me, 'indices', 'write');
  // an index's settings are its administrator's; its mapping is read by its readers too
  const readsSettings = may(me, 'indices');
  const [version, setVersion] = useState(0);
  const indices = useIndices(version);
  const [autosuggestField, setAutosuggestField] = useState('');
  const [index, setIndex] = useState('');
  const [from, setFrom] = useState(0);
  const [page, setPage] = useState(undefined);
  const [selected, setSelected] = useState(undefined);
  const [draft, setDraft] = useState('');
  const [newId, setNewId] = useState('');
  const [mapping, setMapping] = useState(undefined);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');

  // the newest load wins: the first index's page, answered late, never replaces the chosen one's
  const latest = useRef(0);
  const load = async (name = index, start = from) => {
    if (!name || !canSearch) return;
    const ticket = ++latest.current;
    const r = await call(`/${enc(name)}/_search`, { method: 'POST', body: { from: start, size: PAGE, sort: ['_doc'], track_total_hits: true } });
    if (ticket !== latest.current) return;
    if (r.status !== 200) return setError(reasonOf(r));
    setError('');
    setPage({ total: r.json.hits.total.value, hits: r.json.hits.hits });
  };
  useEffect(() => {
    // the first index unless one was chosen meanwhile (the effect runs after the options appear)
    if (indices.length) setIndex((current) => current || indices[0]);
  }, [indices]);
  useEffect(() => {
    setSelected(undefined);
    setMapping(undefined);
    setFrom(0);
    load(index, 0);
  }, [index]);

  const open = (hit) => {
    setSelected(hit);
    setDraft(JSON.stringify(hit._source, null, 2));
    setMessage('');
  };
  const parsedDraft = () => {
    try {
      const value = JSON.parse(draft);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('a document is a JSON object');
      return value;
    } catch (err) {
      setError(`Not a JSON document: ${err.message}`);
      return undefined;
    }
  };
  const save = async () => {
    const doc = parsedDraft();
    if (!doc) return;
    const id = selected ? selected._id : newId.trim();
    const r = id
      ? await call(`/${enc(index)}/_doc/${enc(id)}?refresh=true`, { method: 'PUT', body: doc })
      : await call(`/${enc(index)}/_doc?refresh=true`, { method: 'POST', body: doc });
    if (r.status >= 300) return setError(reasonOf(r));
    setError('');
    setMessage(`Document ${r.json._id} ${r.json.result}.`);
    setSelected({ _id: r.json._id, _source: doc });
    await load();
  };
  const remove = async () => {
    const r = await call(`/${enc(index)}/_doc/${enc(selected._id)}?refresh=true`, { method: 'DELETE' });
    if (r.status >= 300) return setError(reasonOf(r));
    setMessage(`Document ${selected._id} deleted.`);
    setSelected(undefined);
    await load();
  };
  const showMapping = async () => {
    const [m, st] = await Promise.all([call(`/${enc(index)}/_mapping`), readsSettings ? call(`/${enc(index)}/_settings`) : undefined]);
    if (m.status !== 200) return setError(reasonOf(m));
    if (st && st.status !== 200) return setError(reasonOf(st));
    setMapping({ mapping: m.json, settings: st?.json });
  };
  const autosuggest = async () => {
    const failed = await addAutosuggest(index, autosuggestField.trim());
    if (failed) return setError(`Autosuggest: ${failed}`);
    setError('');
    setMessage(`${autosuggestField.trim()}.autosuggest added.`);
    setMapping(undefined);
  };
  const go = (start) => {
    setFrom(start);
    load(index, start);
  };

  return (
    <section aria-labelledby="data-title">
      <h2 id="data-title">Data</h2>
      <label>
        Index
        <select value={index} onChange={(e) => setIndex(e.currentTarget.value)} name="index">
          {indices.map((i) => (
            <option key={i} value={i}>{i}</option>
          ))}
        </select>
      </label>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="data-message">{message}</p>}
      {index && !canSearch && (
        <div class="pager">
          <button type="button" onClick={showMapping}>Mapping{readsSettings ? ' and settings' : ''}</button>
        </div>
      )}
      {page && (
        <>
          <table>
            <caption>
              {index}: documents {page.total ? from + 1 : 0}–{Math.min(from + PAGE, page.total)} of <span data-testid="doc-total">{page.total}</span>
            </caption>
            <thead>
              <tr>
                <th scope="col">_id</th>
                <th scope="col">_source</th>
              </tr>
            </thead>
            <tbody>
              {page.hits.map((h) => (
                <tr key={h._id} data-testid="doc-row">
                  <th scope="row">
                    <button type="button" class="link" onClick={() => open(h)} aria-label={`Open document ${h._id}`}>{h._id}</button>
                  </th>
                  <td class="source">{JSON.stringify(h._source)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="pager">
            <button type="button" disabled={from === 0} onClick={() => go(Math.max(0, from - PAGE))}>Previous</button>
            <button type="button" disabled={from + PAGE >= page.total} onClick={() => go(from + PAGE)}>Next</button>
            {canWrite && <button type="button" onClick={() => { setSelected(undefined); setDraft('{\n}'); setNewId(''); setMessage(''); }}>Add a document</button>}
            <button type="button" onClick={showMapping}>Mapping{readsSettings ? ' and settings' : ''}</button>
          </div>
        </>
      )}
      {(selected || draft) && (
        <div class="editor">
          <h3>{selected ? `Document ${selected._id}` : 'New document'}</h3>
          {!selected && (
            <label>
              Id (empty: generated)
              <input name="new-id" value={newId} onInput={(e) => setNewId(e.currentTarget.value)} />
            </label>
          )}
          <label>
            JSON
            <textarea name="document" rows={10} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
          </label>
          <div class="pager">
            {canWrite && <button type="button" onClick={save}>Save</button>}
            {selected && canDelete && <button type="button" class="danger" onClick={remove}>Delete</button>}
          </div>
        </div>
      )}
      {mapping && (
        <>
          <h3>Mapping</h3>
          <pre data-testid="mapping">{JSON.stringify(mapping.mapping, null, 2)}</pre>
          {mapping.settings && (
            <>
              <h3>Settings</h3>
              <pre data-testid="settings">{JSON.stringify(mapping.settings, null, 2)}</pre>
            </>
          )}
        </>
      )}
      {index && canManage && (
        <div class="pager">
          <label>
            Text field to suggest on
            <input name="autosuggest-field" value={autosuggestField} onInput={(e) => setAutosuggestField(e.currentTarget.value)} />
          </label>
          <button type="button" onClick={autosuggest} disabled={!autosuggestField.trim()}>Add autosuggest</button>
        </div>
      )}
      {canManage && (
        <CreateIndex
          onCreated={(name, app) => {
            setVersion((v) => v + 1);
            setIndex(name);
            setMessage(`${app ? 'App' : 'Index'} ${name} created.`);
          }}
        />
      )}
    </section>
  );
}
