/**
 * Growable lists of ints (one per term) packed into one Int32Array, as Lucene's IntBlockPool:
 * each list is a chain of slices of growing size whose last slot points to the next slice, so
 * appending never moves data and no list owns an object of its own.
 */
const LEVEL_SIZES = [4, 8, 16, 32, 64, 128, 256, 512, 1024];
const MAX_LEVEL = LEVEL_SIZES.length - 1;

export class IntSlicePool {
  buffer: Int32Array<ArrayBuffer>;
  private used = 0;

  // small to begin with: an index of 10,000 fields holds 10,000 pools, most of them a few postings
  constructor(initial = 1 << 10) {
    this.buffer = new Int32Array(initial);
  }

  get size(): number {
    return this.used;
  }

  /** The used part of the buffer (for snapshots). */
  get usedBuffer(): Int32Array<ArrayBuffer> {
    return this.buffer.subarray(0, this.used);
  }

  static fromUsed(used: Int32Array<ArrayBuffer>): IntSlicePool {
    const p = new IntSlicePool(0);
    p.buffer = used;
    p.used = used.length;
    return p;
  }

  clone(): IntSlicePool {
    const c = new IntSlicePool(this.buffer.length);
    c.buffer.set(this.buffer.subarray(0, this.used));
    c.used = this.used;
    return c;
  }

  /** Allocates a slice of this level; returns its start. */
  alloc(level: number): number {
    const size = LEVEL_SIZES[level];
    if (this.used + size > this.buffer.length) {
      let cap = Math.max(1024, this.buffer.length * 2);
      while (cap < this.used + size) cap *= 2;
      const next = new Int32Array(cap);
      next.set(this.buffer.subarray(0, this.used));
      this.buffer = next;
    }
    const start = this.used;
    this.used += size;
    return start;
  }

  static sliceEnd(start: number, level: number): number {
    return start + LEVEL_SIZES[level] - 1;
  }

  static nextLevel(level: number): number {
    return level < MAX_LEVEL ? level + 1 : MAX_LEVEL;
  }
}

/** Reads one list sequentially, following the slice chain up to `tail`. */
export class SliceReader {
  private buf!: Int32Array<ArrayBuffer>;
  private pos = 0;
  private end = 0;
  private level = 0;
  private tail = 0;

  reset(pool: IntSlicePool, head: number, tail: number): this {
    this.buf = pool.buffer;
    this.pos = head;
    this.level = 0;
    this.end = IntSlicePool.sliceEnd(head, 0);
    this.tail = tail;
    return this;
  }

  get done(): boolean {
    return this.pos === this.tail;
  }

  read(): number {
    if (this.pos === this.end) {
      this.pos = this.buf[this.end];
      this.level = IntSlicePool.nextLevel(this.level);
      this.end = IntSlicePool.sliceEnd(this.pos, this.level);
    }
    return this.buf[this.pos++];
  }
}
