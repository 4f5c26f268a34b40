import { EsError } from '../../../errors/index.js';
import { inField } from '../query-rules/parse-errors.js';
import { parseFieldAndFormats, type FieldAndFormat } from './fields/index.js';
import { parseHighlight, type HighlightRequest } from './highlight/index.js';
import { parseSort, type SortSpec } from './sort/index.js';
import { sourceFilterFromBody, type SourceFilter } from './source-filter.js';

/**
 * One `collapse.inner_hits` definition: for every collapsed hit on the page, a search of the documents
 * of its group (the request's query and post_filter, narrowed to the group's value), as ES's expand phase runs it.
 */
export interface InnerHitsRequest {
  /** The key under the hit's `inner_hits`. */
  name: string;
  from: number;
  size: number;
  sort: SortSpec[];
  source: SourceFilter;
  sourceRequested: boolean;
  storedFields?: string[] | '_none_';
  version: boolean;
  seqNoPrimaryTerm: boolean;
  explain: boolean;
  trackScores: boolean;
  docvalueFields: FieldAndFormat[];
  fields: FieldAndFormat[];
  highlight?: HighlightRequest;
  /** Second-level collapse inside each group (no inner hits of its own). */
  collapse?: { field: string };
}

export interface Collapse {
  field: string;
  /** Empty when the groups are not expanded. */
  innerHits: InnerHitsRequest[];
}

const INNER_HITS_KEYS = new Set([
  'name', 'from', 'size', 'sort', '_source', 'stored_fields', 'version', 'seq_no_primary_term', 'explain', 'track_scores',
  'docvalue_fields', 'fields', 'highlight', 'collapse', 'ignore_unmapped',
]);

function parsingError(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function intOf(v: unknown, what: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [${what}] failed to parse field, expected an integer but got [${String(v)}]`);
  return n;
}

function boolOf(v: unknown): boolean {
  return v === true || v === 'true';
}

function storedFieldsOf(v: unknown): string[] | '_none_' {
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v.map(String) : undefined;
  if (!list) throw parsingError('[inner_hits] [stored_fields] must be a string or an array of strings');
  return list.includes('_none_') ? '_none_' : list;
}

/** An inner hit's `collapse`: exactly `{"field": …}`, as ES's InnerHitBuilder reads it (no inner_hits, no further collapse). */
function innerCollapseOf(v: unknown): { field: string } {
  if (!isObject(v) || typeof v.field !== 'string' || Object.keys(v).some((k) => k !== 'field')) throw parsingError('Invalid token in the inner collapse');
  return { field: v.field };
}

/** A nested query's `inner_hits`: named after the query's path unless it names itself. */
export function parseNestedInnerHits(v: Record<string, unknown>, path: string): InnerHitsRequest {
  if (v.collapse !== undefined) throw new EsError(400, 'illegal_argument_exception', '[collapse] in the [inner_hits] of a [nested] query is not supported by the embedded engine yet');
  return parseInnerHits(v.name === undefined ? { ...v, name: path } : v);
}

/** An `inner_hits` definition as ES's InnerHitBuilder parser reads it, its name not yet required. */
function readInnerHits(v: unknown): Omit<InnerHitsRequest, 'name'> & { name: unknown } {
  if (!isObject(v)) throw parsingError('Invalid token in inner_hits array');
  for (const k of Object.keys(v)) {
    if (k === 'script_fields') throw new EsError(400, 'illegal_argument_exception', '[inner_hits.script_fields] is not supported by the embedded engine yet');
    if (!INNER_HITS_KEYS.has(k)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [inner_hits] unknown field [${k}]`);
  }
  const from = v.from === undefined ? 0 : intOf(v.from, 'from');
  const size = v.size === undefined ? 3 : intOf(v.size, 'size');
  if (from < 0) throw new EsError(400, 'illegal_argument_exception', 'illegal from value, at least 0 or higher');
  if (size < 0) throw new EsError(400, 'illegal_argument_exception', 'illegal size value, at least 0 or higher');
  const definition = {
    from,
    size,
    sort: v.sort === undefined ? [] : parseSort(v.sort),
    source: sourceFilterFromBody(v._source),
    sourceRequested: v._source !== undefined,
    storedFields: v.stored_fields === undefined ? undefined : storedFieldsOf(v.stored_fields),
    version: boolOf(v.version),
    seqNoPrimaryTerm: boolOf(v.seq_no_primary_term),
    explain: boolOf(v.explain),
    trackScores: boolOf(v.track_scores),
    docvalueFields: parseFieldAndFormats(v.docvalue_fields, 'docvalue_fields'),
    fields: parseFieldAndFormats(v.fields, 'fields'),
    highlight: v.highlight === undefined ? undefined : parseHighlight(v.highlight),
    collapse: v.collapse === undefined ? undefined : inField('inner_hits', 'collapse', () => innerCollapseOf(v.collapse)),
  };
  return { name: v.name, ...definition };
}

/** The definition once read whole: only then is its name required (a malformed part is the error first). */
function named(definition: ReturnType<typeof readInnerHits>): InnerHitsRequest {
  const { name } = definition;
  if (typeof name !== 'string') throw new EsError(400, 'illegal_argument_exception', 'inner_hits must have a [name]; set the [name] field in the inner_hits definition');
  return { ...definition, name };
}

function parseInnerHits(v: unknown): InnerHitsRequest {
  return named(readInnerHits(v));
}

/** The body's `collapse`: a field, and optionally one or several `inner_hits` (as ES's CollapseBuilder parses it). */
export function parseCollapse(v: unknown): Collapse {
  if (!isObject(v) || typeof v.field !== 'string') throw parsingError('[collapse] requires a [field]');
  for (const k of Object.keys(v)) {
    if (k !== 'field' && k !== 'inner_hits' && k !== 'max_concurrent_group_searches') throw new EsError(400, 'x_content_parse_exception', `[1:1] [collapse] unknown field [${k}]`);
  }
  if (v.field === '') throw new EsError(400, 'illegal_argument_exception', 'field name is null or empty');
  // Accepted and validated; groups are expanded in process, so there is no concurrency to bound.
  if (v.max_concurrent_group_searches !== undefined && intOf(v.max_concurrent_group_searches, 'max_concurrent_group_searches') < 1) {
    throw new EsError(400, 'illegal_argument_exception', 'maxConcurrentGroupRequests` must be positive');
  }
  const raw = v.inner_hits;
  // CollapseBuilder's parser reads each definition as its field `inner_hits`: what fails there fails that field
  const read = (d: unknown) => named(inField('collapse', 'inner_hits', () => readInnerHits(d)));
  const innerHits = raw === undefined ? [] : Array.isArray(raw) ? raw.map(read) : [read(raw)];
  return { field: v.field, innerHits };
}
