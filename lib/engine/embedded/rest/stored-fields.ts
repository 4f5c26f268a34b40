import { isPlainObject, type JsonObject } from '../indices/index.js';
import type { AnalysisRegistry } from '../analysis/index.js';
import { fieldType, tokenCount, type FieldMapping, type Mappings } from '../mapping/index.js';
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

/** A field mapped with `store: true`: its full name, mapping, and the source path its values come from (a multi-field's parent's). */
interface StoredField {
  name: string;
  mapping: FieldMapping;
  sourcePath: string;
}

function storedPaths(props: Mappings['properties'], prefix: string, out: StoredField[]): void {
  for (const [name, m] of Object.entries(props ?? {})) {
    const path = prefix + name;
    if (m.store === true) out.push({ name: path, mapping: m, sourcePath: path });
    for (const [sub, sm] of Object.entries(m.fields ?? {})) if (sm.store === true) out.push({ name: `${path}.${sub}`, mapping: sm, sourcePath: path });
    if (m.properties) storedPaths(m.properties, `${path}.`, out);
  }
}

/**
 * `fields` of a document read with `stored_fields`: the values of the requested fields that are
 * mapped with `store: true` (wildcards allowed; multi-fields too), as ES returns them — a
 * token_count its number of tokens; undefined when there are none.
 */
export function storedFieldValues(mappings: Mappings, source: JsonObject, requested: string[], registry: AnalysisRegistry): Record<string, unknown[]> | undefined {
  const stored: StoredField[] = [];
  storedPaths(mappings.properties, '', stored);
  const out: Record<string, unknown[]> = {};
  for (const pattern of requested) {
    if (pattern === '_source' || pattern === '_routing' || pattern === '_none_') continue;
    const fields = stored.filter((f) => (pattern.includes('*') ? simpleMatch(pattern, f.name) : f.name === pattern));
    for (const field of fields) {
      const values: unknown[] = [];
      valuesAt(source, field.sourcePath.split('.'), values);
      const shown = fieldType(field.mapping) === 'token_count' ? values.map((v) => tokenCount(field.mapping, v, registry)) : values;
      if (shown.length) out[field.name] = shown;
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
