import { expect } from 'chai';
import { open } from 'lmdb';
import { decodeDocRecord, docRecordMaxBytes, writeDocRecord, type StoredDocument } from '../../../lib/engine/embedded/store/index.js';
import { openEmbeddedEngine } from '../../../lib/engine/embedded/index.js';
import { within } from '../../support/within.js';
import { call, spawnEngine, startEngine, tempDir } from './support.js';

/** The engine started again on `dataDir`, `check` run against it, and the engine stopped cleanly. */
async function afterRestart(dataDir: string, check: (url: string) => Promise<void>): Promise<void> {
  const engine = await spawnEngine(dataDir);
  try {
    await check(engine.url);
  } finally {
    engine.proc.kill('SIGTERM');
    expect(await engine.exited).to.equal(0);
  }
}

describe('embedded engine: durability', function () {
  this.timeout(40_000);

  it('every acknowledged write survives SIGKILL mid-stream', async () => {
    const data = await tempDir();
    try {
      const engine = await spawnEngine(data.dir);
      const acknowledged = new Map<string, { n: number; text: string }>();
      let next = 0;
      let killed = false;
      const writer = async () => {
        while (!killed) {
          const i = next++;
          const id = `doc-${i}`;
          const source = { n: i, text: `value number ${i}` };
          try {
            const r = await call(engine.url, 'PUT', `/durable/_doc/${id}`, source);
            if (r.status === 200 || r.status === 201) acknowledged.set(id, source);
          } catch {
            return; // connection refused/reset after the kill
          }
        }
      };
      const writers = Array.from({ length: 8 }, () => writer());
      // killed mid-stream: once enough writes are acknowledged, while the writers keep going
      await within(30_000, () => acknowledged.size > 50, () => `50 acknowledged writes (${acknowledged.size})`);
      killed = true;
      engine.proc.kill('SIGKILL');
      await Promise.all(writers);
      await engine.exited;
      expect(acknowledged.size).to.be.greaterThan(20);

      await afterRestart(data.dir, async (url) => {
        const count = await call(url, 'GET', '/durable/_count');
        expect(count.json.count).to.be.at.least(acknowledged.size);
        const ids = [...acknowledged.keys()];
        const r = await call(url, 'POST', '/durable/_mget', { ids });
        const missing = r.json.docs.filter((d: { found: boolean }) => !d.found).map((d: { _id: string }) => d._id);
        expect(missing).to.deep.equal([]);
        for (const d of r.json.docs) expect(d._source).to.deep.equal(acknowledged.get(d._id));
      });
    } finally {
      await data.remove();
    }
  });

  it('odd ids: every acknowledged one (512-byte ids included) survives SIGKILL as it was written; unpaired surrogates, NUL and 513-byte ids are refused, never acknowledged', async () => {
    const data = await tempDir();
    try {
      const engine = await spawnEngine(data.dir);
      const odd = ['\ud800', '\udc00', 'a\udbffz', 'a\u0000b', '\u0000', 'x'.repeat(512), 'é'.repeat(256), '😀'.repeat(128), 'a/b?c#d', ' ', '\u2028', '\ufffd', 'x'.repeat(513), `${'é'.repeat(256)}a`];
      const lines = odd.flatMap((id, n) => [JSON.stringify({ create: { _index: 'odd', _id: id } }), JSON.stringify({ n })]).join('\n') + '\n';
      const bulk = await call(engine.url, 'POST', '/_bulk', lines, { 'content-type': 'application/x-ndjson' });
      expect(bulk.status, bulk.text).to.equal(200);
      const acknowledged = new Map<string, number>();
      bulk.json.items.forEach((item: { create: { _id: string; status: number; error?: { type: string } } }, n: number) => {
        const id = odd[n];
        const refused = /\p{Cs}/u.test(id) || id.includes('\u0000') || Buffer.byteLength(id) > 512;
        if (refused) expect(item.create.status, `id ${JSON.stringify(id)}`).to.equal(400);
        if (Buffer.byteLength(id) === 513) expect(item.create.error!.type).to.equal('illegal_argument_exception');
        if (!refused) {
          expect(item.create.status, `id ${JSON.stringify(id)}: ${JSON.stringify(item)}`).to.equal(201);
          expect(item.create._id).to.equal(id);
          acknowledged.set(id, n);
        }
      });
      expect(acknowledged.size).to.equal(7);
      engine.proc.kill('SIGKILL');
      await engine.exited;
      await afterRestart(data.dir, async (url) => {
        const ids = [...acknowledged.keys()];
        const r = await call(url, 'POST', '/odd/_mget', { ids });
        expect(r.json.docs.map((d: { _id: string; found: boolean; _source?: { n: number } }) => [d._id, d.found, d._source?.n])).to.deep.equal(ids.map((id) => [id, true, acknowledged.get(id)]));
        const count = await call(url, 'GET', '/odd/_count');
        expect(count.json.count).to.equal(acknowledged.size);
      });
    } finally {
      await data.remove();
    }
  });

  it('index, mapping, documents, versions and closed state survive a restart', async () => {
    let es = await startEngine();
    const dataDir = es.dataDir;
    try {
      await es.call('PUT', '/kept', { settings: { number_of_replicas: 0 }, mappings: { properties: { k: { type: 'keyword' } } } });
      await es.call('PUT', '/kept/_doc/1', { k: 'a', s: 'some text' });
      await es.call('PUT', '/kept/_doc/1', { k: 'b', s: 'some text' });
      await es.call('PUT', '/kept/_doc/2', { k: 'c' });
      await es.call('DELETE', '/kept/_doc/2');
      await es.call('PUT', '/gone/_doc/1', { a: 1 });
      await es.call('POST', '/gone/_close');
      const before = (await es.call('GET', '/kept')).json;
      await es.close(false);

      es = await startEngine({ dataDir });
      expect((await es.call('GET', '/kept')).json).to.deep.equal(before);
      const doc = await es.call('GET', '/kept/_doc/1');
      expect(doc.json).to.include({ _version: 2, _seq_no: 1, found: true });
      expect(doc.json._source).to.deep.equal({ k: 'b', s: 'some text' });
      const r = await es.call('POST', '/kept/_search', { query: { term: { k: 'b' } } });
      expect(r.json.hits.total.value).to.equal(1);
      const again = await es.call('PUT', '/kept/_doc/2', { k: 'd' });
      expect(again.json).to.include({ _version: 3, _seq_no: 4, result: 'created' });
      expect((await es.call('GET', '/gone/_doc/1')).json.error.type).to.equal('index_closed_exception');
      await es.call('POST', '/gone/_open');
      expect((await es.call('GET', '/gone/_doc/1')).json._source).to.deep.equal({ a: 1 });
    } finally {
      await es.close(true);
    }
  });

  it('document records (format 2) round-trip versions, routing, tombstones and any text', () => {
    const cases: StoredDocument[] = [
      { v: 1, q: 0, t: 1, s: '{"a":1}' },
      { v: 2 ** 40, q: 2 ** 45 + 3, t: 7, s: '{"t":"é ü 日本 🙂"}', r: 'shard-é' },
      { v: 3, q: 9, t: 1 },
      { v: 4, q: 10, t: 1, r: '' },
      { v: 5, q: 11, t: 1, s: '' },
    ];
    for (const doc of cases) {
      const buf = Buffer.alloc(docRecordMaxBytes(doc));
      expect(decodeDocRecord(buf.subarray(0, writeDocRecord(buf, 0, doc)))).to.deep.equal(doc);
    }
    expect(() => decodeDocRecord(Buffer.alloc(3))).to.throw(/too short/);
  });

  it('opens a data directory written in the first document format (msgpack records) and keeps using it', async () => {
    const data = await tempDir();
    try {
      // What an engine of the first format left on disk: index metadata without docFormat, documents in docs:{uuid}.
      const root = open({ path: data.dir, maxDbs: 10_000, compression: false });
      const uuid = 'oldFormatIndexUuid0001';
      await root.openDB({ name: 'indices' }).put('legacy', {
        name: 'legacy', uuid, creationDate: Date.now(), state: 'open', aliases: {},
        settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '1', 'index.uuid': uuid, 'index.provided_name': 'legacy', 'index.creation_date': String(Date.now()), 'index.version.created': '8500003' },
        mappings: { properties: { title: { type: 'text' } } },
      });
      const docs = root.openDB({ name: `docs:${uuid}` });
      await docs.put('1', { v: 2, q: 1, t: 1, s: '{"title":"an old document"}' });
      await docs.put('2', { v: 1, q: 2, t: 1, s: '{"title":"routed old document"}', r: 'r1' });
      await docs.put('3', { v: 2, q: 3, t: 1 });
      await root.close();

      let es = await startEngine({ dataDir: data.dir });
      try {
        const one = await es.call('GET', '/legacy/_doc/1');
        expect(one.json).to.include({ found: true, _version: 2, _seq_no: 1 });
        expect(one.json._source).to.deep.equal({ title: 'an old document' });
        expect((await es.call('GET', '/legacy/_doc/2?routing=r1')).json).to.include({ found: true, _routing: 'r1' });
        expect((await es.call('GET', '/legacy/_doc/3')).json.found).to.equal(false);
        const hits = await es.call('POST', '/legacy/_search', { query: { match: { title: 'old' } } });
        expect(hits.json.hits.total.value).to.equal(2);
        // New writes to the old index stay in its format; a new index gets the binary one.
        expect((await es.call('PUT', '/legacy/_doc/3', { title: 'written again' })).json).to.include({ _version: 3, _seq_no: 4 });
        await es.call('PUT', '/fresh/_doc/1', { title: 'new format' });
      } finally {
        await es.close(false);
      }
      es = await startEngine({ dataDir: data.dir });
      try {
        expect((await es.call('GET', '/legacy/_doc/3')).json._source).to.deep.equal({ title: 'written again' });
        expect((await es.call('GET', '/fresh/_doc/1')).json._source).to.deep.equal({ title: 'new format' });
        expect((await es.call('POST', '/legacy/_search', { query: { match: { title: 'old written' } } })).json.hits.total.value).to.equal(3);
      } finally {
        await es.close(false);
      }
      const check = open({ path: data.dir, maxDbs: 10_000, compression: false });
      try {
        expect(check.openDB({ name: `docs:${uuid}` }).get('3')).to.include({ v: 3, q: 4 });
        const fresh = [...check.openDB({ name: 'indices' }).getRange()].map(({ value }) => value as { name: string; docFormat?: number });
        expect(fresh.find((m) => m.name === 'fresh')?.docFormat).to.equal(2);
        expect(fresh.find((m) => m.name === 'legacy')?.docFormat).to.equal(undefined);
      } finally {
        await check.close();
      }
    } finally {
      await data.remove();
    }
  });

  it('the standalone server prints one listening line and exits cleanly on SIGTERM', async () => {
    const data = await tempDir();
    try {
      const engine = await spawnEngine(data.dir);
      expect(engine.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await call(engine.url, 'GET', '/')).headers['x-elastic-product']).to.equal('Elasticsearch');
      engine.proc.kill('SIGTERM');
      expect(await engine.exited).to.equal(0);
    } finally {
      await data.remove();
    }
  });

  it('an engine closed under a running _bulk: the bulk settles, and no chunk\'s failed commit goes unhandled (it would end the process)', async () => {
    const data = await tempDir();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const engine = await openEmbeddedEngine({ dataDir: data.dir });
      const lines = Array.from({ length: 3000 }, (_, i) => `{"index":{"_index":"closing","_id":"${i}"}}\n{"n":${i}}\n`).join('');
      // The bulk runs until its first turn of the event loop; the store is closing from then on, so
      // every chunk committed after is refused ("store is closed").
      const bulk = engine.request({ method: 'POST', path: '/_bulk', body: lines, headers: { 'content-type': 'application/x-ndjson' } });
      await engine.close();
      const settled = await bulk.then((r) => r.status, () => 'rejected');
      expect(settled === 'rejected' || (typeof settled === 'number' && settled >= 500), String(settled)).to.equal(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled.map(String)).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await data.remove();
    }
  });
});
