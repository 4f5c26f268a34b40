import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** Validate API (ES 8.15 reference and its REST tests) and Multi term vectors API. */
describe('embedded engine: _validate/query details and _mtermvectors', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/testing', {
      settings: { number_of_replicas: 0 },
      mappings: { properties: { user: { type: 'keyword' }, msg: { type: 'text' }, n: { type: 'long' } } },
      aliases: { alias_1: { filter: { match_all: {} } } },
    });
    await es.call('PUT', '/testing/_doc/1?refresh=true', { msg: 'hello world', user: 'kimchy', n: 3 });
  });
  after(() => es.close());

  it('validates q= on an index and on a filtered alias', async () => {
    for (const p of ['/testing/_validate/query?q=query+string', '/alias_1/_validate/query?q=query+string']) {
      const r = await es.call('GET', p);
      expect(r.status).to.equal(200);
      expect(r.json.valid, p).to.equal(true);
    }
  });

  it('a query that does not parse is invalid; explain=true says why, with a suggestion for a near name', async () => {
    const quiet = await es.call('POST', '/_validate/query', { query: { invalid_query: {} } });
    expect(quiet.json).to.deep.equal({ valid: false });
    const told = await es.call('POST', '/_validate/query?explain=true', { query: { invalid_query: {} } });
    expect(told.json.valid).to.equal(false);
    expect(told.json.error).to.match(/.+unknown\squery\s\[invalid_query\].+/);
    const near = await es.call('POST', '/_validate/query?explain=true', { query: { boool: {} } });
    expect(near.json.error).to.match(/.+unknown\squery\s\[boool\]\sdid\syou\smean\s\[bool\]\?.+/);
    const noQuery = await es.call('POST', '/_validate/query?explain=true', { match_all: {} });
    expect(noQuery.json).to.deep.equal({ valid: false, error: 'org.elasticsearch.common.ParsingException: request does not support [match_all]' });
  });

  it('explain=true prints each index\'s query in Lucene\'s syntax', async () => {
    const all = await es.call('GET', '/_validate/query?explain=true');
    expect(all.json.valid).to.equal(true);
    expect(all.json._shards.failed).to.equal(0);
    expect(all.json.explanations[0]).to.deep.equal({ index: 'testing', valid: true, explanation: '*:*' });
    const bool = await es.call('POST', '/testing/_validate/query?explain=true', {
      query: { bool: { must: [{ match: { msg: 'Hello World' } }], filter: { term: { user: 'kimchy' } }, must_not: { range: { n: { gte: 1, lt: 5 } } } } },
    });
    expect(bool.json.explanations[0].explanation).to.equal('+(msg:hello msg:world) #user:kimchy -n:[1 TO 4]');
    const single = await es.call('POST', '/testing/_validate/query?explain=true', { query: { match: { msg: 'Kimchy' } } });
    expect(single.json.explanations[0].explanation).to.equal('msg:kimchy');
  });

  it('q= reads df and default_operator; rewrite with all_shards gives one explanation per shard', async () => {
    const r = await es.call('GET', '/testing/_validate/query?explain=true&q=foo%20bar&df=msg&default_operator=AND');
    expect(r.json.explanations[0].explanation).to.equal('+msg:foo +msg:bar');
    const shards = await es.call('POST', '/testing/_validate/query?rewrite=true&all_shards=true', { query: { match_phrase: { msg: 'quick brown' } } });
    expect(shards.json.explanations).to.deep.equal([{ index: 'testing', shard: 0, valid: true, explanation: 'msg:"quick brown"' }]);
  });

  it('_mtermvectors with GET: ids= on an index, or a body of docs, each found or not, errors per item', async () => {
    const byIds = await es.call('GET', '/testing/_mtermvectors?ids=1,2&fields=msg');
    expect(byIds.status).to.equal(200);
    expect(byIds.json.docs.map((d: { _id: string; found: boolean }) => [d._id, d.found])).to.deep.equal([['1', true], ['2', false]]);
    expect(Object.keys(byIds.json.docs[0].term_vectors.msg.terms)).to.deep.equal(['hello', 'world']);
    const byBody = await es.call('GET', '/_mtermvectors', { docs: [{ _index: 'testing', _id: '1', fields: ['msg'], offsets: false }, { _index: 'nope', _id: '1' }] });
    expect(byBody.json.docs[0].term_vectors.msg.terms.hello).to.deep.equal({ term_freq: 1, tokens: [{ position: 0 }] });
    expect(byBody.json.docs[1].error.type).to.equal('index_not_found_exception');
    const idsInBody = await es.call('POST', '/testing/_mtermvectors', { ids: ['1'], parameters: { fields: ['msg'], positions: false, offsets: false } });
    expect(idsInBody.json.docs[0].term_vectors.msg.terms.world).to.deep.equal({ term_freq: 1 });
  });

  it('_mtermvectors: a document naming a field the term vectors request has not fails the request to parse; dfs is refused', async () => {
    for (const field of ['versionType', '_version_type', 'unknown']) {
      const r = await es.call('POST', '/_mtermvectors', { docs: [{ _index: 'testing', _id: '1', version: 1, [field]: 'external' }] });
      expect(r.status, r.text).to.equal(400);
      expect(r.json.error).to.include({ type: 'parse_exception', reason: `failed to parse term vectors request. unknown field [${field}]` });
    }
    const dfs = await es.call('POST', '/_mtermvectors', { docs: [{ _index: 'testing', _id: '1', dfs: true }] });
    expect(dfs.status, dfs.text).to.equal(400);
    expect(dfs.json.error.reason).to.equal('distributed frequencies is not supported anymore for term vectors');
    const known = await es.call('POST', '/_mtermvectors', { docs: [{ _index: 'testing', _id: '1', version: 1, version_type: 'external', termStatistics: true, per_field_analyzer: {}, filter: {} }] });
    expect(known.status, known.text).to.equal(200);
  });
});
