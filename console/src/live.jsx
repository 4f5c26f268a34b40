import { useEffect, useRef, useState } from 'preact/hooks';
import { savedAuth } from './api.js';
import { useIndices } from './data.jsx';

/**
 * Live view: a search stream (`POST /{index}/_search?stream=true`, NDJSON), its first answer and
 * every change as it arrives, newest first and highlighted.
 */
export function LiveView() {
  const indices = useIndices();
  const [index, setIndex] = useState('');
  const [query, setQuery] = useState('{"match_all": {}}');
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
    let parsed;
    try {
      parsed = JSON.parse(query);
    } catch (err) {
      return setError(`The query is not JSON: ${err.message}`);
    }
    const controller = new AbortController();
    abort.current = controller;
    setMessages([]);
    setError('');
    setState('opening');
    try {
      const res = await fetch(`/${encodeURIComponent(index)}/_search?stream=true`, {
        method: 'POST',
        credentials: 'omit',
        signal: controller.signal,
        headers: { authorization: savedAuth(), 'content-type': 'application/json', accept: 'application/x-ndjson' },
        body: JSON.stringify({ query: parsed }),
      });
      if (res.status !== 200) {
        const body = await res.json().catch(() => undefined);
        setState('closed');
        return setError(body?.error?.reason ?? `the gateway answered ${res.status}`);
      }
      setState('live');
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      let n = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let newline;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (!line) continue; // a heartbeat
          const message = JSON.parse(line);
          const key = n++;
          setMessages((ms) => [{ key, message, first: key === 0 }, ...ms].slice(0, 200));
        }
      }
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
          Query
          <textarea name="live-query" rows={3} value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        </label>
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
            {first ? `result: ${message.hits?.total?.value ?? 0} hits` : describe(message)}
          </li>
        ))}
      </ol>
    </section>
  );
}

function describe(m) {
  if (m._deleted) return `${m._id} deleted`;
  if (m._id !== undefined) return `${m._id} ${m._updated ? 'updated' : 'new'}: ${JSON.stringify(m._source)}`;
  if (m.aggregations) return `aggregations: ${JSON.stringify(m.aggregations)}`;
  return JSON.stringify(m);
}
