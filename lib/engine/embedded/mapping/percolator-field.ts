/**
 * The percolator module's `percolator` field: it holds a query (the value, a query DSL object),
 * parsed against the index's mappings when the document is indexed, as Elasticsearch's
 * PercolatorFieldMapper parses it: a query that does not parse, or that names a field the index
 * does not map, fails the document. The query is kept as a doc value (its JSON), which the
 * `percolate` query (search/query/percolate-query.ts) reads back; `_source` keeps it as written.
 *
 * The query parser lives in the search layer, above this one: it registers the check here
 * (`setPercolatorQueryCheck`) when it is loaded.
 */
import type { AnalysisRegistry } from '../analysis/index.js';
import { EsError } from '../../../errors/index.js';
import { documentParsingError } from './errors.js';
import type { IndexableField } from './parse-document.js';
import type { Mappings } from './types.js';

/** Parses a stored query against the mappings; throws Elasticsearch's error for what it refuses. */
export type PercolatorQueryCheck = (query: Record<string, unknown>, mappings: Mappings, registry: AnalysisRegistry) => void;

let check: PercolatorQueryCheck | undefined;

/** Registers the parse that validates stored queries (the search layer's). */
export function setPercolatorQueryCheck(fn: PercolatorQueryCheck): void {
  check = fn;
}

/** The indexable field of one percolator value, or a document_parsing_exception caused by what the query's parse threw. */
export function percolatorField(fullPath: string, value: unknown, id: string, mappings: Mappings, registry: AnalysisRegistry, preview: (v: unknown) => string): IndexableField {
  const failure = (cause: Record<string, unknown>) => documentParsingError(
    `failed to parse field [${fullPath}] of type [percolator] in document with id '${id}'. Preview of field's value: '${preview(value)}'`, cause as { type: string; reason: string });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw failure({ type: 'parsing_exception', reason: '[_na] query malformed, must start with start_object' });
  }
  try {
    check?.(value as Record<string, unknown>, mappings, registry);
  } catch (err) {
    if (!(err instanceof EsError)) throw err;
    throw failure({ type: err.type, reason: err.reason, ...err.extra });
  }
  return { type: 'percolator', terms: [], positions: [], values: [JSON.stringify(value)] };
}
