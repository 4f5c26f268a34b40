import { useEffect, useRef, useState } from 'preact/hooks';
import { stream } from './api.js';
import { useIndices } from './data.jsx';
import { may } from './rights.js';

const EXAMPLES = {
  search: JSON.stringify({ query: { match_all: {} } }, null, 2),
  declarative: JSON.stringify({ query: [{ id: 'results', dataField: ['*'], value: '', size: 10 }] }, null, 2),
};

/**
 * Live view: a stream (NDJSON) of a search (`POST /{index}/_search?stream=true`; with `aggs`,
 * live aggregations), of a document (`GET /{index}/_doc/{id}?stream=true`) or of a declarative
 * search UI (`POST /{index}/_declarative?stream=true`): its first answer and every change as it
 * arrives, newest first and highlighted.
 */
export function LiveView({ me }) {
  const indices = useIndices();
  // the streams it may open: search and document streams are `streams`, a declarative UI's `declarative`
  const kinds = [
    ...(may(me, 'streams') ? [['search', 'a search (with aggregations: live counts)'], ['document', 'a document']] : []),
    ...(may(me, 'declarative') ? [['declarative', 'a declarative search UI']] : []),
  ];
  const [index, setIndex] = useState('');
  const [kind, setKind] = useState(kinds[0]?.[0] ?? 'search');
  const [bodies, setBodies] = useState(EXAMPLES);
  const [id, setId] = useState('');
  const [messages, setMessages] = useState([]);
  const [state, setState] = useState('closed');
  const [error, setError] = useState('');
  const abort = useRef(undefined);
  useEffect(() => {
    // the first index unless one was chosen meanwhile (the effect runs after the options appear)
    if (indices.length) setIndex((current) => current || indices[0]);
  }, [indices]);
  useEffect(() => () => abort.current?.abort(), []);

  const open = async (event) => {
    event.preventDefault();
    abort.current?.abort();
    let body;
    try {
      body = kind === 'document' ? undefined : JSON.parse(bodies[kind]);
    } catch (err) {
      return setError(`The request is not JSON: ${err.message}`);
    }
    const at = `/${encodeURIComponent(index)}`;
    const path = kind === 'document' ? `${at}/_doc/${encodeURIComponent(id)}` : kind === 'declarative' ? `${at}/_declarative` : `${at}/_search`;
    const controller = new AbortController();
    abort.current = controller;
    setMessages([]);
    setError('');
    setState('opening');
    try {
      let n = 0;
      await stream(`${path}?stream=true`, body, {
        signal: controller.signal,
        onOpen: () => setState('live'),
        onMessage: (message) => {
          const key = n++;
          setMessages((ms) => [{ key, message, first: key === 0 }, ...ms].slice(0, 200));
        },
      });
      setState('closed');
    } catch (err) {
      if (err.name !== 'AbortError') setError(err.message);
      setState('closed');
    }
  };
  const close = () => {
    abort.current?.abort();
    setState('closed');
  };

  return (
    <section aria-labelledby="live-title">
      <h2 id="live-title">Live view</h2>
      <form onSubmit={open}>
        <label>
          Index
          <select value={index} onChange={(e) => setIndex(e.currentTarget.value)} name="live-index">
            {indices.map((i) => (
              <option key={i} value={i}>{i}</option>
            ))}
          </select>
        </label>
        <label>
          Stream
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value)} name="live-kind">
            {kinds.map(([value, label]) => (
              <option key={value} value={value}>{label}</option>
            ))}
          </select>
        </label>
        {kind === 'document' ? (
          <label>
            Document id
            <input name="live-id" required value={id} onInput={(e) => setId(e.currentTarget.value)} />
          </label>
        ) : (
          <label>
            {kind === 'search' ? 'Search body' : 'Declarative request'}
            <textarea name="live-body" rows={6} value={bodies[kind]} onInput={(e) => setBodies({ ...bodies, [kind]: e.currentTarget.value })} />
          </label>
        )}
        <div class="pager">
          <button type="submit">{state === 'live' ? 'Reopen' : 'Open stream'}</button>
          <button type="button" onClick={close} disabled={state === 'closed'}>Close</button>
          <span data-testid="stream-state" role="status">{state}</span>
        </div>
      </form>
      {error && <p role="alert" class="error">{error}</p>}
      <ol class="messages" aria-live="polite">
        {messages.map(({ key, message, first }, i) => (
          <li key={key} class={i === 0 && !first ? 'fresh' : ''} data-testid={first ? 'stream-first' : 'stream-change'}>
            {first ? describeFirst(message) : describe(message)}
          </li>
        ))}
      </ol>
    </section>
  );
}

function describeFirst(m) {
  if (m.hits) return `result: ${m.hits.total?.value ?? 0} hits${m.aggregations ? `, aggregations: ${JSON.stringify(m.aggregations)}` : ''}`;
  if (m._id !== undefined) return m.found ? `document ${m._id}: ${JSON.stringify(m._source)}` : `document ${m._id}: not found`;
  return `answer: ${Object.keys(m).filter((k) => k !== 'settings').join(', ')}`;
}

/** A change: a document's, new aggregations, or a declarative UI's components that changed. */
function describe(m) {
  if (m._deleted) return `${m._id} deleted`;
  if (m._id !== undefined) return `${m._id} ${m._updated ? 'updated' : 'new'}: ${JSON.stringify(m._source)}`;
  if (m.aggregations) return `${m.hits?.total ? `${m.hits.total.value} hits, ` : ''}aggregations: ${JSON.stringify(m.aggregations)}`;
  return Object.entries(m)
    .map(([component, part]) => `${component}: ${part.hits?.hits ? part.hits.hits.map((h) => `${h._id} ${h._deleted ? 'left' : h._updated ? 'updated' : 'entered'}`).join(', ') : ''}${part.aggregations ? ` aggregations ${JSON.stringify(part.aggregations)}` : ''}`.trim())
    .join('; ');
}
