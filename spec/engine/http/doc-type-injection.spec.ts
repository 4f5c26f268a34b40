import { expect } from 'chai';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { DocTypeInjection, injectDocType } from '../../../lib/engine/http/doc-type-injection.js';
import { call } from '../../support/http.js';
import { BACKENDS } from '../../support/backends.js';

/**
 * `_type` goes into the answer's documents and hits — and nowhere else: what the user wrote comes
 * back byte for byte, however the engine's answer is cut into chunks (multi-byte characters split
 * between two chunks included).
 */

/** User data: any JSON, including objects that look like hits and text of every script. */
const userData: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('日本語のテキスト', 'àéîõü', '🙂👍🏽', '"_index":"x","_id":"y"'),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant({ _index: 'fake', _id: 'z' }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('_index', '_id', 'title', '_source', 'hits', 'a'), tie('value'), { maxKeys: 4 }),
  ),
})).value;

const hit = fc.record({ _index: fc.constantFrom('books', 'ünïcode-index'), _id: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }), _score: fc.double({ noNaN: true, noDefaultInfinity: true }), _source: userData });
const searchAnswer = fc.array(hit, { maxLength: 4 }).map((hits) => ({ took: 1, timed_out: false, hits: { total: { value: hits.length, relation: 'eq' }, max_score: null, hits } }));

/** The answer as the gateway should give it: `_type` right before `_id` in each hit. */
function expected(answer: { hits: { hits: Array<Record<string, unknown>> } }): unknown {
  return { ...answer, hits: { ...answer.hits, hits: answer.hits.hits.map(({ _index, _id, ...rest }) => ({ _index, _type: '_doc', _id, ...rest })) } };
}

async function throughStream(bytes: Buffer, cuts: number[]): Promise<string> {
  const pieces: Buffer[] = [];
  let from = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    pieces.push(bytes.subarray(from, cut));
    from = cut;
  }
  pieces.push(bytes.subarray(from));
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(pieces.filter((p) => p.length)).pipe(new DocTypeInjection())) out.push(chunk as Buffer);
  return Buffer.concat(out).toString('utf8');
}

describe('_type in answers from an HTTP engine', () => {
  it('goes before `_id` in every hit, user data untouched, whatever the chunks', async () => {
    await fc.assert(
      fc.asyncProperty(searchAnswer, fc.array(fc.nat(), { maxLength: 12 }), async (answer, cuts) => {
        const text = JSON.stringify(answer);
        const want = JSON.stringify(expected(answer));
        expect(injectDocType(text)).to.equal(want);
        expect(await throughStream(Buffer.from(text), cuts)).to.equal(want);
      }),
      { seed: 34, numRuns: 300 },
    );
  });

  it('keeps every multi-byte character of a large document whole', async () => {
    const source = { text: '日本語のテキストと àccentué '.repeat(40_000) };
    const text = JSON.stringify({ _index: 'books', _id: '1', _version: 1, found: true, _source: source });
    const out = await throughStream(Buffer.from(text), Array.from({ length: 200 }, (_, i) => i * 4099 + 1));
    expect(out).not.to.include('\uFFFD');
    expect(JSON.parse(out)).to.deep.equal({ _index: 'books', _type: '_doc', _id: '1', _version: 1, found: true, _source: source });
  });

  it('mget items and inner hits get it; an answer that has it already does not get it twice', () => {
    const mget = JSON.stringify({ docs: [{ _index: 'a', _id: '1', found: true, _source: { _index: 'fake', _id: 'z' } }] });
    expect(JSON.parse(injectDocType(mget))).to.deep.equal({ docs: [{ _index: 'a', _type: '_doc', _id: '1', found: true, _source: { _index: 'fake', _id: 'z' } }] });
    const typed = JSON.stringify({ _index: 'a', _type: '_doc', _id: '1' });
    expect(injectDocType(typed)).to.equal(typed);
  });
});

describe('answers through the HTTP backend keep the user\'s text whole', function () {
  this.timeout(60_000);
  let stop: (() => Promise<void>) | undefined;
  let url = '';
  before(async () => {
    const http = BACKENDS.find((b) => b.name.startsWith('HTTP'))!;
    const started = await http.start();
    url = started.gateway.url;
    stop = started.stop;
  });
  after(() => stop?.());

  it('a 1 MB document of Japanese and accented text, and a `_source` shaped like a hit', async () => {
    const source = { text: '日本語のテキストと àccentué ✓ '.repeat(30_000), nested: { _index: 'fake', _id: 'z' } };
    expect((await call(url, 'PUT', '/texts/_doc/1?refresh=true', { body: source })).status).to.equal(201);
    const got = await call(url, 'GET', '/texts/_doc/1');
    expect(got.text).not.to.include('\uFFFD');
    expect(got.json._type).to.equal('_doc');
    expect(got.json._source).to.deep.equal(source);
    const hits = await call(url, 'POST', '/texts/_search', { body: { query: { match_all: {} } } });
    expect(hits.text).not.to.include('\uFFFD');
    expect(hits.json.hits.hits[0]._type).to.equal('_doc');
    expect(hits.json.hits.hits[0]._source).to.deep.equal(source);
  });
});
