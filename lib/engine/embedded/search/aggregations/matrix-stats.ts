/**
 * `matrix_stats`: per numeric field, over the documents that have every field (or a `missing`
 * value for it), the count, mean, variance, skewness and kurtosis, and between fields the
 * covariance and correlation — computed as Elasticsearch's RunningStats computes them (one pass,
 * running moments), fields listed in the order a Java HashMap of their names iterates.
 */
import { EsError } from '../../../../errors/index.js';
import { numericSource } from './metrics.js';
import { missingArray, valuesOf } from './source.js';
import { isObject, type AggregationType } from './types.js';
import type { SourceParams } from './values-source.js';

type Mode = 'avg' | 'min' | 'max' | 'sum' | 'median';

interface MatrixParams {
  fields: string[];
  missing: Record<string, number>;
  mode: Mode;
}

/** Java's String.hashCode. */
function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** The iteration order of a java.util.HashMap holding these keys (inserted in this order). */
export function javaHashMapOrder(keys: string[]): string[] {
  let capacity = 16;
  while (keys.length > capacity * 0.75) capacity *= 2;
  const bucketOf = (k: string) => {
    const h = javaHash(k);
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return keys.map((k, i) => ({ k, i, b: bucketOf(k) })).sort((x, y) => x.b - y.b || x.i - y.i).map((x) => x.k);
}

function reduceValues(vs: number[], mode: Mode): number {
  switch (mode) {
    case 'min': return Math.min(...vs);
    case 'max': return Math.max(...vs);
    case 'sum': return vs.reduce((a, b) => a + b, 0);
    case 'median': {
      const s = [...vs].sort((a, b) => a - b);
      const m = s.length >> 1;
      return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
    }
    default: return vs.reduce((a, b) => a + b, 0) / vs.length;
  }
}

/** RunningStats.add / MatrixStatsResults.compute for one list of fields. */
class RunningStats {
  docCount = 0;
  readonly sum = new Map<string, number>();
  readonly counts = new Map<string, number>();
  readonly means = new Map<string, number>();
  readonly variances = new Map<string, number>();
  readonly skewness = new Map<string, number>();
  readonly kurtosis = new Map<string, number>();
  readonly covariances = new Map<string, Map<string, number>>();

  add(names: string[], values: number[]): void {
    const n = ++this.docCount;
    const deltas = new Map<string, number>();
    names.forEach((name, i) => {
      const v = values[i];
      this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
      this.sum.set(name, v + (this.sum.get(name) ?? 0));
      deltas.set(name, v * n - this.sum.get(name)!);
      if (this.means.has(name)) {
        const m1 = this.means.get(name)!;
        const d = v - m1;
        this.means.set(name, m1 + d / n);
        const dn = d / n;
        const t1 = d * dn * (n - 1);
        const m2 = this.variances.get(name)!;
        this.variances.set(name, m2 + t1);
        const m3 = this.skewness.get(name)!;
        this.skewness.set(name, m3 + (t1 * dn * (n - 2) - 3 * dn * m2));
        const dn2 = dn * dn;
        const m4 = t1 * dn2 * (n * n - 3 * n + 3) + 6 * dn2 * m2 - 4 * dn * m3;
        this.kurtosis.set(name, this.kurtosis.get(name)! + m4);
      } else {
        this.means.set(name, v);
        this.variances.set(name, 0);
        this.skewness.set(name, 0);
        this.kurtosis.set(name, 0);
      }
    });
    const rest = [...names];
    for (const name of names) {
      rest.splice(rest.indexOf(name), 1);
      const row = this.covariances.get(name) ?? new Map<string, number>();
      for (const other of rest) {
        const current = row.get(other);
        row.set(other, current === undefined ? 0 : current + (1 / (n * (n - 1))) * deltas.get(name)! * deltas.get(other)!);
      }
      if (row.size) this.covariances.set(name, row);
    }
  }
}

export const matrixStats: AggregationType<MatrixParams> = {
  kind: 'metric',
  parse(name, body) {
    // matrix_stats takes no script (Elasticsearch's reference): its parser knows no such key
    for (const k of Object.keys(body)) {
      if (!['fields', 'missing', 'mode', 'format', 'value_type'].includes(k)) {
        const v = body[k];
        const token = v !== null && typeof v === 'object' ? (Array.isArray(v) ? 'START_ARRAY' : 'START_OBJECT') : 'VALUE_STRING';
        throw new EsError(400, 'parsing_exception', `Unexpected token ${token} [${k}] in [${name}].`, { line: 1, col: 1 });
      }
    }
    if (body.fields === undefined) throw new EsError(400, 'illegal_argument_exception', `Required [fields] in [${name}]`);
    const fields = (Array.isArray(body.fields) ? body.fields : [body.fields]).map(String);
    const missing: Record<string, number> = {};
    if (body.missing !== undefined) {
      if (!isObject(body.missing)) throw new EsError(400, 'parsing_exception', `Unexpected token ${typeof body.missing === 'string' ? 'VALUE_STRING' : 'VALUE_NUMBER'} [missing] in [${name}].`, { line: 1, col: 1 });
      for (const [f, v] of Object.entries(body.missing)) missing[f] = Number(v);
    }
    const mode = body.mode === undefined ? 'avg' : String(body.mode).toLowerCase();
    if (!['avg', 'min', 'max', 'sum', 'median'].includes(mode)) throw new EsError(400, 'illegal_argument_exception', `Unknown MultiValueMode [${String(body.mode)}]`);
    return { fields, missing, mode: mode as Mode };
  },
  run(node, docs, ctx) {
    const p = node.params;
    const sources = p.fields.map((field) => numericSource('matrix_stats', node.name, docs, { field, missing: p.missing[field] } as SourceParams, ctx));
    const misses = sources.map((s) => missingArray(s));
    const stats = new RunningStats();
    const present = p.fields.filter((_, i) => !sources[i].unmapped);
    docs.forEach((seg, si) => {
      for (const ord of seg.ords) {
        const values: number[] = [];
        let complete = true;
        for (let i = 0; i < sources.length && complete; i++) {
          if (sources[i].unmapped) continue;
          const vs = valuesOf(sources[i], si, ord, misses[i]).map(Number);
          if (!vs.length) complete = false;
          else values.push(reduceValues(vs, p.mode));
        }
        if (complete && present.length) stats.add(present, values);
      }
    });
    if (stats.docCount === 0) return { typed: 'matrix_stats', body: { doc_count: 0 } };
    const n = stats.docCount;
    const variance = new Map<string, number>();
    const skew = new Map<string, number>();
    const kurt = new Map<string, number>();
    for (const name of present) {
      const v = stats.variances.get(name)!;
      skew.set(name, (Math.sqrt(n) * stats.skewness.get(name)!) / Math.pow(v, 1.5));
      kurt.set(name, (n * stats.kurtosis.get(name)!) / (v * v));
      variance.set(name, v / (n - 1));
    }
    const covariance = (a: string, b: string) => {
      if (a === b) return variance.get(a)!;
      const v = stats.covariances.get(a)?.get(b) ?? stats.covariances.get(b)?.get(a) ?? 0;
      return v / (n - 1);
    };
    const correlation = (a: string, b: string) => {
      if (a === b) return 1;
      if (variance.get(a) === 0 || variance.get(b) === 0) return null;
      return covariance(a, b) / (Math.sqrt(variance.get(a)!) * Math.sqrt(variance.get(b)!));
    };
    const finite = (x: number) => (Number.isFinite(x) ? x : null);
    const order = javaHashMapOrder(present);
    const fields = order.map((name) => ({
      name, count: stats.counts.get(name), mean: stats.means.get(name), variance: finite(variance.get(name)!),
      skewness: finite(skew.get(name)!), kurtosis: finite(kurt.get(name)!),
      covariance: Object.fromEntries(order.map((b) => [b, finite(covariance(name, b))])),
      correlation: Object.fromEntries(order.map((b) => [b, correlation(name, b)])),
    }));
    return { typed: 'matrix_stats', body: { doc_count: n, fields } };
  },
};
