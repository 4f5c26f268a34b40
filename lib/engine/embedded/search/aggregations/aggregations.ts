import { asStep } from './aggregation-steps.js';
import { EsError } from '../../../../errors/index.js';
import { tokenName } from '../../../../ndjson/index.js';
import { isObject, type AggContext, type AggNode, type AggregationType, type DocSet } from './types.js';
import { registry } from './registry.js';
import { isParentPipeline, runSiblingPipeline, validateParentPipeline, validatePipelinePaths, withParentPipelines } from './pipelines.js';
import { consumeBucket } from './max-buckets.js';
import { didYouMean } from '../../rest/unknown-field.js';

function parsing(reason: string, extra: Record<string, unknown> = {}): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1, ...extra });
}

function unknownType(type: string): EsError {
  // Elasticsearch: SuggestingErrorOnUnknown over the registered aggregation names
  const hint = didYouMean(type, Object.keys(registry()));
  return parsing(`Unknown aggregation type [${type}]${hint}`, {
    caused_by: { type: 'named_object_not_found_exception', reason: `[1:1] unknown field [${type}]` },
  });
}

const FACTORY_NAMES: Record<string, string> = {
  terms: 'TermsAggregatorFactory', histogram: 'HistogramAggregatorFactory', date_histogram: 'DateHistogramAggregatorFactory',
  range: 'RangeAggregatorFactory', date_range: 'DateRangeAggregatorFactory', filter: 'FilterAggregatorFactory',
  filters: 'FiltersAggregatorFactory', missing: 'MissingAggregatorFactory', global: 'GlobalAggregatorFactory', composite: 'CompositeAggregationFactory',
};

/** Parses an `aggs` object (recursively), validating every aggregation as ES does at parse time. */
export function parseAggregations(raw: unknown, parentType?: string): AggNode[] {
  if (!isObject(raw)) throw parsing(`Unexpected token ${tokenName(raw)} in [aggs].`);
  const out: AggNode[] = [];
  for (const [name, def] of Object.entries(raw)) {
    if (/[[\]>]/.test(name)) {
      throw parsing(`Invalid aggregation name [${name}]. Aggregation names can contain any character except '[', ']', and '>'`);
    }
    if (!isObject(def)) throw parsing(`Expected [START_OBJECT] under [${name}], but got a [${tokenName(def)}] in [${name}]`);
    let type: string | undefined;
    let body: unknown;
    let subsRaw: unknown;
    let meta: unknown;
    for (const [k, v] of Object.entries(def)) {
      if (k === 'aggs' || k === 'aggregations') {
        if (subsRaw !== undefined) throw parsing(`Found two sub aggregation definitions under [${name}]`);
        subsRaw = v;
      } else if (k === 'meta') {
        if (!isObject(v)) throw parsing(`Expected [START_OBJECT] under [meta], but got a [${tokenName(v)}] in [${name}]`);
        meta = v;
      } else {
        if (type !== undefined) throw parsing(`Found two aggregation type definitions in [${name}]: [${type}] and [${k}]`);
        type = k;
        body = v;
      }
    }
    if (type === undefined) throw parsing(`Missing definition for aggregation [${name}]`, {});
    const impl: AggregationType | undefined = registry()[type];
    if (!impl) throw unknownType(type);
    if (!isObject(body)) throw parsing(`Expected [START_OBJECT] under [${type}], but got a [${tokenName(body)}] in [${name}]`);
    // ES 7 lets a composite sit under a `nested` (which must itself be at the top level).
    if (type === 'composite' && parentType !== undefined && parentType !== 'nested') {
      throw new EsError(400, 'illegal_argument_exception',
        `[composite] aggregation cannot be used with a parent aggregation of type: [${FACTORY_NAMES[parentType] ?? parentType}]`);
    }
    const subs = subsRaw === undefined ? [] : parseAggregations(subsRaw, type);
    validatePipelinePaths(subs);
    if (impl.kind !== 'bucket' && subs.length > 0) {
      throw new EsError(400, 'aggregation_initialization_exception', `Aggregator [${name}] of type [${type}] cannot accept sub-aggregations`);
    }
    const params = impl.parse(name, body, subs);
    validateParentPipeline(type, name, parentType);
    out.push({ name, type, body, subs, meta, params });
  }
  return out;
}

/** The response key of an aggregation: `type#name` with `typed_keys`. */
export function outputKey(name: string, typed: string, ctx: AggContext): string {
  return ctx.typedKeys ? `${typed}#${name}` : name;
}

/**
 * Runs aggregations over a doc set; returns the response object (keyed by name). Parent
 * pipelines run over the buckets of the aggregation that owns them, once it has built them;
 * sibling pipelines run last.
 */
export function runAggregations(nodes: AggNode[], docs: DocSet, ctx: AggContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const siblings: AggNode[] = [];
  for (const node of nodes) {
    const impl = registry()[node.type];
    if (impl.kind === 'pipeline') {
      if (!isParentPipeline(node.type)) siblings.push(node);
      continue;
    }
    const started = ctx.timings ? process.hrtime.bigint() : 0n;
    const res = asStep(ctx.steps, node, ctx.buckets, () => withParentPipelines(node, impl.run(node, docs, ctx), ctx));
    ctx.timings?.record(node, docs, process.hrtime.bigint() - started);
    if (node.meta !== undefined) res.body.meta = node.meta;
    out[outputKey(node.name, res.typed, ctx)] = res.body;
  }
  for (const node of siblings) {
    const res = runSiblingPipeline(node, out, ctx);
    if (node.meta !== undefined) res.body.meta = node.meta;
    out[outputKey(node.name, res.typed, ctx)] = res.body;
  }
  return out;
}

/**
 * Sub-aggregation results merged into a bucket object. A bucket of a multi-bucket aggregation
 * counts against the response's `search.max_buckets` (`multi` false: a single-bucket one, which
 * Elasticsearch does not count).
 */
export function withSubs(bucket: Record<string, unknown>, subs: AggNode[], docs: DocSet, ctx: AggContext, multi = true): Record<string, unknown> {
  if (multi) consumeBucket(ctx.buckets);
  if (subs.length === 0) return bucket;
  return Object.assign(bucket, runAggregations(subs, docs, ctx));
}
