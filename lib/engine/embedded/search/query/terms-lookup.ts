/**
 * The terms lookup form of the `terms` query (`{"terms": {"f": {"index", "id", "path", "routing"}}}`):
 * replaced, before parsing, by the values found at `path` in that document's `_source`, as ES
 * fetches them on the coordinating node. A missing document gives no terms; a missing index is
 * ES's index_not_found.
 */
import { EsError } from '../../../../errors/index.js';

/** The `_source` of a document, undefined when there is none; throws when the index does not exist. */
export type DocumentLookup = (index: string, id: string, routing?: string) => Record<string, unknown> | undefined;

function valuesAt(source: unknown, path: string[]): unknown[] {
  if (path.length === 0) return source === undefined || source === null ? [] : Array.isArray(source) ? source.flat(Infinity) : [source];
  if (Array.isArray(source)) return source.flatMap((s) => valuesAt(s, path));
  if (source === null || typeof source !== 'object') return [];
  const obj = source as Record<string, unknown>;
  // Dotted keys in the source match a path prefix too ("a.b": …).
  for (let i = path.length; i >= 1; i--) {
    const key = path.slice(0, i).join('.');
    if (key in obj) return valuesAt(obj[key], path.slice(i));
  }
  return [];
}

function isLookup(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && ('index' in v || 'id' in v || 'path' in v);
}

function resolveTerms(body: Record<string, unknown>, lookup: DocumentLookup): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (field === 'boost' || field === '_name' || !isLookup(value)) {
      out[field] = value;
      continue;
    }
    const { index, id, path, routing } = value;
    if (typeof index !== 'string' || typeof id !== 'string' && typeof id !== 'number' || typeof path !== 'string') {
      throw new EsError(400, 'parsing_exception', '[terms] query lookup element requires specifying [index], [id] and [path]', { line: 1, col: 1 });
    }
    const source = lookup(index, String(id), typeof routing === 'string' ? routing : undefined);
    out[field] = source === undefined ? [] : valuesAt(source, path.split('.'));
  }
  return out;
}

/** The query with every terms lookup replaced by its values (other parts are kept as they are). */
export function resolveTermsLookups(query: unknown, lookup: DocumentLookup): unknown {
  if (Array.isArray(query)) return query.map((q) => resolveTermsLookups(q, lookup));
  if (query === null || typeof query !== 'object') return query;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
    out[k] = k === 'terms' && v !== null && typeof v === 'object' && !Array.isArray(v) ? resolveTerms(v as Record<string, unknown>, lookup) : resolveTermsLookups(v, lookup);
  }
  return out;
}
