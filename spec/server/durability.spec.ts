import { expect } from 'chai';
import { NDJSON, call, ndjson } from '../support/http.js';
import { ADMIN, spawnEngine, spawnGateway, tempDir, type ChildServer } from '../support/servers.js';
import { within } from '../support/within.js';

describe('durability: acknowledged writes survive kill -9 (embedded engine)', function () {
  this.timeout(60_000);

  it('every write that got a 2xx is there after SIGKILL and restart', async () => {
    const data = await tempDir();
    const env = { DATA_DIR: data.dir, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password };
    let gw: ChildServer | undefined = await spawnGateway(env);
    try {
      const acknowledged = new Map<string, number>();
      let killed = false;
      let next = 0;
      const writer = async () => {
        while (!killed) {
          const id = `doc-${next++}`;
          try {
            const res = await call(gw!.url, 'PUT', `/durable/_doc/${id}`, { body: { n: next, payload: 'p'.repeat(200) } });
            if (res.status === 201 || res.status === 200) acknowledged.set(id, res.json._version);
          } catch {
            return; // connection refused/reset once the process is gone
          }
        }
      };
      const writers = Array.from({ length: 8 }, writer);
      await within(45_000, () => acknowledged.size >= 300, () => `300 acknowledged writes (${acknowledged.size})`);
      gw.proc.kill('SIGKILL');
      killed = true;
      await Promise.all(writers);
      await gw.stop();

      gw = await spawnGateway(env);
      const ids = [...acknowledged.keys()];
      const mget = await call(gw.url, 'POST', '/durable/_mget', { body: { ids } });
      expect(mget.status).to.equal(200);
      const missing = mget.json.docs.filter((d: { found: boolean }) => !d.found).map((d: { _id: string }) => d._id);
      expect(missing, 'acknowledged but lost').to.deep.equal([]);
      for (const doc of mget.json.docs) expect(doc._source.payload).to.have.length(200);
    } finally {
      await gw?.stop('SIGKILL');
      await data.remove();
    }
  });

  it('ids written by a _bulk and by single writes at once: after SIGKILL and restart, each at its highest acknowledged _version', async () => {
    const data = await tempDir();
    const env = { DATA_DIR: data.dir, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password };
    let gw: ChildServer | undefined = await spawnGateway(env);
    try {
      const IDS = 100;
      const latest = new Map<string, { version: number; who: string }>();
      const saw = (id: string, version: number, who: string) => {
        if (version > (latest.get(id)?.version ?? 0)) latest.set(id, { version, who });
      };
      // every chunk of the bulk holds every id: a single write of any id while the bulk runs lands
      // between the preparation of one of its items and that item's commit
      const lines: unknown[] = [];
      for (let i = 0; i < 20_000; i++) lines.push({ index: { _id: `c${i % IDS}` } }, { who: `bulk-${i}`, t: 'filler text '.repeat(10) });
      let bulkDone = false;
      const bulk = call(gw.url, 'POST', '/race/_bulk', { body: ndjson(lines), headers: NDJSON }).finally(() => (bulkDone = true));
      for (let n = 0; !bulkDone; n++) {
        const id = `c${(n * 37) % IDS}`;
        const s = await call(gw.url, 'PUT', `/race/_doc/${id}`, { body: { who: `put-${n}` } });
        expect(s.status).to.be.oneOf([200, 201]);
        saw(id, s.json._version, `put-${n}`);
      }
      const b = await bulk;
      expect(b.json.errors).to.equal(false);
      b.json.items.forEach((item: { index: { _id: string; _version: number } }, i: number) => saw(item.index._id, item.index._version, `bulk-${i}`));
      const read = async () => {
        const mget = await call(gw!.url, 'POST', '/race/_mget', { body: { ids: [...latest.keys()] } });
        return Object.fromEntries(mget.json.docs.map((d: { _id: string; _version: number; _source: { who: string } }) => [d._id, { version: d._version, who: d._source.who }]));
      };
      expect(await read(), 'before the kill').to.deep.equal(Object.fromEntries(latest));
      gw.proc.kill('SIGKILL');
      await gw.stop();
      gw = await spawnGateway(env);
      expect(await read(), 'after restart').to.deep.equal(Object.fromEntries(latest));
    } finally {
      await gw?.stop('SIGKILL');
      await data.remove();
    }
  });
});

/**
 * Odd ids through the gateway, on both backends: every id acknowledged is there, as written, after
 * SIGKILL of the process that holds the data (the gateway on the embedded engine, the standalone
 * engine behind the gateway on the HTTP backend); ids Elasticsearch cannot hold (unpaired
 * surrogates, NUL, past 512 bytes) are refused, never acknowledged.
 */
describe('durability: odd ids survive kill -9, through the gateway', function () {
  this.timeout(120_000);
  const ODD = ['\ud800', '\udc00', 'a\udbffz', 'a\u0000b', '\u0000', 'x'.repeat(512), 'é'.repeat(256), '😀'.repeat(128), 'a/b?c#d', ' ', '\u2028', '\ufffd', 'x'.repeat(513), `${'é'.repeat(256)}a`];
  const refused = (id: string) => /\p{Cs}/u.test(id) || id.includes('\u0000') || Buffer.byteLength(id) > 512;

  /** Writes the odd ids by _bulk through `url`; the acknowledged ones (id → n). */
  async function writeOdd(url: string): Promise<Map<string, number>> {
    const lines = ODD.flatMap((id, n) => [{ create: { _index: 'odd', _id: id } }, { n }]);
    const bulk = await call(url, 'POST', '/_bulk', { body: ndjson(lines), headers: NDJSON });
    expect(bulk.status, bulk.text.slice(0, 300)).to.equal(200);
    const acknowledged = new Map<string, number>();
    bulk.json.items.forEach((item: { create: { _id: string; status: number } }, n: number) => {
      const id = ODD[n];
      if (refused(id)) expect(item.create.status, `id ${JSON.stringify(id)}`).to.equal(400);
      else {
        expect(item.create.status, `id ${JSON.stringify(id)}: ${JSON.stringify(item)}`).to.equal(201);
        expect(item.create._id).to.equal(id);
        acknowledged.set(id, n);
      }
    });
    expect(acknowledged.size).to.equal(7);
    return acknowledged;
  }

  /** Each acknowledged id read back through `url` (by _mget and by GET), as written, and nothing else. */
  async function expectKept(url: string, acknowledged: Map<string, number>): Promise<void> {
    const ids = [...acknowledged.keys()];
    const mget = await call(url, 'POST', '/odd/_mget', { body: { ids } });
    expect(mget.status, mget.text.slice(0, 300)).to.equal(200);
    expect(mget.json.docs.map((d: { _id: string; found: boolean; _source?: { n: number } }) => [d._id, d.found, d._source?.n])).to.deep.equal(ids.map((id) => [id, true, acknowledged.get(id)]));
    for (const id of ids) {
      const got = await call(url, 'GET', `/odd/_doc/${encodeURIComponent(id)}`);
      expect(got.status, `GET ${JSON.stringify(id)}`).to.equal(200);
      expect(got.json._id).to.equal(id);
    }
    const count = await call(url, 'GET', '/odd/_count');
    expect(count.json.count).to.equal(acknowledged.size);
  }

  it('embedded engine: the gateway killed and restarted', async () => {
    const data = await tempDir();
    const env = { DATA_DIR: data.dir, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password };
    let gw: ChildServer | undefined = await spawnGateway(env);
    try {
      const acknowledged = await writeOdd(gw.url);
      gw.proc.kill('SIGKILL');
      await gw.stop();
      gw = await spawnGateway(env);
      await expectKept(gw.url, acknowledged);
    } finally {
      await gw?.stop('SIGKILL');
      await data.remove();
    }
  });

  it('HTTP backend: the standalone engine behind the gateway killed and restarted', async () => {
    const data = await tempDir();
    const gwData = await tempDir();
    let engine: ChildServer | undefined = await spawnEngine(data.dir);
    let gw: ChildServer | undefined;
    try {
      gw = await spawnGateway({ DATA_DIR: gwData.dir, ENGINE_URL: engine.url, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password });
      const acknowledged = await writeOdd(gw.url);
      engine.proc.kill('SIGKILL');
      await engine.stop();
      await gw.stop();
      engine = await spawnEngine(data.dir);
      gw = await spawnGateway({ DATA_DIR: gwData.dir, ENGINE_URL: engine.url, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password });
      await expectKept(gw.url, acknowledged);
    } finally {
      await gw?.stop('SIGKILL');
      await engine?.stop('SIGKILL');
      await data.remove();
      await gwData.remove();
    }
  });
});
