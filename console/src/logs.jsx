import { useEffect, useRef, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';
import { usePolling } from './polling.js';
import { useIndices } from './data.jsx';

const enc = encodeURIComponent;

/** `filter`'s values (README "Request logs"); '' lists every request. */
const FILTERS = [
  ['', 'All'], ['search', 'Searches'], ['suggestion', 'Suggestions'], ['index', 'Writes'], ['delete', 'Deletes'],
  ['error', 'Failed (400 and above)'], ['success', 'Succeeded'],
];
const SIZES = ['20', '50', '100'];
const NO_FILTER = { filter: '', index: '', start_latency: '', order_by_latency: '', start_date: '', end_date: '', size: '20', own: false };
/** The records reachable by paging: `from + size` at most 10,000. */
const WINDOW = 10_000;

/** `datetime-local`'s value (local time) as epoch milliseconds, which `/_logs` takes. */
const epochMs = (local) => String(new Date(local).getTime());

/** `/_logs/search` (or `/{index}/_logs/search`): `/_logs` with the latency filter and order. */
function logsPath(q, from) {
  const params = new URLSearchParams({ from: String(from), size: q.size });
  // the console's own polling and page loads (api.js marks them) are not the traffic looked for
  if (!q.own) params.set('background', 'false');
  for (const name of ['filter', 'start_latency', 'order_by_latency']) if (q[name]) params.set(name, q[name]);
  for (const name of ['start_date', 'end_date']) if (q[name]) params.set(name, epochMs(q[name]));
  return `${q.index ? `/${enc(q.index)}` : ''}/_logs/search?${params}`;
}

/**
 * Request logs: the newest requests (or the slowest) with filters, a page at a time, refreshed
 * every 5 s unless told not to; one opened shows its whole record (`GET /_log/{id}`). The
 * console's own background requests are left out unless asked for.
 */
export function LogsPage() {
  const indices = useIndices();
  const [query, setQuery] = useState(NO_FILTER);
  const [from, setFrom] = useState(0);
  const [auto, setAuto] = useState(true);
  const [reloads, setReloads] = useState(0);
  const [page, setPage] = useState(undefined);
  const [record, setRecord] = useState(undefined);
  const [error, setError] = useState('');
  const recordTitle = useRef(undefined);
  usePolling(async (stale) => {
    const r = await call(logsPath(query, from));
    if (stale()) return;
    if (r.status !== 200) {
      setPage(undefined);
      return setError(reasonOf(r));
    }
    setError('');
    setPage(r.json);
  }, [query, from, auto, reloads], auto ? 5000 : 0);
  useEffect(() => recordTitle.current?.focus(), [record]);

  const change = (name) => (event) => {
    const value = event.currentTarget.value;
    setFrom(0);
    setQuery((q) => ({ ...q, [name]: value }));
  };
  const open = async (id) => {
    const r = await call(`/_log/${enc(id)}`);
    if (r.status !== 200) return setError(reasonOf(r));
    setError('');
    setRecord(r.json.log);
  };
  const size = Number(query.size);
  const last = page ? Math.min(page.total, WINDOW) : 0;

  return (
    <section aria-labelledby="logs-title">
      <h2 id="logs-title">Request logs</h2>
      <fieldset>
        <legend>Which requests</legend>
        <label>
          Kind
          <select name="logs-filter" value={query.filter} onChange={change('filter')}>
            {FILTERS.map(([value, label]) => (
              <option key={value} value={value}>{label}</option>
            ))}
          </select>
        </label>
        <label>
          Index
          <select name="logs-index" value={query.index} onChange={change('index')}>
            <option value="">All indices</option>
            {indices.map((i) => (
              <option key={i} value={i}>{i}</option>
            ))}
          </select>
        </label>
        <label>
          Took at least (ms)
          <input name="start-latency" type="number" min="0" value={query.start_latency} onInput={change('start_latency')} />
        </label>
        <label>
          From
          <input name="start-date" type="datetime-local" value={query.start_date} onInput={change('start_date')} />
        </label>
        <label>
          To
          <input name="end-date" type="datetime-local" value={query.end_date} onInput={change('end_date')} />
        </label>
        <label>
          Order
          <select name="logs-order" value={query.order_by_latency} onChange={change('order_by_latency')}>
            <option value="">Newest first</option>
            <option value="desc">Slowest first</option>
            <option value="asc">Fastest first</option>
          </select>
        </label>
        <label class="inline">
          <input type="checkbox" name="logs-own" checked={query.own} onChange={(e) => { const own = e.currentTarget.checked; setFrom(0); setQuery((q) => ({ ...q, own })); }} />
          Show your console's own requests
        </label>
        <label>
          Per page
          <select name="logs-size" value={query.size} onChange={change('size')}>
            {SIZES.map((s) => (
              <option key={s} value={s}>{s}</option>
            ))}
          </select>
        </label>
      </fieldset>
      <div class="pager">
        <button type="button" onClick={() => setReloads((n) => n + 1)}>Refresh</button>
        <label class="inline">
          <input type="checkbox" name="auto-refresh" checked={auto} onChange={(e) => setAuto(e.currentTarget.checked)} />
          Refresh every 5 s
        </label>
      </div>
      {error && <p role="alert" class="error">{error}</p>}
      {record && (
        <div class="editor">
          <h3 tabIndex={-1} ref={recordTitle}>Request {record.id}</h3>
          <pre data-testid="log-record">{JSON.stringify(record, null, 2)}</pre>
          <div class="pager">
            <button type="button" onClick={() => setRecord(undefined)}>Close</button>
          </div>
        </div>
      )}
      {page && (
        <>
          {/* a phone scrolls the table, not the page (focusable, so the keyboard scrolls it too) */}
          <div class="scroll" role="region" aria-label="Requests table" tabindex={0}>
          <table>
            <caption>
              Requests {page.logs.length ? from + 1 : 0}–{from + page.logs.length} of <span data-testid="logs-total">{page.total}</span>
              {page.requests > page.total && <> records, standing for <span data-testid="logs-requests">{page.requests}</span> requests (fast reads are sampled)</>}
            </caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Method</th>
                <th scope="col">Path</th>
                <th scope="col">Status</th>
                <th scope="col">Took (ms)</th>
                <th scope="col">User</th>
                <th scope="col">Category</th>
              </tr>
            </thead>
            <tbody>
              {page.logs.map((l) => (
                <tr key={l.id} data-testid="log-row">
                  <th scope="row">
                    {/* the accessible name starts with the text shown (WCAG 2.5.3: what is seen is what is said) */}
                    <button type="button" class="link" onClick={() => open(l.id)} aria-label={`${new Date(l.time).toLocaleString()}: open request ${l.id}`}>
                      {new Date(l.time).toLocaleString()}
                    </button>
                  </th>
                  <td>{l.method}</td>
                  <td class="source" data-testid="log-path">{l.querystring ? `${l.path}?${l.querystring}` : l.path}</td>
                  <td class={l.status >= 400 ? 'error' : undefined} data-testid="log-status">{l.status}</td>
                  <td>{l.took}</td>
                  <td>{l.user}</td>
                  <td>{l.category}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
          <div class="pager">
            <button type="button" disabled={from === 0} onClick={() => setFrom(Math.max(0, from - size))}>Previous</button>
            <button type="button" disabled={from + size >= last} onClick={() => setFrom(from + size)}>Next</button>
          </div>
        </>
      )}
    </section>
  );
}
