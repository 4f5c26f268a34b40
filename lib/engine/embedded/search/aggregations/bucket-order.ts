import { EsError } from '../../../../errors/index.js';
import { registry } from './registry.js';
import { isObject, type AggNode } from './types.js';

/** One criterion of a bucket `order`: `_count`, `_key` or a sub-aggregation path. */
export interface OrderCriterion {
  path: string;
  asc: boolean;
}

/** Parses `order` (object or array of objects), checking sub-aggregation paths exist. */
export function parseOrder(raw: unknown, aggName: string, subs: AggNode[]): OrderCriterion[] {
  const list = Array.isArray(raw) ? raw : [raw];
  const out: OrderCriterion[] = [];
  for (const item of list) {
    if (!isObject(item)) throw new EsError(400, 'parsing_exception', `Order should be an object or an array of objects`, { line: 1, col: 1 });
    for (const [path, dir] of Object.entries(item)) {
      const d = String(dir).toLowerCase();
      if (d !== 'asc' && d !== 'desc') throw new EsError(400, 'parsing_exception', `Unknown order direction [${String(dir)}]`, { line: 1, col: 1 });
      // `_term` and `_time`, 7.x's deprecated names of `_key` (kept by Elasticsearch 8 for REST compatibility with 7)
      const p = path === '_term' || path === '_time' ? '_key' : path;
      if (p !== '_key' && p !== '_count') validatePath(p, aggName, subs);
      out.push({ path: p, asc: d === 'asc' });
    }
  }
  return out;
}

function validatePath(path: string, aggName: string, subs: AggNode[]): void {
  const steps = path.split('>');
  let level = subs;
  for (let i = 0; i < steps.length; i++) {
    const name = steps[i].split(/[.[]/)[0];
    const node = level.find((n) => n.name === name);
    if (!node || registry()[node.type].kind === 'pipeline') {
      throw new EsError(400, 'aggregation_execution_exception',
        `Invalid aggregator order path [${path}]. The provided aggregation [${name}] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.`);
    }
    if (i < steps.length - 1) {
      if (!['filter', 'missing', 'global', 'nested', 'reverse_nested'].includes(node.type)) {
        throw new EsError(400, 'aggregation_execution_exception',
          `Invalid aggregation order path [${path}]. Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end.`);
      }
      level = node.subs;
    }
  }
  void aggName;
}

function subResult(bucket: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const direct = bucket[name];
  if (isObject(direct)) return direct;
  for (const [k, v] of Object.entries(bucket)) if (k.endsWith(`#${name}`) && isObject(v)) return v;
  return undefined;
}

/** The number a bucket sorts by for a path (`agg`, `agg.metric`, `single>agg.metric`, `agg[50]`). */
export function pathValue(bucket: Record<string, unknown>, path: string): number {
  if (path === '_count') return Number(bucket.doc_count);
  const steps = path.split('>');
  let cur: Record<string, unknown> | undefined = bucket;
  for (let i = 0; i < steps.length && cur; i++) {
    const m = /^([^.[]+)(?:\.(.+)|\[(.+)\])?$/.exec(steps[i]);
    if (!m) return NaN;
    const res = subResult(cur, m[1]);
    if (!res) return NaN;
    if (i < steps.length - 1) {
      cur = res;
      continue;
    }
    const metric = m[2] ?? m[3];
    if (metric === undefined) {
      const v = 'value' in res ? res.value : res.doc_count;
      return v === null || v === undefined ? NaN : Number(v);
    }
    let v: unknown = res[metric];
    if (v === undefined && isObject(res.values)) {
      const values = res.values as Record<string, unknown>;
      v = values[metric] ?? values[Number.isFinite(Number(metric)) ? javaDouble(Number(metric)) : metric];
    }
    if (v === undefined && metric === 'doc_count') v = res.doc_count;
    return v === null || v === undefined ? NaN : Number(v);
  }
  return NaN;
}

/** A double as Java's Double.toString prints it (keys like "50.0", "1.0E10"). */
export function javaDouble(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e7) return n.toFixed(1);
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : n < 0 ? '-Infinity' : 'NaN';
  const abs = Math.abs(n);
  if (abs >= 1e-3 && abs < 1e7) return String(n);
  const [mant, exp] = n.toExponential().split('e');
  return `${mant.includes('.') ? mant : mant + '.0'}E${Number(exp)}`;
}

function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  // an unsigned_long's keys past 2^53 are BigInts, beside numbers: compared exactly
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) return a < b ? -1 : a > b ? 1 : 0;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * A comparator of rendered buckets. `_key` compares `orderOf(key)` (the aggregation's order of its
 * keys: an ip's 16-byte form) or `key`; NaN sub-aggregation values (empty buckets) sort last
 * whatever the direction.
 */
export function bucketComparator(
  order: OrderCriterion[], tieBreakByKey: boolean, orderOf: (key: unknown) => unknown = (k) => k,
): (a: Record<string, unknown>, b: Record<string, unknown>) => number {
  const crit = [...order];
  if (tieBreakByKey && !crit.some((c) => c.path === '_key')) crit.push({ path: '_key', asc: true });
  return (a, b) => {
    for (const c of crit) {
      let d: number;
      if (c.path === '_key') d = compareKeys(orderOf(a.key), orderOf(b.key));
      else {
        const x = pathValue(a, c.path);
        const y = pathValue(b, c.path);
        if (Number.isNaN(x) || Number.isNaN(y)) {
          if (Number.isNaN(x) && Number.isNaN(y)) continue;
          return Number.isNaN(x) ? 1 : -1;
        }
        d = x - y;
      }
      if (d !== 0) return c.asc ? d : -d;
    }
    return 0;
  };
}

export function ordersBySubAgg(order: OrderCriterion[]): boolean {
  return order.some((c) => c.path !== '_key' && c.path !== '_count');
}
