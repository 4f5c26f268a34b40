/**
 * The k best items of a stream under a comparator (negative: a ranks before b), in O(n log k)
 * time and O(k) memory: a binary heap whose root is the worst item kept.
 */
export class TopK<T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  /** Would an item ranking like `probe` enter? Lets callers skip building items that would not. */
  admits(rankAgainstWorst: (worst: T) => number): boolean {
    if (this.heap.length < this.k) return this.k > 0;
    return rankAgainstWorst(this.heap[0]) < 0;
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
