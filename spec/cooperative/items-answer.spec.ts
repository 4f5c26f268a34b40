import { expect } from 'chai';
import { parseItemsAnswer } from '../../lib/cooperative/index.js';
import { expectLoopKeptTurning, gapsDuring } from './support/loop-turns.js';

/** A `_bulk` answer of `count` items, some with strings that hold the scanner's special characters. */
function bulkAnswer(count: number): { took: number; errors: boolean; items: object[] } {
  return {
    took: 1234,
    errors: true,
    items: Array.from({ length: count }, (_, i) =>
      i % 97 === 0
        ? { index: { _index: 'logs', _id: `odd,${i}]}"{[\\`, status: 400, error: { type: 'mapper_parsing_exception', reason: `failed to parse field [a] of type [long] in document with id '${i}': "x,]}"` } } }
        : { index: { _index: 'logs', _id: String(i), _version: 1, result: 'created', _shards: { total: 2, successful: 1, failed: 0 }, _seq_no: i, _primary_term: 1, status: 201, nested: [[1, 2], { a: [] }] } },
    ),
  };
}

describe('parseItemsAnswer: a large _bulk answer parsed a slice at a time', function () {
  this.timeout(60_000);

  it('gives JSON.parse\'s value for a large answer, its items split at commas outside strings and brackets', async () => {
    const text = JSON.stringify(bulkAnswer(40_000));
    expect(text.length).to.be.above(2 * 1024 * 1024);
    expect(await parseItemsAnswer(text)).to.deep.equal(JSON.parse(text));
  });

  it('gives JSON.parse\'s value for small answers, other shapes, pretty text and an empty items array', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const cases = [
      '{"took":1,"errors":false,"items":[]}',
      JSON.stringify({ took: 1, errors: false, items: [], padding: big }), // the array is not last
      JSON.stringify({ took: 1, errors: false, items: [{ a: big }] }),
      JSON.stringify({ note: `"items":[ ${big}`, items: [1, 2] }), // the key inside a string of the head
      JSON.stringify({ took: 1, errors: false, items: Array.from({ length: 3_000 }, (_, i) => ({ i, s: big.slice(0, 500) })) }, null, 2),
      JSON.stringify([{ items: [1] }, big]),
    ];
    for (const text of cases) expect(await parseItemsAnswer(text), text.slice(0, 60)).to.deep.equal(JSON.parse(text));
  });

  it("fails as JSON.parse does on a text it refuses", async () => {
    const text = JSON.stringify(bulkAnswer(20_000));
    for (const broken of [text.slice(0, -2), text.replace('"took":1234', '"took":'), text.replace('"_seq_no":15000,', '"_seq_no":15000,,')]) {
      let expected = '';
      try {
        JSON.parse(broken);
      } catch (err) {
        expected = (err as Error).message;
      }
      expect(expected).not.to.equal('');
      let thrown: unknown;
      await parseItemsAnswer(broken).catch((err: unknown) => (thrown = err));
      expect(thrown).to.be.instanceOf(SyntaxError);
      expect((thrown as Error).message).to.equal(expected);
    }
  });

  it('keeps the event loop turning on a 30 MB answer', async () => {
    const text = JSON.stringify(bulkAnswer(150_000));
    expect(text.length).to.be.above(25 * 1024 * 1024);
    const run = await gapsDuring(() => parseItemsAnswer(text));
    expect((run.result as { items: unknown[] }).items).to.have.length(150_000);
    expectLoopKeptTurning(run, 10);
  });
});
