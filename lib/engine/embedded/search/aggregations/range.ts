import { asStep } from './aggregation-steps.js';
import { EsError } from '../../../../errors/index.js';
import { checkBucketCount } from './max-buckets.js';
import { withSubs } from './aggregations.js';
import { javaDouble } from './bucket-order.js';
import { DateFormatter } from './date-formatter.js';
import { docCount, emptyDocSet, missingArray, resolveSource, valuesOf } from './source.js';
import { DEFAULT_DATE_FORMAT, bigIntToIp, parseTimeZone } from '../../mapping/index.js';
import { isObject, type AggregationType, type DocSet } from './types.js';
import { numericValue, parseSourceParams, type SourceParams } from './values-source.js';
import { unknownField } from './unknown-field.js';
import { refuseRangeField } from './range-field-source.js';

interface RangeSpec {
  key?: string;
  from?: unknown;
  to?: unknown;
  mask?: string;
}

interface RangeParams {
  source: SourceParams;
  ranges: RawRange[];
  keyed: boolean;
  timeZone?: unknown;
}

function parseRanges(type: string, name: string, body: Record<string, unknown>): RangeParams {
  for (const k of Object.keys(body)) {
    const known = ['field', 'script', 'missing', 'value_type', 'format', 'ranges', 'keyed', 'time_zone'];
    if (!known.includes(k)) {
      throw unknownField(type, k, known);
    }
  }
  const source = parseSourceParams(type, name, body);
  // Checked here, read later (specOf, a step of the phase at a time): a copy of each of 100,000
  // ranges made while the request is parsed held the event loop ~40 ms in one piece.
  const ranges = rangesOf(name, body.ranges);
  for (let i = 0; i < ranges.length; i++) {
    const r = ranges[i];
    if (!isObject(r)) throw new EsError(400, 'parsing_exception', `[ranges] must contain objects in [${name}]`, { line: 1, col: 1 });
    for (const k in r) {
      if (k !== 'key' && k !== 'from' && k !== 'to' && k !== 'mask' && Object.hasOwn(r, k)) throw unknownField('range', k, ['key', 'from', 'to', 'mask']);
    }
  }
  return { source, ranges: ranges as RawRange[], keyed: body.keyed === true, timeZone: body.time_zone };
}

/**
 * The `ranges` of a range aggregation; one range written as an object rather than a list is a list
 * of one, as Elasticsearch's ObjectParser reads an object array.
 */
export function rangesOf(name: string, ranges: unknown): unknown[] {
  const list = isObject(ranges) ? [ranges] : ranges;
  if (!Array.isArray(list) || list.length === 0) throw new EsError(400, 'illegal_argument_exception', `No [ranges] specified for the [${name}] aggregation`);
  return list;
}

/** A range as the request wrote it (checked by parseRanges). */
type RawRange = Record<'key' | 'from' | 'to' | 'mask', unknown>;

/** A range of the request read: a null bound or key is none, a key is text. */
function specOf(r: RawRange): RangeSpec {
  return { key: r.key === undefined || r.key === null ? undefined : String(r.key), from: r.from ?? undefined, to: r.to ?? undefined, mask: r.mask as string | undefined };
}

interface Resolved {
  spec: RangeSpec;
  from: number;
  to: number;
}

/**
 * Ranges are [from, to): a document counts once per range that one of its values falls in.
 * `ranges` are sorted by `from` (sortRanges): a value's ranges are found by a binary search and
 * a walk back while some earlier range still reaches past it (the running maximum of `to`), so a
 * value costs the log of the ranges and the ranges it is in, not every range.
 */
function collect(ranges: Resolved[], docs: DocSet, src: ReturnType<typeof resolveSource>, toNumber: (v: unknown) => number, ctx: Parameters<AggregationType['run']>[2]): DocSet[] {
  // each range's documents, filled a step of the phase at a time (COLLECTED_PER_STEP documents):
  // what the steps done before filled is kept with the first step's value
  const { out, reach, last } = asStep(ctx.steps, ranges, undefined, () => {
    const reach = new Float64Array(ranges.length);
    for (let r = 0, m = -Infinity; r < ranges.length; r++) reach[r] = m = Math.max(m, ranges[r].to);
    // The last document each range took, per index: a document counts once per range.
    return { out: ranges.map(() => emptyDocSet(docs)), reach, last: new Float64Array(ranges.length) };
  });
  const miss = missingArray(src);
  docs.forEach((seg, si) => {
    if (!src.values[si] && !miss) return;
    for (let start = 0; start < seg.ords.length; start += COLLECTED_PER_STEP) {
      asStep(ctx.steps, ranges, undefined, () => {
        if (start === 0) last.fill(-1);
        const end = Math.min(seg.ords.length, start + COLLECTED_PER_STEP);
        for (let i = start; i < end; i++) {
          const ord = seg.ords[i];
          for (const v of valuesOf(src, si, ord, miss)) {
            const n = toNumber(v);
            // The last range whose `from` is at most n.
            let lo = 0;
            let hi = ranges.length - 1;
            let at = -1;
            while (lo <= hi) {
              const mid = (lo + hi) >> 1;
              if (ranges[mid].from <= n) {
                at = mid;
                lo = mid + 1;
              } else hi = mid - 1;
            }
            for (let r = at; r >= 0 && reach[r] > n; r--) {
              if (n < ranges[r].to && last[r] !== ord) {
                last[r] = ord;
                out[r][si].ords.push(ord);
              }
            }
          }
        }
        return true;
      });
    }
  });
  return out;
}

/** Documents a step of the aggregation phase collects into the ranges at most. */
const COLLECTED_PER_STEP = 4096;

/** Ranges a step of the aggregation phase renders (with their sub-aggregations) at most. */
const RENDERED_PER_STEP = 1024;

function render(node: { subs: Parameters<typeof withSubs>[1]; params: RangeParams }, ranges: Resolved[], sets: DocSet[], ctx: Parameters<AggregationType['run']>[2],
  keyText: (n: number) => string, asString: ((n: number) => string) | undefined, typed: string): { typed: string; body: Record<string, unknown> } {
  // many ranges are rendered a step of the phase at a time (a pass may pause between two)
  const buckets: Array<Record<string, unknown>> = [];
  for (let start = 0; start < ranges.length; start += RENDERED_PER_STEP) {
    const part = asStep(ctx.steps, node, ctx.buckets, () => renderPart(node, ranges, sets, ctx, keyText, asString, start));
    for (const b of part) buckets.push(b);
  }
  if (!node.params.keyed) return { typed, body: { buckets } };
  const obj: Record<string, unknown> = {};
  // keyed by `key`, which the bucket then leaves out (on a copy: the buckets may be a step's kept result)
  for (const { key, ...rest } of buckets) obj[key as string] = rest;
  return { typed, body: { buckets: obj } };
}

function renderPart(node: { subs: Parameters<typeof withSubs>[1]; params: RangeParams }, ranges: Resolved[], sets: DocSet[], ctx: Parameters<AggregationType['run']>[2],
  keyText: (n: number) => string, asString: ((n: number) => string) | undefined, start: number): Array<Record<string, unknown>> {
  return ranges.slice(start, start + RENDERED_PER_STEP).map((r, k) => {
    const i = start + k;
    const fromS = Number.isFinite(r.from) ? keyText(r.from) : '*';
    const toS = Number.isFinite(r.to) ? keyText(r.to) : '*';
    const b: Record<string, unknown> = { key: r.spec.key ?? `${fromS}-${toS}` };
    if (Number.isFinite(r.from)) {
      b.from = r.from;
      if (asString) b.from_as_string = asString(r.from);
    }
    if (Number.isFinite(r.to)) {
      b.to = r.to;
      if (asString) b.to_as_string = asString(r.to);
    }
    b.doc_count = docCount(sets[i]);
    return withSubs(b, node.subs, sets[i], ctx);
  });
}

/** Ranges a step of the aggregation phase reads (their bounds parsed) at most. */
const PARSED_PER_STEP = 8192;

/**
 * The ranges, their bounds parsed and sorted, and each one's documents: steps of the phase (a pass
 * that pauses among the buckets does none of it again).
 */
function collected(p: RangeParams, docs: DocSet, src: ReturnType<typeof resolveSource>, ctx: Parameters<AggregationType['run']>[2],
  parse: (v: unknown, dflt: number) => number): { ranges: Resolved[]; sets: DocSet[] } {
  const parsed: Resolved[] = [];
  for (let start = 0; start < p.ranges.length; start += PARSED_PER_STEP) {
    const part = asStep(ctx.steps, p.ranges, undefined, () => p.ranges.slice(start, start + PARSED_PER_STEP).map((raw) => {
      const spec = specOf(raw);
      return { spec, from: parse(spec.from, -Infinity), to: parse(spec.to, Infinity) };
    }));
    for (const r of part) parsed.push(r);
  }
  const ranges = sortRanges(parsed, ctx);
  const sets = collect(ranges, docs, src, (v) => numericValue(v as number), ctx);
  return { ranges, sets };
}

/** Ranges a step of the aggregation phase sorts, or merges, at most (a merge of two runs: their length). */
const SORTED_PER_STEP = 8192;

/** Keys of the sort's steps (a step is known by its key and place within the aggregation's run). */
const SORT_KEYS = {};
const SORT_RUN = {};
const SORT_MERGE = {};
const SORT_DONE = {};

/**
 * ES sorts ranges by from, then to, before collecting; buckets come out in that order. Ranges
 * already in order (the usual request) are taken as they are; others are sorted in runs of
 * SORTED_PER_STEP, then merged pairwise, each run and merge a step of the phase: 60,000 ranges
 * sorted in one piece held the event loop ~60 ms.
 */
function sortRanges(rs: Resolved[], ctx: Parameters<AggregationType['run']>[2]): Resolved[] {
  const { from, to, sorted } = asStep(ctx.steps, SORT_KEYS, undefined, () => {
    const from = Float64Array.from(rs, (r) => r.from);
    const to = Float64Array.from(rs, (r) => r.to);
    let sorted = true;
    for (let i = 1; i < rs.length && sorted; i++) sorted = from[i - 1] < from[i] || (from[i - 1] === from[i] && to[i - 1] <= to[i]);
    return { from, to, sorted };
  });
  // the sorted ranges are kept as a step's value: later steps are known by this array
  if (sorted) return asStep(ctx.steps, SORT_DONE, undefined, () => rs);
  const before = (a: number, b: number) => from[a] - from[b] || to[a] - to[b] || a - b;
  let runs: Int32Array[] = [];
  for (let start = 0; start < rs.length; start += SORTED_PER_STEP) {
    runs.push(asStep(ctx.steps, SORT_RUN, undefined, () => {
      const run = new Int32Array(Math.min(SORTED_PER_STEP, rs.length - start));
      for (let k = 0; k < run.length; k++) run[k] = start + k;
      return run.sort(before);
    }));
  }
  while (runs.length > 1) {
    const merged: Int32Array[] = [];
    for (let i = 0; i < runs.length; i += 2) {
      const [a, b] = [runs[i], runs[i + 1]];
      merged.push(b ? asStep(ctx.steps, SORT_MERGE, undefined, () => mergeRuns(a, b, before)) : a);
    }
    runs = merged;
  }
  return asStep(ctx.steps, SORT_DONE, undefined, () => Array.from(runs[0] ?? [], (i) => rs[i]));
}

function mergeRuns(a: Int32Array, b: Int32Array, before: (x: number, y: number) => number): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = before(a[i], b[j]) <= 0 ? a[i++] : b[j++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

function toNum(v: unknown, name: string): number {
  const n = Number(v);
  if (typeof v === 'boolean' || Number.isNaN(n)) throw new EsError(400, 'number_format_exception', `For input string: "${String(v)}"`);
  void name;
  return n;
}

export const range: AggregationType<RangeParams> = {
  kind: 'bucket',
  parse: (name, body) => parseRanges('range', name, body),
  run(node, docs, ctx) {
    if (!node.params.source.script) refuseRangeField(docs, node.params.source.field, 'range');
    const src = resolveSource(docs, { ...node.params.source, valueType: node.params.source.valueType ?? 'double' }, ctx);
    const isDate = src.kind === 'date';
    const fmt = src.format;
    const parse = (v: unknown, dflt: number) => (v === undefined ? dflt : isDate ? fmt.dateFormatter!.parse(v, ctx.now) : toNum(v, node.name));
    checkBucketCount((ctx.buckets?.count ?? 0) + node.params.ranges.length, ctx.buckets);
    const { ranges, sets } = collected(node.params, docs, src, ctx, parse);
    const formatted = isDate || node.params.source.format !== undefined;
    const asString = formatted ? (n: number) => fmt.asString(n) ?? String(n) : undefined;
    return render(node, ranges, sets, ctx, asString ?? javaDouble, asString, 'range');
  },
};

export const dateRange: AggregationType<RangeParams> = {
  kind: 'bucket',
  parse: (name, body) => parseRanges('date_range', name, body),
  run(node, docs, ctx) {
    const p = node.params;
    if (!p.source.script) refuseRangeField(docs, p.source.field, 'date_range');
    const src = resolveSource(docs, { ...p.source, valueType: p.source.valueType ?? 'date' }, ctx, p.timeZone);
    const zone = parseTimeZone(p.timeZone);
    const fmt = src.format.dateFormatter ?? new DateFormatter(p.source.format ?? DEFAULT_DATE_FORMAT, zone);
    const parse = (v: unknown, dflt: number) => (v === undefined ? dflt : fmt.parse(v, ctx.now));
    checkBucketCount((ctx.buckets?.count ?? 0) + p.ranges.length, ctx.buckets);
    const { ranges, sets } = collected(p, docs, src, ctx, parse);
    const print = (n: number) => fmt.print(n);
    return render(node, ranges, sets, ctx, print, print, 'date_range');
  },
};

/** IPv4 / IPv6 text → a BigInt on the IPv6 line (v4 mapped), for range checks. */
export function ipToBigInt(ip: string): bigint | undefined {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) return (0xffffn << 32n) | v4.slice(1).reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
  if (!ip.includes(':')) return undefined;
  let text = ip;
  let tail: bigint[] = [];
  const lastColon = text.lastIndexOf(':');
  const maybeV4 = text.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    const n = ipToBigInt(maybeV4);
    if (n === undefined) return undefined;
    const low = n & 0xffffffffn;
    tail = [low >> 16n, low & 0xffffn];
    text = text.slice(0, lastColon + 1) + '0:0';
  }
  const [head, rest] = text.split('::');
  const h = head ? head.split(':') : [];
  const r = rest === undefined ? [] : rest ? rest.split(':') : [];
  const groups = rest === undefined ? h : [...h, ...Array(8 - h.length - r.length).fill('0'), ...r];
  if (groups.length !== 8) return undefined;
  let out = 0n;
  groups.forEach((g, i) => {
    const v = i >= 6 && tail.length ? tail[i - 6] : BigInt(parseInt(g, 16));
    out = (out << 16n) | v;
  });
  return out;
}

const MAX_IP = (1n << 128n);

export const ipRange: AggregationType<RangeParams> = {
  kind: 'bucket',
  parse: (name, body) => parseRanges('ip_range', name, body),
  run(node, docs, ctx) {
    if (!node.params.source.script) refuseRangeField(docs, node.params.source.field, 'ip_range');
    const src = resolveSource(docs, node.params.source, ctx);
    const parse = (v: unknown): bigint => {
      const n = ipToBigInt(String(v));
      if (n === undefined) throw new EsError(400, 'illegal_argument_exception', `'${String(v)}' is not an IP string literal.`);
      return n;
    };
    interface IpRange { spec: RangeSpec; from?: bigint; to?: bigint }
    const ranges: IpRange[] = node.params.ranges.map(specOf).map((spec) => {
      if (spec.mask !== undefined) {
        const { addr, bits } = cidr(spec.mask);
        const base = parse(addr);
        const isV4 = !addr.includes(':');
        const prefix = Number(bits) + (isV4 ? 96 : 0);
        const size = 1n << BigInt(128 - prefix);
        const from = (base / size) * size;
        const to = from + size;
        return { spec: { ...spec, key: spec.key ?? spec.mask }, from: from === 0n ? undefined : from, to: to >= MAX_IP ? undefined : to };
      }
      return { spec, from: spec.from === undefined ? undefined : parse(spec.from), to: spec.to === undefined ? undefined : parse(spec.to) };
    });
    const ipOf = new Map<string, bigint>();
    const buckets = ranges.map((r) => {
      const set = emptyDocSet(docs);
      const miss = missingArray(src);
      docs.forEach((seg, si) => {
        for (const ord of seg.ords) {
          for (const v of valuesOf(src, si, ord, miss)) {
            let n = ipOf.get(String(v));
            if (n === undefined) ipOf.set(String(v), (n = ipToBigInt(String(v)) ?? -1n));
            if ((r.from === undefined || n >= r.from) && (r.to === undefined || n < r.to)) {
              set[si].ords.push(ord);
              break;
            }
          }
        }
      });
      const fromS = r.from === undefined ? undefined : bigIntToIp(r.from);
      const toS = r.to === undefined ? undefined : bigIntToIp(r.to);
      const b: Record<string, unknown> = { key: r.spec.key ?? `${fromS ?? '*'}-${toS ?? '*'}` };
      if (fromS !== undefined) b.from = fromS;
      if (toS !== undefined) b.to = toS;
      b.doc_count = docCount(set);
      return withSubs(b, node.subs, set, ctx);
    });
    if (!node.params.keyed) return { typed: 'ip_range', body: { buckets } };
    const obj: Record<string, unknown> = {};
    for (const { key, ...rest } of buckets) obj[key as string] = rest;
    return { typed: 'ip_range', body: { buckets: obj } };
  },
};

/** A CIDR mask's address and prefix length (`10.0.0.0/8`). */
function cidr(mask: string): { addr: string; bits: string | undefined } {
  const slash = mask.indexOf('/');
  return slash < 0 ? { addr: mask, bits: undefined } : { addr: mask.slice(0, slash), bits: mask.slice(slash + 1) };
}
