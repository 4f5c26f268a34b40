/**
 * Postings of dead documents are compacted away a field and a stretch of terms at a time, with
 * turns of the event loop between (as Lucene merges off the indexing thread): a compaction of every
 * field at once held the loop for ~300 ms of CPU after a 50 MB `_bulk` overwrote 120,000 documents.
 * Meanwhile the index is read and written as usual.
 */
import { expect } from 'chai';
import { setImmediate as turn } from 'node:timers/promises';
import { InvertedIndex, SliceReader, type FieldIndex } from '../../../../lib/engine/embedded/index/index.js';
import type { IndexableField } from '../../../../lib/engine/embedded/mapping/index.js';

function text(words: string[]): IndexableField {
  return { type: 'text', terms: [...words], positions: words.map((_, i) => i), values: [words.join(' ')] };
}

/** The ordinals a term's postings hold (dead ones included): what a compaction removes. */
function entries(fi: FieldIndex, term: string): number[] {
  const tid = fi.termId(term);
  if (tid < 0) return [];
  const r = fi.postingsOf(tid, new SliceReader());
  const out: number[] = [];
  while (!r.done) {
    out.push(r.read());
    const f = r.read();
    for (let j = 0; j < f; j++) r.read();
  }
  return out;
}

const docOf = (i: number) => ({ fields: new Map([['body', text([`w${i % 5000}`, `v${i % 7}`, 'common'])]]) });

describe('embedded engine: postings compaction', () => {
  it('runs a stretch at a time with the event loop turning, while the index is read and written', async () => {
    const inv = new InvertedIndex();
    const N = 40_000;
    for (let i = 0; i < N; i++) inv.put(`d${i}`, docOf(i));
    const body = inv.field('body')!;
    // deleting most documents starts a compaction (more than 10,000 dead, more than live)
    for (let i = 0; i < 30_000; i++) inv.delete(`d${i}`);
    // the deletes did not rewrite the postings in one piece: the dead entries are still there
    expect(entries(body, 'common').length, 'entries right after the deletes').to.be.above(20_000);
    // writes and reads go on meanwhile, and the loop turns many times before it is done
    let turns = 0;
    for (let i = 0; entries(body, 'common').length > inv.docCount; i++) {
      inv.put(`n${i}`, docOf(i));
      turns++;
      await turn();
      expect(turns, 'turns').to.be.below(100_000);
    }
    expect(turns, 'turns of the event loop before the compaction was done').to.be.at.least(1);
    const live = entries(body, 'common').filter((o) => inv.isLive(o));
    expect(live.length).to.equal(inv.docCount);
    expect(entries(body, 'common')).to.deep.equal(live);
    expect(entries(body, 'v3').filter((o) => inv.isLive(o)).length).to.equal(entries(body, 'v3').length);
    // every live document is found by its own word
    for (let i = 30_000; i < N; i += 997) expect(entries(body, `w${i % 5000}`)).to.include(inv.ordOf(`d${i}`));
  });
});
