/**
 * `multi_terms`: buckets for the combinations of several fields' values (a document counts once
 * in each combination of its values), keyed by the list of values and `key_as_string` with them
 * joined by `|`. Keys print as Elasticsearch's key converters print them: strings for keywords and
 * formatted dates, numbers, booleans.
 */
import { docCounts, weightOf } from './doc-count-field.js';
import { refuseRangeField } from './range-field-source.js';
import { ipOrderKey } from '../../mapping/index.js';
import { EsError } from '../../../../errors/index.js';
import { candidateBuckets, checkBucketCount } from './max-buckets.js';
import { withSubs } from './aggregations.js';
import { bucketComparator, javaDouble, parseOrder, type OrderCriterion } from './bucket-order.js';
import { emptyDocSet, missingArray, resolveSource, valuesOf, type ResolvedSource } from './source.js';
import { isObject, type AggregationType, type DocSet, type Value } from './types.js';
import { parseSourceParams, type SourceParams } from './values-source.js';

interface MultiTermsParams {
  terms: SourceParams[];
  size: number;
  shardSize: number;
  minDocCount: number;
  shardMinDocCount: number;
  order: OrderCriterion[];
  showTermDocCountError: boolean;
}

/** Elasticsearch caps the number of `terms` sources. */
const MAX_TERMS = 10;

function intOf(v: unknown, key: string, aggName: string): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [multi_terms] failed to parse field [${key}]`);
  void aggName;
  return n;
}

/** One source value as the response's key shows it. */
function keyOf(v: Value, src: ResolvedSource): string | number | boolean {
  switch (src.kind) {
    case 'date':
      return src.format.asString(Number(v)) ?? Number(v);
    case 'boolean':
      return typeof v === 'boolean' ? v : Number(v) !== 0;
    case 'long':
    case 'double':
      return src.format.asString(Number(v)) ?? Number(v);
    default:
      return String(v);
  }
}

/** Java's toString of a key part: doubles print as `1.0`. */
function keyText(k: string | number | boolean, src: ResolvedSource): string {
  if (typeof k === 'number' && src.kind === 'double') return javaDouble(k);
  return String(k);
}

/** Key parts in Elasticsearch's order (an ip part by its 16-byte form). */
function compareParts(a: unknown[], b: unknown[], sources: ResolvedSource[]): number {
  for (let i = 0; i < a.length; i++) {
    let x = a[i];
    let y = b[i];
    if (x === y) continue;
    if (sources[i].kind === 'ip') {
      x = ipOrderKey(String(x)) ?? x;
      y = ipOrderKey(String(y)) ?? y;
    }
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'boolean' && typeof y === 'boolean') return x ? 1 : -1;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

export const multiTerms: AggregationType<MultiTermsParams> = {
  kind: 'bucket',
  parse(name, body, subs) {
    for (const k of Object.keys(body)) {
      if (!['terms', 'size', 'shard_size', 'min_doc_count', 'shard_min_doc_count', 'order', 'show_term_doc_count_error', 'collect_mode'].includes(k)) {
        throw new EsError(400, 'x_content_parse_exception', `[1:1] [multi_terms] unknown field [${k}]`);
      }
    }
    if (body.terms === undefined || body.terms === null) throw new EsError(400, 'illegal_argument_exception', `The [terms] parameter in the aggregation [${name}] must be present and have at least 2 fields or scripts.`);
    if (!Array.isArray(body.terms)) throw new EsError(400, 'x_content_parse_exception', '[1:1] [multi_terms] terms doesn\'t support values of type: START_OBJECT');
    const terms = body.terms.map((t) => {
      if (!isObject(t)) throw new EsError(400, 'x_content_parse_exception', '[1:1] [multi_terms] failed to parse field [terms]');
      for (const k of Object.keys(t)) {
        if (!['field', 'script', 'missing', 'value_type', 'format', 'time_zone'].includes(k)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [field_config] unknown field [${k}]`);
      }
      return parseSourceParams('multi_terms', name, t);
    });
    if (terms.length < 2) {
      throw new EsError(400, 'illegal_argument_exception',
        `The [terms] parameter in the aggregation [${name}] must be present and have at least 2 fields or scripts.${terms.length === 1 ? ' For a single field user terms aggregation.' : ''}`);
    }
    if (terms.length > MAX_TERMS) {
      throw new EsError(400, 'illegal_argument_exception', `The [terms] parameter in the aggregation [${name}] cannot have more than ${MAX_TERMS} fields or scripts. Found [${terms.length}].`);
    }
    const size = body.size === undefined ? 10 : intOf(body.size, 'size', name);
    if (size <= 0) throw new EsError(400, 'illegal_argument_exception', `[size] must be greater than 0. Found [${size}] in [${name}]`);
    const shardSize = body.shard_size === undefined ? Math.floor(size * 1.5 + 10) : intOf(body.shard_size, 'shard_size', name);
    if (shardSize <= 0) throw new EsError(400, 'illegal_argument_exception', `[shardSize] must be greater than 0. Found [${shardSize}] in [${name}]`);
    const minDocCount = body.min_doc_count === undefined ? 1 : intOf(body.min_doc_count, 'min_doc_count', name);
    if (minDocCount < 1) throw new EsError(400, 'illegal_argument_exception', `[minDocCount] must be greater than or equal to 1. Found [${minDocCount}] in [${name}]`);
    const shardMinDocCount = body.shard_min_doc_count === undefined ? 0 : intOf(body.shard_min_doc_count, 'shard_min_doc_count', name);
    return {
      terms, size, shardSize: Math.max(size, shardSize), minDocCount, shardMinDocCount,
      order: body.order === undefined ? [{ path: '_count', asc: false }] : parseOrder(body.order, name, subs),
      showTermDocCountError: body.show_term_doc_count_error === true,
    };
  },
  run(node, docs, ctx) {
    const p = node.params;
    for (const s of p.terms) if (!s.script) refuseRangeField(docs, s.field, 'multi_terms');
    const sources = p.terms.map((s) => resolveSource(docs, s, ctx));
    const misses = sources.map((s) => missingArray(s));
    const groups = new Map<string, { parts: Array<string | number | boolean>; count: number; docs: DocSet }>();
    docs.forEach((seg, si) => {
      const counts = docCounts(seg.handle);
      for (const ord of seg.ords) {
        // The combinations of the document's distinct values, each counted once.
        let combos: Array<Array<string | number | boolean>> = [[]];
        for (let i = 0; i < sources.length && combos.length; i++) {
          const parts = [...new Set(valuesOf(sources[i], si, ord, misses[i]).map((v) => keyOf(v, sources[i])))];
          combos = parts.length ? combos.flatMap((c) => parts.map((v) => [...c, v])) : [];
        }
        for (const combo of combos) {
          const id = JSON.stringify(combo);
          let g = groups.get(id);
          if (!g) groups.set(id, (g = { parts: combo, count: 0, docs: emptyDocSet(docs) }));
          g.count += weightOf(counts, ord);
          g.docs[si].ords.push(ord);
        }
      }
    });
    let total = 0;
    let buckets = [...groups.values()].filter((g) => g.count >= p.shardMinDocCount).map((g) => {
      total += g.count;
      const b: Record<string, unknown> = { key: g.parts, key_as_string: g.parts.map((k, i) => keyText(k, sources[i])).join('|'), doc_count: g.count };
      if (p.showTermDocCountError) b.doc_count_error_upper_bound = 0;
      return { b, g };
    });
    const bySubs = p.order.some((o) => o.path !== '_key' && o.path !== '_count');
    const candidates = candidateBuckets<Record<string, unknown>>(ctx.buckets);
    if (bySubs) for (const { b, g } of buckets) candidates.fill(b, () => withSubs(b, node.subs, g.docs, ctx, false));
    const criteria = p.order.map((o) => (o.path === '_key' ? undefined : bucketComparator([o], false)));
    buckets.sort((x, y) => {
      for (let i = 0; i < p.order.length; i++) {
        const c = criteria[i];
        const d = c ? c(x.b, y.b) : compareParts(x.g.parts, y.g.parts, sources) * (p.order[i].asc ? 1 : -1);
        if (d !== 0) return d;
      }
      return compareParts(x.g.parts, y.g.parts, sources);
    });
    const shardTop = buckets.slice(0, p.shardSize);
    let other = total;
    for (const x of shardTop) other -= x.g.count;
    const kept = shardTop.filter((x) => x.g.count >= p.minDocCount);
    checkBucketCount(Math.min(kept.length, p.size), ctx.buckets);
    buckets = kept.slice(0, p.size);
    for (const x of kept.slice(p.size)) other += x.g.count;
    if (bySubs) candidates.chosen(buckets.map(({ b }) => b));
    const out = buckets.map(({ b, g }) => (bySubs ? b : withSubs(b, node.subs, g.docs, ctx)));
    return { typed: 'multi_terms', body: { doc_count_error_upper_bound: 0, sum_other_doc_count: other, buckets: out } };
  },
};
