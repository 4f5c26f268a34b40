import { parseRescore, type Rescorer } from './rescore.js';
import { withKnnOption } from './query/knn.js';
import { parseSlice, type Slice } from './slice.js';
import { EsError } from '../../../errors/index.js';
import { parseFieldAndFormats, type FieldAndFormat } from './fields/index.js';
import { parseHighlight, type HighlightRequest } from './highlight/index.js';
import { parseAggregations, type AggNode } from './aggregations/index.js';
import { parseCollapse, type Collapse } from './collapse.js';
import { parseQuery, withNamedQueries, type NamedQuery, type Query } from './query/index.js';
import { parseSort, parseSortParam, type SortSpec } from './sort/index.js';
import { parseSuggest, type SuggestRequest } from './suggest/index.js';
import { sourceFilterFromBody, sourceFilterFromParams, type SourceFilter } from './source-filter.js';
import { parseScriptSpec, type ScriptSpec } from '../painless/index.js';
import { parseRuntimeFields, type RuntimeField } from './scripts/index.js';
import { booleanParam, type ParamReader } from '../rest/params.js';
import { booleanValue } from './query/query-fields.js';

/** One of `script_fields`: a field of each hit whose values a script computes. */
export interface ScriptField {
  name: string;
  script: ScriptSpec;
  /** `ignore_failure`: a script that fails leaves the field out instead of failing the search. */
  ignoreFailure: boolean;
}

export interface SearchRequest {
  query: Query;
  /** Filters the hits after aggregations were computed. */
  postFilter?: Query;
  from: number;
  size: number;
  source: SourceFilter;
  /** Explicit `_source` request (body or URL), which stored_fields does not turn off. */
  sourceRequested: boolean;
  sort: SortSpec[];
  searchAfter?: unknown[];
  /** true: exact; false: none; a number: exact up to it. */
  trackTotalHits: boolean | number;
  totalAsInt: boolean;
  trackScores: boolean;
  /** `stats`: the search groups the request counts in (index stats' `search.groups`). */
  statsGroups?: string[];
  version: boolean;
  seqNoPrimaryTerm: boolean;
  explain: boolean;
  /** The query's and post filter's named queries (`_name`): each hit lists those it matches, `matched_queries`. */
  namedQueries?: NamedQuery[];
  /** `include_named_queries_score`: `matched_queries` maps each name to its query's score on the hit. */
  namedQueryScores?: boolean;
  /** `profile`: the response carries the Profile API's `profile.shards`. */
  profile: boolean;
  minScore?: number;
  /** undefined: default (_id and _source); `_none_`: no stored fields, not even _id; a list: those (none are stored here). */
  storedFields?: string[] | '_none_';
  docvalueFields: FieldAndFormat[];
  fields: FieldAndFormat[];
  highlight?: HighlightRequest;
  terminateAfter?: number;
  /** Index name pattern → score factor, first match wins. */
  indicesBoost: Array<[string, number]>;
  collapse?: Collapse;
  /** The body's `aggs`/`aggregations`, parsed and validated. */
  aggregations?: AggNode[];
  /** `typed_keys`: aggregation names prefixed with their type (`sterms#name`). */
  typedKeys: boolean;
  /** The `suggest` section. */
  suggest?: SuggestRequest[];
  /** `timeout` in milliseconds (URL over body); -1: none; undefined: the engine's default. */
  timeout?: number;
  /** `script_fields`. */
  scriptFields: ScriptField[];
  /** `runtime_mappings`: fields of this search only, over the mappings' own runtime fields. */
  runtimeFields: RuntimeField[];
  /** `rescore`: query rescorers applied in order to each index's top documents. */
  rescore?: Rescorer[];
  /** `slice` of a scroll or point-in-time search. */
  slice?: Slice;
  /** `pre_filter_shard_size`: past how many shards the can-match phase runs (Elasticsearch's default when not given). */
  preFilterShardSize?: number;
  /** `search_type=dfs_query_then_fetch`: every shard is searched (no can-match phase). */
  dfs: boolean;
}

const IMPLEMENTED = new Set([
  'query', 'from', 'size', '_source', 'track_total_hits', 'version', 'seq_no_primary_term', 'stored_fields', 'timeout', 'min_score', 'track_scores',
  'explain', 'profile', 'stats', 'terminate_after', 'aggs', 'aggregations', 'sort', 'search_after', 'post_filter', 'docvalue_fields', 'fields', 'highlight', 'indices_boost', 'collapse', 'suggest',
  'script_fields', 'runtime_mappings', 'rescore', 'slice', 'knn',
]);
/** Known to Elasticsearch, not yet to this engine: refused clearly rather than ignored. */
const NOT_YET = new Set(['rank', 'retriever', 'ext']);

function scriptFieldsOf(v: unknown): ScriptField[] {
  if (v === undefined || v === null) return [];
  if (typeof v !== 'object' || Array.isArray(v)) throw parsingError('[script_fields] must be an object');
  return Object.entries(v as Record<string, unknown>).map(([name, def]) => {
    if (def === null || typeof def !== 'object' || Array.isArray(def)) throw parsingError(`Expected [START_OBJECT] under [${name}], but got a [VALUE_STRING] in [script_fields]`);
    const d = def as Record<string, unknown>;
    for (const k of Object.keys(d)) {
      if (k !== 'script' && k !== 'ignore_failure') throw parsingError(`Unknown key for a START_OBJECT in [${name}]: [${k}].`);
    }
    if (d.script === undefined) throw parsingError(`[script_fields] [${name}] requires a [script]`);
    return { name, script: parseScriptSpec(d.script), ignoreFailure: d.ignore_failure === true };
  });
}

function intParam(name: string, raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  // an int, as Elasticsearch reads these parameters: past ±2^31 it is refused, not rounded or wrapped
  if (!Number.isInteger(n) || n > 2147483647 || n < -2147483648) throw new EsError(400, 'illegal_argument_exception', `Failed to parse int parameter [${name}] with value [${String(raw)}]`);
  return n;
}

function trackTotalHitsOf(v: unknown): boolean | number {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  const n = intParam('track_total_hits', v);
  if (n < -1) throw new EsError(400, 'illegal_argument_exception', `[track_total_hits] parameter must be positive or equals to -1, got ${n}`);
  return n === -1 ? true : n;
}

const TIME_UNITS = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A `timeout` time value (`10ms`, `1s`…, or `-1` for none) in milliseconds, as Elasticsearch parses it. */
function timeoutOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const v = String(raw).trim();
  if (v === '-1') return -1;
  if (v === '0') return 0;
  const m = /^(\d+(?:\.\d+)?)(nanos|micros|ms|s|m|h|d)$/.exec(v);
  if (!m) {
    throw new EsError(400, 'illegal_argument_exception', `failed to parse setting [timeout] with value [${v}] as a time value: unit is missing or unrecognized`);
  }
  return Number(m[1]) * TIME_UNITS[m[2] as keyof typeof TIME_UNITS];
}

function parsingError(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function storedFieldsOf(v: unknown): string[] | '_none_' {
  const list = typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : Array.isArray(v) ? v.map(String) : undefined;
  if (!list) throw parsingError('Expected [VALUE_STRING] or [START_ARRAY] in [stored_fields] but found [START_OBJECT]');
  if (list.includes('_none_')) {
    if (list.length > 1) throw new EsError(400, 'illegal_argument_exception', 'The [_none_] stored field can only be used alone');
    return '_none_';
  }
  return list;
}

function indicesBoostOf(v: unknown): Array<[string, number]> {
  if (v === undefined) return [];
  const entries: Array<[string, unknown]> = Array.isArray(v)
    ? v.flatMap((o) => {
        if (o === null || typeof o !== 'object' || Array.isArray(o)) throw parsingError('[indices_boost] expects an array of objects');
        const e = Object.entries(o as Record<string, unknown>);
        if (e.length !== 1) throw parsingError(`Expected [END_OBJECT] in [indices_boost] but found [FIELD_NAME]`);
        return e;
      })
    : v !== null && typeof v === 'object'
      ? Object.entries(v as Record<string, unknown>)
      : [];
  return entries.map(([k, b]) => {
    const n = typeof b === 'number' ? b : Number(b);
    if (!Number.isFinite(n)) throw parsingError(`[indices_boost] boost for [${k}] must be a number`);
    return [k, n];
  });
}

/** A search (or count) request from its body and URL parameters, with ES's validation. */
/**
 * `search_type`, `batched_reduce_size`, `pre_filter_shard_size` and `max_concurrent_shard_requests`,
 * validated as ES's RestSearchAction and SearchRequest do: while the request is read, so before
 * its indices are resolved (a bad value on a missing index is a 400, not a 404).
 */
export function validateExecutionParams(params: ParamReader): void {
  const searchType = params.get('search_type');
  if (searchType !== null) {
    if (searchType === 'query_and_fetch' || searchType === 'dfs_query_and_fetch') {
      throw new EsError(400, 'illegal_argument_exception', `Unsupported search type [${searchType}]`);
    }
    if (searchType !== 'query_then_fetch' && searchType !== 'dfs_query_then_fetch') {
      throw new EsError(400, 'illegal_argument_exception', `No search type for [${searchType}]`);
    }
  }
  const batched = params.get('batched_reduce_size');
  if (batched !== null && intParam('batched_reduce_size', batched) < 2) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: batchedReduceSize must be >= 2;');
  }
  // SearchRequest's setters refuse these before any validation runs
  const preFilter = params.get('pre_filter_shard_size');
  if (preFilter !== null && intParam('pre_filter_shard_size', preFilter) < 1) throw new EsError(400, 'illegal_argument_exception', 'preFilterShardSize must be >= 1');
  const concurrent = params.get('max_concurrent_shard_requests');
  if (concurrent !== null && intParam('max_concurrent_shard_requests', concurrent) < 1) throw new EsError(400, 'illegal_argument_exception', 'maxConcurrentShardRequests must be >= 1');
}

/** `pointInTime`: the body named a `pit` (taken off before): a `slice` then partitions by document order. */
export function parseSearchRequest(body: Record<string, unknown> | undefined, params: ParamReader, maxResultWindow: number, pointInTime = false): SearchRequest {
  const b = body ?? {};
  validateExecutionParams(params);
  for (const [k, v] of Object.entries(b)) {
    if (IMPLEMENTED.has(k)) continue;
    if (NOT_YET.has(k)) throw new EsError(400, 'illegal_argument_exception', `[${k}] is not supported by the embedded engine yet`);
    const token = v !== null && typeof v === 'object' ? (Array.isArray(v) ? 'START_ARRAY' : 'START_OBJECT') : 'VALUE_STRING';
    throw new EsError(400, 'parsing_exception', `Unknown key for a ${token} in [${k}].`, { line: 1, col: 1 });
  }
  // the named queries of the query and the post filter (as Elasticsearch's fetch phase reads both)
  const [[parsedQuery, postFilter], namedQueries] = withNamedQueries((): [Query | undefined, Query | undefined] => [
    b.query === undefined ? undefined : parseQuery(b.query),
    b.post_filter === undefined ? undefined : parseQuery(b.post_filter),
  ]);
  let from = b.from !== undefined ? intParam('from', b.from) : -1;
  let size = b.size !== undefined ? intParam('size', b.size) : 10;
  if (params.has('from')) from = intParam('from', params.get('from'));
  if (params.has('size')) size = intParam('size', params.get('size'));
  // Elasticsearch 8 (SearchSourceBuilder.from): any negative `from` given, in the URL or the body
  if ((params.has('from') || b.from !== undefined) && from < 0) throw new EsError(400, 'illegal_argument_exception', `[from] parameter cannot be negative but was [${from}]`);
  if (size < 0) throw new EsError(400, 'illegal_argument_exception', `[size] parameter cannot be negative, found [${size}]`);
  const query: Query = b.knn === undefined ? parsedQuery ?? { type: 'match_all', boost: 1 } : withKnnOption(parsedQuery, b.knn, size);
  let sort = b.sort === undefined ? [] : parseSort(b.sort);
  if (params.has('sort')) sort = parseSortParam(params.get('sort')!);
  let searchAfter: unknown[] | undefined;
  if (b.search_after !== undefined) {
    if (!Array.isArray(b.search_after)) throw parsingError('[search_after] must be an array');
    searchAfter = b.search_after;
    if (from > 0) throw new EsError(400, 'illegal_argument_exception', '`from` parameter must be set to 0 when `search_after` is used.');
    const sortCount = sort.length || 1;
    if (searchAfter.length !== sortCount) {
      throw new EsError(400, 'illegal_argument_exception', `search_after has ${searchAfter.length} value(s) but sort has ${sortCount}.`);
    }
  }
  if (from === -1) from = 0;
  if (from + size > maxResultWindow) {
    throw new EsError(400, 'illegal_argument_exception',
      `Result window is too large, from + size must be less than or equal to: [${maxResultWindow}] but was [${from + size}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`);
  }
  let trackTotalHits: boolean | number = b.track_total_hits !== undefined ? trackTotalHitsOf(b.track_total_hits) : 10_000;
  if (params.has('track_total_hits')) trackTotalHits = trackTotalHitsOf(params.get('track_total_hits'));
  const totalAsInt = params.get('rest_total_hits_as_int') === 'true' || params.get('rest_total_hits_as_int') === '';
  if (totalAsInt && trackTotalHits !== true && trackTotalHits !== false) {
    if (b.track_total_hits !== undefined || params.has('track_total_hits')) {
      throw new EsError(400, 'illegal_argument_exception', `[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got ${trackTotalHits}`);
    }
    trackTotalHits = true;
  }
  const source = sourceFilterFromParams(params, sourceFilterFromBody(b._source));
  // a URL flag over the body's; "yes" or 1 is refused by either, as Elasticsearch's parsers do
  const flag = (k: string) => booleanParam(params, k, booleanValue(b[k], false));
  let storedFields = b.stored_fields === undefined ? undefined : storedFieldsOf(b.stored_fields);
  if (params.has('stored_fields')) storedFields = storedFieldsOf(params.get('stored_fields'));
  // `_source` among the stored fields fetches the source too (ES's fetch phase reads it as a request for it)
  const sourceRequested = b._source !== undefined || params.has('_source') || params.has('_source_includes') || params.has('_source_excludes')
    || (Array.isArray(storedFields) && storedFields.includes('_source'));
  if (storedFields === '_none_' && sourceRequested && source.fetch) {
    throw new EsError(400, 'search_context_exception', '`stored_fields` cannot be disabled if _source is requested');
  }
  const docvalueFields = parseFieldAndFormats(b.docvalue_fields, 'docvalue_fields');
  if (params.has('docvalue_fields')) docvalueFields.push(...params.get('docvalue_fields')!.split(',').filter(Boolean).map((field) => ({ field })));
  const terminate = b.terminate_after ?? params.get('terminate_after') ?? undefined;
  const terminateAfter = terminate === undefined || terminate === null ? undefined : intParam('terminate_after', terminate);
  if (terminateAfter !== undefined && terminateAfter < 0) throw new EsError(400, 'illegal_argument_exception', 'terminateAfter must be > 0');
  let minScore: number | undefined;
  if (b.min_score !== undefined) {
    minScore = typeof b.min_score === 'number' ? b.min_score : Number(b.min_score);
    if (!Number.isFinite(minScore)) throw parsingError('[min_score] must be a number');
  }
  let collapse: Collapse | undefined;
  if (b.collapse !== undefined) {
    collapse = parseCollapse(b.collapse);
    if (searchAfter) throw new EsError(400, 'illegal_argument_exception', 'cannot use `collapse` in conjunction with `search_after`');
    if (params.has('scroll')) throw new EsError(400, 'illegal_argument_exception', 'cannot use `collapse` in a scroll context');
  }
  const slice = b.slice === undefined || b.slice === null ? undefined : parseSlice(b.slice, pointInTime);
  if (slice && !pointInTime && !params.has('scroll')) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: [slice] can only be used with [scroll] or [point-in-time] requests;');
  }
  const rescore = b.rescore === undefined || b.rescore === null ? undefined : parseRescore(b.rescore);
  if (collapse && rescore?.length) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: cannot use `collapse` in conjunction with `rescore`;');
  }
  return {
    query, postFilter, from, size, source, sourceRequested, sort, searchAfter, trackTotalHits, totalAsInt,
    trackScores: flag('track_scores'),
    statsGroups: statsGroupsOf(b.stats),
    version: flag('version'),
    seqNoPrimaryTerm: flag('seq_no_primary_term'),
    explain: flag('explain'),
    ...(namedQueries.length && { namedQueries, namedQueryScores: booleanParam(params, 'include_named_queries_score', false) }),
    profile: booleanValue(b.profile, false),
    minScore,
    storedFields,
    docvalueFields,
    fields: parseFieldAndFormats(b.fields, 'fields'),
    highlight: b.highlight === undefined ? undefined : parseHighlight(b.highlight),
    terminateAfter,
    indicesBoost: indicesBoostOf(b.indices_boost),
    collapse,
    aggregations: aggregationsOf(b),
    typedKeys: flag('typed_keys'),
    suggest: b.suggest === undefined ? undefined : parseSuggest(b.suggest),
    timeout: timeoutOf(params.get('timeout') ?? b.timeout),
    scriptFields: scriptFieldsOf(b.script_fields),
    runtimeFields: parseRuntimeFields(b.runtime_mappings),
    rescore: rescore?.length ? rescore : undefined,
    slice,
    ...(params.get('pre_filter_shard_size') !== null && { preFilterShardSize: intParam('pre_filter_shard_size', params.get('pre_filter_shard_size')) }),
    dfs: params.get('search_type') === 'dfs_query_then_fetch',
  };
}

function aggregationsOf(b: Record<string, unknown>): AggNode[] | undefined {
  if (b.aggs !== undefined && b.aggregations !== undefined) throw parsingError('Found two aggregation definitions: [aggs] and [aggregations]');
  const raw = b.aggs ?? b.aggregations;
  return raw === undefined ? undefined : parseAggregations(raw);
}

/** A `_count` body: only `query` is accepted. */
export function parseCountQuery(body: Record<string, unknown> | undefined): Query {
  const b = body ?? {};
  for (const k of Object.keys(b)) {
    if (k !== 'query') throw new EsError(400, 'parsing_exception', `request does not support [${k}]`, { line: 1, col: 1 });
  }
  return b.query === undefined ? { type: 'match_all', boost: 1 } : parseQuery(b.query);
}

/** `stats`: a group name or a list of them. */
function statsGroupsOf(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  const names = Array.isArray(v) ? v : [v];
  if (!names.every((n) => typeof n === 'string')) throw new EsError(400, 'parsing_exception', 'Unknown key for a START_OBJECT in [stats].', { line: 1, col: 1 });
  return names as string[];
}
