import { useEffect, useRef, useState } from 'preact/hooks';
import { call, reasonOf, stream } from './api.js';
import { useIndices } from './data.jsx';
import { allowedOrigins, may, originsOf } from './rights.js';

const enc = encodeURIComponent;
const NUMERIC = new Set(['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'unsigned_long', 'date']);

/** The index's fields by what a component can do with them (`GET /{index}/_mapping`). */
function fieldsOf(properties, prefix = '', out = { text: [], facet: [], range: [] }) {
  for (const [name, field] of Object.entries(properties ?? {})) {
    const path = prefix + name;
    if (field.properties) fieldsOf(field.properties, `${path}.`, out);
    if (field.type === 'text') {
      out.text.push(path);
      // a text field with a keyword sub-field is a facet too: the term component uses the sub-field
      if (Object.values(field.fields ?? {}).some((f) => f.type === 'keyword')) out.facet.push(path);
    } else if (field.type === 'keyword') out.facet.push(path);
    else if (NUMERIC.has(field.type)) out.range.push(path);
  }
  return out;
}

/** The component ids a UI's parts have. */
const SEARCH = 'search';
const SUGGEST = 'suggest';
const RESULTS = 'results';
const RANGE = 'range';
const facetId = (field) => `facet-${field.replace(/[^a-zA-Z0-9_-]/g, '_')}`;

/**
 * The declarative request a UI sends: a search box (its value, not executed itself), its
 * suggestions, a facet per chosen field, a range, and the result list that reacts to all of them;
 * each facet counts over everything but its own selection.
 */
export function declarativeRequest(ui, state) {
  const facets = ui.facets.map(facetId);
  const others = (self) => [SEARCH, ...facets, ...(ui.range ? [RANGE] : [])].filter((id) => id !== self);
  const query = [{ id: SEARCH, dataField: ui.search, value: state.text, execute: false }];
  if (ui.suggestions && state.text) query.push({ id: SUGGEST, type: 'suggestion', dataField: ui.search, value: state.text, size: 5 });
  for (const field of ui.facets) {
    const selected = state.selected[field] ?? [];
    query.push({ id: facetId(field), type: 'term', dataField: field, aggregationSize: 10, ...(selected.length ? { value: selected } : {}), react: { and: others(facetId(field)) } });
  }
  if (ui.range) {
    const { start, end } = state.range;
    const value = start !== '' || end !== '' ? { value: { ...(start !== '' ? { start: Number(start) } : {}), ...(end !== '' ? { end: Number(end) } : {}) } } : {};
    query.push({ id: RANGE, type: 'range', dataField: ui.range, aggregations: ['min', 'max'], ...value, react: { and: others(RANGE) } });
  }
  query.push({ id: RESULTS, dataField: ui.search, size: ui.size, react: { and: others(RESULTS) } });
  return { query };
}

/** Applies a live message's per-component changes to the answer shown (see README, Live declarative UIs). */
function applyChange(answer, change) {
  const next = { ...answer };
  for (const [id, part] of Object.entries(change)) {
    const before = answer[id];
    if (!before || !part?.hits?.hits || part.aggregations) {
      next[id] = { ...before, ...part };
      continue;
    }
    const same = (a, b) => a._index === b._index && a._id === b._id;
    let hits = before.hits?.hits ?? [];
    const entering = [];
    for (const hit of part.hits.hits) {
      if (hit._deleted) hits = hits.filter((h) => !same(h, hit));
      else if (hit._updated) hits = hits.map((h) => (same(h, hit) ? { ...hit, _fresh: true } : h));
      else entering.push({ ...hit, _fresh: true });
    }
    next[id] = { ...before, ...part, hits: { ...before.hits, ...part.hits, hits: [...entering, ...hits] } };
  }
  return next;
}

/** A hit's one-line label: the search fields' values, else its source. */
const labelOf = (hit, fields) => {
  const values = fields.map((f) => f.split('.').reduce((v, k) => v?.[k], hit._source)).filter((v) => v !== undefined && v !== null);
  return values.length ? values.map(String).join(' · ') : JSON.stringify(hit._source);
};

/** Ready-to-use code for the UI: a plain fetch, appbase-js, and ReactiveSearch's React components. */
function snippets(origin, index, username, ui, request) {
  const json = JSON.stringify(request, null, 2);
  const credentials = `${username}:PASSWORD`;
  const reactOf = (id) => JSON.stringify(request.query.find((c) => c.id === id)?.react ?? {});
  const fetchCode = `const res = await fetch('${origin}/${index}/_declarative', {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Basic ' + btoa('${credentials}') },
  body: JSON.stringify(${json.replace(/\n/g, '\n  ')}),
});
const answer = await res.json(); // keyed by component id: answer.${RESULTS}.hits.hits`;
  const appbaseCode = `import Appbase from 'appbase-js';

const app = Appbase({ url: '${origin}', app: '${index}', credentials: '${credentials}' });
const answer = await app.reactiveSearchv3(${JSON.stringify(request.query, null, 2)});`;
  const components = [
    `  <SearchBox componentId="${SEARCH}" dataField={${JSON.stringify(ui.search)}}${ui.suggestions ? '' : ' autosuggest={false}'} />`,
    ...ui.facets.map((f) => `  <MultiList componentId="${facetId(f)}" dataField="${f}" react={${reactOf(facetId(f))}} />`),
    ...(ui.range ? [`  <DynamicRangeSlider componentId="${RANGE}" dataField="${ui.range}" react={${reactOf(RANGE)}} />`] : []),
    `  <ReactiveList componentId="${RESULTS}" dataField="${ui.search[0] ?? ''}" size={${ui.size}} react={${reactOf(RESULTS)}}
    renderItem={(hit) => <div key={hit._id}>{JSON.stringify(hit._source)}</div>} />`,
  ];
  const used = ['ReactiveBase', 'SearchBox', ...(ui.facets.length ? ['MultiList'] : []), ...(ui.range ? ['DynamicRangeSlider'] : []), 'ReactiveList'];
  const reactCode = `import { ${used.join(', ')} } from '@appbaseio/reactivesearch';

<ReactiveBase url="${origin}" app="${index}" credentials="${credentials}">
${components.join('\n')}
</ReactiveBase>`;
  return [
    ['fetch', 'fetch', fetchCode],
    ['appbase', 'appbase-js', appbaseCode],
    ['react', 'ReactiveSearch (React)', reactCode],
  ];
}

function Copy({ text, label }) {
  const [done, setDone] = useState('');
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setDone('Copied.'),
      () => setDone('Copying is not allowed here: select the text.'),
    );
  return (
    <span>
      <button type="button" onClick={copy} aria-label={`Copy ${label}`}>Copy</button> <span role="status">{done}</span>
    </span>
  );
}

/**
 * Search preview: compose a search UI from the index's fields (a search box with suggestions,
 * facets, a range, a result list), use it live (`/{index}/_declarative?stream=true`: every write
 * that concerns it shows at once), and see the declarative request, the engine request it
 * becomes (`/_declarative/validate`) and code that sends it.
 */
/**
 * Where a browser app may call from: with the signed-in credential, the origins its referers allow;
 * for a credential that manages credentials, also the origins the index's own credentials allow
 * (`GET /{index}/_credentials`). The gateway answers those origins with CORS headers.
 */
function AllowedOrigins({ me, index }) {
  const own = allowedOrigins(me);
  const [issued, setIssued] = useState([]);
  useEffect(() => {
    setIssued([]);
    if (!index || !may(me, 'credentials')) return undefined;
    let current = true;
    call(`/${enc(index)}/_credentials`).then((r) => {
      if (!current || r.status !== 200) return;
      setIssued(r.json.credentials.flatMap((c) => originsOf(c.referers).map((origin) => ({ origin, username: c.username }))));
    });
    return () => {
      current = false;
    };
  }, [index]);
  return (
    <div data-testid="allowed-origins">
      <p>
        {own.length
          ? <>A browser app may call with {me.username} from <strong data-testid="own-origins">{own.join(', ')}</strong> (its referers): the gateway answers those origins with CORS headers.</>
          : <>{me.username} names no referers: a browser app on another origin may call with it only from an origin in CORS_ORIGINS.</>}
      </p>
      {issued.length > 0 && (
        <p>
          Browser apps may call {index} from{' '}
          {issued.map(({ origin, username }, i) => (
            <span key={`${origin}-${username}`}>
              {i > 0 && ', '}
              <strong data-testid="index-origin">{origin}</strong> (with {username})
            </span>
          ))}
          .
        </p>
      )}
    </div>
  );
}

export function SearchBuilder({ me }) {
  const indices = useIndices();
  const [index, setIndex] = useState('');
  const [fields, setFields] = useState(undefined);
  const [ui, setUi] = useState({ search: [], suggestions: true, facets: [], range: '', size: 10 });
  const [state, setState] = useState({ text: '', selected: {}, range: { start: '', end: '' } });
  const [answer, setAnswer] = useState(undefined);
  const [engine, setEngine] = useState(undefined);
  const [live, setLive] = useState('closed');
  const [error, setError] = useState('');
  const abort = useRef(undefined);

  useEffect(() => {
    if (indices.length) setIndex((current) => current || indices[0]);
  }, [indices]);
  useEffect(() => {
    if (!index) return undefined;
    let current = true;
    setFields(undefined);
    call(`/${enc(index)}/_mapping`).then((r) => {
      if (!current) return; // another index was chosen meanwhile
      if (r.status !== 200) return setError(reasonOf(r));
      const found = fieldsOf(r.json[index]?.mappings?.properties);
      setFields(found);
      setUi((u) => ({ ...u, search: found.text.slice(0, 1), facets: [], range: '' }));
      setState({ text: '', selected: {}, range: { start: '', end: '' } });
    });
    return () => {
      current = false;
    };
  }, [index]);

  const request = fields && ui.search.length ? declarativeRequest(ui, state) : undefined;
  const requestText = request ? JSON.stringify(request) : '';
  useEffect(() => {
    if (!request) return undefined;
    // typing opens a new stream once the keys rest for a moment; the last one stays open
    const timer = setTimeout(() => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      setLive('opening');
      let first = true;
      stream(`/${enc(index)}/_declarative?stream=true`, request, {
        signal: controller.signal,
        onOpen: () => setLive('live'),
        onMessage: (message) => {
          setError('');
          if (first) setAnswer(message);
          else setAnswer((shown) => applyChange(shown ?? {}, message));
          first = false;
        },
      })
        .then(() => controller.signal.aborted || setLive('closed'))
        .catch((err) => {
          if (err.name === 'AbortError') return;
          setError(err.message);
          setLive('closed');
        });
      call(`/${enc(index)}/_declarative/validate`, { method: 'POST', body: request }).then((r) => setEngine(r.status === 200 ? r.json : { error: reasonOf(r) }));
    }, 150);
    return () => clearTimeout(timer);
  }, [index, requestText]);
  useEffect(() => () => abort.current?.abort(), []);

  const toggle = (list, value) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
  const select = (field, key) => setState((s) => ({ ...s, selected: { ...s.selected, [field]: toggle(s.selected[field] ?? [], key) } }));
  const buckets = (id) => Object.values(answer?.[id]?.aggregations ?? {}).find((a) => Array.isArray(a?.buckets))?.buckets ?? [];

  return (
    <section aria-labelledby="builder-title">
      <h2 id="builder-title">Search preview</h2>
      <form class="editor" onSubmit={(e) => e.preventDefault()}>
        <label>
          Index
          <select name="builder-index" value={index} onChange={(e) => setIndex(e.currentTarget.value)}>
            {indices.map((i) => (
              <option key={i} value={i}>{i}</option>
            ))}
          </select>
        </label>
        {fields && (
          <>
            <fieldset>
              <legend>Search box: fields searched</legend>
              {fields.text.map((f) => (
                <label class="inline" key={f}>
                  <input type="checkbox" name="search-field" value={f} checked={ui.search.includes(f)} onChange={() => setUi((u) => ({ ...u, search: toggle(u.search, f) }))} />
                  {f}
                </label>
              ))}
              <label class="inline">
                <input type="checkbox" name="suggestions" checked={ui.suggestions} onChange={() => setUi((u) => ({ ...u, suggestions: !u.suggestions }))} />
                suggestions as you type
              </label>
            </fieldset>
            <fieldset>
              <legend>Facets</legend>
              {fields.facet.map((f) => (
                <label class="inline" key={f}>
                  <input type="checkbox" name="facet-field" value={f} checked={ui.facets.includes(f)} onChange={() => setUi((u) => ({ ...u, facets: toggle(u.facets, f) }))} />
                  {f}
                </label>
              ))}
            </fieldset>
            <label>
              Range
              <select name="range-field" value={ui.range} onChange={(e) => setUi((u) => ({ ...u, range: e.currentTarget.value }))}>
                <option value="">none</option>
                {fields.range.map((f) => (
                  <option key={f} value={f}>{f}</option>
                ))}
              </select>
            </label>
            <label>
              Results per page
              <input name="result-size" type="number" min={1} max={100} value={ui.size} onInput={(e) => setUi((u) => ({ ...u, size: Math.max(1, Number(e.currentTarget.value) || 10) }))} />
            </label>
          </>
        )}
      </form>
      {fields && !fields.text.length && <p>This index has no text field to search.</p>}
      {error && <p role="alert" class="error">{error}</p>}
      <AllowedOrigins me={me} index={index} />
      {request && (
        <div class="builder">
          <div class="preview-ui" aria-label="The search UI">
            <label>
              Search
              <input name="preview-search" type="search" value={state.text} onInput={(e) => setState((s) => ({ ...s, text: e.currentTarget.value }))} autocomplete="off" />
            </label>
            {ui.suggestions && state.text && (
              <ul class="suggestions" aria-label="Suggestions">
                {(answer?.[SUGGEST]?.hits?.hits ?? []).map((s, i) => (
                  <li key={`${s.value}-${i}`}>
                    <button type="button" class="link" data-testid="suggestion" onClick={() => setState((st) => ({ ...st, text: String(s.value) }))}>{String(s.value)}</button>
                  </li>
                ))}
              </ul>
            )}
            {ui.facets.map((f) => (
              <fieldset key={f} data-testid={`facet-${f}`}>
                <legend>{f}</legend>
                {buckets(facetId(f)).map((b) => (
                  <label class="inline" key={b.key}>
                    <input type="checkbox" name={`facet-value-${f}`} value={String(b.key)} checked={(state.selected[f] ?? []).includes(b.key)} onChange={() => select(f, b.key)} />
                    <span data-testid="facet-value">{`${b.key_as_string ?? b.key} (${b.doc_count})`}</span>
                  </label>
                ))}
              </fieldset>
            ))}
            {ui.range && (
              <fieldset>
                <legend>{ui.range}</legend>
                <label class="inline">
                  from
                  <input name="range-start" type="number" placeholder={answer?.[RANGE]?.aggregations?.min?.value ?? ''} value={state.range.start} onInput={(e) => setState((s) => ({ ...s, range: { ...s.range, start: e.currentTarget.value } }))} />
                </label>
                <label class="inline">
                  to
                  <input name="range-end" type="number" placeholder={answer?.[RANGE]?.aggregations?.max?.value ?? ''} value={state.range.end} onInput={(e) => setState((s) => ({ ...s, range: { ...s.range, end: e.currentTarget.value } }))} />
                </label>
              </fieldset>
            )}
            <p>
              <span data-testid="result-total">{answer?.[RESULTS]?.hits?.total?.value ?? 0}</span> results{' '}
              <span role="status" data-testid="builder-live">{live}</span>
            </p>
            <ol class="messages" aria-live="polite">
              {(answer?.[RESULTS]?.hits?.hits ?? []).map((hit) => (
                <li key={`${hit._index}/${hit._id}`} class={hit._fresh ? 'fresh' : ''} data-testid="result">
                  {labelOf(hit, ui.search)}
                </li>
              ))}
            </ol>
          </div>
          <details open>
            <summary>The declarative request</summary>
            <pre data-testid="declarative-request">{JSON.stringify(request, null, 2)}</pre>
          </details>
          <details>
            <summary>The engine request it becomes</summary>
            <pre data-testid="engine-request">{engine ? JSON.stringify(engine.error ? engine : { method: engine.method, path: engine.path, body: engine.body }, null, 2) : ''}</pre>
          </details>
          {snippets(location.origin, index, me.username, ui, request).map(([id, title, code]) => (
            <details key={id}>
              <summary>{title}</summary>
              <Copy text={code} label={title} />
              <pre data-testid={`snippet-${id}`}>{code}</pre>
            </details>
          ))}
        </div>
      )}
    </section>
  );
}
