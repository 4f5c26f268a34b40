/**
 * `variable_width_histogram`: about `buckets` clusters of a numeric field's values, each bucket
 * showing its `min`, centroid (`key`) and `max`, as Elasticsearch's VariableWidthHistogramAggregator
 * builds them on one shard — the first `initial_buffer` values split evenly (in value order) into
 * `shard_size · 3/4` clusters, each later value joining its nearest cluster or starting one when it
 * lies more than twice the mean cluster distance away — and its reduce merges them: same centroids,
 * then the two closest until `buckets` remain, then the same minimums, and overlapping bounds are
 * moved to their midpoint.
 */
import { EsError } from '../../../../errors/index.js';
import { withSubs } from './aggregations.js';
import { emptyDocSet, missingArray, resolveSource, valuesOf } from './source.js';
import type { AggregationType, DocSet } from './types.js';
import { numericValue, parseSourceParams, type SourceParams } from './values-source.js';
import { unknownField } from './unknown-field.js';

interface VariableWidthParams {
  source: SourceParams;
  buckets: number;
  shardSize: number;
  initialBuffer: number;
}

interface Cluster {
  min: number;
  max: number;
  centroid: number;
  size: number;
  docCount: number;
  docs: DocSet;
}

function intParam(name: string, key: string, v: unknown): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [variable_width_histogram] failed to parse field [${key}]`);
  void name;
  return n;
}

export const variableWidthHistogram: AggregationType<VariableWidthParams> = {
  kind: 'bucket',
  parse(name, body) {
    for (const k of Object.keys(body)) {
      const known = ['field', 'script', 'missing', 'value_type', 'format', 'buckets', 'shard_size', 'initial_buffer'];
      if (!known.includes(k)) {
        throw unknownField('variable_width_histogram', k, known);
      }
    }
    const buckets = body.buckets === undefined ? 10 : intParam(name, 'buckets', body.buckets);
    if (buckets <= 0) throw new EsError(400, 'illegal_argument_exception', `buckets must be greater than 0 for [${name}]`);
    const shardSize = body.shard_size === undefined ? buckets * 50 : intParam(name, 'shard_size', body.shard_size);
    if (shardSize < buckets) throw new EsError(400, 'illegal_argument_exception', `shard_size must be at least buckets for [${name}]`);
    const initialBuffer = body.initial_buffer === undefined ? Math.min(10 * shardSize, 50000) : intParam(name, 'initial_buffer', body.initial_buffer);
    if (initialBuffer < buckets) throw new EsError(400, 'illegal_argument_exception', `initial_buffer must be at least buckets for [${name}]`);
    return { source: parseSourceParams('variable_width_histogram', name, body), buckets, shardSize, initialBuffer };
  },
  run(node, docs, ctx) {
    const p = node.params;
    const src = resolveSource(docs, { ...p.source, valueType: p.source.valueType ?? 'double' }, ctx);
    if (!src.unmapped && (src.kind === 'bytes' || src.kind === 'ip')) {
      throw new EsError(400, 'illegal_argument_exception', `Field [${p.source.field}] of type [keyword] is not supported for aggregation [variable_width_histogram]`);
    }
    const miss = missingArray(src);
    const values: Array<{ v: number; si: number; ord: number }> = [];
    docs.forEach((seg, si) => {
      if (!src.values[si] && !miss) return;
      for (const ord of seg.ords) {
        let previous = -Infinity;
        for (const v of valuesOf(src, si, ord, miss).map((x) => numericValue(x)).sort((a, b) => a - b)) {
          if (v === previous) continue;
          previous = v;
          values.push({ v, si, ord });
        }
      }
    });
    let clusters = collect(values, p, docs);
    clusters = reduce(clusters, p.buckets, docs);
    const asString = (v: number) => src.format.asString(v);
    const buckets = clusters.map((c) => {
      // With a format (or on dates), each bound and the key also print as strings.
      const b: Record<string, unknown> = { min: c.min };
      if (asString(c.min) !== undefined) b.min_as_string = asString(c.min);
      b.key = c.centroid;
      if (asString(c.centroid) !== undefined) b.key_as_string = asString(c.centroid);
      b.max = c.max;
      if (asString(c.max) !== undefined) b.max_as_string = asString(c.max);
      b.doc_count = c.docCount;
      const docsOf = c.docs.map((s) => ({ ...s, ords: [...new Set(s.ords)].sort((x, y) => x - y) }));
      return withSubs(b, node.subs, docsOf, ctx);
    });
    return { typed: 'variable_width_histogram', body: { buckets } };
  },
};

function newCluster(v: number, like: DocSet): Cluster {
  return { min: v, max: v, centroid: v, size: 1, docCount: 0, docs: emptyDocSet(like) };
}

function addTo(c: Cluster, v: number): void {
  c.max = Math.max(c.max, v);
  c.min = Math.min(c.min, v);
  c.centroid = (c.centroid * c.size + v) / (c.size + 1);
  c.size++;
}

/** The shard's collection phases: buffer, split into clusters, then place each later value. */
function collect(values: Array<{ v: number; si: number; ord: number }>, p: VariableWidthParams, like: DocSet): Cluster[] {
  const buffered = values.slice(0, p.initialBuffer);
  if (!buffered.length) return [];
  const initial = Math.trunc((p.shardSize * 3) / 4);
  const perCluster = Math.ceil(buffered.length / initial);
  const sorted = [...buffered].sort((a, b) => a.v - b.v);
  const clusters: Cluster[] = [];
  sorted.forEach((x, i) => {
    const ci = Math.floor(i / perCluster);
    if (ci === clusters.length) clusters.push(newCluster(x.v, like));
    else addTo(clusters[ci], x.v);
    clusters[ci].docCount++;
    clusters[ci].docs[x.si].ords.push(x.ord);
  });
  let avgDistance = clusters.length > 1 ? (clusters[clusters.length - 1].centroid - clusters[0].centroid) / (clusters.length - 1) : 0;
  const updateAvg = () => {
    avgDistance = (clusters[clusters.length - 1].centroid - clusters[0].centroid) / (clusters.length - 1);
  };
  for (const x of values.slice(p.initialBuffer)) {
    let nearest = 0;
    for (let i = 1; i < clusters.length; i++) if (Math.abs(clusters[i].centroid - x.v) < Math.abs(clusters[nearest].centroid - x.v)) nearest = i;
    const distance = Math.abs(clusters[nearest].centroid - x.v);
    if (distance > 2 * avgDistance && clusters.length < p.shardSize) {
      const c = newCluster(x.v, like);
      c.docCount = 1;
      c.docs[x.si].ords.push(x.ord);
      clusters.splice(x.v > clusters[nearest].centroid ? nearest + 1 : nearest, 0, c);
      updateAvg();
    } else {
      addTo(clusters[nearest], x.v);
      clusters[nearest].docCount++;
      clusters[nearest].docs[x.si].ords.push(x.ord);
      if (nearest === 0 || nearest === clusters.length - 1) updateAvg();
    }
  }
  return clusters.sort((a, b) => a.centroid - b.centroid);
}

function mergeAll(list: Cluster[], like: DocSet): Cluster {
  const out: Cluster = { min: Infinity, max: -Infinity, centroid: 0, size: 0, docCount: 0, docs: emptyDocSet(like) };
  let sum = 0;
  for (const c of list) {
    out.docCount += c.docCount;
    out.min = Math.min(out.min, c.min);
    out.max = Math.max(out.max, c.max);
    sum += c.docCount * c.centroid;
    c.docs.forEach((seg, si) => out.docs[si].ords.push(...seg.ords));
  }
  out.centroid = sum / out.docCount;
  return out;
}

/** InternalVariableWidthHistogram's reduce on one shard's clusters. */
function reduce(clusters: Cluster[], target: number, like: DocSet): Cluster[] {
  // Same centroids become one bucket.
  let buckets: Cluster[] = [];
  for (let i = 0; i < clusters.length;) {
    let j = i;
    while (j < clusters.length && clusters[j].centroid === clusters[i].centroid) j++;
    buckets.push(j - i === 1 ? clusters[i] : mergeAll(clusters.slice(i, j), like));
    i = j;
  }
  // The two closest (by centroid) merge until `target` remain: planned on ranges, then applied.
  const ranges = buckets.map((b, i) => ({ start: i, end: i, centroid: b.centroid, docCount: b.docCount }));
  while (ranges.length > target) {
    let closest = 0;
    let smallest = Infinity;
    for (let i = 0; i < ranges.length - 1; i++) {
      const d = ranges[i + 1].centroid - ranges[i].centroid;
      if (d < smallest) {
        closest = i;
        smallest = d;
      }
    }
    const a = ranges[closest];
    const b = ranges[closest + 1];
    if (a.docCount + b.docCount > 0) a.centroid = (a.centroid * a.docCount + b.centroid * b.docCount) / (a.docCount + b.docCount);
    a.docCount += b.docCount;
    a.end = b.end;
    ranges.splice(closest + 1, 1);
  }
  buckets = ranges.map((r) => (r.start === r.end ? buckets[r.start] : mergeAll(buckets.slice(r.start, r.end + 1), like)));
  // Same minimums become one bucket; overlapping neighbours meet halfway.
  const sameMin: Cluster[] = [];
  for (const b of buckets) {
    const last = sameMin[sameMin.length - 1];
    if (last && last.min === b.min) sameMin[sameMin.length - 1] = mergeAll([last, b], like);
    else sameMin.push(b);
  }
  for (let i = 1; i < sameMin.length; i++) {
    const prev = sameMin[i - 1];
    const cur = sameMin[i];
    if (cur.min < prev.max) {
      cur.min = (prev.max + cur.min) / 2;
      prev.max = cur.min;
    }
  }
  return sameMin;
}
