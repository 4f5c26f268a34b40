/**
 * Painless's `MovingFunctions`, what `moving_fn` scripts call on their window of `values`: the
 * functions of Elasticsearch's reference ("Moving function aggregation", pre-built functions),
 * with its conventions — NaN values (gaps) are skipped by the averages, an empty window gives NaN
 * (0 for `sum`), and Holt-Winters needs two full periods.
 */
import { ScriptRuntimeError } from './script-error.js';

function present(values: readonly number[]): number[] {
  return values.filter((v) => !Number.isNaN(v));
}

/** Java's DoubleStream max/min: a NaN among the values makes the result NaN. */
function extreme(values: readonly number[], pick: (a: number, b: number) => number): number {
  if (!values.length) return NaN;
  let out = values[0];
  for (const v of values) out = Number.isNaN(v) || Number.isNaN(out) ? NaN : pick(out, v);
  return out;
}

export function max(values: readonly number[]): number {
  return extreme(values, Math.max);
}

export function min(values: readonly number[]): number {
  return extreme(values, Math.min);
}

export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of present(values)) total += v;
  return total;
}

export function unweightedAvg(values: readonly number[]): number {
  const vs = present(values);
  return vs.length ? sum(vs) / vs.length : NaN;
}

export function stdDev(values: readonly number[], avg: number): number {
  if (Number.isNaN(avg)) return NaN;
  const vs = present(values);
  let squares = 0;
  for (const v of vs) squares += (v - avg) ** 2;
  return Math.sqrt(squares / vs.length);
}

/** Older values weigh less, linearly (the newest of n weighs n; divided by 1 + n(n+1)/2, as Elasticsearch does). */
export function linearWeightedAvg(values: readonly number[]): number {
  let avg = 0;
  let totalWeight = 1;
  let current = 1;
  for (const v of present(values)) {
    avg += v * current;
    totalWeight += current;
    current += 1;
  }
  return totalWeight === 1 ? NaN : avg / totalWeight;
}

/** Exponentially weighted: each value weighs `alpha`, the average so far `1 - alpha`. */
export function ewma(values: readonly number[], alpha: number): number {
  let avg = NaN;
  let first = true;
  for (const v of present(values)) {
    avg = first ? v : v * alpha + avg * (1 - alpha);
    first = false;
  }
  return avg;
}

/** Double exponential smoothing (level and trend). */
export function holt(values: readonly number[], alpha: number, beta: number): number {
  const vs = present(values);
  if (!vs.length) return NaN;
  let s = 0;
  let b = 0;
  let lastS = 0;
  let lastB = 0;
  vs.forEach((v, i) => {
    if (i === 0) {
      s = v;
      b = 0;
    } else {
      s = alpha * v + (1 - alpha) * (lastS + lastB);
      b = beta * (s - lastS) + (1 - beta) * lastB;
    }
    lastS = s;
    lastB = b;
  });
  return s;
}

/** Triple exponential smoothing (level, trend and a seasonal component of `period` values). */
export function holtWinters(values: readonly number[], alpha: number, beta: number, gamma: number, period: number, multiplicative: boolean): number {
  if (!values.length) return NaN;
  if (values.length < period * 2) {
    throw new ScriptRuntimeError('illegal_argument_exception',
      `Holt-Winters aggregation requires at least (2 * period == 2 * ${period} == ${2 * period}) data-points to function.  Only [${values.length}] were provided.`);
  }
  // A multiplicative model pads values away from zero; gaps are skipped, the tail left at 0.
  const padding = multiplicative ? 1e-10 : 0;
  const vs = new Array<number>(values.length).fill(0);
  let counter = 0;
  for (const v of values) if (!Number.isNaN(v)) vs[counter++] = v + padding;
  if (counter === 0) return NaN;
  let s = 0;
  let b = 0;
  for (let i = 0; i < period; i++) {
    s += vs[i];
    b += (vs[i + period] - vs[i]) / period;
  }
  s /= period;
  b /= period;
  let lastS = s;
  let lastB = 0;
  const seasonal = new Array<number>(values.length).fill(0);
  if (s !== 0) for (let i = 0; i < period; i++) seasonal[i] = vs[i] / s;
  for (let i = period; i < vs.length; i++) {
    s = multiplicative
      ? alpha * (vs[i] / seasonal[i - period]) + (1 - alpha) * (lastS + lastB)
      : alpha * (vs[i] - seasonal[i - period]) + (1 - alpha) * (lastS + lastB);
    b = beta * (s - lastS) + (1 - beta) * lastB;
    seasonal[i] = multiplicative
      ? gamma * (vs[i] / (lastS + lastB)) + (1 - gamma) * seasonal[i - period]
      : gamma * (vs[i] - (lastS - lastB)) + (1 - gamma) * seasonal[i - period];
    lastS = s;
    lastB = b;
  }
  const idx = values.length - period;
  return multiplicative ? (s + b) * seasonal[idx] : s + b + seasonal[idx];
}
