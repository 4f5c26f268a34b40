import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';

const ids = (m: Array<{ _id: string }>) => m.map((x) => x._id).sort();

for (const backend of BACKENDS) {
  describe(`background tasks and _reindex through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      for (const [id, title] of [['1', 'emma'], ['2', 'persuasion'], ['3', 'emma again']]) {
        await call(gw.url, 'PUT', `/books/_doc/${id}`, { body: { title, year: 1815 } });
      }
      await call(gw.url, 'POST', '/books/_refresh');
    });
    after(() => stop());

    it('a live search on the destination sees the documents a background _reindex copies (with its script)', async () => {
      await call(gw.url, 'PUT', '/shelf', { body: { mappings: { properties: { title: { type: 'text' } } } } });
      const s = await openStream(gw.url, '/shelf/_search?stream=true', { method: 'POST', body: { query: { match: { title: 'emma' } } } });
      try {
        await s.until((m) => m.length === 1);
        expect(s.messages[0].hits.hits).to.deep.equal([]);
        const started = await call(gw.url, 'POST', '/_reindex?wait_for_completion=false', {
          body: { source: { index: 'books' }, dest: { index: 'shelf' }, script: { source: "ctx._source.copied = true" } },
        });
        expect(started.status, started.text).to.equal(200);
        expect(started.json.task).to.match(/^.+:\d+$/);
        await s.until((m) => m.length === 3);
        expect(ids(s.messages.slice(1))).to.deep.equal(['1', '3']);
        for (const m of s.messages.slice(1)) expect(m._source.copied).to.equal(true);
        const done = await call(gw.url, 'GET', `/_tasks/${started.json.task}?wait_for_completion=true`);
        expect(done.json.completed).to.equal(true);
        expect(done.json.response).to.include({ total: 3, created: 3, updated: 0 });
      } finally {
        s.close();
      }
    });

    it('a synchronous _reindex into a streamed index publishes its writes too', async () => {
      await call(gw.url, 'PUT', '/copy');
      const s = await openStream(gw.url, '/copy/_search?stream=true', { method: 'POST', body: { query: { match_all: {} } } });
      try {
        await s.until((m) => m.length === 1);
        const done = await call(gw.url, 'POST', '/_reindex', { body: { source: { index: 'books', query: { term: { _id: '2' } } }, dest: { index: 'copy' } } });
        expect(done.status, done.text).to.equal(200);
        expect(done.json.created).to.equal(1);
        await s.until((m) => m.length === 2);
        expect(s.messages[1]).to.deep.include({ _id: '2' });
      } finally {
        s.close();
      }
    });

    it('an _update_by_query with wait_for_completion=false reaches live searches once its task has done the work', async () => {
      const s = await openStream(gw.url, '/books/_search?stream=true', { method: 'POST', body: { query: { match: { title: 'persuasion' } } } });
      try {
        await s.until((m) => m.length === 1);
        const started = await call(gw.url, 'POST', '/books/_update_by_query?wait_for_completion=false', {
          body: { query: { term: { _id: '2' } }, script: { source: 'ctx._source.year = 1817' } },
        });
        expect(started.status, started.text).to.equal(200);
        await s.until((m) => m.length === 2);
        expect(s.messages[1]).to.deep.include({ _id: '2', _updated: true });
        expect(s.messages[1]._source.year).to.equal(1817);
      } finally {
        s.close();
      }
    });

    it('a background by-query on a missing index answers its task, which holds the index_not_found error (as the indices are resolved in the task)', async () => {
      for (const op of ['_update_by_query', '_delete_by_query']) {
        const started = await call(gw.url, 'POST', `/nowhere/${op}?wait_for_completion=false&conflicts=proceed`, { body: { query: { match_all: {} } } });
        expect(started.status, started.text).to.equal(200);
        expect(started.json.task).to.match(/^.+:\d+$/);
        const done = await call(gw.url, 'GET', `/_tasks/${started.json.task}?wait_for_completion=true`);
        expect(done.json.completed, done.text).to.equal(true);
        expect(done.json.error).to.deep.include({ type: 'index_not_found_exception', reason: 'no such index [nowhere]' });
        const rethrottled = await call(gw.url, 'POST', `/${op}/${started.json.task}/_rethrottle?requests_per_second=10`);
        expect(rethrottled.status, rethrottled.text).to.equal(200);
      }
      const waited = await call(gw.url, 'POST', '/nowhere/_update_by_query', { body: { query: { match_all: {} } } });
      expect(waited.status).to.equal(404);
      expect(waited.json.error.type).to.equal('index_not_found_exception');
    });

    it('the task API is refused to scoped credentials (another tenant\'s task results), allowed to the admin', async () => {
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['docs', 'search', 'cluster'], ops: ['read', 'write'] } });
      const scoped = basic(cred.json.credential.username, cred.json.password);
      const started = await call(gw.url, 'POST', '/books/_update_by_query?wait_for_completion=false', { body: { query: { match_all: {} } } });
      const task = started.json.task as string;
      for (const [method, path] of [['GET', `/_tasks/${task}`], ['GET', '/_tasks'], ['GET', '/_cat/tasks'], ['POST', `/_tasks/${task}/_cancel`], ['POST', `/_update_by_query/${task}/_rethrottle?requests_per_second=-1`]]) {
        const r = await call(gw.url, method, path, { auth: scoped });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(403);
        expect(r.json.error.type).to.equal('security_exception');
      }
      const admin = await call(gw.url, 'GET', `/_tasks/${task}?wait_for_completion=true`);
      expect(admin.status, admin.text).to.equal(200);
      expect(admin.json.response.total).to.equal(3);
    });
  });
}
