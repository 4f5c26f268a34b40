import { EsError } from '../../../../errors/index.js';

/**
 * The t-digest Elasticsearch 7 keeps for `percentiles`, `percentile_ranks` and
 * `median_absolute_deviation` (its TDigestState is t-digest 3.2's AVLTreeDigest): centroids sorted
 * by mean, a value joining the nearest centroid only while that centroid stays under the size
 * bound 4·n·q·(1−q)/compression, and quantiles interpolated between centroid centres (and the
 * minimum and maximum at the ends). While values are few every value is its own centroid, so the
 * answers are exact in Elasticsearch's way: the 1st percentile of [1, 51, 101, 151] is 1, not 2.5.
 *
 * Two differences, both only once centroids merge: Elasticsearch picks at random among equally
 * near centroids that may take a value (and shuffles when it recompresses); this digest takes the
 * first and shuffles with a fixed seed, so its answers are repeatable.
 */
export class TDigest {
  private readonly means: number[] = [];
  private readonly counts: number[] = [];
  private total = 0;
  private min = Infinity;
  private max = -Infinity;

  constructor(readonly compression: number) {}

  /** How many values were added. */
  get size(): number {
    return this.total;
  }

  add(x: number, w = 1): void {
    // a value a script made (Double.NaN): refused as Elasticsearch's digest refuses it, a 400
    if (Number.isNaN(x)) throw new EsError(400, 'illegal_argument_exception', 'Cannot add NaN to t-digest');
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
    const { means, counts } = this;
    if (means.length === 0) {
      means.push(x);
      counts.push(w);
      this.total = w;
      return;
    }
    // The last centroid below x (the tree's floor), or the first: then on while the distance shrinks.
    let start = Math.max(0, lowerBound(means, x) - 1);
    let minDistance = Infinity;
    let end = means.length;
    for (let i = start; i < means.length; i++) {
      const z = Math.abs(means[i] - x);
      if (z < minDistance) {
        start = i;
        minDistance = z;
      } else if (z > minDistance) {
        end = i;
        break;
      }
    }
    let closest = -1;
    let sum = 0;
    for (let i = 0; i < start; i++) sum += counts[i];
    for (let i = start; i < end; i++) {
      const q = this.total === 1 ? 0.5 : (sum + (counts[i] - 1) / 2) / (this.total - 1);
      const k = (4 * this.total * q * (1 - q)) / this.compression;
      if (counts[i] + w <= k) {
        closest = i;
        break;
      }
      sum += counts[i];
    }
    if (closest < 0) {
      insertAfterEquals(means, counts, x, w);
    } else {
      const mean = weightedAverage(means[closest], counts[closest], x, w);
      const count = counts[closest] + w;
      const inPlace = (closest === 0 || mean >= means[closest - 1]) && (closest === means.length - 1 || mean < means[closest + 1]);
      if (inPlace) {
        means[closest] = mean;
        counts[closest] = count;
      } else {
        means.splice(closest, 1);
        counts.splice(closest, 1);
        insertAfterEquals(means, counts, mean, count);
      }
    }
    this.total += w;
    if (means.length > 20 * this.compression) this.compress();
  }

  /** The value below which the fraction `q` (0..1) of the values lie; NaN when empty. */
  quantile(q: number): number {
    const { means, counts } = this;
    if (means.length === 0) return NaN;
    if (means.length === 1) return means[0];
    const index = q * this.total;
    let weightSoFar = counts[0] / 2;
    if (index < weightSoFar) return (this.min * index + means[0] * (weightSoFar - index)) / weightSoFar;
    for (let i = 0; i < means.length - 1; i++) {
      const dw = (counts[i] + counts[i + 1]) / 2;
      if (weightSoFar + dw > index) {
        const z1 = index - weightSoFar;
        const z2 = weightSoFar + dw - index;
        return weightedAverage(means[i], z2, means[i + 1], z1);
      }
      weightSoFar += dw;
    }
    const last = means.length - 1;
    const z1 = index - weightSoFar;
    const z2 = counts[last] / 2 - z1;
    return weightedAverage(means[last], z2, this.max, z1);
  }

  /** The fraction (0..1) of the values at or below x; NaN when empty. */
  cdf(x: number): number {
    const { means, counts } = this;
    if (means.length === 0) return NaN;
    if (means.length === 1) return x < means[0] ? 0 : 1;
    // As t-digest 3.2 scans: `a` a centroid, `b` the next; the loop stops with `a` the next to last.
    let r = 0;
    let a = 0;
    let b = 1;
    let left = (means[b] - means[a]) / 2;
    let right = left;
    for (let next = 2; next < means.length; next++) {
      if (x < means[a] + right) {
        const value = (r + counts[a] * interpolate(x, means[a] - left, means[a] + right)) / this.total;
        return value > 0 ? value : 0;
      }
      r += counts[a];
      a = b;
      left = right;
      b = next;
      right = (means[b] - means[a]) / 2;
    }
    if (x < means[a] + right) return (r + counts[a] * interpolate(x, means[a] - left, means[a] + right)) / this.total;
    return 1;
  }

  /** Centroids as [mean, count], lowest mean first. */
  *centroids(): Generator<[number, number]> {
    for (let i = 0; i < this.means.length; i++) yield [this.means[i], this.counts[i]];
  }

  /** Re-adds every centroid in a shuffled order (t-digest's compress, with a fixed seed). */
  private compress(): void {
    const order = this.means.map((m, i) => [m, this.counts[i]] as [number, number]);
    const random = mulberry32(0x7d16e57);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    this.means.length = 0;
    this.counts.length = 0;
    this.total = 0;
    const { min, max } = this;
    for (const [m, c] of order) this.add(m, c);
    this.min = min;
    this.max = max;
  }
}

/** t-digest's weighted mean of two points, kept between them despite rounding. */
function weightedAverage(x1: number, w1: number, x2: number, w2: number): number {
  if (x1 > x2) return weightedAverage(x2, w2, x1, w1);
  const x = (x1 * w1 + x2 * w2) / (w1 + w2);
  return Math.max(x1, Math.min(x, x2));
}

function interpolate(x: number, x0: number, x1: number): number {
  return (x - x0) / (x1 - x0);
}

/** The first index whose mean is not below x. */
function lowerBound(means: number[], x: number): number {
  let lo = 0;
  let hi = means.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (means[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A new centroid goes after those with the same mean, as the tree orders them. */
function insertAfterEquals(means: number[], counts: number[], x: number, w: number): void {
  let lo = 0;
  let hi = means.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (means[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  means.splice(lo, 0, x);
  counts.splice(lo, 0, w);
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
