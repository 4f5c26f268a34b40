import { expect } from 'chai';
import { NDJSON, call, ndjson } from '../support/http.js';
import { ADMIN, spawnGateway, tempDir, type ChildServer } from '../support/servers.js';
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
