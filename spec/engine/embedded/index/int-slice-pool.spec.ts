/**
 * The postings pool (IntSlicePool): lists of ints in chains of slices, in blocks of one size. A
 * field that outgrows one block (a document of 541,320 ngrams writes millions of ints) gets new
 * blocks: what is written is never moved, so growing never copies the pool in one piece.
 */
import { expect } from 'chai';
import { IntSlicePool, SliceReader } from '../../../../lib/engine/embedded/index/int-slice-pool.js';

/** Appends `values` to the list whose state is `list`, as FieldIndex.append does. */
function append(pool: IntSlicePool, list: { tail: number; end: number; level: number }, value: number): void {
  if (list.tail === list.end) {
    list.level = IntSlicePool.nextLevel(list.level);
    const s = pool.alloc(list.level);
    pool.set(list.tail, s);
    list.end = IntSlicePool.sliceEnd(s, list.level);
    list.tail = s;
  }
  pool.set(list.tail++, value);
}

function readAll(pool: IntSlicePool, head: number, tail: number): number[] {
  const r = new SliceReader().reset(pool, head, tail);
  const out: number[] = [];
  while (!r.done) out.push(r.read());
  return out;
}

describe('embedded engine: postings pool', () => {
  it('grows by blocks without moving what it holds, and reads every list back whole, through a snapshot and a clone', () => {
    const pool = new IntSlicePool();
    // many short lists (new terms: their first slice) and a few long ones, interleaved, past several blocks
    const lists: Array<{ head: number; tail: number; end: number; level: number; values: number[] }> = [];
    const newList = () => {
      const head = pool.alloc(0);
      const list = { head, tail: head, end: IntSlicePool.sliceEnd(head, 0), level: 0, values: [] as number[] };
      lists.push(list);
      return list;
    };
    const long = [newList(), newList(), newList()];
    const firstBlocks: unknown[] = [];
    for (let i = 0; i < 300_000; i++) {
      const short = newList();
      append(pool, short, i);
      short.values.push(i);
      const l = long[i % 3];
      append(pool, l, i * 7);
      l.values.push(i * 7);
      // a full block, once made, is the same array for the rest of the pool's life
      if (i % 50_000 === 0) firstBlocks.push(...(pool as unknown as { blocks: unknown[] }).blocks.slice(1));
    }
    const blocks = (pool as unknown as { blocks: unknown[] }).blocks;
    expect(blocks.length, 'blocks').to.be.above(10);
    for (const b of firstBlocks) expect(blocks).to.include(b);
    const copies = [pool, IntSlicePool.fromUsed(pool.usedBuffer), pool.clone()];
    for (const p of copies) {
      for (const l of [...long, ...lists.slice(-1000), ...lists.filter((_, k) => k % 997 === 0)]) {
        expect(readAll(p, l.head, l.tail)).to.deep.equal(l.values);
      }
    }
  });
});
