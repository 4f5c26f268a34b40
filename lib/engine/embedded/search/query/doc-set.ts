/**
 * The documents a query matches with their scores: ordinals ascending (index order) with a
 * parallel score column. Reads like a Map<ord, score> (`size`, `get`, `has`, iteration,
 * `forEach(score, ord)`) for callers that only look things up.
 */
export class ScoredDocs implements Map<number, number> {
  constructor(
    public ords: Int32Array<ArrayBuffer>,
    public scores: Float64Array<ArrayBuffer>,
    public length: number,
  ) {}

  static empty(): ScoredDocs {
    return new ScoredDocs(new Int32Array(0), new Float64Array(0), 0);
  }

  get size(): number {
    return this.length;
  }

  indexOf(ord: number): number {
    let lo = 0;
    let hi = this.length - 1;
    const a = this.ords;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = a[mid];
      if (v === ord) return mid;
      if (v < ord) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  has(ord: number): boolean {
    return this.indexOf(ord) >= 0;
  }

  get(ord: number): number | undefined {
    const i = this.indexOf(ord);
    return i < 0 ? undefined : this.scores[i];
  }

  *keys(): IterableIterator<number> {
    for (let i = 0; i < this.length; i++) yield this.ords[i];
  }

  *entries(): IterableIterator<[number, number]> {
    for (let i = 0; i < this.length; i++) yield [this.ords[i], this.scores[i]];
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  forEach(cb: (score: number, ord: number, map: Map<number, number>) => void): void {
    for (let i = 0; i < this.length; i++) cb(this.scores[i], this.ords[i], this);
  }

  *values(): IterableIterator<number> {
    for (let i = 0; i < this.length; i++) yield this.scores[i];
  }

  /** Map compatibility: appending in ascending order is O(1); other inserts shift. */
  set(ord: number, score: number): this {
    const n = this.length;
    if (n === 0 || this.ords[n - 1] < ord) {
      this.reserve(n + 1);
      this.ords[n] = ord;
      this.scores[n] = score;
      this.length++;
      return this;
    }
    const i = this.indexOf(ord);
    if (i >= 0) {
      this.scores[i] = score;
      return this;
    }
    let at = 0;
    while (at < n && this.ords[at] < ord) at++;
    this.reserve(n + 1);
    this.ords.copyWithin(at + 1, at, n);
    this.scores.copyWithin(at + 1, at, n);
    this.ords[at] = ord;
    this.scores[at] = score;
    this.length++;
    return this;
  }

  delete(ord: number): boolean {
    const i = this.indexOf(ord);
    if (i < 0) return false;
    this.ords.copyWithin(i, i + 1, this.length);
    this.scores.copyWithin(i, i + 1, this.length);
    this.length--;
    return true;
  }

  clear(): void {
    this.length = 0;
  }

  get [Symbol.toStringTag](): string {
    return 'ScoredDocs';
  }

  private reserve(n: number): void {
    if (n <= this.ords.length) return;
    const cap = Math.max(8, this.ords.length * 2, n);
    const o = new Int32Array(cap);
    o.set(this.ords.subarray(0, this.length));
    const s = new Float64Array(cap);
    s.set(this.scores.subarray(0, this.length));
    this.ords = o;
    this.scores = s;
  }

  /** Same documents, every score set to `score`. */
  withScore(score: number): ScoredDocs {
    const s = new Float64Array(this.length);
    if (score !== 0) s.fill(score);
    return new ScoredDocs(this.ords, s, this.length);
  }
}

/** Appends (ord, score) pairs in ascending ord order. */
export class DocSetBuilder {
  private ords: Int32Array<ArrayBuffer>;
  private scores: Float64Array<ArrayBuffer>;
  private n = 0;

  constructor(capacity = 16) {
    this.ords = new Int32Array(Math.max(4, capacity));
    this.scores = new Float64Array(Math.max(4, capacity));
  }

  add(ord: number, score: number): void {
    if (this.n === this.ords.length) {
      const o = new Int32Array(this.n * 2);
      o.set(this.ords);
      this.ords = o;
      const s = new Float64Array(this.n * 2);
      s.set(this.scores);
      this.scores = s;
    }
    this.ords[this.n] = ord;
    this.scores[this.n++] = score;
  }

  build(): ScoredDocs {
    return new ScoredDocs(this.ords, this.scores, this.n);
  }
}

/** Dense per-ordinal accumulators reused across the clauses of one request (one at a time). */
export class Accumulator {
  sums: Float64Array;
  counts: Int32Array;
  maxes: Float64Array;
  private touched: Int32Array;
  private nTouched = 0;

  constructor(maxOrd: number) {
    this.sums = new Float64Array(maxOrd);
    this.counts = new Int32Array(maxOrd);
    this.maxes = new Float64Array(maxOrd);
    this.touched = new Int32Array(1024);
  }

  add(ord: number, score: number): void {
    if (this.counts[ord]++ === 0) {
      if (this.nTouched === this.touched.length) {
        const t = new Int32Array(this.nTouched * 2);
        t.set(this.touched);
        this.touched = t;
      }
      this.touched[this.nTouched++] = ord;
      this.sums[ord] = score;
      this.maxes[ord] = score;
    } else {
      this.sums[ord] += score;
      if (score > this.maxes[ord]) this.maxes[ord] = score;
    }
  }

  /** Calls `emit` for each touched ordinal in ascending order, then resets. */
  drain(emit: (ord: number, count: number, sum: number, max: number) => void): void {
    const n = this.nTouched;
    this.nTouched = 0;
    let hi = 0;
    for (let i = 0; i < n; i++) if (this.touched[i] > hi) hi = this.touched[i];
    // Many ordinals touched: a pass over the counts in order beats sorting the touched list.
    if (n > 64 && n * Math.log2(n) > hi) {
      const counts = this.counts;
      for (let ord = 0; ord <= hi; ord++) {
        if (counts[ord] === 0) continue;
        emit(ord, counts[ord], this.sums[ord], this.maxes[ord]);
        counts[ord] = 0;
      }
      return;
    }
    const t = this.touched.subarray(0, n);
    if (n > 1) t.sort();
    for (let i = 0; i < n; i++) {
      const ord = t[i];
      emit(ord, this.counts[ord], this.sums[ord], this.maxes[ord]);
      this.counts[ord] = 0;
    }
  }
}
