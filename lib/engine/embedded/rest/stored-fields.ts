import { isPlainObject, type JsonObject } from '../indices/index.js';
import { resolveFieldMapping, type Mappings } from '../mapping/index.js';
import { simpleMatch } from '../../../wildcard/index.js';

/** The values at a dotted path of a source, arrays flattened. */
function valuesAt(source: unknown, parts: string[], out: unknown[]): void {
  if (Array.isArray(source)) {
    for (const v of source) valuesAt(v, parts, out);
    return;
  }
  if (!parts.length) {
    if (source !== null && source !== undefined) out.push(source);
    return;
  }
  if (!isPlainObject(source)) return;
  valuesAt(source[parts[0]], parts.slice(1), out);
}

function storedPaths(props: Mappings['properties'], prefix: string, out: string[]): void {
  for (const [name, m] of Object.entries(props ?? {})) {
    const path = prefix + name;
    if (m.store === true) out.push(path);
    if (m.properties) storedPaths(m.properties, `${path}.`, out);
  }
}

/**
 * `fields` of a document read with `stored_fields`: the values of the requested fields that are
 * mapped with `store: true` (wildcards allowed), as ES returns them; undefined when there are none.
 */
export function storedFieldValues(mappings: Mappings, source: JsonObject, requested: string[]): Record<string, unknown[]> | undefined {
  const stored: string[] = [];
  storedPaths(mappings.properties, '', stored);
  const out: Record<string, unknown[]> = {};
  for (const pattern of requested) {
    if (pattern === '_source' || pattern === '_routing' || pattern === '_none_') continue;
    const paths = pattern.includes('*') ? stored.filter((p) => simpleMatch(pattern, p)) : resolveFieldMapping(mappings, pattern)?.store === true ? [pattern] : [];
    for (const path of paths) {
      const values: unknown[] = [];
      valuesAt(source, path.split('.'), values);
      if (values.length) out[path] = values;
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/** `stored_fields` as a URL parameter or a body value → names; undefined when absent. */
export function storedFieldsList(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(v)) return v.map(String);
  return undefined;
}
