import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from './support.js';

describe('embedded engine: documents', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  it('PUT /{index}/_doc/{id} auto-creates the index: 201 created, then 200 updated', async () => {
    let r = await es.call('PUT', '/docs/_doc/1', { title: 'Hello', n: 1 });
    expect(r.status).to.equal(201);
    expect(r.json).to.deep.equal({
      _index: 'docs', _type: '_doc', _id: '1', _version: 1, result: 'created',
      _shards: { total: 2, successful: 1, failed: 0 }, _seq_no: 0, _primary_term: 1,
    });
    r = await es.call('POST', '/docs/_doc/1?refresh=true&routing=r1', { title: 'Hello again', n: 2 });
    expect(r.status).to.equal(200);
    expect(r.json).to.include({ result: 'updated', _version: 2, _seq_no: 1 });
  });

  it('wait_for_active_shards beyond the one active copy: an index or delete waits its timeout, then 503 unavailable_shards_exception', async () => {
    await es.call('PUT', '/waits', { settings: { number_of_replicas: 1 } });
    const refused = async (method: string, p: string, body: unknown, reason: string) => {
      const r = await es.call(method, p, body);
      expect(r.status, p).to.equal(503);
      expect(r.json.error).to.include({ type: 'unavailable_shards_exception', reason, index: 'waits', shard: '0' });
    };
    await refused('PUT', '/waits/_doc/1?wait_for_active_shards=2&timeout=50ms', { a: 1 },
      '[waits][0] Not enough active copies to meet shard count of [2] (have 1, needed 2). Timeout: [50ms], request: [BulkShardRequest [[waits][0]] containing [index {[waits][_doc][1], source[{"a":1}]}]]');
    expect((await es.call('GET', '/waits/_doc/1')).status, 'nothing written').to.equal(404);
    expect((await es.call('PUT', '/waits/_doc/1?wait_for_active_shards=1', { a: 1 })).status).to.equal(201);
    await refused('DELETE', '/waits/_doc/1?wait_for_active_shards=all&timeout=50ms', undefined,
      '[waits][0] Not enough active copies to meet shard count of [2] (have 1, needed 2). Timeout: [50ms], request: [BulkShardRequest [[waits][0]] containing [delete {[waits][_doc][1]}]]');
    // the index's own default, which the request's parameter overrides
    await es.call('PUT', '/waits/_settings', { 'index.write.wait_for_active_shards': 'all' });
    expect((await es.call('PUT', '/waits/_doc/2?timeout=50ms', { a: 2 })).status).to.equal(503);
    expect((await es.call('PUT', '/waits/_doc/2?wait_for_active_shards=1', { a: 2 })).status).to.equal(201);
  });

  it('GET / HEAD a document, _source filtering, 404 found:false', async () => {
    let r = await es.call('GET', '/docs/_doc/1');
    expect(r.json).to.deep.equal({ _index: 'docs', _type: '_doc', _id: '1', _version: 2, _seq_no: 1, _primary_term: 1, _routing: 'r1', found: true, _source: { title: 'Hello again', n: 2 } });
    r = await es.call('GET', '/docs/_doc/1?_source_includes=title');
    expect(r.json._source).to.deep.equal({ title: 'Hello again' });
    r = await es.call('GET', '/docs/_doc/1?_source_excludes=title');
    expect(r.json._source).to.deep.equal({ n: 2 });
    r = await es.call('GET', '/docs/_doc/1?_source=false&stored_fields=x');
    expect(r.json).to.not.have.property('_source');
    expect((await es.call('HEAD', '/docs/_doc/1')).status).to.equal(200);
    r = await es.call('GET', '/docs/_doc/404');
    expect(r.status).to.equal(404);
    expect(r.json).to.deep.equal({ _index: 'docs', _type: '_doc', _id: '404', found: false });
    expect((await es.call('HEAD', '/docs/_doc/404')).status).to.equal(404);
    r = await es.call('GET', '/nope/_doc/1');
    expect(r.status).to.equal(404);
    expect(r.json.error.type).to.equal('index_not_found_exception');
  });

  it('GET/HEAD /{index}/_source/{id}', async () => {
    let r = await es.call('GET', '/docs/_source/1');
    expect(r.json).to.deep.equal({ title: 'Hello again', n: 2 });
    expect((await es.call('HEAD', '/docs/_source/1')).status).to.equal(200);
    r = await es.call('GET', '/docs/_source/nope');
    expect(r.status).to.equal(404);
  });

  it('POST /{index}/_doc generates a 20-character id', async () => {
    const r = await es.call('POST', '/docs/_doc', { title: 'generated' });
    expect(r.status).to.equal(201);
    expect(r.json._id).to.match(/^[A-Za-z0-9_-]{20}$/);
    expect((await es.call('GET', `/docs/_doc/${r.json._id}`)).json._source).to.deep.equal({ title: 'generated' });
  });

  it('_create and op_type=create → 409 when the document exists', async () => {
    let r = await es.call('PUT', '/docs/_create/c1', { a: 1 });
    expect(r.status).to.equal(201);
    r = await es.call('POST', '/docs/_create/c1', { a: 2 });
    expect(r.status).to.equal(409);
    expect(r.json.error).to.include({ type: 'version_conflict_engine_exception', reason: '[c1]: version conflict, document already exists (current version [1])', shard: '0', index: 'docs' });
    r = await es.call('PUT', '/docs/_doc/c1?op_type=create', { a: 2 });
    expect(r.status).to.equal(409);
  });

  it('a create refuses a version and compare-and-set with its own reasons, before the generic ones (POST /{index}/_doc is a create)', async () => {
    const refused = async (method: string, path: string) => {
      const r = await es.call(method, path, { a: 1 });
      expect(r.status, `${method} ${path}`).to.equal(400);
      expect(r.json.error.type).to.equal('action_request_validation_exception');
      return r.json.error.reason as string;
    };
    const explicit = 'Validation Failed: 1: create operations do not support explicit versions. use index instead;';
    expect(await refused('PUT', '/docs/_create/v1?version=5')).to.equal(explicit);
    expect(await refused('PUT', '/docs/_doc/v1?op_type=create&version=5')).to.equal(explicit);
    expect(await refused('POST', '/docs/_doc?version=5')).to.equal(explicit);
    expect(await refused('PUT', '/docs/_create/v1?if_seq_no=0&if_primary_term=1'))
      .to.equal('Validation Failed: 1: create operations do not support compare and set. use index instead;');
    expect(await refused('PUT', '/docs/_create/v1?version=5&version_type=external'))
      .to.equal('Validation Failed: 1: create operations only support internal versioning. use index instead;');
    expect(await refused('PUT', '/docs/_doc/v1?version=5'))
      .to.equal('Validation Failed: 1: internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead;');
    expect((await es.call('GET', '/docs/_doc/v1')).status).to.equal(404);
  });

  it('refuses a version its type cannot write: a negative external one, an internal one below 1 (and internal versioning itself)', async () => {
    const refused = async (method: string, path: string) => {
      const r = await es.call(method, path, method === 'DELETE' ? undefined : { a: 1 });
      expect(r.status, `${method} ${path}`).to.equal(400);
      expect(r.json.error.type).to.equal('action_request_validation_exception');
      return r.json.error.reason as string;
    };
    expect(await refused('PUT', '/docs/_doc/neg?version=-5&version_type=external'))
      .to.equal('Validation Failed: 1: illegal version value [-5] for version type [EXTERNAL];');
    expect(await refused('DELETE', '/docs/_doc/neg?version=-1&version_type=external_gte'))
      .to.equal('Validation Failed: 1: illegal version value [-1] for version type [EXTERNAL_GTE];');
    expect(await refused('PUT', '/docs/_doc/neg?version=0'))
      .to.equal('Validation Failed: 1: illegal version value [0] for version type [INTERNAL];2: internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead;');
    expect((await es.call('GET', '/docs/_doc/neg')).status).to.equal(404);
    expect((await es.call('PUT', '/docs/_doc/neg?version=0&version_type=external', { a: 1 })).json).to.include({ _version: 0, result: 'created' });
  });

  it('if_seq_no / if_primary_term: match writes, mismatch → 409 with ES reason', async () => {
    const w = await es.call('PUT', '/docs/_doc/occ', { v: 1 });
    let r = await es.call('PUT', `/docs/_doc/occ?if_seq_no=${w.json._seq_no}&if_primary_term=1`, { v: 2 });
    expect(r.status).to.equal(200);
    r = await es.call('PUT', `/docs/_doc/occ?if_seq_no=${w.json._seq_no}&if_primary_term=1`, { v: 3 });
    expect(r.status).to.equal(409);
    expect(r.json.error.reason).to.equal(`[occ]: version conflict, required seqNo [${w.json._seq_no}], primary term [1]. current document has seqNo [${w.json._seq_no + 1}] and primary term [1]`);
    r = await es.call('DELETE', `/docs/_doc/occ?if_seq_no=0&if_primary_term=1`);
    expect(r.status).to.equal(409);
    r = await es.call('PUT', '/docs/_doc/never?if_seq_no=0&if_primary_term=1', { v: 1 });
    expect(r.status).to.equal(409);
    expect(r.json.error.reason).to.equal('[never]: version conflict, required seqNo [0], primary term [1]. but no document was found');
  });

  it('version_type=external takes the given version; lower or equal → 409', async () => {
    let r = await es.call('PUT', '/docs/_doc/ext?version=10&version_type=external', { v: 1 });
    expect(r.status).to.equal(201);
    expect(r.json._version).to.equal(10);
    r = await es.call('PUT', '/docs/_doc/ext?version=10&version_type=external', { v: 2 });
    expect(r.status).to.equal(409);
    expect(r.json.error.reason).to.equal('[ext]: version conflict, current version [10] is higher or equal to the one provided [10]');
    r = await es.call('PUT', '/docs/_doc/ext?version=11&version_type=external', { v: 2 });
    expect(r.json._version).to.equal(11);
  });

  it('DELETE: deleted then not_found (404), versions continue after the tombstone', async () => {
    await es.call('PUT', '/docs/_doc/del', { v: 1 });
    let r = await es.call('DELETE', '/docs/_doc/del');
    expect(r.status).to.equal(200);
    expect(r.json).to.include({ result: 'deleted', _version: 2 });
    r = await es.call('DELETE', '/docs/_doc/del');
    expect(r.status).to.equal(404);
    expect(r.json).to.include({ result: 'not_found', _version: 3 });
    r = await es.call('PUT', '/docs/_doc/del', { v: 2 });
    expect(r.status).to.equal(201);
    expect(r.json).to.include({ result: 'created', _version: 4 });
  });

  it('_update: doc merge, noop, upsert, doc_as_upsert, missing → 404 document_missing_exception', async () => {
    await es.call('PUT', '/docs/_doc/u', { a: 1, o: { x: 1, y: 2 } });
    let r = await es.call('POST', '/docs/_update/u', { doc: { b: 2, o: { y: 3 } } });
    expect(r.status).to.equal(200);
    expect(r.json).to.include({ result: 'updated', _version: 2 });
    expect((await es.call('GET', '/docs/_source/u')).json).to.deep.equal({ a: 1, o: { x: 1, y: 3 }, b: 2 });
    r = await es.call('POST', '/docs/_update/u', { doc: { b: 2 } });
    expect(r.json).to.include({ result: 'noop', _version: 2 });
    expect(r.json._shards).to.deep.equal({ total: 0, successful: 0, failed: 0 });
    r = await es.call('POST', '/docs/_update/u', { doc: { b: 2 }, detect_noop: false });
    expect(r.json).to.include({ result: 'updated', _version: 3 });
    r = await es.call('POST', '/docs/_update/missing', { doc: { a: 1 } });
    expect(r.status).to.equal(404);
    expect(r.json.error).to.include({ type: 'document_missing_exception', reason: '[missing]: document missing', index: 'docs' });
    r = await es.call('POST', '/docs/_update/up1', { doc: { a: 1 }, upsert: { a: 0, fresh: true } });
    expect(r.status).to.equal(201);
    expect((await es.call('GET', '/docs/_source/up1')).json).to.deep.equal({ a: 0, fresh: true });
    r = await es.call('POST', '/docs/_update/up2', { doc: { a: 5 }, doc_as_upsert: true });
    expect(r.status).to.equal(201);
    expect((await es.call('GET', '/docs/_source/up2')).json).to.deep.equal({ a: 5 });
  });

  it('ids over 512 bytes → 400 illegal_argument_exception', async () => {
    const id = 'x'.repeat(513);
    const r = await es.call('PUT', `/docs/_doc/${id}`, { a: 1 });
    expect(r.status).to.equal(400);
    expect(r.json.error).to.include({ type: 'illegal_argument_exception', reason: `id [${id}] is too long, must be no longer than 512 bytes but was: 513` });
  });

  it('dynamic mapping: long, float, boolean, date, object, and text with keyword + raw sub-fields', async () => {
    await es.call('PUT', '/dyn/_doc/1', { i: 5, f: 1.5, b: true, d: '2024-03-01T10:00:00Z', s: 'words here', o: { inner: 'x' }, arr: [1, 2] });
    const r = await es.call('GET', '/dyn/_mapping');
    const text = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 }, raw: { type: 'keyword' } } };
    expect(r.json.dyn.mappings.properties).to.deep.equal({
      i: { type: 'long' }, f: { type: 'float' }, b: { type: 'boolean' }, d: { type: 'date' }, s: text,
      o: { properties: { inner: text } }, arr: { type: 'long' },
    });
  });

  it('an explicit mapping wins over the raw convention', async () => {
    await es.call('PUT', '/explicit', { mappings: { properties: { s: { type: 'keyword' } } } });
    await es.call('PUT', '/explicit/_doc/1', { s: 'v', t: 'w' });
    const r = await es.call('GET', '/explicit/_mapping');
    expect(r.json.explicit.mappings.properties.s).to.deep.equal({ type: 'keyword' });
    expect(r.json.explicit.mappings.properties.t.fields.raw).to.deep.equal({ type: 'keyword' });
  });

  it('dynamic: false ignores new fields, strict refuses them', async () => {
    await es.call('PUT', '/nodyn', { mappings: { dynamic: false, properties: { a: { type: 'keyword' } } } });
    let r = await es.call('PUT', '/nodyn/_doc/1', { a: 'x', b: 'y' });
    expect(r.status).to.equal(201);
    expect((await es.call('GET', '/nodyn/_mapping')).json.nodyn.mappings.properties).to.have.keys('a');
    expect((await es.call('GET', '/nodyn/_source/1')).json).to.deep.equal({ a: 'x', b: 'y' });
    await es.call('PUT', '/strict', { mappings: { dynamic: 'strict', properties: { a: { type: 'keyword' } } } });
    r = await es.call('PUT', '/strict/_doc/1', { a: 'x', b: 'y' });
    expect(r.status).to.equal(400);
    expect(r.json.error).to.include({ type: 'strict_dynamic_mapping_exception', reason: 'mapping set to strict, dynamic introduction of [b] within [_doc] is not allowed' });
  });

  it('a value that does not fit its type → 400 document_parsing_exception', async () => {
    await es.call('PUT', '/typed', { mappings: { properties: { n: { type: 'long' }, d: { type: 'date' }, b: { type: 'boolean' } } } });
    for (const doc of [{ n: 'abc' }, { d: 'not a date' }, { b: 'yes' }, { n: { x: 1 } }]) {
      const r = await es.call('PUT', '/typed/_doc/1', doc);
      expect(r.status, JSON.stringify(doc)).to.equal(400);
      expect(r.json.error.type).to.equal('document_parsing_exception');
      expect(r.json.error.reason).to.contain("failed to parse field");
    }
    expect((await es.call('PUT', '/typed/_doc/1', { n: '42' })).status).to.equal(201);
  });

  it('malformed JSON and non-object documents → 400, the server keeps serving', async () => {
    let r = await es.call('PUT', '/docs/_doc/bad', '{"a":');
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('document_parsing_exception');
    expect(r.json.error.caused_by.type).to.equal('json_parse_exception');
    r = await es.call('PUT', '/docs/_doc/bad', '[1,2]');
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('document_parsing_exception');
    r = await es.call('PUT', '/docs/_doc/bad', '');
    expect(r.status).to.equal(400);
    expect((await es.call('GET', '/docs/_doc/1')).status).to.equal(200);
  });

  it('_bulk: index/create/update/delete with per-item results, item errors do not fail the batch', async () => {
    const body = ndjson([
      { index: { _index: 'bulk', _id: '1' } }, { a: 1 },
      { create: { _index: 'bulk', _id: '2' } }, { a: 2 },
      { create: { _index: 'bulk', _id: '1' } }, { a: 3 },
      { update: { _index: 'bulk', _id: '2' } }, { doc: { b: 2 } },
      { delete: { _index: 'bulk', _id: '1' } },
      { index: { _index: 'bulk' } }, { a: 4 },
      { index: { _index: 'bulk', _id: '3' } }, { a: 'not a long' },
    ]);
    const r = await es.call('POST', '/_bulk', body, { 'content-type': 'application/x-ndjson' });
    expect(r.status).to.equal(200);
    expect(r.json.errors).to.equal(true);
    const items = r.json.items;
    expect(items.map((i: Record<string, { status: number }>) => Object.keys(i)[0] + ':' + Object.values(i)[0].status)).to.deep.equal([
      'index:201', 'create:201', 'create:409', 'update:200', 'delete:200', 'index:201', 'index:400',
    ]);
    expect(items[0].index).to.deep.include({ _index: 'bulk', _id: '1', _version: 1, result: 'created', _seq_no: 0, _primary_term: 1 });
    expect(items[2].create.error.type).to.equal('version_conflict_engine_exception');
    expect(items[5].index._id).to.match(/^[A-Za-z0-9_-]{20}$/);
    expect(items[6].index.error.type).to.equal('document_parsing_exception');
    expect((await es.call('GET', '/bulk/_source/2')).json).to.deep.equal({ a: 2, b: 2 });
    const ok = await es.call('POST', '/bulk/_bulk?refresh=wait_for', ndjson([{ index: { _id: 'x' } }, { a: 1 }]), { 'content-type': 'application/x-ndjson' });
    expect(ok.json.errors).to.equal(false);
  });

  it('_bulk: a malformed action line fails the whole request with 400', async () => {
    let r = await es.call('POST', '/_bulk', '{"index":{"_index":"bulk2","_id":"1"}}\n{"a":1}\n{"bogus":{}}\n{"a":2}\n', { 'content-type': 'application/x-ndjson' });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('illegal_argument_exception');
    expect(r.json.error.reason).to.contain('Malformed action/metadata line [3]');
    r = await es.call('POST', '/_bulk', 'not json\n', { 'content-type': 'application/x-ndjson' });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('illegal_argument_exception');
    r = await es.call('POST', '/_bulk', '{"index":{"_index":"bulk2"}}\n{"a":1}', { 'content-type': 'application/x-ndjson' });
    expect(r.status).to.equal(400);
    expect((await es.call('HEAD', '/bulk2')).status).to.equal(404);
  });

  it('_mget with docs and ids', async () => {
    let r = await es.call('POST', '/_mget', { docs: [{ _index: 'bulk', _id: '2' }, { _index: 'bulk', _id: 'zzz' }, { _index: 'nope', _id: '1' }] });
    expect(r.status).to.equal(200);
    expect(r.json.docs[0]).to.include({ _index: 'bulk', _id: '2', found: true });
    expect(r.json.docs[0]._source).to.deep.equal({ a: 2, b: 2 });
    expect(r.json.docs[1]).to.deep.equal({ _index: 'bulk', _type: '_doc', _id: 'zzz', found: false });
    expect(r.json.docs[2].error.type).to.equal('index_not_found_exception');
    r = await es.call('GET', '/bulk/_mget?_source_includes=b', { ids: ['2'] });
    expect(r.json.docs[0]._source).to.deep.equal({ b: 2 });
  });
});
