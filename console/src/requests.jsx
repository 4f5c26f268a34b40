import { useState } from 'preact/hooks';
import { call } from './api.js';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH'];
/** Requests kept in the history, newest first. */
const HISTORY_SIZE = 50;
const historyKey = (me) => `search-gateway-requests:${me.username}`;

/** The APIs whose body is NDJSON (one JSON value a line), as Elasticsearch's. */
const NDJSON_ENDPOINTS = new Set(['_bulk', '_msearch', '_mget_ndjson']);
const isNdjson = (path) => {
  const segments = path.split('?')[0].split('/').filter(Boolean);
  return segments.some((s) => NDJSON_ENDPOINTS.has(s)) || (segments.includes('_msearch') && segments.includes('template'));
};

/** Where a JSON text stops being JSON, as "line L, column C: reason" (V8 says the offset). */
function jsonProblem(text) {
  try {
    JSON.parse(text);
    return '';
  } catch (err) {
    const at = /position (\d+)/.exec(err.message);
    if (!at) return err.message;
    const before = text.slice(0, Number(at[1]));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return `line ${line}, column ${column}: ${err.message.replace(/ in JSON at position \d+.*$/, '')}`;
  }
}

/** What is wrong with a body for that path ('' when nothing is): JSON, or NDJSON line by line. */
export function bodyProblem(path, text) {
  if (!text.trim()) return '';
  if (!isNdjson(path)) return jsonProblem(text);
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    const problem = jsonProblem(lines[i]);
    if (problem) return `line ${i + 1} (NDJSON: one JSON value a line): ${problem.replace(/^line 1, /, '')}`;
  }
  return '';
}

/** A body that names a secret (a password, a token…) is not kept in the history: it stays in this browser. */
const SECRET_MEMBER = /"[^"]*(password|secret|token|api_key|authorization)[^"]*"\s*:/i;

function loadHistory(me) {
  try {
    const kept = JSON.parse(localStorage.getItem(historyKey(me)) ?? '[]');
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

/** An answer's text as shown: JSON indented, anything else as it came. */
const shown = (answer) => (answer.json === undefined ? answer.text : JSON.stringify(answer.json, null, 2));

/**
 * The request panel (as Kibana's Dev Tools console): any method, path and body sent to the
 * gateway with the signed-in credential — through the same access rules as any client's, and
 * recorded in the request logs as any client's request — the body checked as JSON (NDJSON for
 * `_bulk` and `_msearch`) before it is sent, the answer with its status and time, and the
 * requests sent before (this browser's, per username) to send again.
 */
export function RequestPanel({ me }) {
  const [method, setMethod] = useState('GET');
  const [path, setPath] = useState('/_cat/indices?v');
  const [body, setBody] = useState('');
  const [answer, setAnswer] = useState(undefined);
  const [busy, setBusy] = useState(false);
  const [history, setHistory] = useState(() => loadHistory(me));
  const hasBody = body.trim() !== '';
  // fetch sends no body with GET or HEAD; Elasticsearch's search APIs take POST alike
  const problem = hasBody && (method === 'GET' || method === 'HEAD')
    ? `a browser sends no body with ${method}: use POST (the search APIs take either)`
    : bodyProblem(path, body);

  const keep = (list) => {
    setHistory(list);
    localStorage.setItem(historyKey(me), JSON.stringify(list));
  };
  const send = async (event) => {
    event?.preventDefault();
    if (problem || busy) return;
    // the gateway's own paths only: the page may talk to nothing else (its CSP says so too)
    const target = path.trim().startsWith('/') ? path.trim() : `/${path.trim()}`;
    setBusy(true);
    const r = await call(target, {
      method,
      body: hasBody ? body : undefined,
      contentType: isNdjson(target) ? 'application/x-ndjson' : 'application/json',
      background: false,
    }).catch((err) => ({ status: 0, text: String(err.message), json: undefined, took: 0 }));
    setBusy(false);
    setAnswer({ ...r, method, path: target });
    const secret = hasBody && SECRET_MEMBER.test(body);
    const entry = { method, path: target, body: hasBody && !secret ? body : '', secret, status: r.status, at: Date.now() };
    keep([entry, ...history.filter((h) => h.method !== method || h.path !== target || h.body !== entry.body)].slice(0, HISTORY_SIZE));
  };
  const format = () => {
    if (problem || !hasBody) return;
    setBody(isNdjson(path)
      ? body.split('\n').filter((l) => l.trim()).map((l) => JSON.stringify(JSON.parse(l))).join('\n') + '\n'
      : JSON.stringify(JSON.parse(body), null, 2));
  };
  const restore = (h) => {
    setMethod(h.method);
    setPath(h.path);
    setBody(h.body);
  };

  return (
    <section aria-labelledby="requests-title">
      <h2 id="requests-title">Requests</h2>
      <p>Sent with your credential ({me.username}), through the same access rules as any client's request, and logged as one.</p>
      <form class="request" onSubmit={send}>
        <div class="request-line">
          <label>
            Method
            <select name="request-method" value={method} onChange={(e) => setMethod(e.currentTarget.value)}>
              {METHODS.map((m) => <option key={m} value={m}>{m}</option>)}
            </select>
          </label>
          <label class="grow">
            Path
            <input name="request-path" value={path} onInput={(e) => setPath(e.currentTarget.value)} spellcheck={false} autocomplete="off" required />
          </label>
        </div>
        <label>
          Body{isNdjson(path) ? ' (NDJSON: one JSON value a line)' : ' (JSON)'}
          <textarea
            name="request-body"
            rows={10}
            value={body}
            spellcheck={false}
            aria-invalid={problem ? 'true' : undefined}
            aria-describedby="request-body-check"
            onInput={(e) => setBody(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) send(e);
            }}
          />
        </label>
        <p id="request-body-check" data-testid="body-check" class={problem ? 'error' : 'ok'}>
          {problem ? `Not sent: ${problem}` : hasBody ? 'Valid JSON.' : 'No body.'}
        </p>
        <div class="pager">
          <button type="submit" disabled={Boolean(problem) || busy}>Send</button>
          <button type="button" onClick={format} disabled={Boolean(problem) || !hasBody}>Format</button>
        </div>
      </form>
      {answer && (
        <div class="editor" aria-live="polite">
          <h3>
            Answer: <span data-testid="answer-status" class={answer.status >= 400 || answer.status === 0 ? 'error' : undefined}>{answer.status || 'no answer'}</span>
            {' '}<span class="muted">in {answer.took} ms (<span data-testid="answer-request">{answer.method} {answer.path}</span>)</span>
          </h3>
          <pre data-testid="answer-body">{shown(answer)}</pre>
        </div>
      )}
      <h3>History</h3>
      {history.length === 0 ? <p>No requests sent yet.</p> : (
        <>
          <ol class="history">
            {history.map((h) => (
              <li key={`${h.at}-${h.method}-${h.path}`} data-testid="history-entry">
                <button type="button" class="link" onClick={() => restore(h)} aria-label={`Load ${h.method} ${h.path}`}>
                  {h.method} {h.path}
                </button>{' '}
                <span class={h.status >= 400 ? 'error' : 'muted'}>{h.status}</span>
                {h.secret && <span class="muted"> (its body named a secret: not kept)</span>}
              </li>
            ))}
          </ol>
          <button type="button" onClick={() => keep([])}>Clear history</button>
        </>
      )}
    </section>
  );
}
