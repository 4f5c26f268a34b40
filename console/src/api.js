// The gateway's public APIs, with the signed-in credential (kept in sessionStorage only).
const KEY = 'search-gateway-auth';

export const savedAuth = () => sessionStorage.getItem(KEY);
export const forget = () => sessionStorage.removeItem(KEY);
export const remember = (auth) => sessionStorage.setItem(KEY, auth);
export const basic = (username, password) => 'Basic ' + btoa(unescape(encodeURIComponent(`${username}:${password}`)));

/**
 * How the console marks the reads it makes on its own (its polling, the lists a page loads): the
 * gateway still records them, and the Logs page leaves them out (`background=false`), so what it
 * shows is the user's traffic, not the console's.
 */
const BACKGROUND = { 'x-gateway-console': 'background' };

/**
 * A call to the gateway: `{status, json, text, took}` (json undefined when the answer is not JSON;
 * took in ms). A body is sent as JSON, as it is when a string (`contentType` says what it is), or
 * as multipart/form-data when it is a FormData. `background`: one of the console's own reads (by
 * default every GET); what the user sends (a write, the request panel) is not.
 */
export async function call(path, { method = 'GET', body, auth = savedAuth(), background = method === 'GET', contentType = 'application/json' } = {}) {
  const headers = background ? { ...BACKGROUND } : {};
  if (auth) headers.authorization = auth;
  const form = body instanceof FormData;
  const raw = form || typeof body === 'string';
  if (body !== undefined && !form) headers['content-type'] = contentType;
  const started = performance.now();
  // `credentials: 'omit'`: the Authorization header is the credential; no cookie, and a 401 comes
  // back to the console instead of opening the browser's own sign-in dialog
  const res = await fetch(path, { method, headers, body: body === undefined || raw ? body : JSON.stringify(body), credentials: 'omit' });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, took: Math.round(performance.now() - started) };
}

/** An Elasticsearch error's reason, or the status. */
export const reasonOf = (r) => r.json?.error?.reason ?? `the gateway answered ${r.status}`;

/**
 * A live stream (`?stream=true`, NDJSON; a POST of `body`, a GET without): `onMessage` for each message as it arrives. Resolves
 * when the stream ends or `signal` aborts it; an answer other than 200 (a 4xx before any stream)
 * is thrown as an Error with the gateway's reason. `onOpen` is called once the stream is open.
 */
export async function stream(path, body, { signal, onOpen = () => {}, onMessage }) {
  // a document stream is a GET: no body
  const headers = { authorization: savedAuth(), accept: 'application/x-ndjson' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    credentials: 'omit',
    signal,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status !== 200) {
    const json = await res.json().catch(() => undefined);
    throw new Error(reasonOf({ status: res.status, json }));
  }
  onOpen();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) onMessage(JSON.parse(line)); // an empty line is a heartbeat
    }
  }
}
