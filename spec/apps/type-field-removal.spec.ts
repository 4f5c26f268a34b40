import { expect } from 'chai';
import fc from 'fast-check';
import { TypeFieldRemoval, withoutTypeField } from '../../lib/apps/type-field-hiding.js';

/**
 * The streaming hiding of the type field drops what the whole-answer hiding drops — a member
 * named `_gateway_type` in the answer's structure or at a source's top level, never deeper in a
 * document — however the answer is cut into pieces.
 */
const FIELD = '_gateway_type';
const userValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant('a "quoted" \\ text'),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(FIELD, 'a', 'b', '_source'), tie('v'), { maxKeys: 3 }),
  ),
})).v;
const source = fc.dictionary(fc.constantFrom(FIELD, 'title', 'n', 'nested'), userValue, { maxKeys: 4 });
const hit = fc.record({ _index: fc.constant('lib'), _id: fc.string({ minLength: 1, maxLength: 4 }), _source: source, fields: fc.option(fc.dictionary(fc.constantFrom(FIELD, 'title'), fc.array(fc.string(), { maxLength: 2 }), { maxKeys: 2 }), { nil: undefined }) });
const aggregations = fc.dictionary(fc.constantFrom(FIELD, 'by_type', 'top'), fc.oneof(
  fc.record({ buckets: fc.array(fc.record({ key: fc.string(), doc_count: fc.nat() }), { maxLength: 2 }) }),
  fc.record({ hits: fc.record({ hits: fc.array(hit, { maxLength: 2 }) }) }),
), { maxKeys: 2 });
const answerArb = fc.record({ took: fc.nat(), hits: fc.record({ hits: fc.array(hit, { maxLength: 4 }) }), aggregations });

function streamed(text: string, cuts: number[]): string {
  const removal = new TypeFieldRemoval();
  let out = '';
  let from = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)) {
    out += removal.write(text.slice(from, cut));
    from = cut;
  }
  return out + removal.write(text.slice(from)) + removal.end();
}

describe('the type field hidden from a streaming answer', () => {
  it('drops what the whole-answer hiding drops, whatever the pieces (compact and pretty JSON)', () => {
    fc.assert(
      fc.property(answerArb, fc.array(fc.nat(), { maxLength: 10 }), fc.boolean(), (answer, cuts, pretty) => {
        const clean = JSON.parse(JSON.stringify(answer));
        const text = pretty ? JSON.stringify(clean, null, 2) : JSON.stringify(clean);
        const out = streamed(text, cuts);
        expect(JSON.parse(out)).to.deep.equal(withoutTypeField(clean));
      }),
      { seed: 33, numRuns: 400 },
    );
  });
});
