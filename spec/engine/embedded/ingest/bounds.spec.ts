import { expect } from 'chai';
import { startEngine, type Reply, type TestEngine } from '../support.js';

function expectRefused(r: Reply, status: number, type: string, reason: RegExp): void {
  expect(r.status, r.text.slice(0, 400)).to.equal(status);
  expect(r.json.error.type).to.equal(type);
  expect(r.json.error.reason).to.match(reason);
}

describe('embedded engine: every ingest unit of work is bounded per document', function () {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  const pipeline = (id: string, processors: unknown[]) => es.call('PUT', `/_ingest/pipeline/${id}`, { processors });
  let written = 0;
  /** Writes a new document (201) through the pipeline; `stored()` reads it back. */
  const write = (pipelineId: string, doc: unknown) => es.call('PUT', `/bounds/_doc/${++written}?pipeline=${pipelineId}`, doc);
  const stored = async () => (await es.call('GET', `/bounds/_doc/${written}`)).json._source;

  it('grok pattern_definitions that double at each level are refused when the pipeline is created (parse_exception)', async () => {
    const defs: Record<string, string> = { P0: 'a' };
    for (let i = 1; i <= 30; i++) defs[`P${i}`] = `%{P${i - 1}}%{P${i - 1}}`;
    const r = await pipeline('doubling', [{ grok: { field: 'f', patterns: ['%{P30}'], pattern_definitions: defs } }]);
    expectRefused(r, 400, 'parse_exception', /^\[patterns\] grok expression \[%\{P30\}\] expands to more than \[1000000\] characters$/);
    // a few levels are fine, and match
    expect((await pipeline('doubling-ok', [{ grok: { field: 'f', patterns: ['%{P4:x}'], pattern_definitions: defs } }])).status).to.equal(200);
    expect((await write('doubling-ok', { f: 'a'.repeat(16) })).status).to.equal(201);
    expect((await stored()).x).to.equal('a'.repeat(16));
  });

  it('200 GREEDYDATA captures on a 1 MB field fail that document (400) instead of holding the node', async () => {
    const patterns = [Array.from({ length: 200 }, (_, i) => `%{GREEDYDATA:f${i}}`).join(' ')];
    expect((await pipeline('greedy', [{ grok: { field: 'f', patterns } }])).status).to.equal(200);
    const text = Array.from({ length: 1 << 19 }, () => 'x').join(' ');
    expectRefused(await write('greedy', { f: text }), 400, 'illegal_argument_exception', /^grok pattern matching was refused: a field of \[1048575\] characters would cost/);
    // the same pipeline on a short line matches
    expect((await write('greedy', { f: Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ') })).status).to.equal(201);
    expect((await stored()).f199).to.equal('w199');
  });

  it('foreach cannot grow the list it iterates: an inner append runs once per original element', async () => {
    expect((await pipeline('grow', [{ foreach: { field: 'a', processor: { append: { field: 'a', value: 'x' } } } }])).status).to.equal(200);
    expect((await write('grow', { a: ['y', 'z'] })).status).to.equal(201);
    const source = await stored();
    // each element is written back as the inner processor left `_ingest._value`; the appends made meanwhile are replaced
    expect(source.a).to.deep.equal(['y', 'z']);
  });

  it('nested pipeline fan-out that doubles per level stops at the per-document processor-run budget', async () => {
    for (let i = 24; i >= 0; i--) {
      const processors = i === 24 ? [{ set: { field: 'leaf', value: 1 } }] : [{ pipeline: { name: `fan${i + 1}` } }, { pipeline: { name: `fan${i + 1}` } }];
      expect((await pipeline(`fan${i}`, processors)).status).to.equal(200);
    }
    expectRefused(await write('fan0', { f: 1 }), 400, 'illegal_argument_exception', /^\[\w+\] processor would be the document's processor run \[100001\], more than the limit of \[100000\]/);
    // a fan-out within the budget runs: 2^10 leaves
    expect((await write('fan14', { f: 1 })).status).to.equal(201);
  });

  it('split of 5 MB by "" is refused at once; a split within the budget works', async () => {
    expect((await pipeline('chars', [{ split: { field: 'f', separator: '' } }])).status).to.equal(200);
    expectRefused(await write('chars', { f: 'x'.repeat(5 << 20) }), 400, 'illegal_argument_exception', /^\[split\] processor would take the document's ingest output to \[\d+\] bytes, more than the limit of \[33554432\] bytes for one document$/);
    expect((await write('chars', { f: 'abc' })).status).to.equal(201);
    expect((await stored()).f).to.deep.equal(['a', 'b', 'c']);
  });

  it('gsub amplification is refused before its output is built; on_failure sees the error', async () => {
    const amplify = Array.from({ length: 10 }, () => ({ gsub: { field: 'f', pattern: 'x', replacement: 'xxxxxxxxxx' } }));
    expect((await pipeline('amplify', amplify)).status).to.equal(200);
    expectRefused(await write('amplify', { f: 'x'.repeat(1000) }), 400, 'illegal_argument_exception', /^\[gsub\] processor would take the document's ingest output/);
    const handled = [{ gsub: { field: 'f', pattern: 'x', replacement: 'x'.repeat(10_000), on_failure: [{ set: { field: 'error', value: '{{ _ingest.on_failure_message }}' } }] } }];
    expect((await pipeline('amplify-handled', handled)).status).to.equal(200);
    expect((await write('amplify-handled', { f: 'x'.repeat(10_000) })).status).to.equal(201);
    const source = await stored();
    expect(source.f).to.have.length(10_000);
    expect(source.error).to.match(/^\[gsub\] processor would take the document's ingest output/);
  });

  it('gsub replacements are bounded per document (each charged 1 KB of the budget): 40,000 of them are refused, 20,000 are done', async () => {
    expect((await pipeline('each-char', [{ gsub: { field: 'f', pattern: 'x', replacement: 'y' } }])).status).to.equal(200);
    // the output is as small as the input: the count of replacements is what is refused
    expectRefused(await write('each-char', { f: 'x'.repeat(40_000) }), 400, 'illegal_argument_exception', /^\[gsub\] processor would take the document's ingest output to \[\d+\] bytes, more than the limit of \[33554432\] bytes for one document$/);
    expect((await write('each-char', { f: 'x'.repeat(20_000) })).status).to.equal(201);
    expect((await stored()).f).to.equal('y'.repeat(20_000));
  });

  it('set templates copying a large field again and again stop at the budget (each under the 1 MB template limit)', async () => {
    const copies = Array.from({ length: 40 }, (_, i) => ({ set: { field: `g${i}`, value: '{{{f}}}' } }));
    expect((await pipeline('set-copies', copies)).status).to.equal(200);
    expectRefused(await write('set-copies', { f: 'x'.repeat(900_000) }), 400, 'illegal_argument_exception', /^\[set\] processor would take the document's ingest output/);
    expect((await write('set-copies', { f: 'x'.repeat(1000) })).status).to.equal(201);
    expect((await stored()).g39).to.have.length(1000);
  });

  it('json nested deeper than Jackson allows (1000) is a 400 with Jackson\'s message, not a 500', async () => {
    expect((await pipeline('deep', [{ json: { field: 'f' } }])).status).to.equal(200);
    expectRefused(await write('deep', { f: '['.repeat(100_000) + ']'.repeat(100_000) }), 400, 'illegal_argument_exception',
      /^com\.fasterxml\.jackson\.core\.exc\.StreamConstraintsException: Document nesting depth \(1001\) exceeds the maximum allowed \(1000, from `StreamReadConstraints\.getMaxNestingDepth\(\)`\)$/);
    // 1000 levels parse (the parsed value is dropped again: indexing it is the mapping's business)
    expect((await pipeline('deep-dropped', [{ json: { field: 'f', target_field: 'g' } }, { remove: { field: 'g' } }])).status).to.equal(200);
    expect((await write('deep-dropped', { f: '['.repeat(1000) + ']'.repeat(1000) })).status).to.equal(201);
    // brackets inside strings are not nesting
    const strings = await es.call('PUT', '/bounds-json/_doc/1?pipeline=deep', { f: JSON.stringify({ s: '['.repeat(5000) }) });
    expect(strings.status, strings.text).to.equal(201);
  });

  it('the budget is per document: in a bulk, one refused document leaves the others indexed', async () => {
    expect((await pipeline('chars2', [{ split: { field: 'f', separator: '' } }])).status).to.equal(200);
    const body = [
      { index: { _index: 'bounds-bulk', _id: 'big' } }, { f: 'x'.repeat(3 << 20) },
      { index: { _index: 'bounds-bulk', _id: 'small' } }, { f: 'ab' },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n';
    const r = await es.call('POST', '/_bulk?pipeline=chars2&refresh=true', body, { 'content-type': 'application/x-ndjson' });
    expect(r.json.items[0].index.status).to.equal(400);
    expect(r.json.items[1].index.status).to.equal(201);
    expect((await es.call('GET', '/bounds-bulk/_doc/small')).json._source.f).to.deep.equal(['a', 'b']);
  });
});
