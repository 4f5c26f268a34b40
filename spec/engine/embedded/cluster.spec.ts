import { expect } from 'chai';
import { startEngine, type TestEngine } from './support.js';

describe('embedded engine: cluster, cat and REST conventions', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine({ maxContentLength: 64 * 1024 });
  });
  after(() => es.close());

  it('GET / answers like Elasticsearch 8, with X-Elastic-Product', async () => {
    const r = await es.call('GET', '/');
    expect(r.status).to.equal(200);
    expect(r.headers['x-elastic-product']).to.equal('Elasticsearch');
    expect(r.headers['content-type']).to.equal('application/json');
    expect(r.json.tagline).to.equal('You Know, for Search');
    expect(r.json.version.number).to.match(/^8\.\d+\.\d+$/);
    expect(r.json.version).to.include({ build_flavor: 'default', minimum_wire_compatibility_version: '7.17.0', minimum_index_compatibility_version: '7.0.0' });
    expect(r.json.version.lucene_version).to.be.a('string');
    expect(r.json).to.have.keys('name', 'cluster_name', 'cluster_uuid', 'version', 'tagline');
    const head = await es.call('HEAD', '/');
    expect(head.status).to.equal(200);
    expect(head.text).to.equal('');
  });

  it('GET /_cluster/health: green with no replicas, yellow with unassignable replicas', async () => {
    let r = await es.call('GET', '/_cluster/health');
    expect(r.status).to.equal(200);
    expect(r.json).to.include({ status: 'green', timed_out: false, number_of_nodes: 1, number_of_data_nodes: 1 });
    await es.call('PUT', '/health-a', { settings: { number_of_replicas: 0 } });
    r = await es.call('GET', '/_cluster/health/health-a');
    expect(r.json).to.include({ status: 'green', active_primary_shards: 1, unassigned_shards: 0 });
    await es.call('PUT', '/health-b');
    r = await es.call('GET', '/_cluster/health?wait_for_status=yellow');
    expect(r.status).to.equal(200);
    expect(r.json).to.include({ status: 'yellow', unassigned_shards: 1 });
    r = await es.call('GET', '/_cluster/health/nope');
    expect(r.status).to.equal(408);
    expect(r.json).to.include({ status: 'red', timed_out: true });
    await es.call('DELETE', '/health-a,health-b');
  });

  it('GET /_cat/indices: text with v and h, and format=json', async () => {
    await es.call('PUT', '/cat-one', { settings: { number_of_replicas: 0 } });
    await es.call('PUT', '/cat-one/_doc/1', { a: 1 });
    await es.call('PUT', '/cat-two/_doc/1', { a: 1 });
    await es.call('PUT', '/cat-two/_doc/2', { a: 2 });
    const text = await es.call('GET', '/_cat/indices/cat-*?v&s=index');
    expect(text.headers['content-type']).to.match(/^text\/plain/);
    const lines = text.text.trimEnd().split('\n');
    expect(lines[0].split(/\s+/)).to.deep.equal(['health', 'status', 'index', 'uuid', 'pri', 'rep', 'docs.count', 'docs.deleted', 'store.size', 'pri.store.size', 'dataset.size']);
    expect(lines[1].split(/\s+/).slice(0, 3)).to.deep.equal(['green', 'open', 'cat-one']);
    expect(lines[2].split(/\s+/).slice(0, 3)).to.deep.equal(['yellow', 'open', 'cat-two']);
    const h = await es.call('GET', '/_cat/indices/cat-*?h=index,docs.count&s=index');
    expect(h.text).to.equal('cat-one 1\ncat-two 2\n');
    const json = await es.call('GET', '/_cat/indices/cat-two?format=json');
    expect(json.json).to.have.length(1);
    expect(json.json[0]).to.include({ health: 'yellow', status: 'open', index: 'cat-two', pri: '1', rep: '1', 'docs.count': '2', 'docs.deleted': '0' });
    expect(json.json[0].uuid).to.have.length(22);
    expect(json.json[0]['store.size']).to.match(/^\d+(\.\d+)?(b|kb|mb)$/);
  });

  it('unknown route → 400 no handler; wrong method → 405 with ES body; unknown parameter → 400', async () => {
    let r = await es.call('GET', '/a/b/c/d/e');
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('illegal_argument_exception');
    expect(r.json.error.reason).to.equal('no handler found for uri [/a/b/c/d/e] and method [GET]');
    r = await es.call('PUT', '/_cluster/health');
    expect(r.status).to.equal(405);
    expect(r.json).to.deep.equal({ error: 'Incorrect HTTP method for uri [/_cluster/health] and method [PUT], allowed: [GET]', status: 405 });
    r = await es.call('GET', '/_cluster/health?bogus=1');
    expect(r.status).to.equal(400);
    expect(r.json.error).to.include({ type: 'illegal_argument_exception', reason: 'request [/_cluster/health] contains unrecognized parameter: [bogus]' });
    expect(r.headers['x-elastic-product']).to.equal('Elasticsearch');
    r = await es.call('GET', '/?pretty&human&error_trace');
    expect(r.status).to.equal(200);
  });

  it('filter_path and pretty shape the response', async () => {
    let r = await es.call('GET', '/?filter_path=version.number,tagline');
    expect(r.json).to.deep.equal({ version: { number: r.json.version.number }, tagline: 'You Know, for Search' });
    r = await es.call('GET', '/?filter_path=-version,-cluster_uuid');
    expect(r.json).to.have.keys('name', 'cluster_name', 'tagline');
    r = await es.call('GET', '/?filter_path=**.number');
    expect(Object.keys(r.json.version)).to.deep.equal(['number']);
    r = await es.call('GET', '/?pretty');
    expect(r.text).to.contain('\n  "tagline"');
  });

  it('request bodies over http.max_content_length → 413, and the server keeps serving', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(70 * 1024) });
    const r = await es.call('PUT', '/too-big/_doc/1', big);
    expect(r.status).to.equal(413);
    expect((await es.call('GET', '/')).status).to.equal(200);
  });
});

describe('embedded engine: HTTP Basic like a secured cluster', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine({ auth: 'elastic:s3cret' });
  });
  after(() => es.close());

  it('401 security_exception with WWW-Authenticate without or with wrong credentials', async () => {
    let r = await es.call('GET', '/');
    expect(r.status).to.equal(401);
    expect(r.json.error.type).to.equal('security_exception');
    expect(r.headers['www-authenticate']).to.match(/^Basic realm=/);
    expect(r.headers['x-elastic-product']).to.equal('Elasticsearch');
    r = await es.call('GET', '/', undefined, { authorization: 'Basic ' + Buffer.from('elastic:wrong').toString('base64') });
    expect(r.status).to.equal(401);
    r = await es.call('GET', '/', undefined, { authorization: 'Basic ' + Buffer.from('elastic:s3cret').toString('base64') });
    expect(r.status).to.equal(200);
  });
});
