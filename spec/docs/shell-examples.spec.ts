import { expect } from 'chai';
import { missingFrom, shapeOf, shellBlocks } from './shell-examples.js';

const FENCE = '```';

describe('docs examples: reading a page', () => {
  it('runs sh and bash blocks only, and shows a "# not run:" block with its reason', () => {
    const page = [
      `${FENCE}sh`, 'curl -u $ADMIN $GW/', FENCE,
      `${FENCE}js`, 'fetch(url)', FENCE,
      `${FENCE}bash`, '# not run: it needs Docker', 'docker compose up', FENCE,
    ].join('\n');
    const blocks = shellBlocks(page);
    expect(blocks.map((b) => [b.line, b.notRun, b.commands.length])).to.deep.equal([[1, undefined, 1], [7, 'it needs Docker', 0]]);
  });

  it('ends a command where its quotes, continuations and here-document end', () => {
    const page = [
      `${FENCE}sh`,
      `curl -XPUT $GW/books -d '{`,
      `  "mappings": {}}'   # 200 {"acknowledged": true}`,
      'curl $GW/a \\',
      '  -H "x: #1"',
      '# 404',
      `curl --data-binary @- $GW/_bulk <<'NDJSON'`,
      '{"index": {}}',
      'NDJSON',
      'echo "it\'s" # a comment, not an answer',
      FENCE,
    ].join('\n');
    const [block] = shellBlocks(page);
    expect(block.commands.map((c) => [c.line, c.lines.length, c.expectation?.status])).to.deep.equal([
      [2, 2, 200], [4, 2, 404], [7, 3, undefined], [10, 1, undefined],
    ]);
  });

  it('reads the answer shown after a trailing comment that is prose, and the headers shown', () => {
    const page = [`${FENCE}sh`, 'curl -i $GW/   # who am I', '# 204', '# X-Request-Cache: true', FENCE].join('\n');
    const [{ commands }] = shellBlocks(page);
    expect(commands[0].expectation).to.include({ status: 204 }).and.to.have.property('headers').that.deep.equals(['X-Request-Cache']);
  });

  it('checks the keys an answer as the docs write it shows, not its values', () => {
    const shape = shapeOf('{"took", "hits": {"total": {…}, "hits": [{"_id": "1", _source}]}, …} and some prose');
    expect(missingFrom({ took: 1, hits: { total: { value: 1 }, hits: [{ _id: '9', _source: {} }] } }, shape)).to.deep.equal([]);
    expect(missingFrom({ hits: { total: 1, hits: [{ _id: '9' }] } }, shape)).to.deep.equal([
      '.took',
      '.hits.total is not an object',
      '.hits.hits[]: no item has {"_id":"…","_source":"…"}',
    ]);
  });
});
