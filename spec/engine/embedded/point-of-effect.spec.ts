import { expect } from 'chai';
import type { EngineAccess, EngineRequest } from '../../../lib/engine/backend.js';
import { openEmbeddedEngine, type EmbeddedEngine } from '../../../lib/engine/embedded/index.js';
import { authorizationDisagreementCount } from '../../../lib/metrics/index.js';
import { call as gatewayCall, basic, ndjson, NDJSON } from '../../support/http.js';
import { startTestGateway, type TestGateway } from '../../support/servers.js';
import { tempDir } from './support.js';

/** A pipeline that sends each document where its `target` says: the engine acts on data the gateway never reads. */
const RETARGET = { processors: [{ set: { field: '_index', value: '{{target}}' } }] };
const REFUSED = /^action \[.+\] is unauthorized for user \[.+\] on indices \[.+\]$/;
const REFUSED_OR_SYSTEM = /^action \[.+\] is unauthorized(?: for user \[.+\] on indices \[.+\]$|: index \[.+\] is a system index)/;

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

describe('embedded engine: authorization at the point of effect', function () {
  this.timeout(60_000);

  describe('the engine alone, called with rights (no gateway check in front)', () => {
    let engine: EmbeddedEngine;
    let remove: () => Promise<void>;
    const tenant: EngineAccess = { user: 'tenant', indices: [{ names: ['mine', 'mine-*', 'logs-mine*'], ops: ['read', 'write', 'delete'] }] };
    const reader: EngineAccess = { user: 'reader', indices: [{ names: ['mine'], ops: ['read'] }] };
    const everything: EngineAccess = { user: 'wide', indices: [{ names: ['*'], ops: ['read', 'write', 'delete'] }] };

    async function send(method: string, path: string, body?: unknown, access?: EngineAccess): Promise<Answer> {
      const req: EngineRequest = { method, path, headers: {} };
      if (body !== undefined) {
        req.body = typeof body === 'string' ? body : JSON.stringify(body);
        req.headers = { 'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json' };
      }
      if (access) req.access = access;
      const res = await engine.request(req);
      const text = (res.body as Buffer).toString('utf8');
      return { status: res.status, json: text ? JSON.parse(text) : undefined };
    }
    const admin = (method: string, path: string, body?: unknown) => send(method, path, body);
    const as = (method: string, path: string, body?: unknown, access: EngineAccess = tenant) => send(method, path, body, access);

    function expectRefused(res: Answer, index = 'other'): void {
      expect(res.status, JSON.stringify(res.json)).to.equal(403);
      expect(res.json.error.type).to.equal('security_exception');
      // a system index is refused for every caller before any rights are read (run-pipelines' refuseSystemTarget)
      expect(res.json.error.reason).to.match(index.startsWith('.gateway-') ? REFUSED_OR_SYSTEM : REFUSED);
      expect(res.json.error.reason).to.contain(index);
      // a name the request wrote is what a refusal names, never the indices it stands for
      if (!index.includes('other')) expect(res.json.error.reason).not.to.contain('other');
    }
    async function otherCount(): Promise<number> {
      return (await admin('GET', '/other/_count')).json.count;
    }

    before(async () => {
      const dir = await tempDir();
      remove = dir.remove;
      engine = await openEmbeddedEngine({ dataDir: dir.dir });
      expect((await admin('PUT', '/_ingest/pipeline/retarget', RETARGET)).status).to.equal(200);
      expect((await admin('PUT', '/mine', { settings: { 'index.default_pipeline': 'retarget' }, mappings: { properties: { shape: { type: 'geo_shape' }, tags: { type: 'keyword' } } } })).status).to.equal(200);
      expect((await admin('PUT', '/plain', { mappings: { properties: { tags: { type: 'keyword' } } } })).status).to.equal(200);
      expect((await admin('PUT', '/other', { mappings: { properties: { shape: { type: 'geo_shape' }, tags: { type: 'keyword' } } } })).status).to.equal(200);
      await admin('PUT', '/other/_doc/1?refresh=true', { tags: ['secret'], text: 'other tenant text', shape: { type: 'point', coordinates: [1, 1] } });
      await admin('PUT', '/mine/_doc/1?refresh=true&pipeline=_none', { tags: ['secret'], text: 'mine text', target: 'mine' });
      await admin('POST', '/_aliases', { actions: [{ add: { index: 'other', alias: 'mine-view' } }] });
      await admin('PUT', '/.gateway-credentials/_doc/admin?refresh=true', { indices: ['*'], role: 'admin' });
    });
    after(async () => {
      await engine.close();
      await remove();
    });

    it('counts each refusal as a disagreement', async () => {
      const before = await authorizationDisagreementCount();
      expectRefused(await as('GET', '/other/_search'));
      expect(await authorizationDisagreementCount()).to.equal(before + 1);
    });

    describe('search targets, after resolution', () => {
      it('a name, a list with a name, an alias to another index: refused', async () => {
        expectRefused(await as('POST', '/other/_search', { query: { match_all: {} } }));
        expectRefused(await as('POST', '/mine,other/_search', {}));
        expectRefused(await as('POST', '/mine-view/_search', {}), 'mine-view');
        expectRefused(await as('POST', '/other/_count', {}));
      });

      it('a missing index out of reach is a 403, not a 404', async () => {
        expectRefused(await as('GET', '/nothing-here/_search'), 'nothing-here');
      });

      it('a wildcard reaches only what the rights allow (narrowed, as Elasticsearch expands them), and the narrowing is counted', async () => {
        const before = await authorizationDisagreementCount();
        const res = await as('POST', '/mine*/_search', { query: { match_all: {} } });
        expect(res.status).to.equal(200);
        expect(res.json.hits.hits.map((h: { _index: string }) => h._index)).to.deep.equal(['mine']);
        expect(await authorizationDisagreementCount()).to.be.above(before); // mine-view → other
        const all = await as('POST', '/_search', { query: { match_all: {} } });
        expect(all.json.hits.hits.map((h: { _index: string }) => h._index)).to.deep.equal(['mine']);
      });

      it('an msearch item out of reach fails on its own', async () => {
        const res = await as('POST', '/_msearch', ndjson([{ index: 'mine' }, { query: { match_all: {} } }, { index: 'other' }, { query: { match_all: {} } }]));
        expect(res.status).to.equal(200);
        expect(res.json.responses[0].status).to.equal(200);
        expect(res.json.responses[1].status).to.equal(403);
        expect(res.json.responses[1].error.type).to.equal('security_exception');
      });

      it('a data stream is its backing indices', async () => {
        expect((await admin('PUT', '/_index_template/logs', { index_patterns: ['logs-*'], data_stream: {} })).status).to.equal(200);
        expect((await admin('POST', '/logs-other/_doc?refresh=true', { '@timestamp': '2026-01-01T00:00:00Z', m: 'x' })).status).to.equal(201);
        expectRefused(await as('POST', '/logs-other/_search', {}), 'logs-other');
        expect((await as('POST', '/logs-mine/_doc?refresh=true', { '@timestamp': '2026-01-01T00:00:00Z', m: 'y' })).status).to.equal(201);
        const mine = await as('POST', '/logs-*/_search', {});
        expect(mine.status).to.equal(200);
        expect(mine.json.hits.hits.map((h: { _index: string }) => h._index)).to.have.length(1).and.to.satisfy((names: string[]) => names[0].startsWith('.ds-logs-mine-'));
      });

      it('a point in time: opening it, and searching one opened by someone else', async () => {
        expectRefused(await as('POST', '/other/_pit?keep_alive=1m'));
        const pit = await admin('POST', '/other/_pit?keep_alive=1m');
        expect(pit.status).to.equal(200);
        expectRefused(await as('POST', '/_search', { pit: { id: pit.json.id }, query: { match_all: {} } }));
      });

      it('the operation counts: a search needs read', async () => {
        const writeOnly: EngineAccess = { user: 'writer', indices: [{ names: ['mine'], ops: ['write'] }] };
        expectRefused(await as('POST', '/mine/_search', {}, writeOnly), 'mine');
      });

      it('_rank_eval reads its targets: out of reach refused, write rights are not enough', async () => {
        const body = { requests: [{ id: 'q', request: { query: { match_all: {} } }, ratings: [{ _index: 'mine', _id: '1', rating: 1 }] }], metric: { precision: {} } };
        expectRefused(await as('POST', '/other/_rank_eval', body));
        const writeOnly: EngineAccess = { user: 'writer', indices: [{ names: ['mine'], ops: ['write'] }] };
        expectRefused(await as('GET', '/mine/_rank_eval', body, writeOnly), 'mine');
        const res = await as('POST', '/mine/_rank_eval', body);
        expect([res.status, res.json.metric_score]).to.deep.equal([200, 1]);
      });

      it('date math names are checked as the indices they resolve to', async () => {
        for (const res of [await as('POST', `/${encodeURIComponent('<other-{now/d}>')}/_search`), await as('PUT', `/${encodeURIComponent('<other-{now/d}>')}/_doc/1`, { a: 1 })]) {
          expectRefused(res, 'other-');
          expect(res.json.error.reason).to.match(/\[other-\d{4}\.\d{2}\.\d{2}\]/);
        }
        const res = await as('PUT', `/${encodeURIComponent('<mine-{now/d}>')}/_doc/1?pipeline=_none`, { a: 1 });
        expect(res.status, JSON.stringify(res.json)).to.equal(201);
      });
    });

    describe('documents', () => {
      it('get, _source and mget items out of reach are refused', async () => {
        expectRefused(await as('GET', '/other/_doc/1'));
        expectRefused(await as('GET', '/mine-view/_doc/1'), 'mine-view');
        expectRefused(await as('GET', '/other/_source/1'));
        const mget = await as('POST', '/_mget', { docs: [{ _index: 'mine', _id: '1' }, { _index: 'other', _id: '1' }] });
        expect(mget.status).to.equal(200);
        expect(mget.json.docs[0].found).to.equal(true);
        expect(mget.json.docs[1].error.type).to.equal('security_exception');
      });

      it('a read-only caller may read but not write or delete', async () => {
        expect((await as('GET', '/mine/_doc/1', undefined, reader)).status).to.equal(200);
        expectRefused(await as('PUT', '/mine/_doc/2?pipeline=_none', { a: 1 }, reader), 'mine');
        expectRefused(await as('DELETE', '/mine/_doc/1', undefined, reader), 'mine');
      });

      it('the final _index of a write after the default pipeline is checked: index, create, POST', async () => {
        for (const target of ['other', '.gateway-credentials']) {
          expectRefused(await as('PUT', '/mine/_doc/x1', { target }), target);
          expectRefused(await as('PUT', '/mine/_create/x2', { target }), target);
          expectRefused(await as('POST', '/mine/_doc', { target }), target);
        }
        expect(await otherCount()).to.equal(1);
        expect((await admin('GET', '/.gateway-credentials/_doc/x1')).status).to.equal(404);
      });

      it('a request pipeline that moves a document elsewhere is checked', async () => {
        expectRefused(await as('PUT', '/plain/_doc/p1?pipeline=retarget', { target: 'other' }));
        expect(await otherCount()).to.equal(1);
      });

      it('a final pipeline runs on the final target: one that cannot re-target', async () => {
        expect((await admin('PUT', '/_ingest/pipeline/tag', { processors: [{ set: { field: 'tagged', value: true } }] })).status).to.equal(200);
        expect((await admin('PUT', '/mine-final', { settings: { 'index.final_pipeline': 'tag' } })).status).to.equal(200);
        const res = await as('PUT', '/mine/_doc/f1?refresh=true', { target: 'mine-final' });
        expect(res.status, JSON.stringify(res.json)).to.equal(201);
        expect(res.json._index).to.equal('mine-final');
      });

      it('a write through an alias whose write index is out of reach is refused', async () => {
        expectRefused(await as('PUT', '/mine-view/_doc/a1', { a: 1 }), 'mine-view');
        expectRefused(await as('POST', '/mine-view/_update/1', { doc: { a: 1 } }), 'mine-view');
        expectRefused(await as('POST', '/other/_update/1', { doc: { tags: ['changed'] } }));
        expectRefused(await as('DELETE', '/other/_doc/1'));
        expect((await admin('GET', '/other/_doc/1')).json._source.tags).to.deep.equal(['secret']);
      });

      it('a write that would create an index out of reach creates nothing', async () => {
        expectRefused(await as('PUT', '/other-new/_doc/1', { a: 1 }), 'other-new');
        expect((await admin('HEAD', '/other-new')).status).to.equal(404);
      });

      it('_bulk: the items out of reach fail, the others are written', async () => {
        const res = await as('POST', '/_bulk?refresh=true', ndjson([
          { index: { _index: 'mine', _id: 'b1' } }, { target: 'other' },
          { index: { _index: 'mine', _id: 'b2' } }, { target: 'mine' },
          { create: { _index: 'mine', _id: 'b3' } }, { target: '.gateway-credentials' },
          { index: { _index: 'other', _id: 'b4' } }, { a: 1 },
          { update: { _index: 'other', _id: '1' } }, { doc: { tags: ['changed'] } },
          { delete: { _index: 'other', _id: '1' } },
        ]));
        expect(res.status).to.equal(200);
        expect(res.json.errors).to.equal(true);
        const [b1, b2, b3, b4, upd, del] = res.json.items.map((i: Record<string, { status: number; error?: { type: string; reason: string } }>) => Object.values(i)[0]);
        expect(b2.status).to.equal(201);
        for (const failed of [b1, b3, b4, upd, del]) {
          expect(failed.status).to.equal(403);
          expect(failed.error!.type).to.equal('security_exception');
          expect(failed.error!.reason).to.contain('indices:data/write/bulk[s]');
        }
        expect(await otherCount()).to.equal(1);
        expect((await admin('GET', '/other/_doc/1')).json._source.tags).to.deep.equal(['secret']);
      });
    });

    describe('lookups inside a search are reads of their own', () => {
      it('terms lookup', async () => {
        expectRefused(await as('POST', '/mine/_search', { query: { terms: { tags: { index: 'other', id: '1', path: 'tags' } } } }));
        expectRefused(await as('POST', '/mine/_count', { query: { terms: { tags: { index: 'other', id: '1', path: 'tags' } } } }));
      });

      it('more_like_this `like` documents', async () => {
        expectRefused(await as('POST', '/mine/_search', { query: { more_like_this: { fields: ['text'], like: [{ _index: 'other', _id: '1' }], min_term_freq: 1, min_doc_freq: 1 } } }));
      });

      it('geo_shape indexed shapes', async () => {
        expectRefused(await as('POST', '/mine/_search', { query: { geo_shape: { shape: { indexed_shape: { index: 'other', id: '1', path: 'shape' } } } } }));
      });

      it('a lookup into a system index, even with rights on every index', async () => {
        expectRefused(await as('POST', '/mine/_search', { query: { terms: { tags: { index: '.gateway-credentials', id: 'admin', path: 'indices' } } } }, everything), '.gateway-credentials');
      });

      it('pinned docs only pin documents of the indices searched (no read elsewhere)', async () => {
        const res = await as('POST', '/mine/_search', { query: { pinned: { docs: [{ _index: 'other', _id: '1' }], organic: { match_all: {} } } } });
        expect(res.status).to.equal(200);
        expect(res.json.hits.hits.every((h: { _index: string }) => h._index !== 'other')).to.equal(true);
      });
    });

    describe('multi-index writes', () => {
      it('reindex: the source and the destination', async () => {
        expectRefused(await as('POST', '/_reindex?refresh=true', { source: { index: 'other' }, dest: { index: 'mine-copy' } }));
        const into = await as('POST', '/_reindex?refresh=true', { source: { index: 'mine' }, dest: { index: 'other', pipeline: '_none' } });
        // Elasticsearch's reindex runs its bulk as the user: each write fails on its own
        expect(into.status === 403 || into.json.failures?.length > 0, JSON.stringify(into.json)).to.equal(true);
        expect(await otherCount()).to.equal(1);
      });

      it('update and delete by query', async () => {
        expectRefused(await as('POST', '/other/_update_by_query', { query: { match_all: {} } }));
        expectRefused(await as('POST', '/other/_delete_by_query', { query: { match_all: {} } }));
        expectRefused(await as('POST', '/mine/_delete_by_query', { query: { match_all: {} } }, reader), 'mine');
        // the default pipeline moves each updated document: into another tenant's index, refused
        const moved = await as('POST', '/mine/_update_by_query', { query: { ids: { values: ['1'] } }, script: { source: "ctx._source.target = 'other'" } });
        expect(moved.status === 403 || moved.json.failures?.length > 0, JSON.stringify(moved.json)).to.equal(true);
        expect(await otherCount()).to.equal(1);
      });

      it('aliases: the indices and the alias names', async () => {
        expectRefused(await as('POST', '/_aliases', { actions: [{ add: { index: 'other', alias: 'mine-steal' } }] }));
        expectRefused(await as('POST', '/_aliases', { actions: [{ add: { index: 'mine', alias: 'other-alias' } }] }), 'other-alias');
        expectRefused(await as('PUT', '/other/_alias/mine-x'));
        expectRefused(await as('POST', '/_aliases', { actions: [{ remove_index: { index: 'other' } }] }));
        expect((await as('POST', '/_aliases', { actions: [{ add: { index: 'mine', alias: 'mine-alias' } }] })).status).to.equal(200);
      });

      it('resize: the source is read into the target', async () => {
        expect((await admin('PUT', '/other/_settings', { 'index.blocks.write': true })).status).to.equal(200);
        try {
          expectRefused(await as('POST', '/other/_clone/mine-clone'));
          expect((await admin('HEAD', '/mine-clone')).status).to.equal(404);
        } finally {
          await admin('PUT', '/other/_settings', { 'index.blocks.write': null });
        }
      });

      it('data streams: creation and deletion', async () => {
        expectRefused(await as('PUT', '/_data_stream/logs-other-2'), 'logs-other-2');
        expectRefused(await as('DELETE', '/_data_stream/logs-other'), 'logs-other');
        expect((await admin('GET', '/_data_stream/logs-other')).status).to.equal(200);
      });

      it('index creation: its name and the aliases of its body', async () => {
        expectRefused(await as('PUT', '/other-2', {}), 'other-2');
        expectRefused(await as('PUT', '/mine-2', { aliases: { 'other-alias': {} } }), 'other-alias');
        expect((await admin('HEAD', '/mine-2')).status).to.equal(404);
        expect((await as('PUT', '/mine-3', { aliases: { 'mine-3-alias': {} } })).status).to.equal(200);
      });
    });

    describe('index templates', () => {
      it("are changed and removed only when every index the stored ones apply to is the caller's", async () => {
        expect((await admin('PUT', '/_component_template/ct-other', { template: { settings: { number_of_replicas: 0 } } })).status).to.equal(200);
        expect((await admin('PUT', '/_index_template/t-other', { index_patterns: ['other*'], composed_of: ['ct-other'] })).status).to.equal(200);
        expect((await admin('PUT', '/_template/l-other', { index_patterns: ['other*'] })).status).to.equal(200);
        for (const [method, path, body] of [
          ['PUT', '/_index_template/t-other', { index_patterns: ['mine-t*'] }], ['DELETE', '/_index_template/t-other'], ['DELETE', '/_index_template/t-*'],
          ['DELETE', '/_index_template/mine-t,t-other'], ['PUT', '/_component_template/ct-other', { template: { settings: { number_of_replicas: 1 } } }],
          ['DELETE', '/_component_template/ct-*'], ['PUT', '/_template/l-other', { index_patterns: ['mine-l*'] }], ['DELETE', '/_template/l-other'],
        ] as const) {
          const res = await as(method, path, body);
          expect(res.status, `${method} ${path}: ${JSON.stringify(res.json)}`).to.equal(403);
        }
        expect((await admin('GET', '/_index_template/t-other')).json.index_templates[0].index_template.index_patterns).to.deep.equal(['other*']);
        expect((await admin('GET', '/_template/l-other')).json['l-other'].index_patterns).to.deep.equal(['other*']);
        // its own: put, changed, removed
        expect((await as('PUT', '/_index_template/mine-t', { index_patterns: ['mine-t*'] })).status).to.equal(200);
        expect((await as('PUT', '/_index_template/mine-t', { index_patterns: ['mine-u*'] })).status).to.equal(200);
        expect((await as('DELETE', '/_index_template/mine-t')).status).to.equal(200);
        expect((await as('PUT', '/_component_template/ct-mine', { template: { settings: { number_of_replicas: 0 } } })).status).to.equal(200);
      });
    });

    describe('system indices', () => {
      it('are never reachable with rights, even rights on `*`', async () => {
        expectRefused(await as('GET', '/.gateway-credentials/_doc/admin', undefined, everything), '.gateway-credentials');
        expectRefused(await as('PUT', '/.gateway-credentials/_doc/evil', { role: 'admin' }, everything), '.gateway-credentials');
        expectRefused(await as('POST', '/.gateway-credentials/_search', {}, everything), '.gateway-credentials');
        // a wildcard never expands to them
        const wild = await as('POST', '/.gateway-*,mine/_search', { query: { match_all: {} } }, everything);
        expect(wild.status).to.equal(200);
        expect(wild.json.hits.hits.every((h: { _index: string }) => !h._index.startsWith('.gateway-'))).to.equal(true);
      });
    });

    describe('without rights', () => {
      it('(the admin, the gateway itself) nothing is checked', async () => {
        const res = await admin('PUT', '/mine/_doc/admin1?refresh=true', { target: 'other' });
        expect(res.status).to.equal(201);
        expect(res.json._index).to.equal('other');
        expect((await admin('POST', '/mine,other/_search', {})).status).to.equal(200);
        expect((await admin('POST', '/mine/_search', { query: { terms: { tags: { index: 'other', id: '1', path: 'tags' } } } })).status).to.equal(200);
      });
    });
  });

  describe('through a gateway on the embedded engine', () => {
    let gw: TestGateway;
    let tenant: string;

    before(async () => {
      gw = await startTestGateway();
      expect((await gatewayCall(gw.url, 'PUT', '/_ingest/pipeline/retarget', { body: RETARGET })).status).to.equal(200);
      expect((await gatewayCall(gw.url, 'PUT', '/mine', { body: { settings: { 'index.default_pipeline': 'retarget' } } })).status).to.equal(200);
      expect((await gatewayCall(gw.url, 'PUT', '/other')).status).to.equal(200);
      expect((await gatewayCall(gw.url, 'PUT', '/other/_doc/1?refresh=true&pipeline=_none', { body: { tags: ['secret'] } })).status).to.equal(201);
      const cred = await gatewayCall(gw.url, 'POST', '/_credentials', { body: { indices: ['mine'], categories: ['docs', 'search'], ops: ['read', 'write'] } });
      expect(cred.status, cred.text).to.equal(201);
      tenant = basic(cred.json.credential.username, cred.json.password);
    });
    after(() => gw?.close());

    const otherCount = async () => (await gatewayCall(gw.url, 'GET', '/other/_count')).json.count as number;

    it('a tenant document re-targeted by the default pipeline is refused', async () => {
      for (const target of ['other', '.gateway-credentials']) {
        const res = await gatewayCall(gw.url, 'PUT', `/mine/_doc/t-${target}`, { auth: tenant, body: { target } });
        expect(res.status, res.text).to.equal(403);
        expect(res.json.error.type).to.equal('security_exception');
        expect(res.json.error.reason).to.match(target === 'other' ? REFUSED : REFUSED_OR_SYSTEM);
      }
      expect(await otherCount()).to.equal(1);
    });

    it('the same through _bulk: the re-targeted items fail, the others are written', async () => {
      const res = await gatewayCall(gw.url, 'POST', '/_bulk?refresh=true', {
        auth: tenant, headers: NDJSON,
        body: ndjson([{ index: { _index: 'mine', _id: 'k1' } }, { target: 'other' }, { index: { _index: 'mine', _id: 'k2' } }, { target: 'mine' }, { index: { _index: 'mine', _id: 'k3' } }, { target: '.gateway-credentials' }]),
      });
      if (res.status === 403) {
        expect(res.json.error.type).to.equal('security_exception'); // the gateway refused the whole request itself
      } else {
        expect(res.status, res.text).to.equal(200);
        const [k1, k2, k3] = res.json.items.map((i: { index: { status: number; error?: { type: string } } }) => i.index);
        expect(k1.status).to.equal(403);
        expect(k1.error!.type).to.equal('security_exception');
        expect(k2.status).to.equal(201);
        expect(k3.status).to.equal(403);
      }
      expect(await otherCount()).to.equal(1);
    });

    it('a terms lookup into another index from a search on the tenant index is refused', async () => {
      const res = await gatewayCall(gw.url, 'POST', '/mine/_search', { auth: tenant, body: { query: { terms: { tags: { index: 'other', id: '1', path: 'tags' } } } } });
      expect(res.status, res.text).to.equal(403);
      expect(res.json.error.type).to.equal('security_exception');
    });

    it('the admin path still works', async () => {
      const res = await gatewayCall(gw.url, 'PUT', '/mine/_doc/by-admin?refresh=true', { body: { target: 'other' } });
      expect(res.status, res.text).to.equal(201);
      expect(res.json._index).to.equal('other');
      expect(await otherCount()).to.equal(2);
      const lookup = await gatewayCall(gw.url, 'POST', '/mine/_search', { body: { query: { terms: { tags: { index: 'other', id: '1', path: 'tags' } } } } });
      expect(lookup.status, lookup.text).to.equal(200);
    });

    it('the tenant still reads and writes its own index', async () => {
      const put = await gatewayCall(gw.url, 'PUT', '/mine/_doc/own?refresh=true', { auth: tenant, body: { target: 'mine' } });
      expect(put.status, put.text).to.equal(201);
      const got = await gatewayCall(gw.url, 'GET', '/mine/_doc/own', { auth: tenant });
      expect(got.status, got.text).to.equal(200);
      const search = await gatewayCall(gw.url, 'POST', '/mine/_search', { auth: tenant, body: { query: { match_all: {} } } });
      expect(search.status, search.text).to.equal(200);
    });

    it('the metrics show the disagreement counter', async () => {
      const res = await gatewayCall(gw.url, 'GET', '/_gateway/metrics');
      if (res.status === 404) return; // metrics disabled in this configuration
      expect(res.text).to.contain('gateway_authorization_disagreements_total');
    });
  });
});
