/** A bound of a range: numbers, epoch nanoseconds (BigInt) or terms; one index holds one kind. */
export type Bound = number | bigint | string;

/**
 * An item of an interval index is its own interval: a stab reads the items it finds, not a record
 * of the index's around each (a write found by thousands of ranges reads as many objects fewer).
 */
export interface IntervalItem {
  /** undefined: unbounded. */
  readonly lo?: Bound;
  readonly hi?: Bound;
  /** The end is excluded (`gt`, `lt`). */
  readonly loOpen: boolean;
  readonly hiOpen: boolean;
  /** The index's own: set while the index holds the item (its tree skips those deleted since it was built). */
  intervalLive: boolean;
}

/** A centered interval tree node: the intervals that contain `center`, and those wholly left or right of it. */
interface Node<T> {
  /** undefined: every interval here is unbounded on both sides. */
  center?: Bound;
  /** Ascending lower bounds (unbounded first). */
  byLo: T[];
  /** Descending upper bounds (unbounded first). */
  byHi: T[];
  left?: Node<T>;
  right?: Node<T>;
}

const compare = (a: Bound, b: Bound) => (a < b ? -1 : a > b ? 1 : 0);

/** Unbounded ends first (an unbounded lower end is the lowest, an unbounded upper end the highest), then by `order`. */
const unboundedFirst = (a: Bound | undefined, b: Bound | undefined, order: (a: Bound, b: Bound) => number) =>
  a === undefined ? (b === undefined ? 0 : -1) : b === undefined ? 1 : order(a, b);

/**
 * The items whose interval contains a value (stabbing), among items added and deleted at any
 * time. A centered interval tree answers in O(log n + answers); it is rebuilt lazily, at the first
 * stab after enough changes, so a burst of registrations costs one build: until then added items
 * wait in a short list scanned on every stab, deleted ones are skipped. Comparisons are
 * JavaScript's `<` and `>`, those the matcher's range test uses (`inRange`), open ends included:
 * an item found is in its interval, with no test left to its caller (a write found by thousands
 * of ranges is not tested again against each).
 */
export class IntervalIndex<T extends IntervalItem> {
  private readonly intervals = new Set<T>();
  private root?: Node<T>;
  private pending: T[] = [];
  private deadInTree = 0;

  get size(): number {
    return this.intervals.size;
  }

  has(item: T): boolean {
    return this.intervals.has(item);
  }

  /** Holds the item, found by its interval (which must not change while the index holds it). */
  add(item: T): void {
    if (this.intervals.has(item)) return;
    item.intervalLive = true;
    this.intervals.add(item);
    this.pending.push(item);
  }

  delete(item: T): void {
    if (!this.intervals.delete(item)) return;
    item.intervalLive = false;
    const at = this.pending.indexOf(item);
    if (at >= 0) this.pending.splice(at, 1);
    else this.deadInTree++;
  }

  /** Calls `visit` for each item whose interval contains `v`. */
  stab(v: Bound, visit: (item: T) => void): void {
    if (v !== v) {
      // NaN is neither below nor above a bound: the matcher's test lets it through every range
      for (const item of this.intervals) visit(item);
      return;
    }
    if (this.pending.length > 16 + Math.sqrt(this.intervals.size) || this.deadInTree > this.intervals.size) this.rebuild();
    for (const item of this.pending) if (contains(item, v)) visit(item);
    let node = this.root;
    while (node) {
      const center = node.center;
      if (center === undefined) {
        for (const item of node.byLo) if (item.intervalLive) visit(item);
        return;
      }
      // every interval of the node holds its center: on one side of it, only the near end decides
      if (v < center) {
        const byLo = node.byLo;
        for (let i = 0; i < byLo.length; i++) {
          const item = byLo[i];
          const lo = item.lo;
          if (lo !== undefined) {
            if (lo > v) break;
            if (item.loOpen && !(lo < v)) continue;
          }
          if (item.intervalLive) visit(item);
        }
        node = node.left;
      } else if (v > center) {
        const byHi = node.byHi;
        for (let i = 0; i < byHi.length; i++) {
          const item = byHi[i];
          const hi = item.hi;
          if (hi !== undefined) {
            if (hi < v) break;
            if (item.hiOpen && !(hi > v)) continue;
          }
          if (item.intervalLive) visit(item);
        }
        node = node.right;
      } else {
        for (const item of node.byLo) if (item.intervalLive && contains(item, v)) visit(item);
        return;
      }
    }
  }

  private rebuild(): void {
    // an interval with its ends the wrong way round contains nothing (but NaN, handled apart)
    this.root = build([...this.intervals].filter(({ lo, hi }) => lo === undefined || hi === undefined || lo <= hi));
    this.pending = [];
    this.deadInTree = 0;
  }
}

/** `inRange`'s test: a bound excludes what is beyond it, an open one what is at it too. */
function contains(interval: IntervalItem, v: Bound): boolean {
  const { lo, hi } = interval;
  if (lo !== undefined && (interval.loOpen ? v <= lo : v < lo)) return false;
  if (hi !== undefined && (interval.hiOpen ? v >= hi : v > hi)) return false;
  return true;
}

function build<T extends IntervalItem>(intervals: T[]): Node<T> | undefined {
  if (intervals.length === 0) return undefined;
  const ends: Bound[] = [];
  for (const { lo, hi } of intervals) {
    if (lo !== undefined) ends.push(lo);
    if (hi !== undefined) ends.push(hi);
  }
  // the median end: the interval it belongs to stays at this node, so every level shrinks
  const center = ends.length ? ends.sort(compare)[ends.length >> 1] : undefined;
  const here: T[] = [];
  const left: T[] = [];
  const right: T[] = [];
  for (const interval of intervals) {
    if (center !== undefined && interval.hi !== undefined && interval.hi < center) left.push(interval);
    else if (center !== undefined && interval.lo !== undefined && interval.lo > center) right.push(interval);
    else here.push(interval);
  }
  const byLo = [...here].sort((a, b) => unboundedFirst(a.lo, b.lo, compare));
  const byHi = here.sort((a, b) => unboundedFirst(a.hi, b.hi, (x, y) => compare(y, x)));
  return { center, byLo, byHi, left: build(left), right: build(right) };
}
