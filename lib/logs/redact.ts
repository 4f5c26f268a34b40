/**
 * Secrets kept out of stored request logs. A member (JSON) or parameter (query string) is secret
 * when its name is `password`, `secret`, `token`, `api_key`/`apikey`, `access_key`, `secret_key`,
 * `private_key` or `authorization`, alone or as the last word of a longer name (`new_password`,
 * `client_secret`, `access_token`, `x-api-key`, `aws.secret_key`). In the bodies of the APIs that
 * carry ML Commons connectors (`connectors`: the Flow Framework's templates and use-case
 * parameters), a connector's `credential` is a map of secrets (every value of it, as the plugin
 * encrypts them all), and so is each member a use case names in it (`create_connector.credential.key`);
 * elsewhere `credential` is no secret (the gateway's own /_credentials answers describe one).
 */
const SECRET_NAME = /(?:^|[_.-])(?:password|passwd|secret|token|api[_-]?key|apikey|(?:access|secret|private)[_-]?key|authorization)$/i;
const CONNECTOR_SECRET_NAME = /(?:^|[_.-])credential(?:\.[^.]*)?$/i;
/** Cheap test first: a text that names no secret (nor could, through a `\u` escape) is returned as it is, unscanned. */
const MAY_NAME_SECRET = /password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|authorization|\\u/i;

export const REDACTED = '[redacted]';

export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);

/**
 * The text with the value of every secret member replaced by `"[redacted]"`, at any depth. The text
 * need not be one JSON value: NDJSON lines, a body cut short (a value the cut leaves open is
 * redacted to the end) and text that is not JSON at all are scanned alike, in one pass.
 */
export function redactJsonText(text: string, connectors = false): string {
  if (!MAY_NAME_SECRET.test(text) && !(connectors && /credential/i.test(text))) return text;
  const secret = (name: string) => isSecretName(name) || (connectors && CONNECTOR_SECRET_NAME.test(name));
  const n = text.length;
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < n) {
    if (text.charCodeAt(i) !== QUOTE) {
      i++;
      continue;
    }
    const keyEnd = stringEnd(text, i);
    let j = skipSpace(text, keyEnd);
    if (j < n && text.charCodeAt(j) === COLON && secret(keyName(text.slice(i, keyEnd)))) {
      j = skipSpace(text, j + 1);
      out += text.slice(copied, j) + `"${REDACTED}"`;
      copied = i = valueEnd(text, j);
      continue;
    }
    i = keyEnd;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * A query string with the value of every secret parameter replaced; a `source` parameter (a body
 * sent in the URL) is redacted as a body. Everything else is kept as sent.
 */
export function redactQuerystring(querystring: string): string {
  if (!querystring || !(MAY_NAME_SECRET.test(decodeLoosely(querystring)) || /(?:^|&)source=/.test(querystring))) return querystring;
  return querystring
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeLoosely(eq < 0 ? pair : pair.slice(0, eq));
      if (isSecretName(name)) return `${pair.slice(0, eq < 0 ? pair.length : eq)}=${REDACTED}`;
      if (name === 'source' && eq >= 0) return `${pair.slice(0, eq)}=${encodeURIComponent(redactJsonText(decodeLoosely(pair.slice(eq + 1))))}`;
      return pair;
    })
    .join('&');
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

function decodeLoosely(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** A key as written (quotes included) → its name; escapes decoded, so that `"pass\u0077ord"` is a password too. */
function keyName(quoted: string): string {
  const inner = quoted.endsWith('"') && quoted.length > 1 ? quoted.slice(1, -1) : quoted.slice(1);
  if (!inner.includes('\\')) return inner;
  try {
    return JSON.parse(`"${inner}"`) as string;
  } catch {
    return inner;
  }
}

/** The index after the string that opens at `start` (a quote), or the text's end when it is left open. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return text.length;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

/** The index after the value at `start`: a string, an object or array (balanced, strings skipped), or a scalar. */
function valueEnd(text: string, start: number): number {
  const n = text.length;
  if (start >= n) return n;
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let i = start; i < n; i++) {
      const c = text[i];
      if (c === '"') i = stringEnd(text, i) - 1;
      else if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
    }
    return n;
  }
  let i = start;
  while (i < n && !/[,}\]\s]/.test(text[i])) i++;
  return i;
}
