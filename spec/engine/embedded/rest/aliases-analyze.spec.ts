import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

describe('embedded engine REST: aliases and index expressions', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
    await es.call('PUT', '/logs-1', { aliases: { logs: {} } });
    await es.call('PUT', '/logs-2');
    await es.call('PUT', '/logs-1/_doc/a?refresh=true', { level: 'info' });
    await es.call('PUT', '/logs-2/_doc/b?refresh=true', { level: 'error' });
  });
  afterEach(() => es.close());

  it('PUT, GET, HEAD and DELETE an alias', async () => {
    expect((await es.call('PUT', '/logs-2/_alias/recent', { is_write_index: true })).json).to.deep.equal({ acknowledged: true });
    expect((await es.call('GET', '/_alias/recent')).json).to.deep.equal({ 'logs-2': { aliases: { recent: { is_write_index: true } } } });
    expect((await es.call('HEAD', '/_alias/recent')).status).to.equal(200);
    expect((await es.call('GET', '/_alias')).json).to.deep.equal({ 'logs-1': { aliases: { logs: {} } }, 'logs-2': { aliases: { recent: { is_write_index: true } } } });
    expect((await es.call('GET', '/logs-2')).json['logs-2'].aliases).to.deep.equal({ recent: { is_write_index: true } });
    expect((await es.call('DELETE', '/logs-2/_alias/recent')).json).to.deep.equal({ acknowledged: true });
    expect((await es.call('HEAD', '/_alias/recent')).status).to.equal(404);
    const missing = await es.call('GET', '/logs-1/_alias/logs,nope');
    expect(missing.status).to.equal(404);
    expect(missing.json).to.deep.equal({ error: 'alias [nope] missing', status: 404, 'logs-1': { aliases: { logs: {} } } });
    const del = await es.call('DELETE', '/logs-1/_alias/nope');
    expect(del.status).to.equal(404);
    expect(del.json.error.type).to.equal('aliases_not_found_exception');
  });

  it('POST /_aliases applies add/remove/remove_index atomically', async () => {
    let r = await es.call('POST', '/_aliases', { actions: [{ add: { index: 'logs-*', alias: 'all-logs' } }, { remove: { index: 'logs-1', alias: 'logs' } }] });
    expect(r.json).to.deep.equal({ acknowledged: true });
    expect(Object.keys((await es.call('GET', '/_alias/all-logs')).json).sort()).to.deep.equal(['logs-1', 'logs-2']);
    r = await es.call('POST', '/_aliases', { actions: [{ add: { index: 'logs-2', alias: 'x' } }, { remove: { index: 'logs-1', alias: 'does-not-exist' } }] });
    expect(r.status).to.equal(404);
    expect((await es.call('HEAD', '/_alias/x')).status).to.equal(404); // nothing applied
    r = await es.call('POST', '/_aliases', { actions: [{ add: { index: 'logs-2', alias: 'logs-1' } }, { remove_index: { index: 'logs-1' } }] });
    expect(r.json).to.deep.equal({ acknowledged: true });
    expect((await es.call('GET', '/logs-1/_doc/b')).json._index).to.equal('logs-2');
  });

  it('refuses invalid alias names', async () => {
    expect((await es.call('PUT', '/logs-1/_alias/bad*')).json.error.type).to.equal('invalid_alias_name_exception');
    expect((await es.call('PUT', '/logs-1/_alias/logs-2')).json.error.type).to.equal('invalid_alias_name_exception');
  });

  it('search, count and get through an alias; filtered aliases filter; writes go to the write index', async () => {
    await es.call('POST', '/_aliases', { actions: [{ add: { index: 'logs-*', alias: 'errors', filter: { term: { level: 'error' } } } }] });
    const ids = async (p: string) => (await es.call('GET', p)).json.hits.hits.map((h: { _id: string }) => h._id).sort();
    expect(await ids('/logs/_search')).to.deep.equal(['a']);
    expect(await ids('/errors/_search')).to.deep.equal(['b']);
    expect((await es.call('GET', '/errors/_count')).json.count).to.equal(1);
    expect((await es.call('GET', '/logs/_doc/a')).json.found).to.equal(true);
    await es.call('PUT', '/logs-2/_alias/logs', { is_write_index: true });
    const w = await es.call('PUT', '/logs/_doc/c?refresh=true', { level: 'warn' });
    expect(w.json._index).to.equal('logs-2');
  });

  it('multi-index expressions: lists, wildcards, exclusions, _all, ignore_unavailable, allow_no_indices', async () => {
    const total = async (p: string) => (await es.call('GET', p)).json.hits?.total.value;
    expect(await total('/logs-1,logs-2/_search')).to.equal(2);
    expect(await total('/logs-*/_search')).to.equal(2);
    expect(await total('/logs-*,-logs-2/_search')).to.equal(1);
    expect(await total('/_all/_search')).to.equal(2);
    expect((await es.call('GET', '/nope/_search')).status).to.equal(404);
    expect(await total('/nope,logs-1/_search?ignore_unavailable=true')).to.equal(1);
    expect((await es.call('GET', '/none-*/_search?allow_no_indices=false')).status).to.equal(404);
    expect(await total('/none-*/_search')).to.equal(0);
  });
});

describe('embedded engine REST: _analyze', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/a', {
      settings: { analysis: { analyzer: { my: { type: 'custom', tokenizer: 'whitespace', filter: ['uppercase'] } } } },
      mappings: { properties: { t: { type: 'text', analyzer: 'my' }, k: { type: 'keyword' } } },
    });
  });
  after(() => es.close());

  it('analyzes with the standard analyzer by default, with offsets, types and positions', async () => {
    const r = await es.call('POST', '/_analyze', { text: 'Hello World' });
    expect(r.json).to.deep.equal({ tokens: [
      { token: 'hello', start_offset: 0, end_offset: 5, type: '<ALPHANUM>', position: 0 },
      { token: 'world', start_offset: 6, end_offset: 11, type: '<ALPHANUM>', position: 1 },
    ] });
  });

  it('inline tokenizer, filters and char filters; GET with parameters', async () => {
    let r = await es.call('POST', '/_analyze', { tokenizer: 'keyword', filter: ['lowercase'], char_filter: ['html_strip'], text: '<b>Foo Bar</b>' });
    expect(r.json.tokens.map((t: { token: string }) => t.token)).to.deep.equal(['foo bar']);
    r = await es.call('GET', '/_analyze?analyzer=whitespace&text=A%20b');
    expect(r.json.tokens.map((t: { token: string }) => t.token)).to.deep.equal(['A', 'b']);
  });

  it('index analyzers, field analyzers, keyword fields', async () => {
    expect((await es.call('POST', '/a/_analyze', { analyzer: 'my', text: 'x y' })).json.tokens.map((t: { token: string }) => t.token)).to.deep.equal(['X', 'Y']);
    expect((await es.call('POST', '/a/_analyze', { field: 't', text: 'x y' })).json.tokens.map((t: { token: string }) => t.token)).to.deep.equal(['X', 'Y']);
    expect((await es.call('POST', '/a/_analyze', { field: 'k', text: 'x y' })).json.tokens.map((t: { token: string }) => t.token)).to.deep.equal(['x y']);
    expect((await es.call('POST', '/nope/_analyze', { text: 'x' })).status).to.equal(404);
  });

  it("an index's default analyzer when the request names no analysis chain", async () => {
    await es.call('PUT', '/d', { settings: { analysis: { analyzer: { default: { type: 'stop' } } } } });
    const tokens = async (body: object) => (await es.call('POST', '/d/_analyze', body)).json.tokens.map((t: { token: string; position: number }) => `${t.token}@${t.position}`);
    expect(await tokens({ text: 'a movie by Miller' })).to.deep.equal(['movie@1', 'miller@3']);
    expect(await tokens({ analyzer: 'standard', text: 'a movie' })).to.deep.equal(['a@0', 'movie@1']);
    expect(await tokens({ tokenizer: 'whitespace', text: 'a movie' })).to.deep.equal(['a@0', 'movie@1']);
    // No default defined: standard, as before.
    expect((await es.call('POST', '/a/_analyze', { text: 'a B' })).json.tokens.map((t: { token: string }) => t.token)).to.deep.equal(['a', 'b']);
  });

  it('explain: tokenizer then each filter', async () => {
    const r = await es.call('POST', '/_analyze', { tokenizer: 'standard', filter: [{ type: 'stop', stopwords: ['foo'] }], text: 'foo bar', explain: true });
    expect(r.json.detail.custom_analyzer).to.equal(true);
    expect(r.json.detail.tokenizer.name).to.equal('standard');
    expect(r.json.detail.tokenizer.tokens.map((t: { token: string }) => t.token)).to.deep.equal(['foo', 'bar']);
    expect(r.json.detail.tokenfilters[0].tokens.map((t: { token: string }) => t.token)).to.deep.equal(['bar']);
  });

  it('refuses an unknown body key and a missing text', async () => {
    expect((await es.call('POST', '/_analyze', { text: 'x', nope: 1 })).status).to.equal(400);
    const r = await es.call('POST', '/_analyze', { analyzer: 'standard' });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('action_request_validation_exception');
  });
});
