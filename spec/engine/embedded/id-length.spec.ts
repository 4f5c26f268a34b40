import { expect } from 'chai';
import { startEngine, type Reply, type TestEngine } from './support.js';

const tooLong = (id: string) => `id [${id}] is too long, must be no longer than 512 bytes but was: ${Buffer.byteLength(id)}`;

function expectTooLong(r: Reply, id: string): void {
  expect(r.status, r.text.slice(0, 200)).to.equal(400);
  expect(r.json.error.type).to.equal('illegal_argument_exception');
  expect(r.json.error.reason).to.equal(tooLong(id));
}

describe('embedded engine: ids of 512 bytes are accepted, 513 refused, however the id is set', () => {
  let es: TestEngine;
  const at512 = ['a'.repeat(512), 'é'.repeat(256), '😀'.repeat(128)];
  const at513 = ['a'.repeat(513), `${'é'.repeat(256)}a`];
  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/_ingest/pipeline/set-id', { processors: [{ set: { field: '_id', value: '{{{n}}}' } }] })).status).to.equal(200);
    expect((await es.call('PUT', '/_ingest/pipeline/script-id', { processors: [{ script: { source: 'ctx._id = ctx.n' } }] })).status).to.equal(200);
  });
  after(() => es.close());

  it('in the path and in a bulk action', async () => {
    for (const id of at512) expect((await es.call('PUT', `/ids/_doc/${encodeURIComponent(id)}`, { a: 1 })).status).to.equal(201);
    for (const id of at513) expectTooLong(await es.call('PUT', `/ids/_doc/${encodeURIComponent(id)}`, { a: 1 }), id);
    const lines = [...at512, ...at513].flatMap((id) => [JSON.stringify({ index: { _index: 'ids-bulk', _id: id } }), '{"a":1}']).join('\n') + '\n';
    const bulk = await es.call('POST', '/_bulk', lines, { 'content-type': 'application/x-ndjson' });
    expect(bulk.json.items.map((i: { index: { status: number } }) => i.index.status)).to.deep.equal([201, 201, 201, 400, 400]);
    expect(bulk.json.items[3].index.error.reason).to.equal(tooLong(at513[0]));
  });

  it('set by an ingest pipeline (set processor, script processor)', async () => {
    for (const pipeline of ['set-id', 'script-id']) {
      for (const id of at512) {
        const r = await es.call('POST', `/ids-${pipeline}/_doc?pipeline=${pipeline}`, { n: id });
        expect(r.status, r.text.slice(0, 200)).to.equal(201);
        expect(r.json._id).to.equal(id);
      }
      for (const id of at513) expectTooLong(await es.call('POST', `/ids-${pipeline}/_doc?pipeline=${pipeline}`, { n: id }), id);
    }
  });

  it('set by a reindex script: a 513-byte id is a listed failure, nothing is written', async () => {
    expect((await es.call('PUT', '/ids-src/_doc/1?refresh=true', { n: 1 })).status).to.equal(201);
    const longer = 'b'.repeat(512);
    const ok = await es.call('POST', '/_reindex?refresh=true', { source: { index: 'ids-src' }, dest: { index: 'ids-dest' }, script: { source: `ctx._id = '${longer}'` } });
    expect(ok.json.created).to.equal(1);
    const refused = await es.call('POST', '/_reindex?refresh=true', { source: { index: 'ids-src' }, dest: { index: 'ids-dest2' }, script: { source: `ctx._id = '${longer}b'` } });
    expect(refused.json.created).to.equal(0);
    expect(refused.json.failures[0].cause.reason).to.equal(tooLong(`${longer}b`));
    expect((await es.call('GET', '/ids-dest2/_count')).json.count ?? 0).to.equal(0);
  });
});
