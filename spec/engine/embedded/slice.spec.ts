import { expect } from 'chai';
import { encodedId } from '../../../lib/engine/embedded/search/slice.js';
import { ndjson, startEngine, type TestEngine } from './support.js';

const DOCS = 60;

describe('embedded engine: sliced scroll and point-in-time slices', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/sl', { mappings: { properties: { n: { type: 'long' }, d: { type: 'double' }, tag: { type: 'keyword' } } } })).status).to.equal(200);
    const lines = Array.from({ length: DOCS }, (_, i) => [{ index: { _index: 'sl', _id: i % 3 === 0 ? `doc-${i}` : String(i) } }, i % 10 === 9 ? { tag: 'none' } : { n: i * 7, d: i / 3, tag: 't' }]).flat();
    expect((await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' })).json.errors).to.equal(false);
  });
  after(() => es.close());

  it('encodes ids as Elasticsearch indexes them (Uid.encodeId): numeric, URL-safe base64, UTF-8', () => {
    expect([...encodedId('1')]).to.deep.equal([0xfe, 0x1f]);
    expect([...encodedId('1234')]).to.deep.equal([0xfe, 0x12, 0x34]);
    expect([...encodedId('AAAA')]).to.deep.equal([0, 0, 0]);
    expect([...encodedId('_w')]).to.deep.equal([0xfd, 0xff]); // a first byte ≥ 0xfd is escaped
    expect([...encodedId('doc-1')]).to.deep.equal([0xff, ...Buffer.from('doc-1')]); // 5 characters: not base64
    expect([...encodedId('é')]).to.deep.equal([0xff, 0xc3, 0xa9]);
  });

  /** Every id a scroll returns, page after page. */
  async function scrollIds(body: Record<string, unknown>): Promise<{ total: number; ids: string[] }> {
    let r = await es.call('POST', '/sl/_search?scroll=1m', { size: 7, ...body });
    expect(r.status, r.text).to.equal(200);
    const total = r.json.hits.total.value;
    const ids: string[] = [];
    while (r.json.hits.hits.length) {
      ids.push(...r.json.hits.hits.map((h: { _id: string }) => h._id));
      r = await es.call('POST', '/_search/scroll', { scroll: '1m', scroll_id: r.json._scroll_id });
    }
    return { total, ids };
  }

  it('the slices of a scroll partition the documents (by _id, or by a numeric field), each total its own', async () => {
    for (const field of [undefined, '_id', 'n', 'd']) {
      const seen: string[] = [];
      for (let id = 0; id < 4; id++) {
        const { total, ids } = await scrollIds({ slice: { id, max: 4, ...(field ? { field } : {}) } });
        expect(ids, `slice ${id} of ${field ?? 'default'}`).to.have.length(total);
        seen.push(...ids);
      }
      expect(seen, String(field)).to.have.length(DOCS);
      expect(new Set(seen).size, String(field)).to.equal(DOCS);
    }
    // a document without the field is in slice 0 (the hash of nothing is 0)
    const { ids } = await scrollIds({ slice: { id: 0, max: 4, field: 'n' } });
    expect(ids).to.include.members(['doc-9', '19', '29', 'doc-39', '49', '59']);
  });

  it('the slices of a point in time are ranges of document order, the first ones one larger', async () => {
    const pit = (await es.call('POST', '/sl/_pit?keep_alive=1m')).json.id;
    const slices: string[][] = [];
    for (let id = 0; id < 7; id++) {
      const r = await es.call('POST', '/_search', { size: 100, pit: { id: pit }, slice: { id, max: 7 }, sort: ['_shard_doc'] });
      expect(r.status, r.text).to.equal(200);
      slices.push(r.json.hits.hits.map((h: { _id: string }) => h._id));
    }
    // 60 documents in 7 slices: four of 9, three of 8, in index order
    expect(slices.map((s) => s.length)).to.deep.equal([9, 9, 9, 9, 8, 8, 8]);
    const order = Array.from({ length: DOCS }, (_, i) => (i % 3 === 0 ? `doc-${i}` : String(i)));
    expect(slices.flat()).to.deep.equal(order);
    const byId = await es.call('POST', '/_search', { pit: { id: pit }, slice: { id: 0, max: 2, field: '_id' } });
    expect(byId.status).to.equal(400);
    expect(byId.json.error.root_cause[0].reason).to.equal('cannot slice on [_id] when using [point-in-time]');
    await es.call('DELETE', '/_pit', { id: pit });
  });

  it('refuses what Elasticsearch refuses', async () => {
    const bad = async (path: string, body: Record<string, unknown>) => {
      const r = await es.call('POST', path, body);
      expect(r.status, r.text).to.equal(400);
      return r.json.error.root_cause[0].reason as string;
    };
    expect(await bad('/sl/_search', { slice: { id: 0, max: 2 } })).to.equal('Validation Failed: 1: [slice] can only be used with [scroll] or [point-in-time] requests;');
    expect(await bad('/sl/_search?scroll=1m', { slice: { id: 0, max: 1025 } })).to.equal(
      'The number of slices [1025] is too large. It must be less than [1024]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.',
    );
    expect(await bad('/sl/_search?scroll=1m', { slice: { id: 0, max: 2, field: 'missing' } })).to.equal('field missing not found');
    expect(await bad('/sl/_search?scroll=1m', { slice: { id: 0, max: 2, field: 'tag' } })).to.equal('cannot load numeric doc values on tag');
    expect(await bad('/sl/_search?scroll=1m', { slice: { id: 2, max: 2 } })).to.equal('[slice] failed to parse field [max]');
    expect(await bad('/sl/_search?scroll=1m', { slice: { id: 0, max: 1 } })).to.equal('[slice] failed to parse field [max]');
  });

  it('delete by query sliced by hand removes each document once, in the slices a sliced scroll makes', async () => {
    const { ids } = await scrollIds({ slice: { id: 1, max: 3 } });
    const r = await es.call('POST', '/sl/_delete_by_query?refresh=true', { query: { match_all: {} }, slice: { id: 1, max: 3 } });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.deleted).to.equal(ids.length);
    for (const id of ids) expect((await es.call('GET', `/sl/_doc/${id}`)).status).to.equal(404);
    expect((await es.call('GET', '/sl/_count')).json.count).to.equal(DOCS - ids.length);
  });
});
