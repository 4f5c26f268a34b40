import { refuseRangeField } from './range-field-source.js';
import { docCounts, weightOf } from './doc-count-field.js';
import { ipOfOrderKey, ipOrderKey } from '../../mapping/index.js';
import { EsError } from '../../../../errors/index.js';
import { withSubs } from './aggregations.js';
import { DateFormatter } from './date-formatter.js';
import { dateRounding, parseDateInterval, type DateInterval } from './histogram.js';
import { emptyDocSet, missingArray, resolveSource, valuesOf, type ResolvedSource, type SourceScope } from './source.js';
import { DEFAULT_DATE_FORMAT, parseTimeZone } from '../../mapping/index.js';
import { isObject, type AggregationType, type DocSet, type Value } from './types.js';
import { numericValue, parseSourceParams, type SourceParams } from './values-source.js';
import { MAX_BUCKETS, tooManyBuckets } from './max-buckets.js';

type Key = string | number | null;

interface CompositeSource {
  name: string;
  type: 'terms' | 'histogram' | 'date_histogram';
  source: SourceParams;
  asc: boolean;
  missingBucket: boolean;
  interval?: number;
  dateInterval?: DateInterval;
  offset: number;
  timeZone?: unknown;
}

interface CompositeParams {
  sources: CompositeSource[];
  size: number;
  after?: Record<string, unknown>;
}


function parseSource(entry: unknown): CompositeSource {
  if (!isObject(entry) || Object.keys(entry).length !== 1) throw new EsError(400, 'parsing_exception', 'Composite [sources] must be an array of single-key objects', { line: 1, col: 1 });
  const [name, def] = Object.entries(entry)[0];
  if (!isObject(def) || Object.keys(def).length !== 1) throw new EsError(400, 'parsing_exception', `Composite source [${name}] must define exactly one type`, { line: 1, col: 1 });
  const [type, body] = Object.entries(def)[0] as [string, Record<string, unknown>];
  if (type !== 'terms' && type !== 'histogram' && type !== 'date_histogram') {
    throw new EsError(400, 'parsing_exception', `Unknown CompositeValuesSourceBuilder type [${type}]`, { line: 1, col: 1 });
  }
  const order = body.order === undefined ? 'asc' : String(body.order);
  if (order !== 'asc' && order !== 'desc') throw new EsError(400, 'illegal_argument_exception', `Unknown order direction [${order}]`);
  const src: CompositeSource = {
    name, type, source: parseSourceParams(type, name, { ...body, order: undefined, missing_bucket: undefined, interval: undefined, calendar_interval: undefined, fixed_interval: undefined, offset: undefined, time_zone: undefined, missing_order: undefined }),
    asc: order === 'asc', missingBucket: body.missing_bucket === true, offset: 0,
  };
  if (type === 'histogram') {
    src.interval = Number(body.interval);
    if (!(src.interval > 0)) throw new EsError(400, 'illegal_argument_exception', `[interval] must be greater than 0 for histogram source [${name}]`);
    src.offset = body.offset === undefined ? 0 : Number(body.offset);
  } else if (type === 'date_histogram') {
    src.dateInterval = parseDateInterval(body, name);
    src.timeZone = body.time_zone;
    if (body.offset !== undefined) {
      const s = String(body.offset);
      const m = /^([+-])?(\d+)(ms|s|m|h|d)$/.exec(s);
      src.offset = typeof body.offset === 'number' ? body.offset : m ? (m[1] === '-' ? -1 : 1) * Number(m[2]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[3] as 'ms'] : 0;
    }
  }
  return src;
}

interface Prepared {
  spec: CompositeSource;
  src: ResolvedSource;
  keyOf(v: Value): Key;
  print(k: Key): unknown;
  parseAfter(v: unknown): Key;
}

function prepare(spec: CompositeSource, docs: DocSet, scope: SourceScope): Prepared {
  const now = scope.now;
  // a composite source reads single values, as its aggregation does: a range field is refused
  if (!spec.source.script) refuseRangeField(docs, spec.source.field, spec.type);
  if (spec.type === 'terms') {
    const src = resolveSource(docs, spec.source, scope);
    const numeric = src.kind !== 'bytes' && src.kind !== 'ip';
    const formatted = src.kind === 'date' || spec.source.format !== undefined;
    if (src.kind === 'ip') {
      // keyed by the 16-byte form, so that keys (and `after`) go in Elasticsearch's order of ips
      const keyOf = (v: unknown) => ipOrderKey(String(v)) ?? String(v);
      return { spec, src, keyOf, print: (k) => (k === null ? null : ipOfOrderKey(k as string)), parseAfter: (v) => (v === null ? null : keyOf(v)) };
    }
    return {
      spec, src,
      keyOf: (v) => (numeric ? numericValue(v) : String(v)),
      print: (k) => (k === null ? null : formatted || src.kind === 'boolean' ? (src.kind === 'boolean' ? k !== 0 : src.format.asString(k as number)) : k),
      parseAfter: (v) => (v === null ? null : src.kind === 'date' ? src.format.dateFormatter!.parse(v, now) : src.kind === 'boolean' ? (v === true || v === 'true' ? 1 : 0) : numeric ? Number(v) : String(v)),
    };
  }
  if (spec.type === 'histogram') {
    const src = resolveSource(docs, { ...spec.source, valueType: spec.source.valueType ?? 'double' }, scope);
    const i = spec.interval!;
    return {
      spec, src,
      keyOf: (v) => Math.floor((numericValue(v) - spec.offset) / i) * i + spec.offset,
      print: (k) => (k === null || spec.source.format === undefined ? k : src.format.asString(k as number)),
      parseAfter: (v) => (v === null ? null : Number(v)),
    };
  }
  const zone = parseTimeZone(spec.timeZone);
  const src = resolveSource(docs, { ...spec.source, valueType: spec.source.valueType ?? 'date' }, scope, spec.timeZone);
  const fmt = spec.source.format !== undefined ? new DateFormatter(spec.source.format, zone) : undefined;
  const rounding = dateRounding(spec.dateInterval!, zone, spec.offset);
  return {
    spec, src,
    keyOf: (v) => rounding.round(numericValue(v)),
    print: (k) => (k === null || !fmt ? k : fmt.print(k as number)),
    parseAfter: (v) => (v === null ? null : typeof v === 'number' ? v : (fmt ?? new DateFormatter(DEFAULT_DATE_FORMAT, zone)).parse(v, now)),
  };
}

function compareKey(a: Key, b: Key, asc: boolean): number {
  if (a === b) return 0;
  // Missing (null) sorts first ascending, last descending (ES's default missing_order).
  if (a === null) return asc ? -1 : 1;
  if (b === null) return asc ? 1 : -1;
  const d = typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : 1;
  return asc ? d : -d;
}

export const composite: AggregationType<CompositeParams> = {
  kind: 'bucket',
  parse(name, body) {
    if (body.sources === undefined) throw new EsError(400, 'illegal_argument_exception', `Required [sources]`);
    if (!Array.isArray(body.sources) || body.sources.length === 0) throw new EsError(400, 'illegal_argument_exception', `Composite [sources] cannot be null or empty`);
    const sources = body.sources.map(parseSource);
    const seen = new Set<string>();
    const dups = new Set<string>();
    for (const s of sources) (seen.has(s.name) ? dups : seen).add(s.name);
    if (dups.size) throw new EsError(400, 'illegal_argument_exception', `Composite source names must be unique, found duplicates: [${[...dups].join(', ')}]`);
    const size = body.size === undefined ? 10 : Number(body.size);
    if (!Number.isInteger(size) || size < 1) throw new EsError(400, 'illegal_argument_exception', `[size] must be greater than 0. Found [${String(body.size)}] in [${name}]`);
    if (body.after !== undefined && !isObject(body.after)) throw new EsError(400, 'parsing_exception', `[after] must be an object in [${name}]`, { line: 1, col: 1 });
    if (isObject(body.after)) {
      for (const s of sources) {
        if (!(s.name in body.after)) throw new EsError(400, 'illegal_argument_exception', `Missing value for [after.${s.name}]`);
      }
    }
    return { sources, size, after: body.after as Record<string, unknown> | undefined };
  },
  run(node, docs, ctx) {
    const p = node.params;
    const max = ctx.buckets?.max ?? MAX_BUCKETS;
    if (p.size > max) throw tooManyBuckets(p.size + 1, max);
    const prepared = p.sources.map((s) => prepare(s, docs, ctx));
    const after = p.after ? prepared.map((s) => s.parseAfter(p.after![s.spec.name])) : undefined;
    const cmp = (a: Key[], b: Key[]) => {
      for (let i = 0; i < a.length; i++) {
        const d = compareKey(a[i], b[i], prepared[i].spec.asc);
        if (d !== 0) return d;
      }
      return 0;
    };
    const groups = new Map<string, { key: Key[]; docs: DocSet; count: number }>();
    const misses = prepared.map((s) => missingArray(s.src));
    docs.forEach((seg, si) => {
      const counts = docCounts(seg.handle);
      for (const ord of seg.ords) {
        let combos: Key[][] = [[]];
        for (let i = 0; i < prepared.length && combos.length; i++) {
          const vs = valuesOf(prepared[i].src, si, ord, misses[i]);
          const keys: Key[] = vs.length ? [...new Set(vs.map((v) => prepared[i].keyOf(v)))] : prepared[i].spec.missingBucket ? [null] : [];
          const next: Key[][] = [];
          for (const c of combos) for (const k of keys) next.push([...c, k]);
          combos = next;
        }
        for (const key of combos) {
          if (after && cmp(key, after) <= 0) continue;
          const id = JSON.stringify(key);
          let g = groups.get(id);
          if (!g) groups.set(id, (g = { key, docs: emptyDocSet(docs), count: 0 }));
          g.count += weightOf(counts, ord);
          g.docs[si].ords.push(ord);
        }
      }
    });
    const top = [...groups.values()].sort((a, b) => cmp(a.key, b.key)).slice(0, p.size);
    const keyObject = (key: Key[]) => Object.fromEntries(prepared.map((s, i) => [s.spec.name, s.print(key[i])]));
    const buckets = top.map((g) => withSubs({ key: keyObject(g.key), doc_count: g.count }, node.subs, g.docs, ctx));
    const body: Record<string, unknown> = {};
    if (top.length) body.after_key = keyObject(top[top.length - 1].key);
    body.buckets = buckets;
    return { typed: 'composite', body };
  },
};
