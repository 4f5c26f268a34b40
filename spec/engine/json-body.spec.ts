import { expect } from 'chai';
import { Readable } from 'node:stream';
import { isLargeAnswer, jsonBody } from '../../lib/engine/json-body.js';
import { readBody } from '../../lib/engine/index.js';

describe('engine: JSON answer bodies', () => {
  const bulkAnswer = (n: number) => ({
    took: 12,
    errors: false,
    items: Array.from({ length: n }, (_, i) => ({ index: { _index: 'i', _id: `d${i}`, _version: 1, result: 'created', _shards: { total: 1, successful: 1, failed: 0 }, _seq_no: i, _primary_term: 1, status: 201 } })),
  });

  it('writes a small answer whole, with its length', () => {
    const small = { _index: 'i', _id: '1', found: true, _source: { a: 1 } };
    expect(isLargeAnswer(small)).to.equal(false);
    const body = jsonBody(small, false);
    expect(Buffer.isBuffer(body)).to.equal(true);
    expect(body.toString()).to.equal(JSON.stringify(small));
    expect(jsonBody(small, true).toString()).to.equal(JSON.stringify(small, null, 2) + '\n');
  });

  it('streams a large answer (a _bulk of 50,000 items, 20,000 hits, a 2 MB source), exactly as JSON.stringify writes it', async () => {
    const answers = [
      bulkAnswer(50_000),
      { took: 1, hits: { total: { value: 20_000, relation: 'eq' }, hits: Array.from({ length: 20_000 }, (_, i) => ({ _id: String(i), _score: 1, _source: { n: i } })) } },
      { _index: 'i', _id: 'big', found: true, _source: { text: 'x'.repeat(2 * 1024 * 1024) } },
    ];
    for (const answer of answers) {
      expect(isLargeAnswer(answer)).to.equal(true);
      const body = jsonBody(answer, false);
      expect(body).to.be.instanceOf(Readable);
      expect((await readBody(body)).toString()).to.equal(JSON.stringify(answer));
    }
  });

  it('writes hits sorted by BigInt values (date_nanos) whole, as the integers they are', () => {
    const hits = Array.from({ length: 2000 }, (_, i) => ({ _id: String(i), sort: [1_700_000_000_000_000_000n + BigInt(i)] }));
    const body = jsonBody({ hits: { hits } }, false);
    expect(Buffer.isBuffer(body)).to.equal(true);
    expect(body.toString()).to.contain('"sort":[1700000000000000001]');
  });
});
