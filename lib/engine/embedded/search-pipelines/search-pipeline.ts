/**
 * A search pipeline (OpenSearch 2.9+): request processors that change a search before it runs,
 * response processors that change its answer. Only OpenSearch's core processors are known
 * (`filter_query`, `script`, `oversample`; `rename_field`, `truncate_hits`, `collapse`, `sort`, `split`)
 * and the neural plugin's: its hybrid-search phase-results processors (hybrid-scores.ts),
 * `hybrid_score_explanation` and `neural_sparse_two_phase_processor`; ml-commons' `ml_inference`
 * (ml-inference.ts: stored, failing as a missing model when it would predict); others, like the
 * rerank processors, are refused at PUT like any unknown type. Each processor takes
 * `tag`, `description` and `ignore_failure`. No processor changes the indices a search reads:
 * request processors change its query and the request fields OpenSearch lets a script change
 * (size, from, explain, profile…), response processors its hits' `_source`.
 */
import { EsError } from '../../../errors/index.js';
import { ConfigReader, isMap, type JsonMap } from '../ingest/index.js';
import { mlInferenceRequest, mlInferenceResponse } from './ml-inference.js';
import { HYBRID_EXPLANATIONS, hitKey, hybridSearch, PHASE_PROCESSORS, type Explanation, type PhaseProcessor } from './hybrid-scores.js';
import { compileScript, fromJson, NO_STORED_SCRIPTS, parseScriptSpec, resolveScript, toJson, type ContextDefinition } from '../painless/index.js';

/** The `script` request processor's Painless: `ctx._source` holds the request fields it may change. */
const SEARCH_REQUEST_CONTEXT: ContextDefinition = { name: 'search_request', variables: { params: 'Map', ctx: 'Map' }, returns: 'void' };
/** The request fields OpenSearch's script request processor reads and writes (from and size are -1 when the request names none). */
const SCRIPTED_REQUEST_FIELDS = ['from', 'size', 'explain', 'version', 'seq_no_primary_term', 'track_scores', 'track_total_hits', 'min_score', 'terminate_after', 'profile'] as const;

/** What request processors leave for response processors (`oversample` → `truncate_hits`, OpenSearch's pipeline context). */
export type PipelineContext = Map<string, unknown>;

export interface RequestProcessor {
  readonly kind: 'request';
  readonly type: string;
  readonly ignoreFailure: boolean;
  run(body: JsonMap, context: PipelineContext): JsonMap;
}

export interface ResponseProcessor {
  readonly kind: 'response';
  readonly type: string;
  readonly ignoreFailure: boolean;
  run(answer: JsonMap, context: PipelineContext): JsonMap;
}

export interface SearchPipeline {
  readonly id: string;
  readonly request: readonly RequestProcessor[];
  readonly response: readonly ResponseProcessor[];
  readonly phase: readonly PhaseProcessor[];
}

export type Compile<P> = (config: ConfigReader) => (ignoreFailure: boolean) => P;

/** The neural plugin's prune types (PruneType). */
const PRUNE_TYPES = new Set(['none', 'top_k', 'alpha_mass', 'max_ratio', 'abs_value']);

const REQUEST_PROCESSORS: Record<string, Compile<RequestProcessor>> = {
  filter_query: (c) => {
    const query = c.optionalMap('query');
    if (query === undefined) throw c.error('query', 'required property is missing');
    return (ignoreFailure) => ({
      kind: 'request', type: 'filter_query', ignoreFailure,
      // the search's own query must match and the processor's filters: it only narrows
      run: (body) => ({ ...body, query: { bool: { must: body.query === undefined ? { match_all: {} } : body.query, filter: query } } }),
    });
  },
  script: (c) => {
    const raw: JsonMap = {};
    for (const key of ['source', 'lang', 'params']) {
      const v = c.take(key);
      if (v !== undefined) raw[key] = v;
    }
    if (raw.source === undefined) throw c.error('source', 'required property is missing');
    let compiled;
    try {
      const resolved = resolveScript(parseScriptSpec(raw, 'source'), NO_STORED_SCRIPTS);
      compiled = { script: compileScript(resolved.source, SEARCH_REQUEST_CONTEXT, resolved.name), params: fromJson(resolved.params) };
    } catch (e) {
      if (e instanceof EsError && e.type === 'script_exception') throw e;
      throw c.error('source', e instanceof Error ? e.message : String(e));
    }
    const { script, params } = compiled;
    return (ignoreFailure) => ({
      kind: 'request', type: 'script', ignoreFailure,
      // only the listed request fields are the script's: what it leaves in them goes back into the body
      run: (body) => {
        const before: JsonMap = {};
        for (const f of SCRIPTED_REQUEST_FIELDS) before[f] = body[f] ?? (f === 'from' || f === 'size' ? -1 : null);
        const ctx = fromJson({ _source: before }) as Map<unknown, unknown>;
        script.run({ params, ctx });
        const after = (toJson(ctx) as JsonMap)._source;
        if (!isMap(after)) return body;
        const changed: JsonMap = { ...body };
        for (const f of SCRIPTED_REQUEST_FIELDS) {
          const v = after[f];
          if (JSON.stringify(v) === JSON.stringify(before[f])) continue;
          if (v === null || v === undefined) delete changed[f];
          else changed[f] = v;
        }
        return changed;
      },
    });
  },
  ml_inference: mlInferenceRequest,
  // the neural plugin's (2.15): it speeds up neural_sparse queries, which this engine does not run, so no search it sees changes
  neural_sparse_two_phase_processor: (c) => {
    c.boolean('enabled', true);
    const parameters = c.optionalMap('two_phase_parameter') ?? {};
    const { prune_type: pruneType, prune_ratio: ratio = 0.4, expansion_rate: rate = 5.0, max_window_size: window = 10000, ...rest } = parameters;
    if (Object.keys(rest).length) throw c.error('two_phase_parameter', `unrecognized parameters [${Object.keys(rest).join(', ')}]`);
    if (pruneType !== undefined && (typeof pruneType !== 'string' || !PRUNE_TYPES.has(pruneType))) throw c.error('two_phase_parameter', `Unknown prune type: ${String(pruneType)}`);
    if (typeof ratio !== 'number' || ratio < 0) throw c.error('two_phase_parameter', `prune_ratio must be a non-negative number, got [${String(ratio)}]`);
    if (typeof rate !== 'number' || rate < 1) throw c.error('two_phase_parameter', `expansion_rate must be >= 1.0, got [${String(rate)}]`);
    if (typeof window !== 'number' || !Number.isInteger(window) || window < 50) throw c.error('two_phase_parameter', `max_window_size must be an integer >= 50, got [${String(window)}]`);
    return (ignoreFailure) => ({ kind: 'request', type: 'neural_sparse_two_phase_processor', ignoreFailure, run: (body) => body });
  },
  oversample: (c) => {
    const factor = numberOption(c, 'sample_factor', true)!;
    if (!(factor >= 1)) throw c.error('sample_factor', `Value must be >= 1.0, but was [${factor}]`);
    const prefix = c.optionalString('context_prefix');
    return (ignoreFailure) => ({
      kind: 'request', type: 'oversample', ignoreFailure,
      run: (body, context) => {
        const size = typeof body.size === 'number' ? body.size : 10;
        context.set(contextKey(prefix, 'original_size'), size);
        return { ...body, size: Math.ceil(size * factor) };
      },
    });
  },
};

const RESPONSE_PROCESSORS: Record<string, Compile<ResponseProcessor>> = {
  ml_inference: mlInferenceResponse,
  // the neural plugin's (2.19): a hybrid search's hits explained by how their sub-query scores combined, when explain is asked
  hybrid_score_explanation: () => (ignoreFailure) => ({
    kind: 'response', type: 'hybrid_score_explanation', ignoreFailure,
    run: (answer, context) => {
      const explanations = context.get(HYBRID_EXPLANATIONS) as Map<string, Explanation> | undefined;
      if (!explanations?.size) return answer;
      return withHits(answer, (hits) => hits.map((hit) => {
        const explained = isMap(hit) && hit._explanation !== undefined ? explanations.get(hitKey(hit)) : undefined;
        return explained ? { ...(hit as JsonMap), _explanation: explained } : hit;
      }));
    },
  }),
  rename_field: (c) => {
    const field = c.requiredString('field');
    const target = c.requiredString('target_field');
    const ignoreMissing = c.boolean('ignore_missing', false);
    return (ignoreFailure) => ({
      kind: 'response', type: 'rename_field', ignoreFailure,
      // a field present with null is renamed: only an absent one is missing
      run: (answer) => withField(answer, field, ignoreMissing, (source) => !(field in source), (value, source) => {
        const { [field]: _, ...rest } = source;
        return { ...rest, [target]: value };
      }),
    });
  },
  truncate_hits: (c) => {
    const target = numberOption(c, 'target_size', false);
    if (target !== undefined && !(Number.isInteger(target) && target >= 0)) throw c.error('target_size', `Value must be >= 0, but was [${target}]`);
    const prefix = c.optionalString('context_prefix');
    return (ignoreFailure) => ({
      kind: 'response', type: 'truncate_hits', ignoreFailure,
      run: (answer, context) => {
        const size = target ?? context.get(contextKey(prefix, 'original_size'));
        if (typeof size !== 'number') throw new EsError(400, 'illegal_argument_exception', 'Unable to determine target size for truncate_hits processor. Either specify target_size or use an oversample processor');
        return withHits(answer, (hits) => hits.slice(0, size));
      },
    });
  },
  collapse: (c) => {
    const field = c.requiredString('field');
    c.optionalString('context_prefix');
    return (ignoreFailure) => ({
      kind: 'response', type: 'collapse', ignoreFailure,
      // the first hit of each value of `field` (in the answer's order) stays
      run: (answer) => withHits(answer, (hits) => {
        const seen = new Set<string>();
        return hits.filter((hit) => {
          const source = isMap(hit) && isMap(hit._source) ? hit._source : {};
          const key = JSON.stringify(source[field] ?? null);
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        });
      }),
    });
  },
  sort: (c) => {
    const field = c.requiredString('field');
    const order = c.optionalString('order', 'asc')!;
    if (order !== 'asc' && order !== 'desc') throw c.error('order', `Sort direction [${order}] not recognized. Valid values are: [asc, desc]`);
    const target = c.optionalString('target_field') ?? field;
    const ignoreMissing = c.boolean('ignore_missing', false);
    return (ignoreFailure) => ({
      kind: 'response', type: 'sort', ignoreFailure,
      run: (answer) => withField(answer, field, ignoreMissing, valueless(field), (value, source) => {
        if (!Array.isArray(value)) throw new EsError(400, 'illegal_argument_exception', `field [${field}] of type [${javaType(value)}] cannot be cast to [java.util.List]`);
        const sorted = [...value].sort(compareValues);
        if (order === 'desc') sorted.reverse();
        return { ...source, [target]: sorted };
      }),
    });
  },
  split: (c) => {
    const field = c.requiredString('field');
    const separator = c.requiredString('separator');
    const preserveTrailing = c.boolean('preserve_trailing', false);
    const target = c.optionalString('target_field') ?? field;
    const ignoreMissing = c.boolean('ignore_missing', false);
    let pattern: RegExp;
    try {
      pattern = new RegExp(separator, 'u');
    } catch {
      throw c.error('separator', `is not a valid regular expression: ${separator}`);
    }
    return (ignoreFailure) => ({
      kind: 'response', type: 'split', ignoreFailure,
      run: (answer) => withField(answer, field, ignoreMissing, valueless(field), (value, source) => {
        if (typeof value !== 'string') throw new EsError(400, 'illegal_argument_exception', `field [${field}] of type [${javaType(value)}] cannot be cast to [java.lang.String]`);
        const parts = value.split(pattern);
        // as Java's String.split: trailing empty strings dropped unless asked to keep them
        if (!preserveTrailing) while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
        return { ...source, [target]: parts };
      }),
    });
  },
};

/** The processor types this engine knows, by the member of a pipeline that lists them. */
const KNOWN = { request_processors: REQUEST_PROCESSORS, response_processors: RESPONSE_PROCESSORS, phase_results_processors: PHASE_PROCESSORS } as const;

/** A pipeline definition read as OpenSearch reads it: unknown members and processor types refused at PUT. */
export function compileSearchPipeline(id: string, definition: JsonMap): SearchPipeline {
  const { request_processors: requests, response_processors: responses, phase_results_processors: phases, description, version, ...rest } = definition;
  const unknown = Object.keys(rest);
  if (unknown.length) throw new EsError(400, 'parse_exception', `pipeline [${id}] doesn't support one or more provided configuration parameters [${unknown.join(', ')}]`);
  if (description !== undefined && typeof description !== 'string') throw new EsError(400, 'parse_exception', '[description] property isn\'t a string');
  if (version !== undefined && !Number.isInteger(version)) throw new EsError(400, 'parse_exception', '[version] property isn\'t an integer');
  return {
    id,
    request: processorsOf('request_processors', requests, REQUEST_PROCESSORS),
    response: processorsOf('response_processors', responses, RESPONSE_PROCESSORS),
    phase: processorsOf('phase_results_processors', phases, PHASE_PROCESSORS),
  };
}

function processorsOf<P>(member: keyof typeof KNOWN, list: unknown, known: Record<string, Compile<P>>): P[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new EsError(400, 'parse_exception', `[${member}] property isn't a list, but of type [${isMap(list) ? 'java.util.LinkedHashMap' : typeof list}]`);
  return list.map((entry) => {
    if (!isMap(entry) || Object.keys(entry).length !== 1) throw new EsError(400, 'parse_exception', `[${member}] each processor must be an object with exactly one processor type`);
    const [type, raw] = Object.entries(entry)[0];
    const compile = Object.hasOwn(known, type) ? known[type] : undefined;
    if (!compile) {
      throw new EsError(400, 'illegal_argument_exception', `Invalid processor type ${type}`);
    }
    if (!isMap(raw)) throw new EsError(400, 'parse_exception', `[${type}] processor configuration must be an object`, { processor_type: type });
    const tag = typeof raw.tag === 'string' ? raw.tag : undefined;
    const config = new ConfigReader(type, tag, { ...raw });
    config.optionalString('tag');
    config.optionalString('description');
    const ignoreFailure = config.boolean('ignore_failure', false);
    const make = compile(config);
    config.finish();
    return make(ignoreFailure);
  });
}

/** A search run through a pipeline: the body its request processors made, and what turns its answer into the pipeline's. */
export interface PipelinedSearch {
  body: JsonMap;
  /** URL parameters the search runs with besides the caller's. */
  params: Record<string, string>;
  answer(raw: Record<string, unknown>): Record<string, unknown>;
}

/** `namedScores`: the search asks for its named queries' scores (`include_named_queries_score`). */
export function runSearchPipeline(pipeline: SearchPipeline, body: JsonMap, namedScores = false): PipelinedSearch {
  const context: PipelineContext = new Map();
  let changed = body;
  for (const p of pipeline.request) changed = attempt(p, () => p.run(changed, context), changed);
  // OpenSearch runs the first phase-results processor that applies; a hybrid query is the only search they apply to
  const hybrid = pipeline.phase.length ? hybridSearch(changed, pipeline.phase[0], namedScores) : undefined;
  return {
    body: hybrid?.body ?? changed,
    params: hybrid?.params ?? {},
    answer: (raw) => {
      const explanations = new Map<string, Explanation>();
      context.set(HYBRID_EXPLANATIONS, explanations);
      let out = hybrid ? hybrid.answer(raw as JsonMap, explanations) : (raw as JsonMap);
      for (const p of pipeline.response) out = attempt(p, () => p.run(out, context), out);
      return out;
    },
  };
}

/** A processor's failure fails the search, unless it is to be ignored (the value goes on unchanged). */
function attempt<T>(p: { ignoreFailure: boolean }, run: () => T, unchanged: T): T {
  try {
    return run();
  } catch (err) {
    if (p.ignoreFailure) return unchanged;
    throw err;
  }
}

function withHits(answer: JsonMap, change: (hits: unknown[]) => unknown[]): JsonMap {
  const hits = answer.hits;
  if (!isMap(hits) || !Array.isArray(hits.hits)) return answer;
  return { ...answer, hits: { ...hits, hits: change(hits.hits) } };
}

function withSources(answer: JsonMap, change: (source: JsonMap, hit: JsonMap) => JsonMap): JsonMap {
  return withHits(answer, (hits) => hits.map((hit) => (isMap(hit) && isMap(hit._source) ? { ...hit, _source: change(hit._source, hit) } : hit)));
}

/**
 * Each hit's `_source` changed by `change` from its `field`'s value; a hit whose field is `missing`
 * is left as it is under `ignore_missing`, else the response fails as OpenSearch's does.
 */
function withField(answer: JsonMap, field: string, ignoreMissing: boolean, missing: (source: JsonMap) => boolean, change: (value: unknown, source: JsonMap) => JsonMap): JsonMap {
  return withSources(answer, (source, hit) => {
    if (!missing(source)) return change(source[field], source);
    if (ignoreMissing) return source;
    throw new EsError(400, 'illegal_argument_exception', `Document with id ${String(hit._id)} is missing field ${field}`);
  });
}

/** A field absent or null: nothing to sort or split. */
const valueless = (field: string) => (source: JsonMap) => source[field] === undefined || source[field] === null;

function contextKey(prefix: string | undefined, name: string): string {
  return prefix === undefined ? name : `${prefix}.${name}`;
}

function numberOption(c: ConfigReader, name: string, required: boolean): number | undefined {
  const v = c.take(name);
  if (v === undefined) {
    if (required) throw c.error(name, 'required property is missing');
    return undefined;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw c.error(name, `property isn't a number: [${String(v)}]`);
  return n;
}

/** Values of one list in their natural order: numbers by value, strings by UTF-16 code units (Java's compareTo). */
function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function javaType(v: unknown): string {
  if (typeof v === 'string') return 'java.lang.String';
  if (typeof v === 'number') return Number.isInteger(v) ? 'java.lang.Integer' : 'java.lang.Double';
  if (typeof v === 'boolean') return 'java.lang.Boolean';
  if (Array.isArray(v)) return 'java.util.ArrayList';
  return 'java.util.LinkedHashMap';
}

