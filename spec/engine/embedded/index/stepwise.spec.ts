import { expect } from 'chai';
import fc from 'fast-check';
import { createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { NGramFilter } from '../../../../lib/engine/embedded/analysis/filters/ngram.js';
import { InvertedIndex, SnapshotWriter } from '../../../../lib/engine/embedded/index/index.js';
import { FieldIndex } from '../../../../lib/engine/embedded/index/field-index.js';
import { TermDict } from '../../../../lib/engine/embedded/index/term-dict.js';
import { parseDocument, parseDocumentSteps, type Mappings } from '../../../../lib/engine/embedded/mapping/index.js';

/** Runs stepwise work to its end, counting its yields. */
function drain<T>(steps: Generator<void, T, void>): { value: T; yields: number } {
  let yields = 0;
  for (;;) {
    const next = steps.next();
    if (next.done) return { value: next.value, yields };
    yields++;
  }
}

/** Everything an in-memory index holds, as comparable values. */
function contents(index: InvertedIndex): unknown {
  const w = new SnapshotWriter();
  const header = index.toSnapshot(w);
  return { header, columns: w.toBuffers({}).map((b) => Buffer.from(b).toString('base64')) };
}

/**
 * A heavy document is indexed a stretch at a time (parseDocumentSteps, the analyzers'
 * indexTermsSteps, InvertedIndex.stageSteps): whatever the stretches, the result must be exactly
 * what the same work gives at once.
 */
describe('embedded engine: indexing a stretch at a time gives what indexing at once gives', () => {
  const registry = createAnalysisRegistry(
    {
      filter: {
        wide: { type: 'ngram', min_gram: 1, max_gram: 400 },
        edges: { type: 'edge_ngram', min_gram: 2, max_gram: 300, preserve_original: true },
      },
      analyzer: {
        wide: { type: 'custom', tokenizer: 'keyword', filter: ['lowercase', 'wide'] },
        edges: { type: 'custom', tokenizer: 'whitespace', filter: ['edges'] },
      },
    },
    { maxNgramDiff: 1000 },
  );
  const mappings: Mappings = {
    properties: {
      grams: { type: 'text', analyzer: 'wide' },
      edges: { type: 'text', analyzer: 'edges', fields: { raw: { type: 'keyword' } } },
      plain: { type: 'text' },
    },
  };
  const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'D', ' ', 'é', '\ud83d\ude00'), maxLength: 300 });

  it('analysis: indexTermsSteps equals indexTerms (and yields for a large expansion)', () => {
    for (const name of ['wide', 'edges', 'standard']) {
      const analyzer = registry.analyzer(name);
      fc.assert(
        fc.property(text, (t) => {
          expect(drain(analyzer.indexTermsSteps!(t)).value).to.deep.equal(analyzer.indexTerms!(t));
        }),
        { numRuns: 60 },
      );
    }
    expect(drain(registry.analyzer('wide').indexTermsSteps!('abcdefghij'.repeat(30))).yields).to.be.above(5);
  });

  it('parse and staging: the same fields, mapping update and index contents', () => {
    const document = fc.record(
      { grams: text, edges: fc.array(text, { maxLength: 3 }), plain: text, extra: fc.oneof(fc.integer(), text), nested: fc.record({ a: text }) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(document, { minLength: 1, maxLength: 4 }), (docs) => {
        const atOnce = new InvertedIndex();
        const stepwise = new InvertedIndex();
        docs.forEach((source, i) => {
          const whole = parseDocument(source, mappings, registry, String(i));
          const stepped = drain(parseDocumentSteps(source, mappings, registry, String(i))).value;
          expect(stepped).to.deep.equal(whole);
          atOnce.reveal(String(i), atOnce.stage(String(i), whole));
          stepwise.reveal(String(i), drain(stepwise.stageSteps(String(i), stepped)).value);
        });
        expect(contents(stepwise)).to.deep.equal(contents(atOnce));
      }),
      { numRuns: 40 },
    );
  });

  it('a wide ngram expansion yields within one start of a long term: at most ~256 K characters of grams between two yields', () => {
    const term = 'abcdefghijklmnopqrstuvwxyz'.repeat(40);
    const filter = new NGramFilter(1, 100_000, false, false);
    const all: string[] = [];
    filter.expandTerm(term, (g) => all.push(g));
    const stepped: string[] = [];
    let chars = 0;
    let most = 0;
    const steps = filter.expandTermSteps(term, (g) => {
      stepped.push(g);
      chars += g.length;
    });
    while (!steps.next().done) {
      most = Math.max(most, chars);
      chars = 0;
    }
    most = Math.max(most, chars);
    expect(stepped.length).to.equal(541_320);
    expect(stepped.every((g, i) => g === all[i])).to.equal(true);
    // one start alone gives 541,320 characters of grams (its 1,040 grams): stretches end inside it
    expect(most).to.be.at.most((1 << 18) + term.length);
  });

  it('a value of 541,320 grams is staged in stretches of bounded work: terms hashed, tokens grouped, postings written', function () {
    this.timeout(120_000);
    const grams = createAnalysisRegistry(
      { filter: { grams: { type: 'ngram', min_gram: 1, max_gram: 100_000 } }, analyzer: { grams: { type: 'custom', tokenizer: 'keyword', filter: ['grams'] } } },
      { maxNgramDiff: 100_000 },
    );
    const term = 'abcdefghijklmnopqrstuvwxyz'.repeat(40);
    const parsed = parseDocument({ text: term }, { properties: { text: { type: 'text', analyzer: 'grams' } } }, grams, '1');
    expect(parsed.fields.get('text')!.terms.length).to.equal(541_320);
    // the work of each stretch, counted where it is done (private methods, read through the prototypes)
    const dict = TermDict.prototype as unknown as { intern(term: string): number };
    const field = FieldIndex.prototype as unknown as { append(b: number, value: number): void; groupPositions(positions: number[], from: number, to: number): void };
    const [intern, append, group] = [dict.intern, field.append, field.groupPositions];
    let work = { chars: 0, ints: 0, tokens: 0 };
    const most = { chars: 0, ints: 0, tokens: 0 };
    dict.intern = function (this: TermDict, t: string) {
      work.chars += t.length;
      return intern.call(this, t);
    };
    field.append = function (this: FieldIndex, b: number, value: number) {
      work.ints++;
      append.call(this, b, value);
    };
    field.groupPositions = function (this: FieldIndex, positions: number[], from: number, to: number) {
      work.tokens += to - from;
      group.call(this, positions, from, to);
    };
    try {
      const steps = new InvertedIndex().stageSteps('1', parsed);
      for (let done = false; !done; ) {
        done = steps.next().done === true;
        for (const k of ['chars', 'ints', 'tokens'] as const) most[k] = Math.max(most[k], work[k]);
        work = { chars: 0, ints: 0, tokens: 0 };
      }
    } finally {
      [dict.intern, field.append, field.groupPositions] = [intern, append, group];
    }
    // about a millisecond of work each (a stretch ends past its bound by one term at most: 1,040
    // characters, or its postings: 2 ints and its positions, 40 at most in this text)
    expect(most.chars, 'characters of terms hashed in one stretch').to.be.at.most((1 << 16) + term.length);
    expect(most.tokens, 'tokens grouped by term in one stretch').to.be.at.most(1 << 15);
    expect(most.ints, 'postings ints written in one stretch').to.be.at.most((1 << 15) + 2 + 40);
  });

  it('a field of many terms is staged in many stretches', () => {
    const source = { grams: 'abcdefghijklmnopqrstuvwxyz'.repeat(12) };
    const parsed = parseDocument(source, mappings, registry, '1');
    expect(parsed.fields.get('grams')!.terms.length).to.be.above(40_000);
    expect(drain(new InvertedIndex().stageSteps('1', parsed)).yields).to.be.above(20);
  });
});
