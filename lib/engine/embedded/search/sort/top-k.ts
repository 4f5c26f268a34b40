/**
 * The k best items of a stream under a comparator (negative: a ranks before b), in O(n log k)
 * time and O(k) memory: a binary heap whose root is the worst item kept.
 */
/** Items sorted in one piece by `sortedInRuns` (a power of two). */
const SORTED_RUN = 4096;

export class TopK<T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  /**
   * Would an item ranking like `probe` enter? Lets callers skip building items that would not: a
   * caller reuses one probe for every candidate (a closure or an object per candidate was most of
   * a search's collection time).
   */
  admits(probe: T): boolean {
    if (this.k <= 0) return false;
    if (this.heap.length < this.k) return true;
    return this.compare(probe, this.heap[0]) < 0;
  }

  push(item: T): void {
    const h = this.heap;
    if (h.length < this.k) {
      h.push(item);
      this.siftUp(h.length - 1);
    } else if (this.k > 0 && this.compare(item, h[0]) < 0) {
      h[0] = item;
      this.siftDown(0);
    }
  }

  /** The kept items, best first. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }

  /**
   * The kept items, best first, as work that may pause (it yields when `pause()` says so): runs of
   * SORTED_RUN items sorted, then merged pairwise. A by-query operation keeps every match (k is
   * unbounded), and 20,000 of them sorted in one piece held the event loop ~20 ms.
   */
  *sortedInRuns(pause: () => boolean): Generator<void, T[], void> {
    const h = this.heap;
    if (h.length <= SORTED_RUN) return this.sorted();
    let runs: T[][] = [];
    for (let start = 0; start < h.length; start += SORTED_RUN) {
      if (pause()) yield;
      runs.push(h.slice(start, start + SORTED_RUN).sort(this.compare));
    }
    while (runs.length > 1) {
      const merged: T[][] = [];
      for (let i = 0; i < runs.length; i += 2) {
        const [a, b] = [runs[i], runs[i + 1]];
        if (!b) {
          merged.push(a);
          continue;
        }
        const out: T[] = new Array(a.length + b.length);
        let x = 0;
        let y = 0;
        for (let k = 0; k < out.length; k++) {
          if ((k & (SORTED_RUN - 1)) === SORTED_RUN - 1 && pause()) yield;
          // stable: on a tie the item of the earlier run first, as one sort would keep them
          out[k] = y >= b.length || (x < a.length && this.compare(a[x], b[y]) <= 0) ? a[x++] : b[y++];
        }
        merged.push(out);
      }
      runs = merged;
    }
    return runs[0];
  }

  // The heap is ordered so that the parent ranks *after* (is worse than) its children.
  private siftUp(i: number): void {
    const h = this.heap;
    const item = h[i];
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(item, h[parent]) <= 0) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = item;
  }

  private siftDown(i: number): void {
    const h = this.heap;
    const n = h.length;
    const item = h[i];
    for (;;) {
      let worst = 2 * i + 1;
      if (worst >= n) break;
      if (worst + 1 < n && this.compare(h[worst + 1], h[worst]) > 0) worst++;
      if (this.compare(h[worst], item) <= 0) break;
      h[i] = h[worst];
      i = worst;
    }
    h[i] = item;
  }
}
