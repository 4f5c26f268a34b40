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
  if (type !== 'bucket_sort' && (typeof bp !== 'string' || bp === '')) {
    throw new EsError(400, 'illegal_argument_exception', `[buckets_path] must be set for aggregation [${name}]`);
  }
  const gap = body.gap_policy === undefined ? 'skip' : String(body.gap_policy);
  if (!['skip', 'insert_zeros', 'keep_values'].includes(gap)) throw new EsError(400, 'illegal_argument_exception', `Unknown gap policy [${gap}]`);
  return {
    bucketsPath: String(bp ?? ''), gapPolicy: gap as PipelineParams['gapPolicy'], window: body.window as number | undefined, shift: (body.shift as number | undefined) ?? 0,
    scriptSpec: type === 'moving_fn' ? parseScriptSpec(body.script) : undefined, format: body.format as string | undefined,
  };
}

function pipeline(type: string): AggregationType<PipelineParams> {
  return {
    kind: 'pipeline',
    parse: (name, body) => parsePipeline(type, name, body),
    run() {
      throw new Error('pipelines run through runSiblingPipeline / applyParentPipelines');
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

/** The value a bucket gives for a path relative to it; NaN for gaps (empty buckets, null values). */
function bucketValue(bucket: Record<string, unknown>, path: string, gap: PipelineParams['gapPolicy']): number {
  if (path === '_count') return Number(bucket.doc_count);
  const steps = path.split('>');
  let cur = bucket;
  for (let i = 0; i < steps.length - 1; i++) {
    const r = findResult(cur, steps[i].split('.')[0]);
    if (!r) break;
    if (Array.isArray(r.buckets) || isObject(r.buckets)) throw invalidPath('Object[]', steps[i]);
    cur = r;
  }
  const last = steps[steps.length - 1];
  const [name, metric] = last.split(/\.(.+)/);
  const r = findResult(cur, name);
  if (r && metric === undefined) {
    if (Array.isArray(r.buckets)) throw invalidPath(typeof (r.buckets[0] as Record<string, unknown> | undefined)?.key === 'string' ? 'StringTerms' : 'LongTerms', name);
    if (!('value' in r) && !('doc_count' in r)) {
      throw new EsError(400, 'aggregation_execution_exception',
        `buckets_path must reference either a number value or a single value numeric metric aggregation, but [${name}] contains multiple values. Please specify which to use.`);
    }
  }
  let v = pathValue(bucket, path);
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

/** Parent pipelines (`derivative`, `cumulative_sum`, `moving_fn`) add a value to each bucket. */
export function applyParentPipelines(subs: AggNode[], buckets: Array<Record<string, unknown>>, ctx: AggContext): void {
  for (const node of subs) {
    if (!PARENT.has(node.type)) continue;
    const p = node.params as PipelineParams;
    const key = ctx.typedKeys ? `${node.type === 'cumulative_sum' || node.type === 'moving_fn' || node.type === 'bucket_script' ? 'simple_value' : node.type}#${node.name}` : node.name;
    if (node.type === 'derivative') {
      let prev: number | undefined;
      for (const b of buckets) {
        const v = bucketValue(b, p.bucketsPath, p.gapPolicy);
        if (prev !== undefined && !Number.isNaN(v)) b[key] = { value: v - prev };
        if (!Number.isNaN(v) || p.gapPolicy !== 'skip') prev = v;
      }
    } else if (node.type === 'cumulative_sum') {
      let total = 0;
      for (const b of buckets) {
        const v = bucketValue(b, p.bucketsPath, p.gapPolicy);
        if (!Number.isNaN(v)) total += v;
        b[key] = { value: total };
      }
    } else if (node.type === 'moving_fn') {
      applyMovingFunction(node, p, key, buckets, ctx);
    } else if (node.type === 'bucket_script' || node.type === 'bucket_selector') {
      applyScriptPipeline(node, p, key, buckets, ctx);
    } else {
      throw new EsError(400, 'illegal_argument_exception', `[${node.type}] is not supported by the embedded engine yet`);
    }
  }
}

/**
 * `bucket_script` adds the script's value to each bucket (a bucket with a gap, under `skip`,
 * gets none); `bucket_selector` keeps the buckets its script accepts. The script reads the
 * `buckets_path` values (doubles) as `params.<name>`.
 */
function applyScriptPipeline(node: AggNode, p: PipelineParams, key: string, buckets: Array<Record<string, unknown>>, ctx: AggContext): void {
  const selector = node.type === 'bucket_selector';
  const context = selector ? BUCKET_SELECTOR_CONTEXT : BUCKET_SCRIPT_CONTEXT;
  const resolved = resolveScript(p.scriptSpec!, ctx.storedScripts, { expression: true });
  const script = resolved.lang === 'painless' ? compileScript(resolved.source, context, resolved.name) : undefined;
  const paths = Object.entries(p.paths!);
  // Each bucket is a step of the phase (it may pause between two; a replayed one reads no
  // values): the script's result, undefined for a bucket_script's gap under `skip`.
  const run = (b: Record<string, unknown>) => asStep(ctx.steps, node, undefined, () => {
    const values = paths.map(([, path]) => bucketValue(b, path, p.gapPolicy));
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
function applyMovingFunction(node: AggNode, p: PipelineParams, key: string, buckets: Array<Record<string, unknown>>, ctx: AggContext): void {
  const resolved = resolveScript(p.scriptSpec!, ctx.storedScripts);
  const script = compileScript(resolved.source, MOVING_FUNCTION_CONTEXT, resolved.name);
  const bucketValues = buckets.map((b) => bucketValue(b, p.bucketsPath, p.gapPolicy));
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
