/**
 * A `_bulk` body of megabytes is read once, as the pieces it arrived in (the gateway's classifier
 * hands its items to change capture and to the embedded engine; the standalone engine reads its
 * own from the pieces it decoded): every item is answered as written, on both backends, whether
 * the body goes on as sent or is rewritten (an update asked for its source).
 */
import { expect } from 'chai';
import { call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import type { TestGateway } from '../support/servers.js';

const NDJSON = { 'content-type': 'application/x-ndjson' };

/** About `bytes` of `_bulk` body: index and create actions, blank lines, multi-byte text; `extra` lines last. */
function bulkBody(bytes: number, extra: string[] = []): { text: string; items: number } {
  const lines: string[] = [];
  let items = 0;
  for (let size = 0; size < bytes; items++) {
    const action = items % 3 === 0 ? ` { "create" : { "_index" : "big", "_id" : "c${items}" } } ` : JSON.stringify({ index: { _index: 'big', _id: `d${items}` } });
    const source = JSON.stringify({ n: items, text: `é😀 "quoted" item ${items} `.repeat(4) });
    if (items % 97 === 0) lines.push('  \r');
    lines.push(action, source);
    size += action.length + source.length + 2;
  }
  lines.push(...extra);
  return { text: lines.join('\n') + '\n', items: items + extra.filter((l) => /"(update|delete|index|create)"/.test(l)).length };
}

for (const backend of BACKENDS) {
  describe(`a _bulk of megabytes, read once as its pieces (${backend.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(() => stop());

    it('answers every item as written, and an update asked for its source afterwards', async () => {
      const plain = bulkBody(3 * 1024 * 1024);
      const first = await call<{ errors: boolean; items: Array<Record<string, { _id: string; status: number }>> }>(gw.url, 'POST', '/_bulk?refresh=true', { body: plain.text, headers: NDJSON });
      expect(first.status).to.equal(200);
      expect(first.json.errors).to.equal(false);
      expect(first.json.items).to.have.length(plain.items);
      expect(first.json.items[0].create).to.include({ _id: 'c0', status: 201 });
      expect(first.json.items[plain.items - 1].index ?? first.json.items[plain.items - 1].create).to.have.property('status', 201);
      const doc = await call<{ _source: { text: string } }>(gw.url, 'GET', '/big/_doc/d1');
      expect(doc.json._source.text).to.equal('é😀 "quoted" item 1 '.repeat(4));

      // an update: change capture rewrites the body, which the engine then reads itself
      const rewritten = bulkBody(2 * 1024 * 1024, [JSON.stringify({ update: { _index: 'big', _id: 'd1' } }), JSON.stringify({ doc: { text: 'changed' } }), JSON.stringify({ delete: { _index: 'big', _id: 'd2' } })]);
      const second = await call<{ errors: boolean; items: Array<Record<string, { _id: string; status: number; result: string }>> }>(gw.url, 'POST', '/_bulk?refresh=true', { body: rewritten.text, headers: NDJSON });
      expect(second.status).to.equal(200);
      expect(second.json.items).to.have.length(rewritten.items);
      expect(second.json.items.at(-2)!.update).to.include({ _id: 'd1', result: 'updated' });
      expect(second.json.items.at(-1)!.delete).to.include({ _id: 'd2', result: 'deleted' });
      expect(second.json.items.at(-2)!.update).to.not.have.property('get');
      const updated = await call<{ _source: { text: string } }>(gw.url, 'GET', '/big/_doc/d1');
      expect(updated.json._source.text).to.equal('changed');
    });

    it('refuses a malformed action line of a large body as Elasticsearch does', async () => {
      const { text } = bulkBody(2 * 1024 * 1024, [JSON.stringify({ crate: { _index: 'big', _id: 'x' } }), '{}']);
      const res = await call<{ error: { type: string; reason: string } }>(gw.url, 'POST', '/_bulk', { body: text, headers: NDJSON });
      expect(res.status).to.equal(400);
      expect(res.json.error.type).to.equal('illegal_argument_exception');
      expect(res.json.error.reason).to.match(/^Malformed action\/metadata line \[\d+\], expected field \[create\], \[delete\], \[index\] or \[update\] but found \[crate\]$/);
    });
  });
}
