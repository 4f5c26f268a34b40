/**
 * The Flow Framework's placeholders, `${{key}}` (spaces allowed around the key, which holds no
 * space nor `}`): a use case's parameters, a provision's parameters, a node's outputs. Read by one
 * left-to-right scan, as the regular expression `/\$\{\{\s*([^}\s]+)\s*\}\}/g` would replace them,
 * but in time linear in the text: a template's string is the caller's, and that expression
 * backtracks quadratically over `${{${{${{…` (a quarter-megabyte string held the event loop 30 s).
 */

const OPEN = '${{';
const SPACE = /\s/;
const isSpace = (c: string): boolean => SPACE.test(c);

/** `text` with each placeholder whose key `valueOf` knows replaced by its value (others left as written). */
export function fillText(text: string, valueOf: (key: string) => string | undefined): string {
  let out = '';
  let copied = 0;
  let at = text.indexOf(OPEN);
  while (at !== -1) {
    let i = at + OPEN.length;
    while (i < text.length && isSpace(text[i])) i++;
    const keyStart = i;
    while (i < text.length && text[i] !== '}' && !isSpace(text[i])) i++;
    const keyEnd = i;
    while (i < text.length && isSpace(text[i])) i++;
    if (keyEnd > keyStart && text.startsWith('}}', i)) {
      const value = valueOf(text.slice(keyStart, keyEnd));
      if (value !== undefined) {
        out += text.slice(copied, at) + value;
        copied = i + 2;
      }
      at = text.indexOf(OPEN, i + 2);
      continue;
    }
    // no placeholder: one starting inside this key would read the same key to the same end and
    // fail alike, except one whose `${{` ends the key (its key starts after it): resume there
    at = text.indexOf(OPEN, Math.max(at + 1, keyEnd - OPEN.length));
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Every string of a JSON value (object keys too) with its placeholders filled. */
export function fillPlaceholders(value: unknown, valueOf: (key: string) => string | undefined): unknown {
  if (typeof value === 'string') return fillText(value, valueOf);
  if (Array.isArray(value)) return value.map((v) => fillPlaceholders(v, valueOf));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [fillText(k, valueOf), fillPlaceholders(v, valueOf)]));
  }
  return value;
}
