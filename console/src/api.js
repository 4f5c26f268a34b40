// The gateway's public APIs, with the signed-in credential (kept in sessionStorage only).
const KEY = 'search-gateway-auth';

export const savedAuth = () => sessionStorage.getItem(KEY);
export const forget = () => sessionStorage.removeItem(KEY);
export const remember = (auth) => sessionStorage.setItem(KEY, auth);
export const basic = (username, password) => 'Basic ' + btoa(unescape(encodeURIComponent(`${username}:${password}`)));

/** A call to the gateway: `{status, json}` (json undefined when the answer is not JSON). */
export async function call(path, { method = 'GET', body, auth = savedAuth() } = {}) {
  const headers = {};
  if (auth) headers.authorization = auth;
  if (body !== undefined) headers['content-type'] = 'application/json';
  // `credentials: 'omit'`: the Authorization header is the credential; no cookie, and a 401 comes
  // back to the console instead of opening the browser's own sign-in dialog
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit' });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json };
}

/** An Elasticsearch error's reason, or the status. */
export const reasonOf = (r) => r.json?.error?.reason ?? `the gateway answered ${r.status}`;
