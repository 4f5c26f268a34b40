/**
 * Growable lists of ints (one per term) packed into blocks of one size, as Lucene's IntBlockPool:
 * each list is a chain of slices of growing size whose last slot points to the next slice, so
 * appending never moves data and no list owns an object of its own. A slice lies within one block,
 * and the pool grows by a new block: growing one flat array by doubling copied all of it in one
 * piece (a field of 541,320 ngrams a document: hundreds of megabytes, ~150 ms at a time).
 * An address is the block's number × BLOCK_INTS + the offset in it.
 */
const LEVEL_SIZES = [4, 8, 16, 32, 64, 128, 256, 512, 1024];
const MAX_LEVEL = LEVEL_SIZES.length - 1;
const BLOCK_SHIFT = 16;
/** Ints in a block (256 KB): a multiple of the largest slice. */
export const BLOCK_INTS = 1 << BLOCK_SHIFT;
const BLOCK_MASK = BLOCK_INTS - 1;

export class IntSlicePool {
  /** Every block but the first holds BLOCK_INTS; the first starts small and doubles up to that. */
  blocks: Array<Int32Array<ArrayBuffer>>;
  private used = 0;

  // small to begin with: an index of 10,000 fields holds 10,000 pools, most of them a few postings
  constructor(initial = 1 << 10) {
    this.blocks = [new Int32Array(Math.min(BLOCK_INTS, initial))];
  }

  get size(): number {
    return this.used;
  }

  /** The used part of the pool as one array (for snapshots). */
  get usedBuffer(): Int32Array<ArrayBuffer> {
    if (this.used <= BLOCK_INTS) return this.blocks[0].subarray(0, this.used);
    const out = new Int32Array(this.used);
    this.blocks.forEach((b, i) => out.set(b.subarray(0, Math.min(BLOCK_INTS, this.used - i * BLOCK_INTS)), i * BLOCK_INTS));
    return out;
  }

  static fromUsed(used: Int32Array<ArrayBuffer>): IntSlicePool {
    const p = new IntSlicePool(0);
    p.blocks = [];
    if (used.length <= BLOCK_INTS) p.blocks.push(used);
    else {
      for (let at = 0; at < used.length; at += BLOCK_INTS) {
        const block = new Int32Array(BLOCK_INTS);
        block.set(used.subarray(at, at + BLOCK_INTS));
        p.blocks.push(block);
      }
    }
    p.used = used.length;
    return p;
  }

  /** The bytes its blocks take (allocated, used or not). */
  get memoryBytes(): number {
    let n = 0;
    for (const b of this.blocks) n += b.byteLength;
    return n;
  }

  clone(): IntSlicePool {
    const c = new IntSlicePool(0);
    c.blocks = this.blocks.map((b) => b.slice());
    c.used = this.used;
    return c;
  }

  get(address: number): number {
    return this.blocks[address >>> BLOCK_SHIFT][address & BLOCK_MASK];
  }

  set(address: number, value: number): void {
    this.blocks[address >>> BLOCK_SHIFT][address & BLOCK_MASK] = value;
  }

  /** Allocates a slice of this level; returns its start. */
  alloc(level: number): number {
    const size = LEVEL_SIZES[level];
    let offset = this.used & BLOCK_MASK;
    // a slice never crosses a block's end: the rest of the block is left unused
    if (offset + size > BLOCK_INTS) {
      this.used += BLOCK_INTS - offset;
      offset = 0;
    }
    const n = this.used >>> BLOCK_SHIFT;
    if (n === this.blocks.length) this.blocks.push(new Int32Array(BLOCK_INTS));
    else if (offset + size > this.blocks[n].length) {
      let cap = Math.max(1024, this.blocks[n].length * 2);
      while (cap < offset + size) cap *= 2;
      const next = new Int32Array(Math.min(BLOCK_INTS, cap));
      next.set(this.blocks[n].subarray(0, offset));
      this.blocks[n] = next;
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
  private pool!: IntSlicePool;
  /** The block of the slice being read, and the address of its first int. */
  private buf!: Int32Array<ArrayBuffer>;
  private base = 0;
  private pos = 0;
  private end = 0;
  private level = 0;
  private tail = 0;

  reset(pool: IntSlicePool, head: number, tail: number): this {
    this.pool = pool;
    this.enter(head);
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
      this.pos = this.buf[this.end - this.base];
      this.enter(this.pos);
      this.level = IntSlicePool.nextLevel(this.level);
      this.end = IntSlicePool.sliceEnd(this.pos, this.level);
    }
    return this.buf[this.pos++ - this.base];
  }

  private enter(address: number): void {
    this.buf = this.pool.blocks[address >>> BLOCK_SHIFT];
    this.base = address & ~BLOCK_MASK;
  }
}
