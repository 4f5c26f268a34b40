import { useEffect, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';

const PAGE = 10;
const enc = encodeURIComponent;

/** The indices the credential may read (`_cat/indices`), the system ones left out. */
export function useIndices() {
  const [indices, setIndices] = useState([]);
  useEffect(() => {
    call('/_cat/indices?format=json&h=index&s=index').then((r) => {
      if (r.status === 200) setIndices(r.json.map((i) => i.index).filter((i) => !i.startsWith('.')));
    });
  }, []);
  return indices;
}

/** Data browser: an index's documents, ten at a time; one shown, edited, deleted or added as JSON; its mapping. */
export function DataBrowser() {
  const indices = useIndices();
  const [index, setIndex] = useState('');
  const [from, setFrom] = useState(0);
  const [page, setPage] = useState(undefined);
  const [selected, setSelected] = useState(undefined);
  const [draft, setDraft] = useState('');
  const [newId, setNewId] = useState('');
  const [mapping, setMapping] = useState(undefined);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');

  const load = async (name = index, start = from) => {
    if (!name) return;
    const r = await call(`/${enc(name)}/_search`, { method: 'POST', body: { from: start, size: PAGE, sort: ['_doc'], track_total_hits: true } });
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
    const r = await call(`/${enc(index)}/_mapping`);
    if (r.status !== 200) return setError(reasonOf(r));
    setMapping(r.json);
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
            <button type="button" onClick={() => { setSelected(undefined); setDraft('{\n}'); setNewId(''); setMessage(''); }}>Add a document</button>
            <button type="button" onClick={showMapping}>Mapping</button>
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
            <button type="button" onClick={save}>Save</button>
            {selected && <button type="button" class="danger" onClick={remove}>Delete</button>}
          </div>
        </div>
      )}
      {mapping && <pre data-testid="mapping">{JSON.stringify(mapping, null, 2)}</pre>}
    </section>
  );
}
