import { asStep } from './aggregation-steps.js';
import { candidateBuckets, checkBucketCount } from './max-buckets.js';
import { EsError } from '../../../../errors/index.js';
import { DocValues, DV_STRING } from '../../index/index.js';
import { fieldType, ipOrderKey, resolveFieldMapping } from '../../mapping/index.js';
import { noteFielddataLoaded, noteGlobalOrdinals } from '../../indices/index.js';
import { withSubs } from './aggregations.js';
import { bucketComparator, ordersBySubAgg, parseOrder, type OrderCriterion } from './bucket-order.js';
import { buildIncludeExclude, maxRegexLengthOf, validateIncludeExclude, type IncludeExcludeSpec } from './include-exclude.js';
import { refuseRangeField } from './range-field-source.js';
import { docCounts, weightOf } from './doc-count-field.js';
import { emptyDocSet, missingArray, resolveSource, valuesOf, type ResolvedSource } from './source.js';
import type { AggContext, AggNode, AggOutput, AggregationType, DocSet, Value } from './types.js';
import { parseSourceParams, type SourceParams } from './values-source.js';
import { exactKeys } from './unsigned-long-values.js';
import { unknownField } from './unknown-field.js';

interface TermsParams {
  source: SourceParams;
  size: number;
  shardSize: number;
  minDocCount: number;
  order: OrderCriterion[];
  includeExclude: IncludeExcludeSpec;
  showTermDocCountError: boolean;
  /** `execution_hint` as given: `map` reads the values as they are, anything else builds global ordinals. */
  executionHint?: string;
}

/** `size` and `shard_size` are ints; `min_doc_count` a long (TermsAggregationBuilder's parser, Elasticsearch's and OpenSearch's alike). */
function intOf(v: unknown, name: string, aggName: string, min: number, range: 'int' | 'long' = 'int'): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new EsError(400, 'parsing_exception', `[${name}] must be an integer in [${aggName}]`, { line: 1, col: 1 });
  const [low, high] = range === 'int' ? ['-2147483648', '2147483647'] : ['-9223372036854775808', '9223372036854775807'];
  if (n > Number(high)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [terms] failed to parse field [${name}]: Numeric value (${n}) out of range of ${range} (${low} - ${high})`);
  if (n < min) {
    const what = min === 1 ? 'greater than 0' : 'greater than or equal to 0';
    throw new EsError(400, 'illegal_argument_exception', `[${name}] must be ${what}. Found [${n}] in [${aggName}]`);
  }
  return n;
}

const KNOWN = new Set(['field', 'script', 'missing', 'value_type', 'format', 'size', 'shard_size', 'min_doc_count', 'shard_min_doc_count',
  'order', 'include', 'exclude', 'execution_hint', 'collect_mode', 'show_term_doc_count_error']);

/** Values of one document past which their distinct ones are told apart by a set (not by comparing each with those before it). */
const FEW_VALUES = 16;

/** Counts each distinct value of a doc once (doc values may repeat a value); linear in the values (a script may give a document 10^6). */
function forEachDistinct(vs: Value[], fn: (v: Value) => void): void {
  if (vs.length > FEW_VALUES) {
    const seen = new Set<Value>();
    for (const v of vs) {
      if (seen.has(v)) continue;
      seen.add(v);
      fn(v);
    }
    return;
  }
  outer: for (let i = 0; i < vs.length; i++) {
    const v = vs[i];
    for (let j = 0; j < i; j++) if (vs[j] === v) continue outer;
    fn(v);
  }
}

/** Counts a document's distinct values, each by the document's weight (its `_doc_count`, else 1). */
function count(counts: Map<Value, number>, vs: Value[], weight = 1): void {
  if (vs.length === 1) {
    const k = keyOf(vs[0]);
    counts.set(k, (counts.get(k) ?? 0) + weight);
  } else forEachDistinct(vs, (v) => {
    const k = keyOf(v);
    counts.set(k, (counts.get(k) ?? 0) + weight);
  });
}

/**
 * Counts a keyword column by string id in a typed array (no hashing, no allocation per document);
 * documents with several values (or none, for `missing`) go through `slow`.
 */
function countByStringId(dv: DocValues, ords: number[], counts: Map<Value, number>, slow: (ord: number) => Value[]): void {
  const offset = dv.extraCount;
  const tally = new Int32Array(dv.termCount + offset);
  for (let i = 0; i < ords.length; i++) {
    const ord = ords[i];
    if (dv.kindAt(ord) === DV_STRING) tally[dv.stringIdAt(ord) + offset]++;
    else count(counts, slow(ord));
  }
  for (let id = 0; id < tally.length; id++) {
    const c = tally[id];
    if (c === 0) continue;
    const k = dv.stringOf(id - offset);
    counts.set(k, (counts.get(k) ?? 0) + c);
  }
}

function keyOf(v: Value): Value {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}

export const terms: AggregationType<TermsParams> = {
  kind: 'bucket',
  parse(name, body, subs) {
    for (const k of Object.keys(body)) if (!KNOWN.has(k)) throw unknownField('terms', k, KNOWN);
    const source = parseSourceParams('terms', name, body);
    validateIncludeExclude(body, name);
    const size = body.size === undefined ? 10 : intOf(body.size, 'size', name, 1);
    const shardSize = body.shard_size === undefined || Number(body.shard_size) === -1 ? Math.floor(size * 1.5 + 10) : intOf(body.shard_size, 'shard_size', name, 1);
    return {
      source,
      size,
      shardSize: Math.max(size, shardSize),
      minDocCount: body.min_doc_count === undefined ? 1 : intOf(body.min_doc_count, 'min_doc_count', name, 0, 'long'),
      order: body.order === undefined ? [{ path: '_count', asc: false }] : parseOrder(body.order, name, subs),
      includeExclude: { include: body.include, exclude: body.exclude },
      showTermDocCountError: body.show_term_doc_count_error === true,
      executionHint: typeof body.execution_hint === 'string' ? body.execution_hint : undefined,
    };
  },
  run(node, docs, ctx) {
    const p = node.params;
    if (!p.source.script) refuseRangeField(docs, p.source.field, node.type ?? 'terms');
    const resolved = resolveSource(docs, p.source, ctx);
    // Elasticsearch builds the global ordinals of a keyword field or of a text field's field data unless
    // `map` is asked, and counts a keyword field's as field data
    if (p.executionHint !== 'map' && !p.source.script && p.source.field !== undefined && resolved.kind === 'bytes') {
      for (const seg of docs) {
        const type = fieldType(resolveFieldMapping(seg.handle.mappings, p.source.field) ?? {});
        if (type === 'keyword') noteFielddataLoaded(seg.handle, p.source.field);
        if (type === 'keyword' || type === 'text') noteGlobalOrdinals(seg.handle, p.source.field);
      }
    }
    // buckets keyed by the exact values (an unsigned_long's past 2^53 are BigInts)
    const src: ResolvedSource = { ...resolved, values: resolved.values.map(exactKeys) };
    if (ordersBySubAgg(p.order)) return chooseBuckets(node, docs, ctx, src, true);
    // The chosen buckets are one step of a phase run in passes (a pass that pauses in their
    // sub-aggregations does not count and sort the terms again); the sub-aggregations go on copies.
    const chosen = asStep(ctx.steps, p, ctx.buckets, () => chooseBuckets(node, docs, ctx, src, false));
    const buckets = (chosen.body.buckets as Array<Record<string, unknown>>).map((b) => ({ ...b }));
    if (node.subs.length) fillSubs(buckets, node.subs, src, docs, ctx);
    return { typed: chosen.typed, body: { ...chosen.body, buckets } };
  },
};

/**
 * The terms' buckets: counted, filtered, sorted and cut as one ES shard and the reduce would; with
 * their sub-aggregations when they are ordered by one (`bySub`), without them otherwise.
 */
function chooseBuckets(node: AggNode & { params: TermsParams }, docs: DocSet, ctx: AggContext, src: ResolvedSource, bySub: boolean): AggOutput {
    const p = node.params;
    const filter = buildIncludeExclude(p.includeExclude, src.kind, node.name, (v) => src.format.dateFormatter?.parse(v, ctx.now) ?? Number(v), maxRegexLengthOf(docs));
    const counts = new Map<Value, number>();
    const miss = missingArray(src);
    for (let si = 0; si < docs.length; si++) {
      const seg = docs[si];
      const dv = src.values[si];
      if (!dv && !miss) continue;
      const weights = docCounts(seg.handle);
      if (weights) {
        for (const ord of seg.ords) count(counts, valuesOf(src, si, ord, miss), weightOf(weights, ord));
        continue;
      }
      if (dv instanceof DocValues && src.kind === 'bytes') {
        countByStringId(dv, seg.ords, counts, (ord) => valuesOf(src, si, ord, miss));
        continue;
      }
      for (const ord of seg.ords) count(counts, valuesOf(src, si, ord, miss));
    }
    if (p.minDocCount === 0) addZeroCountTerms(counts, src, docs, ctx);
    // An unmapped field's answer (UnmappedTerms) is typed as string terms, as Elasticsearch types it.
    const typed = src.kind === 'bytes' || src.kind === 'ip' || (src.unmapped && src.missing === undefined) ? 'sterms' : src.kind === 'double' ? 'dterms' : 'lterms';
    let total = 0;
    let buckets: Array<Record<string, unknown>> = [];
    const render = (k: Value, c: number): Record<string, unknown> => {
      const b: Record<string, unknown> = { key: k };
      const s = src.format.asString(k as string | number);
      if (s !== undefined && src.kind !== 'bytes' && src.kind !== 'ip') b.key_as_string = s;
      b.doc_count = c;
      if (p.showTermDocCountError) b.doc_count_error_upper_bound = 0;
      return b;
    };
    for (const [k, c] of counts) {
      if (filter && !filter.accept(k)) continue;
      total += c;
      buckets.push(render(k, c));
    }
    const candidates = candidateBuckets<Record<string, unknown>>(ctx.buckets);
    if (bySub) fillSubs(buckets, node.subs, src, docs, ctx, candidates);
    buckets.sort(bucketComparator(p.order, true, src.kind === 'ip' ? (k) => ipOrderKey(String(k)) ?? k : undefined));
    // As one ES shard then the reduce: the shard keeps its top shard_size buckets (the rest is
    // "other"), the reduce drops those under min_doc_count and counts those beyond size as other.
    const shardTop = buckets.slice(0, p.shardSize);
    let other = total;
    for (const b of shardTop) other -= b.doc_count as number;
    const kept = shardTop.filter((b) => (b.doc_count as number) >= p.minDocCount);
    checkBucketCount(Math.min(kept.length, p.size), ctx.buckets);
    buckets = kept.slice(0, p.size);
    for (const b of kept.slice(p.size)) other += b.doc_count as number;
    if (bySub) candidates.chosen(buckets);
    const body: Record<string, unknown> = { doc_count_error_upper_bound: 0, sum_other_doc_count: other, buckets };
    return { typed, body };
}

/**
 * Gathers each bucket's documents in one pass, then runs the sub-aggregations per bucket (of
 * `candidates`: counted as such). The gathering is a step of its own: a phase run in passes that
 * pauses among the sub-aggregations does not gather again.
 */
function fillSubs(buckets: Array<Record<string, unknown>>, subs: AggNode[], src: ResolvedSource, docs: DocSet, ctx: AggContext,
  candidates?: ReturnType<typeof candidateBuckets<Record<string, unknown>>>): void {
  const byKey = asStep(ctx.steps, subs, undefined, () => docsByKey(buckets, src, docs));
  for (const b of buckets) {
    if (candidates) candidates.fill(b, () => withSubs(b, subs, byKey.get(b.key as Value)!, ctx, false));
    else withSubs(b, subs, byKey.get(b.key as Value)!, ctx);
  }
}

/** Each bucket's documents, by key. */
function docsByKey(buckets: Array<Record<string, unknown>>, src: ResolvedSource, docs: DocSet): Map<Value, DocSet> {
  const byKey = new Map<Value, DocSet>();
  for (const b of buckets) byKey.set(b.key as Value, emptyDocSet(docs));
  const miss = missingArray(src);
  docs.forEach((seg, si) => {
    for (const ord of seg.ords) {
      forEachDistinct(valuesOf(src, si, ord, miss), (v) => byKey.get(keyOf(v))?.[si].ords.push(ord));
    }
  });
  return byKey;
}

/** `min_doc_count: 0`: every term of the searched indices appears, with 0 when no hit has it. */
function addZeroCountTerms(counts: Map<Value, number>, src: ResolvedSource, docs: DocSet, ctx: AggContext): void {
  for (let si = 0; si < docs.length; si++) {
    const dv = src.values[si];
    if (!dv) continue;
    for (const vs of dv.values()) for (const v of vs) {
      const k = keyOf(v);
      if (!counts.has(k)) counts.set(k, 0);
    }
  }
  void ctx;
}

interface RareTermsParams {
  terms: TermsParams;
  maxDocCount: number;
}

/** `rare_terms`: the terms in at most `max_doc_count` documents, least frequent first. */
export const rareTerms: AggregationType<RareTermsParams> = {
  kind: 'bucket',
  parse(name, body) {
    for (const k of Object.keys(body)) {
      const known = ['field', 'missing', 'value_type', 'format', 'max_doc_count', 'precision', 'include', 'exclude', 'script'];
      if (!known.includes(k)) {
        throw unknownField('rare_terms', k, known);
      }
    }
    const maxDocCount = body.max_doc_count === undefined ? 1 : Number(body.max_doc_count);
    if (!Number.isInteger(maxDocCount) || maxDocCount <= 0) throw new EsError(400, 'illegal_argument_exception', `[maxDocCount] must be greater than 0. Found [${String(body.max_doc_count)}] in [${name}]`);
    if (maxDocCount > 100) throw new EsError(400, 'illegal_argument_exception', `[max_doc_count] must be smaller than or equal to [100] in [${name}]`);
    validateIncludeExclude(body, name);
    return {
      maxDocCount,
      terms: {
        source: parseSourceParams('rare_terms', name, body), size: Number.MAX_SAFE_INTEGER, shardSize: Number.MAX_SAFE_INTEGER, minDocCount: 1,
        order: [{ path: '_count', asc: true }, { path: '_key', asc: true }], includeExclude: { include: body.include, exclude: body.exclude }, showTermDocCountError: false,
      },
    };
  },
  run(node, docs, ctx) {
    const res = terms.run({ ...node, subs: [], params: node.params.terms }, docs, ctx);
    const kept = (res.body.buckets as Array<Record<string, unknown>>).filter((b) => (b.doc_count as number) <= node.params.maxDocCount);
    const src = resolveSource(docs, node.params.terms.source, ctx);
    if (node.subs.length) fillSubs(kept, node.subs, src, docs, ctx);
    // An unmapped field's answer (UnmappedRareTerms) is typed as string terms, not as rare terms.
    const typed = src.unmapped && src.missing === undefined ? 'sterms' : res.typed === 'sterms' ? 'srareterms' : 'lrareterms';
    return { typed, body: { buckets: kept } };
  },
};
