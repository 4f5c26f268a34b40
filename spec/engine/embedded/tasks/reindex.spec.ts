import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** The Reindex API reference's behaviour (Elasticsearch 8.15), on the embedded engine. */
describe('embedded engine: _reindex', function () {
  this.timeout(30_000);
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
    for (const [id, doc] of [['1', { text: 'test', n: 1, user: 'kimchy' }], ['2', { text: 'test', n: 2, user: 'kimchy' }], ['3', { text: 'other', n: 3, user: 'other' }]] as const) {
      await es.call('PUT', `/source/_doc/${id}`, doc);
    }
  });
  afterEach(() => es.close());

  it('copies every document and answers the response of the reference (created, then updated)', async () => {
    const first = await es.call('POST', '/_reindex', { source: { index: 'source' }, dest: { index: 'dest' } });
    expect(first.status, first.text).to.equal(200);
    expect(first.json).to.include({ timed_out: false, total: 3, updated: 0, created: 3, deleted: 0, batches: 1, version_conflicts: 0, noops: 0, throttled_millis: 0, requests_per_second: -1, throttled_until_millis: 0 });
    expect(Object.keys(first.json)).to.deep.equal([
      'took', 'timed_out', 'total', 'updated', 'created', 'deleted', 'batches', 'version_conflicts', 'noops', 'retries', 'throttled_millis', 'requests_per_second', 'throttled_until_millis', 'failures',
    ]);
    expect(first.json.retries).to.deep.equal({ bulk: 0, search: 0 });
    expect(first.json.failures).to.deep.equal([]);
    expect((await es.call('GET', '/dest/_doc/2')).json._source).to.deep.equal({ text: 'test', n: 2, user: 'kimchy' });
    const again = await es.call('POST', '/_reindex', { source: { index: 'source' }, dest: { index: 'dest' } });
    expect(again.json).to.include({ created: 0, updated: 3 });
  });

  it('an index that stores no _source cannot be rewritten: reindex and update by query fail on its first document, delete by query does not', async () => {
    await es.call('PUT', '/nosource', { mappings: { _source: { enabled: false } } });
    await es.call('PUT', '/nosource/_doc/1?refresh=true', { age: 23 });
    for (const [path, body] of [['/_reindex', { source: { index: 'nosource' }, dest: { index: 'dest' } }], ['/nosource/_update_by_query', undefined]] as const) {
      const r = await es.call('POST', path, body);
      expect(r.status, path).to.equal(400);
      expect(r.json.error, path).to.include({ type: 'illegal_argument_exception', reason: "[nosource][1] didn't store _source" });
    }
    expect((await es.call('GET', '/dest/_count')).status).to.equal(404);
    const deleted = await es.call('POST', '/nosource/_delete_by_query', { query: { match_all: {} } });
    expect(deleted.json).to.include({ deleted: 1 });
  });

  it('wait_for_active_shards beyond the one active copy: the batch fails 503 after the timeout (reindex, delete and update by query)', async () => {
    await es.call('PUT', '/wide', { settings: { number_of_replicas: 5 } });
    await es.call('PUT', '/wide/_doc/1?refresh=true', { text: 'test' });
    const reason = (index: string) => new RegExp(`^\\[${index}\\]\\[0\\] Not enough active copies to meet shard count of \\[4\\] \\(have 1, needed 4\\)\\. Timeout: \\[100ms\\], request: \\[.+\\]$`);
    for (const [path, body, index] of [
      ['/_reindex?timeout=100ms&wait_for_active_shards=4', { source: { index: 'source' }, dest: { index: 'wide' } }, 'wide'],
      ['/wide/_delete_by_query?timeout=100ms&wait_for_active_shards=4', { query: { match_all: {} } }, 'wide'],
      ['/wide/_update_by_query?timeout=100ms&wait_for_active_shards=all', undefined, 'wide'],
    ] as const) {
      const r = await es.call('POST', path, body);
      expect(r.status, path).to.equal(503);
      expect(r.json.failures[0]).to.include({ index, status: 503 });
      expect(r.json.failures[0].cause.type).to.equal('unavailable_shards_exception');
      if (!path.includes('=all')) expect(r.json.failures[0].cause.reason).to.match(reason(index));
    }
    expect((await es.call('GET', '/wide/_count')).json.count, 'nothing deleted').to.equal(1);
    const one = await es.call('POST', '/wide/_delete_by_query?wait_for_active_shards=1', { query: { match_all: {} } });
    expect(one.json).to.include({ deleted: 1 });
  });

  it('op_type create: a conflict aborts with 409 and the failure, or is counted with conflicts=proceed', async () => {
    await es.call('PUT', '/dest/_doc/1', { text: 'test' });
    const aborted = await es.call('POST', '/_reindex', { source: { index: 'source' }, dest: { index: 'dest', op_type: 'create' } });
    expect(aborted.status).to.equal(409);
    // the batch is one bulk: its other documents are copied, no further batch runs
    expect(aborted.json).to.include({ version_conflicts: 1, batches: 1, created: 2 });
    expect(aborted.json.failures[0]).to.include({ index: 'dest', id: '1', status: 409 });
    expect(aborted.json.failures[0].cause).to.include({ type: 'version_conflict_engine_exception', index: 'dest' });
    expect(aborted.json.failures[0].cause.reason).to.match(/^\[1\]: version conflict, document already exists \(current version \[\d+\]\)$/);
    const proceeded = await es.call('POST', '/_reindex', { conflicts: 'proceed', source: { index: 'source' }, dest: { index: 'dest', op_type: 'create' } });
    expect(proceeded.status).to.equal(200);
    expect(proceeded.json).to.include({ version_conflicts: 3, created: 0, updated: 0 });
  });

  it('source query, max_docs, _source filtering and size (the batch size)', async () => {
    const r = await es.call('POST', '/_reindex', {
      max_docs: 1, source: { index: 'source', query: { term: { user: 'kimchy' } }, _source: { excludes: ['user'] }, size: 1 }, dest: { index: 'dest' },
    });
    expect(r.json).to.include({ total: 1, created: 1, batches: 1 });
    const all = await es.call('POST', '/dest/_search', { query: { match_all: {} } });
    expect(all.json.hits.hits).to.have.length(1);
    expect(all.json.hits.hits[0]._source).to.not.have.property('user');
    const batched = await es.call('POST', '/_reindex', { source: { index: 'source', size: 1 }, dest: { index: 'dest2' } });
    expect(batched.json).to.include({ total: 3, batches: 3 });
  });

  it('a script changes the source, skips a document (ctx.op = noop) or deletes it in the destination (ctx.op = delete)', async () => {
    await es.call('PUT', '/dest/_doc/3', { old: true });
    const r = await es.call('POST', '/_reindex', {
      source: { index: 'source' }, dest: { index: 'dest' },
      script: { lang: 'painless', source: "if (ctx._source.n == 1) { ctx.op = 'noop' } else if (ctx._source.user == 'other') { ctx.op = 'delete' } else { ctx._source.tag = ctx._index + ':' + ctx._id; ctx._id = 'copy-' + ctx._id }" },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.json).to.include({ total: 3, created: 1, noops: 1, deleted: 1 });
    expect((await es.call('GET', '/dest/_doc/copy-2')).json._source).to.deep.equal({ text: 'test', n: 2, user: 'kimchy', tag: 'dest:2' });
    expect((await es.call('GET', '/dest/_doc/1')).status).to.equal(404);
    expect((await es.call('GET', '/dest/_doc/3')).status).to.equal(404);
  });

  it('dest.version_type external keeps the source versions; dest.routing sets routing', async () => {
    await es.call('PUT', '/source/_doc/1', { text: 'test', n: 1 }); // version 2
    const r = await es.call('POST', '/_reindex', { source: { index: 'source' }, dest: { index: 'dest', version_type: 'external', routing: '=cat' } });
    expect(r.json.created).to.equal(3);
    const got = await es.call('GET', '/dest/_doc/1?routing=cat');
    expect(got.json).to.include({ _version: 2, _routing: 'cat' });
    const stale = await es.call('POST', '/_reindex', { source: { index: 'source' }, dest: { index: 'dest', version_type: 'external' } });
    expect(stale.status).to.equal(409);
    expect(stale.json.failures[0].cause.type).to.equal('version_conflict_engine_exception');
    // a script setting ctx._version to null writes with internal versioning: no conflict, the version goes on
    const forced = await es.call('POST', '/_reindex?refresh=true', {
      source: { index: 'source' }, dest: { index: 'dest', version_type: 'external' },
      script: { lang: 'painless', source: 'ctx._source.text = "forced"; ctx._version = null' },
    });
    expect(forced.status, forced.text).to.equal(200);
    expect(forced.json).to.include({ updated: 3, version_conflicts: 0 });
    expect((await es.call('GET', '/dest/_doc/1?routing=cat')).json).to.include({ _version: 3 });
  });

  it('validation as Elasticsearch: messages for the body, the parameters and remote sources', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['', { junk: {} }, /\[reindex\] unknown field \[junk\]/],
      ['', { source: { junk: {} }, dest: { index: 'd' } }, /Unknown key for a START_OBJECT in \[junk\]\./],
      ['', { dest: { junk: {} } }, /\[dest\] unknown field \[junk\]/],
      ['', { dest: { version: 10 } }, /\[dest\] unknown field \[version\]/],
      ['', { dest: {} }, /index must be specified/],
      ['', { source: { from: 1 }, dest: { index: 'd' } }, /from is not supported in this context/],
      ['', { source: { index: 'source', _source: false }, dest: { index: 'd' } }, /_source:false is not supported in this context/],
      ['', { conflicts: 'cat' }, /conflicts may only be "proceed" or "abort" but was \[cat\]/],
      ['', { source: { index: 'source' }, dest: { index: 'd' }, size: -4 }, /\[max_docs\] parameter cannot be negative, found \[-4\]/],
      ['', { source: { index: 'source' }, dest: { index: 'd' }, size: 4, max_docs: 5 }, /\[max_docs\] set to two different values \[4\] and \[5\]/],
      ['?max_docs=1&slices=2', { source: { index: 'source' }, dest: { index: 'd' } }, /\[max_docs\] should be >= \[slices\]/],
      ['?requests_per_second=0', { source: { index: 'source' }, dest: { index: 'd' } }, /\[requests_per_second\] must be a float greater than 0\. Use -1 to disable throttling\./],
      ['?requests_per_second=unlimited', { source: { index: 'source' }, dest: { index: 'd' } }, /\[requests_per_second\] must be a float greater than 0/],
      ['?slices=junk', { source: { index: 'source' }, dest: { index: 'd' } }, /\[slices\] must be a positive integer or the string "auto"/],
      ['', { source: { index: 'source', size: 'cat' }, dest: { index: 'd' } }, /For input string: "cat"/],
      ['', { source: { index: 'source', remote: { host: 'http://badremote:9200' } }, dest: { index: 'd' } }, /^\[badremote:9200\] not whitelisted in reindex\.remote\.whitelist$/],
      ['', { source: { index: 'source', remote: { host: 'badremote', weird: 'stuff' } }, dest: { index: 'd' } }, /\[host\] must be of the form \[scheme\]:\/\/\[host\]:\[port\]/],
      ['', { source: { index: 'source', remote: { host: 'http://okremote:9200', weird: 'stuff', badkey: 'is bad' } }, dest: { index: 'd' } }, /Unsupported fields in \[remote\]: \[weird,badkey\]/],
      ['', { source: { index: 'source' }, dest: { index: 'source' } }, /reindex cannot write into an index its reading from \[source\]/],
    ];
    for (const [qs, body, reason] of cases) {
      const r = await es.call('POST', `/_reindex${qs}`, body);
      expect(r.status, `${qs} ${JSON.stringify(body)}: ${r.text}`).to.equal(400);
      expect(r.json.error.reason, JSON.stringify(body)).to.match(reason);
    }
  });

  it('dest.pipeline: each document goes through the ingest pipeline (and the destination\'s default one without it)', async () => {
    const put = await es.call('PUT', '/_ingest/pipeline/tag', {
      processors: [{ uppercase: { field: 'user' } }, { set: { field: 'copied', value: true } }, { drop: { if: "ctx.n == 3" } }],
    });
    expect(put.status, put.text).to.equal(200);
    const r = await es.call('POST', '/_reindex?refresh=true', { source: { index: 'source' }, dest: { index: 'dest', pipeline: 'tag' } });
    expect(r.status, r.text).to.equal(200);
    expect(r.json).to.include({ total: 3, created: 2, noops: 1 });
    expect((await es.call('GET', '/dest/_doc/1')).json._source).to.deep.equal({ text: 'test', n: 1, user: 'KIMCHY', copied: true });
    expect((await es.call('GET', '/dest/_doc/3')).status).to.equal(404);
    await es.call('PUT', '/dest2', { settings: { 'index.default_pipeline': 'tag' } });
    const byDefault = await es.call('POST', '/_reindex', { source: { index: 'source' }, dest: { index: 'dest2' } });
    expect(byDefault.json).to.include({ created: 2, noops: 1 });
    expect((await es.call('GET', '/dest2/_doc/2')).json._source.user).to.equal('KIMCHY');
    const missing = await es.call('POST', '/_reindex', { source: { index: 'source' }, dest: { index: 'dest3', pipeline: 'nope' } });
    expect(missing.json.failures[0].cause.reason).to.equal('pipeline with id [nope] does not exist');
  });

  it('slices: a number splits the work into sub-tasks reported under slices; auto takes the source\'s shard count', async () => {
    const r = await es.call('POST', '/_reindex?slices=5', { source: { index: 'source' }, dest: { index: 'dest' } });
    expect(r.json).to.include({ total: 3, created: 3 });
    expect(r.json.slices).to.have.length(5);
    expect(r.json.slices.map((s: { slice_id: number }) => s.slice_id)).to.deep.equal([0, 1, 2, 3, 4]);
    expect(r.json.slices.reduce((n: number, s: { created: number }) => n + s.created, 0)).to.equal(3);
    await es.call('PUT', '/sharded', { settings: { number_of_shards: 3 } });
    await es.call('POST', '/_reindex', { source: { index: 'source' }, dest: { index: 'sharded' } });
    const auto = await es.call('POST', '/_reindex?slices=auto', { source: { index: 'sharded' }, dest: { index: 'dest3' } });
    expect(auto.json.slices).to.have.length(3);
    const one = await es.call('POST', '/_reindex?slices=auto', { source: { index: 'source' }, dest: { index: 'dest4' } });
    expect(one.json).to.not.have.property('slices');
  });

  it('manual slicing: each slice of the source copies its share, together every document once', async () => {
    const counts = [];
    for (const id of [0, 1]) {
      const r = await es.call('POST', '/_reindex', { source: { index: 'source', slice: { id, max: 2 } }, dest: { index: 'dest' } });
      expect(r.status, r.text).to.equal(200);
      counts.push(r.json.created);
    }
    expect(counts[0] + counts[1]).to.equal(3);
    expect((await es.call('GET', '/dest/_count')).json.count).to.equal(3);
  });
});
