import { expect } from 'chai';
import { call, spawnEngine, startEngine, tempDir } from './support.js';

describe('embedded engine: durability', function () {
  this.timeout(40_000);

  it('every acknowledged write survives SIGKILL mid-stream', async () => {
    const data = await tempDir();
    try {
      let engine = await spawnEngine(data.dir);
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
      await new Promise((resolve) => setTimeout(resolve, 700));
      killed = true;
      engine.proc.kill('SIGKILL');
      await Promise.all(writers);
      await engine.exited;
      expect(acknowledged.size).to.be.greaterThan(20);

      engine = await spawnEngine(data.dir);
      try {
        const count = await call(engine.url, 'GET', '/durable/_count');
        expect(count.json.count).to.be.at.least(acknowledged.size);
        const ids = [...acknowledged.keys()];
        const r = await call(engine.url, 'POST', '/durable/_mget', { ids });
        const missing = r.json.docs.filter((d: { found: boolean }) => !d.found).map((d: { _id: string }) => d._id);
        expect(missing).to.deep.equal([]);
        for (const d of r.json.docs) expect(d._source).to.deep.equal(acknowledged.get(d._id));
      } finally {
        engine.proc.kill('SIGTERM');
        expect(await engine.exited).to.equal(0);
      }
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
});
