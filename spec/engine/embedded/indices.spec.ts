import { expect } from 'chai';
import { startEngine, type TestEngine } from './support.js';

describe('embedded engine: indices', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  it('PUT /{index} creates with normalised settings, mappings and aliases; GET and HEAD show it', async () => {
    const r = await es.call('PUT', '/books', {
      settings: { number_of_shards: 3, index: { number_of_replicas: 0 } },
      mappings: { properties: { title: { type: 'text' }, isbn: { type: 'keyword' } } },
      aliases: { library: {} },
    });
    expect(r.status).to.equal(200);
    expect(r.json).to.deep.equal({ acknowledged: true, shards_acknowledged: true, index: 'books' });
    const g = await es.call('GET', '/books');
    expect(g.json.books.aliases).to.deep.equal({ library: {} });
    expect(g.json.books.mappings).to.deep.equal({ properties: { title: { type: 'text' }, isbn: { type: 'keyword' } } });
    const idx = g.json.books.settings.index;
    expect(idx).to.include({ number_of_shards: '3', number_of_replicas: '0', provided_name: 'books' });
    expect(idx.uuid).to.have.length(22);
    expect(idx.creation_date).to.match(/^\d+$/);
    expect(idx.version.created).to.be.a('string');
    expect((await es.call('HEAD', '/books')).status).to.equal(200);
    const missing = await es.call('HEAD', '/nope');
    expect(missing.status).to.equal(404);
    expect(missing.text).to.equal('');
    const viaAlias = await es.call('GET', '/library');
    expect(Object.keys(viaAlias.json)).to.deep.equal(['books']);
    const flat = await es.call('GET', '/books/_settings?flat_settings=true');
    expect(flat.json.books.settings['index.number_of_shards']).to.equal('3');
  });

  it('creating an existing index → 400 resource_already_exists_exception', async () => {
    const r = await es.call('PUT', '/books');
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('resource_already_exists_exception');
    expect(r.json.error.reason).to.match(/^index \[books\/.{22}\] already exists$/);
  });

  for (const name of ['Upper', '_under', '-dash', '+plus', 'a b', 'a*b', 'a?b', 'a,b', 'a#b', 'a|b', 'a"b', 'a<b', 'x'.repeat(256)]) {
    it(`refuses the index name ${JSON.stringify(name.length > 20 ? name.slice(0, 10) + '…' : name)} with invalid_index_name_exception`, async () => {
      const r = await es.call('PUT', '/' + encodeURIComponent(name));
      expect(r.status).to.equal(400);
      expect(r.json.error.type).to.equal('invalid_index_name_exception');
      expect(r.json.error.reason).to.contain(`Invalid index name [${name}]`);
    });
  }

  it('GET /{missing} → 404 index_not_found_exception with ES body', async () => {
    const r = await es.call('GET', '/nope');
    expect(r.status).to.equal(404);
    expect(r.json).to.deep.equal({
      error: {
        root_cause: [{ type: 'index_not_found_exception', reason: 'no such index [nope]', 'resource.type': 'index_or_alias', 'resource.id': 'nope', index_uuid: '_na_', index: 'nope' }],
        type: 'index_not_found_exception', reason: 'no such index [nope]', 'resource.type': 'index_or_alias', 'resource.id': 'nope', index_uuid: '_na_', index: 'nope',
      },
      status: 404,
    });
  });

  it('DELETE accepts comma lists and wildcards', async () => {
    for (const n of ['del-a', 'del-b', 'del-c', 'keep-d']) await es.call('PUT', '/' + n);
    let r = await es.call('DELETE', '/del-a,del-b');
    expect(r.json).to.deep.equal({ acknowledged: true });
    expect((await es.call('HEAD', '/del-a')).status).to.equal(404);
    r = await es.call('DELETE', '/del-*');
    expect(r.status).to.equal(200);
    expect((await es.call('HEAD', '/del-c')).status).to.equal(404);
    expect((await es.call('HEAD', '/keep-d')).status).to.equal(200);
    r = await es.call('DELETE', '/del-a');
    expect(r.status).to.equal(404);
  });

  it('mappings: GET, PUT new fields; a type or parameter change is refused', async () => {
    await es.call('PUT', '/maps', { mappings: { properties: { a: { type: 'keyword' } } } });
    let r = await es.call('PUT', '/maps/_mapping', { properties: { b: { type: 'long' } } });
    expect(r.json).to.deep.equal({ acknowledged: true });
    r = await es.call('GET', '/maps/_mapping');
    expect(r.json).to.deep.equal({ maps: { mappings: { properties: { a: { type: 'keyword' }, b: { type: 'long' } } } } });
    r = await es.call('GET', '/_mapping');
    expect(r.json.maps.mappings.properties.b).to.deep.equal({ type: 'long' });
    r = await es.call('PUT', '/maps/_mapping', { properties: { a: { type: 'text' } } });
    expect(r.status).to.equal(400);
    expect(r.json.error).to.include({ type: 'illegal_argument_exception', reason: 'mapper [a] cannot be changed from type [keyword] to [text]' });
    await es.call('PUT', '/maps/_mapping', { properties: { t: { type: 'text', analyzer: 'standard' } } });
    r = await es.call('PUT', '/maps/_mapping', { properties: { t: { type: 'text', analyzer: 'keyword' } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.contain('Cannot update parameter [analyzer] from [standard] to [keyword]');
    r = await es.call('PUT', '/maps/_mapping', { properties: { x: { type: 'nonsense' } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('mapper_parsing_exception');
  });

  it('settings: dynamic ones change; analysis only while closed', async () => {
    await es.call('PUT', '/sets');
    let r = await es.call('PUT', '/sets/_settings', { index: { number_of_replicas: 0 } });
    expect(r.json).to.deep.equal({ acknowledged: true });
    r = await es.call('GET', '/sets/_settings');
    expect(r.json.sets.settings.index.number_of_replicas).to.equal('0');
    const analysis = { analysis: { analyzer: { my: { type: 'custom', tokenizer: 'standard', filter: ['lowercase'] } } } };
    r = await es.call('PUT', '/sets/_settings', analysis);
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('illegal_argument_exception');
    expect(r.json.error.reason).to.match(/^Can't update non dynamic settings \[\[index\.analysis\.analyzer\.my\..*\]\] for open indices \[\[sets\/.{22}\]\]$/);
    expect((await es.call('POST', '/sets/_close')).status).to.equal(200);
    r = await es.call('PUT', '/sets/_settings', analysis);
    expect(r.json).to.deep.equal({ acknowledged: true });
    await es.call('POST', '/sets/_open');
    r = await es.call('GET', '/sets/_settings');
    expect(r.json.sets.settings.index.analysis.analyzer.my).to.deep.equal({ type: 'custom', tokenizer: 'standard', filter: ['lowercase'] });
  });

  it('close/open: a closed index refuses reads, writes and searches with index_closed_exception', async () => {
    await es.call('PUT', '/shut/_doc/1', { a: 1 });
    let r = await es.call('POST', '/shut/_close');
    expect(r.json).to.deep.equal({ acknowledged: true, shards_acknowledged: true, indices: { shut: { closed: true } } });
    for (const [m, p, b] of [['GET', '/shut/_doc/1'], ['PUT', '/shut/_doc/2', { a: 2 }], ['POST', '/shut/_search', {}], ['DELETE', '/shut/_doc/1'], ['POST', '/shut/_update/1', { doc: { a: 3 } }]] as const) {
      r = await es.call(m, p, b);
      expect(r.status, `${m} ${p}`).to.equal(400);
      expect(r.json.error.type).to.equal('index_closed_exception');
      expect(r.json.error.index).to.equal('shut');
    }
    const bulk = await es.call('POST', '/_bulk', '{"index":{"_index":"shut","_id":"9"}}\n{"a":1}\n', { 'content-type': 'application/x-ndjson' });
    expect(bulk.json.items[0].index.status).to.equal(400);
    expect(bulk.json.items[0].index.error.type).to.equal('index_closed_exception');
    r = await es.call('GET', '/_cat/indices/shut?format=json');
    expect(r.json[0].status).to.equal('close');
    r = await es.call('POST', '/shut/_open');
    expect(r.json).to.deep.equal({ acknowledged: true, shards_acknowledged: true });
    r = await es.call('GET', '/shut/_doc/1');
    expect(r.json._source).to.deep.equal({ a: 1 });
  });

  it('refresh answers with _shards', async () => {
    let r = await es.call('POST', '/books/_refresh');
    expect(r.status).to.equal(200);
    expect(r.json._shards).to.include({ failed: 0 });
    r = await es.call('POST', '/_refresh');
    expect(r.status).to.equal(200);
    r = await es.call('GET', '/nope/_refresh');
    expect(r.status).to.equal(404);
  });
});
