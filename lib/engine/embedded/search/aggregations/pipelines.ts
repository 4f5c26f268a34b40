import { asStep } from './aggregation-steps.js';
import { EsError } from '../../../../errors/index.js';
import {
  BUCKET_SCRIPT_CONTEXT, BUCKET_SELECTOR_CONTEXT, MOVING_FUNCTION_CONTEXT, boxDouble, compileScript, fromJson, javaArray, parseScriptSpec, resolveScript, unbox,
  type ScriptSpec, type StoredScripts,
} from '../../painless/index.js';
import { pathValue } from './bucket-order.js';
import { isObject, type AggContext, type AggNode, type AggOutput, type AggregationType } from './types.js';
import { decimalFormat } from '../decimal-format.js';
import { unknownField } from './unknown-field.js';
import { compileExpression } from '../../expression/expression.js';

interface PipelineParams {
  bucketsPath: string;
  gapPolicy: 'skip' | 'insert_zeros' | 'keep_values';
  window?: number;
  /** moving_fn: how far the window moves right of the current bucket (0: the buckets before it). */
  shift?: number;
  format?: string;
  /** bucket_script / bucket_selector / moving_fn: the script; the first two's variables' paths (`buckets_path` as a map). */
  scriptSpec?: ScriptSpec;
  paths?: Record<string, string>;
  /** bucket_sort: the sort fields (bucket paths, `_key`, `_count`), then the buckets kept. */
  sort?: Array<{ path: string; asc: boolean }>;
  from?: number;
  size?: number;
}

/** `buckets_path` of a script pipeline: a map of variables, or a path (`_value`), or a list (`_value0`…). */
function scriptPaths(name: string, bp: unknown): Record<string, string> {
  if (typeof bp === 'string') return { _value: bp };
  if (Array.isArray(bp)) return Object.fromEntries(bp.map((p, i) => [`_value${i}`, String(p)]));
  if (isObject(bp) && Object.keys(bp).length) return Object.fromEntries(Object.entries(bp).map(([k, v]) => [k, String(v)]));
  throw new EsError(400, 'illegal_argument_exception', `[buckets_path] must be set for aggregation [${name}]`);
}

const PARENT = new Set(['derivative', 'cumulative_sum', 'moving_fn', 'bucket_sort', 'bucket_script', 'bucket_selector', 'serial_diff']);

export function isParentPipeline(type: string): boolean {
  return PARENT.has(type);
}

function parsePipeline(type: string, name: string, body: Record<string, unknown>): PipelineParams {
  const bp = body.buckets_path;
  if (type === 'bucket_script' || type === 'bucket_selector') {
    for (const k of Object.keys(body)) {
      const known = type === 'bucket_selector' ? ['buckets_path', 'script', 'gap_policy'] : ['buckets_path', 'script', 'gap_policy', 'format'];
      if (!known.includes(k)) {
        throw unknownField(type, k, known);
      }
    }
    const paths = scriptPaths(name, bp);
    if (body.script === undefined) throw new EsError(400, 'parsing_exception', `Required parameter [script] is missing for [${type}] aggregation [${name}]`, { line: 1, col: 1 });
    const gapPolicy = body.gap_policy === undefined ? 'skip' : String(body.gap_policy);
    if (!['skip', 'insert_zeros', 'keep_values'].includes(gapPolicy)) throw new EsError(400, 'illegal_argument_exception', `Unknown gap policy [${gapPolicy}]`);
    return {
      bucketsPath: '', gapPolicy: gapPolicy as PipelineParams['gapPolicy'], scriptSpec: parseScriptSpec(body.script), paths,
      format: typeof body.format === 'string' ? body.format : undefined,
    };
  }
  if (type === 'moving_fn') {
    const w = body.window;
    if (typeof w !== 'number' || !Number.isInteger(w) || w <= 0) throw new EsError(400, 'illegal_argument_exception', '[window] must be a positive, non-zero integer.');
    if (body.script === undefined) throw new EsError(400, 'parsing_exception', `Required parameter [script] is missing for [moving_fn] aggregation [${name}]`, { line: 1, col: 1 });
    if (body.shift !== undefined && (typeof body.shift !== 'number' || !Number.isInteger(body.shift))) {
      throw new EsError(400, 'x_content_parse_exception', '[1:1] [moving_fn] failed to parse field [shift]');
    }
  }
  if (type === 'bucket_sort') return parseBucketSort(name, body);
  if (typeof bp !== 'string' || bp === '') {
    throw new EsError(400, 'illegal_argument_exception', `[buckets_path] must be set for aggregation [${name}]`);
  }
  const gap = body.gap_policy === undefined ? 'skip' : String(body.gap_policy);
  if (!['skip', 'insert_zeros', 'keep_values'].includes(gap)) throw new EsError(400, 'illegal_argument_exception', `Unknown gap policy [${gap}]`);
  return {
    bucketsPath: String(bp ?? ''), gapPolicy: gap as PipelineParams['gapPolicy'], window: body.window as number | undefined, shift: (body.shift as number | undefined) ?? 0,
    scriptSpec: type === 'moving_fn' ? parseScriptSpec(body.script) : undefined, format: body.format as string | undefined,
  };
}

/** An int option of bucket_sort, checked as BucketSortPipelineAggregationBuilder checks it. */
function bucketSortInt(body: Record<string, unknown>, field: 'from' | 'size'): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [bucket_sort] failed to parse field [${field}]`);
  if (field === 'from' && v < 0) throw new EsError(400, 'illegal_argument_exception', `[from] must be a non-negative integer: [${v}]`);
  if (field === 'size' && v <= 0) throw new EsError(400, 'illegal_argument_exception', `[size] must be a positive integer: [${v}]`);
  return v;
}

/**
 * `bucket_sort`: `sort` is a list (or one) of a path (ascending) or `{path: {order}}` / `{path: "desc"}`;
 * `from` and `size` cut the sorted buckets. One that neither sorts nor cuts is refused.
 */
function parseBucketSort(name: string, body: Record<string, unknown>): PipelineParams {
  const known = ['sort', 'from', 'size', 'gap_policy'];
  for (const k of Object.keys(body)) if (!known.includes(k)) throw unknownField('bucket_sort', k, known);
  const raw = body.sort === undefined || body.sort === null ? [] : Array.isArray(body.sort) ? body.sort : [body.sort];
  const sort = raw.map((s): { path: string; asc: boolean } => {
    if (typeof s === 'string') return { path: s, asc: true };
    if (isObject(s) && Object.keys(s).length === 1) {
      const [path, spec] = Object.entries(s)[0];
      const order = typeof spec === 'string' ? spec : isObject(spec) ? spec.order ?? 'asc' : undefined;
      if (order === 'asc' || order === 'desc') return { path, asc: order === 'asc' };
      throw new EsError(400, 'illegal_argument_exception', `Unknown SortOrder [${String(order)}]`);
    }
    throw new EsError(400, 'parsing_exception', `[bucket_sort] failed to parse field [sort]`, { line: 1, col: 1 });
  });
  const from = bucketSortInt(body, 'from') ?? 0;
  const size = bucketSortInt(body, 'size');
  if (sort.length === 0 && from === 0 && size === undefined) {
    throw new EsError(400, 'action_request_validation_exception',
      `Validation Failed: 1: [bucket_sort] aggregation [${name}] is configured to perform nothing. Please set either of [sort, size, from] to use bucket_sort;`);
  }
  const gap = body.gap_policy === undefined ? 'skip' : String(body.gap_policy);
  if (!['skip', 'insert_zeros', 'keep_values'].includes(gap)) throw new EsError(400, 'illegal_argument_exception', `Unknown gap policy [${gap}]`);
  return { bucketsPath: '', gapPolicy: gap as PipelineParams['gapPolicy'], sort, from, size };
}

function pipeline(type: string): AggregationType<PipelineParams> {
  return {
    kind: 'pipeline',
    parse: (name, body) => parsePipeline(type, name, body),
    run() {
      throw new Error('pipelines run through runSiblingPipeline / withParentPipelines');
    },
  };
}

export const PIPELINES: Record<string, AggregationType<PipelineParams>> = Object.fromEntries(
  ['avg_bucket', 'max_bucket', 'min_bucket', 'sum_bucket', 'stats_bucket', 'extended_stats_bucket', 'percentiles_bucket',
    'derivative', 'cumulative_sum', 'moving_fn', 'bucket_sort', 'bucket_script', 'bucket_selector', 'serial_diff'].map((t) => [t, pipeline(t)]),
);

function findResult(results: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const direct = results[name];
  if (isObject(direct)) return direct;
  for (const [k, v] of Object.entries(results)) if (k.endsWith(`#${name}`) && isObject(v)) return v;
  return undefined;
}

function invalidPath(what: string, at: string): EsError {
  return new EsError(400, 'aggregation_execution_exception',
    `buckets_path must reference either a number value or a single value numeric metric aggregation, got: [${what}] at aggregation [${at}]`);
}

/** `_key` as a value: a numeric key (a histogram's, a long or double term); a string or date key is none. */
function keyValue(bucket: Record<string, unknown>, dateKeys: boolean): number {
  if (typeof bucket.key === 'number' && !dateKeys) return bucket.key;
  if (typeof bucket.key === 'bigint') return Number(bucket.key);
  throw invalidPath(dateKeys ? 'ZonedDateTime' : 'String', '_key');
}

/** The value a bucket gives for a path relative to it; NaN for gaps (empty buckets, null values). */
function bucketValue(bucket: Record<string, unknown>, path: string, gap: PipelineParams['gapPolicy'], dateKeys = false): number {
  if (path === '_count') return Number(bucket.doc_count);
  const steps = path === '_key' ? [] : path.split('>');
  let cur = bucket;
  for (let i = 0; i < steps.length - 1; i++) {
    const r = findResult(cur, steps[i].split('.')[0]);
    if (!r) break;
    if (Array.isArray(r.buckets) || isObject(r.buckets)) throw invalidPath('Object[]', steps[i]);
    cur = r;
  }
  const [name, metric] = (steps[steps.length - 1] ?? '').split(/\.(.+)/);
  const r = steps.length ? findResult(cur, name) : undefined;
  if (r && metric === undefined) {
    if (Array.isArray(r.buckets)) throw invalidPath(typeof (r.buckets[0] as Record<string, unknown> | undefined)?.key === 'string' ? 'StringTerms' : 'LongTerms', name);
    if (!('value' in r) && !('doc_count' in r)) {
      throw new EsError(400, 'aggregation_execution_exception',
        `buckets_path must reference either a number value or a single value numeric metric aggregation, but [${name}] contains multiple values. Please specify which to use.`);
    }
  }
  let v = path === '_key' ? keyValue(bucket, dateKeys) : pathValue(bucket, path);
  if (Number(bucket.doc_count) === 0 && path !== '_count') v = NaN;
  if (Number.isNaN(v) && gap === 'insert_zeros') v = 0;
  return v;
}

/** A sibling pipeline (`avg_bucket`…) over the buckets of a sibling multi-bucket aggregation. */
export function runSiblingPipeline(node: AggNode, results: Record<string, unknown>, ctx: AggContext): AggOutput {
  const p = node.params as PipelineParams;
  if (PARENT.has(node.type)) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: ${node.type} aggregation [${node.name}] must be declared inside of another aggregation;`);
  }
  const [first, ...rest] = p.bucketsPath.split('>');
  const dot = first.indexOf('.');
  const aggName = dot < 0 ? first : first.slice(0, dot);
  if (dot >= 0) rest.unshift(first.slice(dot + 1));
  const target = findResult(results, aggName);
  if (!target) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: No aggregation found for path [${p.bucketsPath}];`);
  }
  const raw = target.buckets;
  const buckets = (Array.isArray(raw) ? raw : isObject(raw) ? Object.entries(raw).map(([k, b]) => ({ key: k, ...(b as object) })) : []) as Array<Record<string, unknown>>;
  const subPath = rest.join('>') || '_count';
  const values: Array<[unknown, number]> = [];
  for (const b of buckets) {
    const v = bucketValue(b, subPath, p.gapPolicy);
    if (!Number.isNaN(v)) values.push([b.key_as_string ?? b.key, v]);
  }
  void ctx;
  const sum = values.reduce((s, [, v]) => s + v, 0);
  switch (node.type) {
    case 'avg_bucket':
      return { typed: 'simple_value', body: { value: values.length ? sum / values.length : null } };
    case 'sum_bucket':
      return { typed: 'simple_value', body: { value: sum } };
    case 'max_bucket':
    case 'min_bucket': {
      let best: number | null = null;
      let keys: unknown[] = [];
      for (const [k, v] of values) {
        if (best === null || (node.type === 'max_bucket' ? v > best : v < best)) {
          best = v;
          keys = [k];
        } else if (v === best) keys.push(k);
      }
      return { typed: 'bucket_metric_value', body: { value: best, keys: keys.map(String) } };
    }
    case 'stats_bucket':
    case 'extended_stats_bucket': {
      const n = values.length;
      const body: Record<string, unknown> = {
        count: n, min: n ? Math.min(...values.map(([, v]) => v)) : null, max: n ? Math.max(...values.map(([, v]) => v)) : null,
        avg: n ? sum / n : null, sum,
      };
      return { typed: node.type, body };
    }
    default:
      throw new EsError(400, 'illegal_argument_exception', `[${node.type}] is not supported by the embedded engine yet`);
  }
}

/** The multi-bucket aggregations whose buckets are in key order, which the sequential pipelines need. */
const SEQUENTIAL_PARENTS = new Set(['histogram', 'date_histogram', 'auto_date_histogram']);
const SEQUENTIAL = new Set(['derivative', 'cumulative_sum', 'moving_fn', 'serial_diff']);
const DATE_KEYED = new Set(['date_histogram', 'auto_date_histogram']);

/**
 * A parent pipeline's place, checked at parse time: the sequential ones (derivative…) need a
 * histogram parent (Elasticsearch's validateParentAggSequentiallyOrdered); every one needs a parent.
 */
export function validateParentPipeline(type: string, name: string, parentType: string | undefined): void {
  if (!PARENT.has(type)) return;
  if (parentType === undefined) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: ${type} aggregation [${name}] must be declared inside of another aggregation;`);
  }
  if (SEQUENTIAL.has(type) && !SEQUENTIAL_PARENTS.has(parentType)) {
    throw new EsError(400, 'action_request_validation_exception',
      `Validation Failed: 1: ${type} aggregation [${name}] must have a histogram, date_histogram or auto_date_histogram as parent;`);
  }
}

/** A parent pipeline's paths. */
function pathsOf(node: AggNode): string[] {
  const p = node.params as PipelineParams;
  return node.type === 'bucket_sort' ? (p.sort ?? []).map((s) => s.path) : p.paths ? Object.values(p.paths) : [p.bucketsPath];
}

/** The sibling aggregation a path starts at. */
const pathHead = (path: string) => path.split(/[>.[]/)[0];

/** The sibling aggregation each of a pipeline's paths starts at. */
function pathHeads(node: AggNode): string[] {
  return pathsOf(node).map(pathHead);
}

/**
 * The paths of the parent pipelines among `subs` (the sub-aggregations of one aggregation) start
 * at one of them, or are `_count` / `_key`: Elasticsearch refuses the request otherwise.
 */
export function validatePipelinePaths(subs: AggNode[]): void {
  const names = new Set(subs.map((n) => n.name));
  for (const node of subs) {
    if (!PARENT.has(node.type)) continue;
    for (const path of pathsOf(node)) {
      if (path === '_count' || path === '_key' || names.has(pathHead(path))) continue;
      // a name may hold a dot: the path starts at it when a separator follows it
      if ([...names].some((n) => path === n || (path.startsWith(n) && '>.['.includes(path[n.length])))) continue;
      throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: No aggregation found for path [${path}];`);
    }
  }
}

/**
 * The parent pipelines of `subs` in the order they run: one that reads another's output (a
 * bucket_selector on a bucket_script's value) after it, otherwise as declared (as Elasticsearch
 * orders pipelines by their buckets_path).
 */
function pipelineOrder(subs: AggNode[]): AggNode[] {
  const pipelines = subs.filter((n) => PARENT.has(n.type));
  const byName = new Map(pipelines.map((n) => [n.name, n]));
  const out: AggNode[] = [];
  const state = new Map<AggNode, 'visiting' | 'done'>();
  const visit = (n: AggNode) => {
    if (state.get(n) === 'done') return;
    if (state.get(n) === 'visiting') throw new EsError(400, 'illegal_argument_exception', `Cyclical dependency found with pipeline aggregator [${n.name}]`);
    state.set(n, 'visiting');
    for (const head of pathHeads(n)) {
      const dep = byName.get(head);
      if (dep && dep !== n) visit(dep);
    }
    state.set(n, 'done');
    out.push(n);
  };
  pipelines.forEach(visit);
  return out;
}

/**
 * Runs the parent pipelines among `node`'s sub-aggregations over the buckets of its result
 * (a list, or an object keyed by bucket), as Elasticsearch runs them after the reduce: on the
 * buckets in their final order. The result is a new body; the buckets it holds are copies.
 */
export function withParentPipelines(node: AggNode, out: AggOutput, ctx: AggContext): AggOutput {
  if (!node.subs.some((n) => PARENT.has(n.type))) return out;
  const raw = out.body.buckets;
  if (Array.isArray(raw)) {
    const buckets = (raw as Array<Record<string, unknown>>).map((b) => ({ ...b }));
    applyParentPipelines(node.subs, buckets, ctx, node.type);
    return { typed: out.typed, body: { ...out.body, buckets } };
  }
  if (!isObject(raw)) return out;
  const names = new Map<Record<string, unknown>, string>();
  const buckets = Object.entries(raw).map(([k, b]) => {
    const copy = { ...(b as Record<string, unknown>) };
    names.set(copy, k);
    return copy;
  });
  applyParentPipelines(node.subs, buckets, ctx, node.type);
  return { typed: out.typed, body: { ...out.body, buckets: Object.fromEntries(buckets.map((b) => [names.get(b)!, b])) } };
}

/**
 * Parent pipelines over the buckets of their parent (of type `parentType`): `derivative`,
 * `cumulative_sum`, `moving_fn`, `bucket_script` add a value to each bucket, `bucket_selector`
 * drops buckets, `bucket_sort` sorts and cuts them.
 */
function applyParentPipelines(subs: AggNode[], buckets: Array<Record<string, unknown>>, ctx: AggContext, parentType: string): void {
  const dateKeys = DATE_KEYED.has(parentType);
  for (const node of pipelineOrder(subs)) {
    const p = node.params as PipelineParams;
    const key = ctx.typedKeys ? `${node.type === 'cumulative_sum' || node.type === 'moving_fn' || node.type === 'bucket_script' ? 'simple_value' : node.type}#${node.name}` : node.name;
    if (node.type === 'derivative') {
      let prev: number | undefined;
      for (const b of buckets) {
        const v = bucketValue(b, p.bucketsPath, p.gapPolicy, dateKeys);
        if (prev !== undefined && !Number.isNaN(v)) b[key] = { value: v - prev };
        if (!Number.isNaN(v) || p.gapPolicy !== 'skip') prev = v;
      }
    } else if (node.type === 'cumulative_sum') {
      let total = 0;
      for (const b of buckets) {
        const v = bucketValue(b, p.bucketsPath, p.gapPolicy, dateKeys);
        if (!Number.isNaN(v)) total += v;
        b[key] = { value: total };
      }
    } else if (node.type === 'moving_fn') {
      applyMovingFunction(node, p, key, buckets, ctx, dateKeys);
    } else if (node.type === 'bucket_script' || node.type === 'bucket_selector') {
      applyScriptPipeline(node, p, key, buckets, ctx, dateKeys);
    } else if (node.type === 'bucket_sort') {
      applyBucketSort(p, buckets, dateKeys);
    } else {
      throw new EsError(400, 'illegal_argument_exception', `[${node.type}] is not supported by the embedded engine yet`);
    }
  }
}

/**
 * `bucket_sort`: the buckets sorted by the sort fields (`_key` and `_count` as they are, other
 * paths as bucket values), a bucket without a value for a field (a gap) after those with one,
 * ties in their order before; one with a gap in every field is left out. Then `from` and `size`
 * cut them.
 */
function applyBucketSort(p: PipelineParams, buckets: Array<Record<string, unknown>>, dateKeys: boolean): void {
  const sort = p.sort ?? [];
  const valueOf = (b: Record<string, unknown>, path: string): unknown => {
    if (path === '_key') return b.key;
    if (path === '_count') return Number(b.doc_count);
    const v = bucketValue(b, path, p.gapPolicy, dateKeys);
    return Number.isNaN(v) ? undefined : v;
  };
  // a bucket with a gap in every sort field is left out
  const rows = buckets.map((b, i) => ({ b, i, values: sort.map((s) => valueOf(b, s.path)) }))
    .filter((r) => sort.length === 0 || r.values.some((v) => v !== undefined));
  const compare = (x: unknown, y: unknown): number => {
    if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : x > y ? 1 : 0;
    const a = String(x);
    const c = String(y);
    return a < c ? -1 : a > c ? 1 : 0;
  };
  rows.sort((r, q) => {
    for (let k = 0; k < sort.length; k++) {
      const x = r.values[k];
      const y = q.values[k];
      if (x === undefined && y === undefined) continue;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      const d = compare(x, y);
      if (d !== 0) return sort[k].asc ? d : -d;
    }
    return r.i - q.i;
  });
  const from = p.from ?? 0;
  const kept = rows.slice(from, p.size === undefined ? undefined : from + p.size).map((r) => r.b);
  buckets.splice(0, buckets.length, ...kept);
}

/**
 * `bucket_script` adds the script's value to each bucket (a bucket with a gap, under `skip`,
 * gets none); `bucket_selector` keeps the buckets its script accepts. The script reads the
 * `buckets_path` values (doubles) as `params.<name>`.
 */
function applyScriptPipeline(node: AggNode, p: PipelineParams, key: string, buckets: Array<Record<string, unknown>>, ctx: AggContext, dateKeys: boolean): void {
  const selector = node.type === 'bucket_selector';
  const context = selector ? BUCKET_SELECTOR_CONTEXT : BUCKET_SCRIPT_CONTEXT;
  const resolved = resolveScript(p.scriptSpec!, ctx.storedScripts, { expression: true });
  const script = resolved.lang === 'painless' ? compileScript(resolved.source, context, resolved.name) : undefined;
  const paths = Object.entries(p.paths!);
  // Each bucket is a step of the phase (it may pause between two; a replayed one reads no
  // values): the script's result, undefined for a bucket_script's gap under `skip`.
  const run = (b: Record<string, unknown>) => asStep(ctx.steps, node, undefined, () => {
    const values = paths.map(([, path]) => bucketValue(b, path, p.gapPolicy, dateKeys));
    if (!selector && p.gapPolicy === 'skip' && values.some((v) => Number.isNaN(v))) return undefined;
    // an expression reads the buckets_path values as variables, bound as it is compiled
    if (!script) return compileExpression(resolved.source, context, { ...resolved.params, ...Object.fromEntries(paths.map(([name], i) => [name, values[i]])) }, resolved.name).run({});
    const params = fromJson(resolved.params) as Map<unknown, unknown>;
    paths.forEach(([name], i) => params.set(name, boxDouble(values[i])));
    return script.run({ params });
  });
  const kept: Array<Record<string, unknown>> = [];
  for (const b of buckets) {
    if (selector) {
      if (run(b) === true) kept.push(b);
      continue;
    }
    const value = unbox(run(b));
    if (value !== null && value !== undefined) {
      if (typeof value !== 'number') throw new EsError(400, 'aggregation_execution_exception', `Script for [${node.name}] must return a Number`);
      const out: Record<string, unknown> = { value };
      if (p.format !== undefined) out.value_as_string = decimalFormat(value, p.format);
      b[key] = out;
    }
    kept.push(b);
  }
  if (selector) buckets.splice(0, buckets.length, ...kept);
}

/**
 * `moving_fn`: each bucket with a value gets the script's result over the window of the bucket
 * values before it (`window` of them, moved right by `shift`), as `values` (a double[]). Buckets
 * with a gap get nothing and are not part of any window; a NaN result is printed as null.
 */
function applyMovingFunction(node: AggNode, p: PipelineParams, key: string, buckets: Array<Record<string, unknown>>, ctx: AggContext, dateKeys: boolean): void {
  const resolved = resolveScript(p.scriptSpec!, ctx.storedScripts);
  const script = compileScript(resolved.source, MOVING_FUNCTION_CONTEXT, resolved.name);
  const bucketValues = buckets.map((b) => bucketValue(b, p.bucketsPath, p.gapPolicy, dateKeys));
  const values = bucketValues.filter((v) => !Number.isNaN(v));
  const clamp = (i: number) => Math.max(0, Math.min(values.length, i));
  let index = 0;
  buckets.forEach((b, i) => {
    if (Number.isNaN(bucketValues[i])) return;
    const window = values.slice(clamp(index - p.window! + p.shift!), clamp(index + p.shift!));
    const params = fromJson(resolved.params) as Map<unknown, unknown>;
    const globals = { params, values: javaArray(window, 'double') };
    const value = Number(unbox(asStep(ctx.steps, node, undefined, () => script.run(globals))));
    b[key] = { value: Number.isFinite(value) ? value : null };
    index++;
  });
}
