import { useEffect, useRef, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';
import { may } from './rights.js';

const SIZES = [10, 25, 50];
/** Columns shown at first: the mapping's first fields. */
const FIRST_COLUMNS = 5;
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

/** The index the URL names (`#/data/{index}`): an index's documents can be bookmarked and linked to. */
const indexInUrl = () => decodeURIComponent(location.hash.replace(/^#\/?/, '').split('/')[1] ?? '');

/** Types that sort and filter as they are; a text field sorts on a keyword sub-field, if it has one. */
const SORTS_AS_IS = new Set(['keyword', 'constant_keyword', 'wildcard', 'long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'unsigned_long', 'date', 'date_nanos', 'boolean', 'ip', 'version']);

/** An index's fields from its mapping, objects flattened (`a.b`): `[{name, type, sortBy}]`, in mapping order. */
export function fieldsOf(mapping) {
  const fields = [];
  const walk = (properties, prefix) => {
    for (const [name, node] of Object.entries(properties ?? {})) {
      const path = prefix + name;
      if (node.properties && (!node.type || node.type === 'object')) {
        walk(node.properties, `${path}.`);
        continue;
      }
      const keyword = Object.entries(node.fields ?? {}).find(([, sub]) => sub.type === 'keyword');
      const sortBy = SORTS_AS_IS.has(node.type) ? path : keyword ? `${path}.${keyword[0]}` : undefined;
      fields.push({ name: path, type: node.type ?? 'object', sortBy });
    }
  };
  for (const index of Object.values(mapping ?? {})) walk(index.mappings?.properties, '');
  return fields;
}

/** A field's value in a document (`a.b` through objects), as the table shows it. */
function cell(source, path) {
  let value = source;
  for (const part of path.split('.')) value = value === null || typeof value !== 'object' ? undefined : value[part];
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * The gateway keeps an app's document type in a field it never shows (docs/apps.md); a sort on it,
 * after the page's own, gives each hit's type in its sort values without changing the order.
 */
const TYPE_SORT = { _gateway_type: { order: 'asc', unmapped_type: 'keyword', missing: '_last' } };
/** Where a typed document (`/{app}/{type}/{id}`) is read and written; `_doc`: index-addressed. */
const docPath = (index, type, id) => `/${enc(index)}/${type && type !== '_doc' ? enc(type) : '_doc'}${id === undefined ? '' : `/${enc(id)}`}`;

/**
 * Data browser (as Kibana's Discover): an index's documents in columns chosen from its mapping,
 * sorted on a column, filtered by a query string, a page at a time; one shown, edited, deleted
 * or added as JSON — an app's typed document (`/{app}/{type}/{id}`) saved under its own type.
 */
export function DataBrowser({ me }) {
  // what the credential may do here (the gateway refuses the rest anyway: this hides what would fail)
  const canSearch = may(me, 'search');
  const canWrite = may(me, 'docs', 'write');
  const canDelete = may(me, 'docs', 'delete');
  // an index's settings are its administrator's; its mapping is read by its readers too
  const readsSettings = may(me, 'indices');
  const indices = useIndices();
  const [index, setIndex] = useState(indexInUrl);
  const [fields, setFields] = useState([]);
  const [columns, setColumns] = useState([]);
  const [sort, setSort] = useState(undefined); // {field, sortBy, order}
  const [filter, setFilter] = useState('');
  const [applied, setApplied] = useState('');
  const [size, setSize] = useState(SIZES[0]);
  const [from, setFrom] = useState(0);
  const [page, setPage] = useState(undefined);
  const [selected, setSelected] = useState(undefined);
  const [draft, setDraft] = useState('');
  const [newId, setNewId] = useState('');
  const [newType, setNewType] = useState('');
  const [mapping, setMapping] = useState(undefined);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');

  useEffect(() => {
    // the first index unless one was chosen meanwhile (the effect runs after the options appear)
    if (indices.length) setIndex((current) => (indices.includes(current) ? current : indices[0]));
  }, [indices]);
  useEffect(() => {
    // only while the Data page is the current entry: the list can arrive after a back or a link
    // took the tab elsewhere, and replacing that entry would show Data under another page's place
    if (index && location.hash.startsWith('#/data')) history.replaceState(null, '', `#/data/${enc(index)}`);
  }, [index]);
  // a new index: its fields (the columns offered), the first few shown, no sort, no filter
  useEffect(() => {
    // an index from the URL is looked at once the list says the credential may read it
    if (!index || !indices.includes(index)) return undefined;
    let current = true;
    setSelected(undefined);
    setDraft('');
    setMapping(undefined);
    setSort(undefined);
    setFilter('');
    setApplied('');
    setFrom(0);
    call(`/${enc(index)}/_mapping`).then((r) => {
      if (!current) return;
      const found = r.status === 200 ? fieldsOf(r.json) : [];
      setFields(found);
      setColumns(found.slice(0, FIRST_COLUMNS).map((f) => f.name));
    });
    return () => {
      current = false;
    };
  }, [index, indices]);

  // the newest load wins: an answer that comes late never replaces a later one's
  const latest = useRef(0);
  const load = async () => {
    if (!index || !canSearch || !indices.includes(index)) return;
    const ticket = ++latest.current;
    const search = (withTypes) => call(`/${enc(index)}/_search`, {
      method: 'POST',
      background: true,
      body: {
        from, size, track_total_hits: true,
        sort: [sort ? { [sort.sortBy]: { order: sort.order } } : '_doc', ...(withTypes ? [TYPE_SORT] : [])],
        ...(applied.trim() ? { query: { query_string: { query: applied.trim() } } } : {}),
      },
    });
    let r = await search(true);
    // a credential whose field rules allow only some fields may not sort on the type field: its
    // documents are then shown without their types (and it may only read what it may see)
    if (r.status === 403) r = await search(false);
    if (ticket !== latest.current) return;
    if (r.status !== 200) {
      setPage(undefined);
      return setError(reasonOf(r));
    }
    setError('');
    const hits = r.json.hits.hits.map((h) => ({ ...h, _type: h.sort?.[h.sort.length - 1] ?? h._type ?? '_doc' }));
    setPage({ total: r.json.hits.total.value, hits });
  };
  useEffect(() => {
    load();
  }, [index, indices, from, size, sort, applied]);

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
    const id = selected ? selected._id : newId.trim() || undefined;
    const type = selected ? selected._type : newType.trim();
    const r = await call(`${docPath(index, type, id)}?refresh=true`, { method: id === undefined ? 'POST' : 'PUT', body: doc });
    if (r.status >= 300) return setError(reasonOf(r));
    setError('');
    setMessage(`Document ${r.json._id} ${r.json.result}.`);
    setSelected({ _id: r.json._id, _type: r.json._type ?? type, _source: doc });
    await load();
  };
  const remove = async () => {
    const r = await call(`${docPath(index, selected._type, selected._id)}?refresh=true`, { method: 'DELETE' });
    if (r.status >= 300) return setError(reasonOf(r));
    setMessage(`Document ${selected._id} deleted.`);
    setSelected(undefined);
    setDraft('');
    await load();
  };
  const showMapping = async () => {
    const [m, st] = await Promise.all([call(`/${enc(index)}/_mapping`), readsSettings ? call(`/${enc(index)}/_settings`) : undefined]);
    if (m.status !== 200) return setError(reasonOf(m));
    if (st && st.status !== 200) return setError(reasonOf(st));
    setMapping({ mapping: m.json, settings: st?.json });
  };
  const sortOn = (field) => {
    setFrom(0);
    setSort((s) => (s?.field === field.name && s.order === 'asc' ? { field: field.name, sortBy: field.sortBy, order: 'desc' } : { field: field.name, sortBy: field.sortBy, order: 'asc' }));
  };
  const toggleColumn = (name) => setColumns((shown) => (shown.includes(name) ? shown.filter((c) => c !== name) : fields.map((f) => f.name).filter((f) => f === name || shown.includes(f))));
  const shownFields = fields.filter((f) => columns.includes(f.name));
  const typed = page?.hits.some((h) => h._type !== '_doc');

  return (
    <section aria-labelledby="data-title">
      <h2 id="data-title">Data</h2>
      <div class="pager">
        <label>
          Index
          <select value={index} onChange={(e) => setIndex(e.currentTarget.value)} name="index">
            {indices.map((i) => (
              <option key={i} value={i}>{i}</option>
            ))}
          </select>
        </label>
        {canSearch && (
          <form class="pager" onSubmit={(e) => { e.preventDefault(); setFrom(0); setApplied(filter); }}>
            <label>
              Filter (a query string, as genre:sf AND year:&gt;1960)
              <input name="data-filter" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
            </label>
            <button type="submit">Filter</button>
          </form>
        )}
      </div>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="data-message">{message}</p>}
      {fields.length > 0 && canSearch && (
        <fieldset class="columns">
          <legend>Columns</legend>
          {fields.map((f) => (
            <label class="inline" key={f.name}>
              <input type="checkbox" name="column" value={f.name} checked={columns.includes(f.name)} onChange={() => toggleColumn(f.name)} />
              {f.name}
            </label>
          ))}
        </fieldset>
      )}
      {index && !canSearch && (
        <div class="pager">
          <button type="button" onClick={showMapping}>Mapping{readsSettings ? ' and settings' : ''}</button>
        </div>
      )}
      {page && (
        <>
          <div class="scroll" role="region" aria-label="Documents table" tabindex={0}>
            <table>
              <caption>
                {index}: documents {page.total ? from + 1 : 0}–{Math.min(from + size, page.total)} of <span data-testid="doc-total">{page.total}</span>
                {applied.trim() ? ` matching ${applied.trim()}` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">_id</th>
                  {typed && <th scope="col">_type</th>}
                  {shownFields.map((f) => (
                    <th scope="col" key={f.name} data-testid="column" aria-sort={sort?.field === f.name ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined}>
                      {f.sortBy ? (
                        <button type="button" class="sort" onClick={() => sortOn(f)} aria-label={`Sort by ${f.name}`}>
                          {f.name}{sort?.field === f.name ? (sort.order === 'asc' ? ' ▲' : ' ▼') : ''}
                        </button>
                      ) : f.name}
                    </th>
                  ))}
                  {shownFields.length === 0 && <th scope="col">_source</th>}
                </tr>
              </thead>
              <tbody>
                {page.hits.map((h) => (
                  <tr key={h._id} data-testid="doc-row">
                    <th scope="row">
                      <button type="button" class="link" onClick={() => open(h)} aria-label={`Open document ${h._id}`}>{h._id}</button>
                    </th>
                    {typed && <td data-testid="doc-type">{h._type}</td>}
                    {shownFields.map((f) => <td class="source" key={f.name} data-testid={`cell-${f.name}`}>{cell(h._source, f.name)}</td>)}
                    {shownFields.length === 0 && <td class="source">{JSON.stringify(h._source)}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div class="pager">
            <button type="button" disabled={from === 0} onClick={() => setFrom(Math.max(0, from - size))}>Previous</button>
            <button type="button" disabled={from + size >= page.total} onClick={() => setFrom(from + size)}>Next</button>
            <label class="inline">
              Per page
              <select name="data-size" value={String(size)} onChange={(e) => { setFrom(0); setSize(Number(e.currentTarget.value)); }}>
                {SIZES.map((n) => <option key={n} value={String(n)}>{n}</option>)}
              </select>
            </label>
            {canWrite && <button type="button" onClick={() => { setSelected(undefined); setDraft('{\n}'); setNewId(''); setMessage(''); }}>Add a document</button>}
            <button type="button" onClick={showMapping}>Mapping{readsSettings ? ' and settings' : ''}</button>
          </div>
        </>
      )}
      {(selected || draft) && (
        <div class="editor">
          <h3>{selected ? `Document ${selected._id}${selected._type && selected._type !== '_doc' ? ` (type ${selected._type})` : ''}` : 'New document'}</h3>
          {!selected && (
            <div class="form-grid">
              <label>
                Id (empty: generated)
                <input name="new-id" value={newId} onInput={(e) => setNewId(e.currentTarget.value)} />
              </label>
              <label>
                Type (an app's: /app/type/id; empty: _doc)
                <input name="new-type" value={newType} onInput={(e) => setNewType(e.currentTarget.value)} />
              </label>
            </div>
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
    </section>
  );
}
