/**
 * Dotted paths into a response body, as the YAML suites write them: `hits.hits.0._id`,
 * with `\.` for a dot that belongs to a key (`index\.number_of_shards`). The empty path is
 * the whole body.
 */

/**
 * Splits a dotted path into its keys as Elasticsearch's YAML runner (ObjectPath) does: a
 * backslash is dropped and makes the next dot part of the key, so `nested\.title` and
 * `nested\\.title` (the form some suites write in plain YAML scalars) both name `nested.title`.
 */
export function splitPath(path: string): string[] {
  if (path === '') return [];
  const keys: string[] = [];
  let current = '';
  let escaped = false;
  for (const ch of path) {
    if (ch === '\\') {
      escaped = true;
    } else if (ch === '.' && !escaped) {
      keys.push(current);
      current = '';
    } else {
      if (ch === '.') escaped = false;
      current += ch;
    }
  }
  keys.push(current);
  return keys;
}

/** The key `set` may use to stand for "whichever key this object has first". */
export const ARBITRARY_KEY = '_arbitrary_key_';

/**
 * Walks `keys` into `root`. A missing level yields `undefined` (never throws): the suites
 * rely on that for `is_false` on absent fields. Array levels take numeric keys.
 */
export function lookup(root: unknown, keys: readonly string[]): unknown {
  let value: unknown = root;
  for (const key of keys) {
    if (value === null || value === undefined) return undefined;
    if (Array.isArray(value)) {
      if (!/^\d+$/.test(key)) return undefined;
      value = value[Number(key)];
    } else if (typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (key === ARBITRARY_KEY) {
        const first = Object.keys(record)[0];
        if (first === undefined) return undefined;
        value = first;
        continue;
      }
      value = Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
    } else {
      return undefined;
    }
  }
  return value;
}
