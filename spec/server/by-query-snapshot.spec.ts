import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Elasticsearch's reference (update by query): the request takes a snapshot of the index when it
 * begins and updates the matching documents with internal versioning; a document changed between
 * the snapshot and its update is a version conflict — the operation fails on it, or counts it with
 * `conflicts=proceed`.
 */
for (const backend of BACKENDS) {
  describe(`by-query tasks work from their snapshot: documents changed after it are version conflicts (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(() => stop());

    async function fourDocuments(index: string): Promise<void> {
      await call(gw.url, 'DELETE', `/${index}`);
      for (const id of ['1', '2', '3', '4']) {
        const r = await call(gw.url, 'PUT', `/${index}/_doc/${id}`, { body: { n: Number(id) } });
        expect(r.status, r.text).to.equal(201);
      }
      await call(gw.url, 'POST', `/${index}/_refresh`);
    }

    /**
     * Starts a by-query request of one document a batch that waits years between batches, and
     * answers its task once it has done its first batch and waits on its throttle (the signal,
     * re-read; no sleep): its snapshot is taken, the documents of its later batches not written yet.
     */
    async function afterFirstBatch(path: string, body: unknown): Promise<string> {
      const started = await call(gw.url, 'POST', `${path}?wait_for_completion=false&scroll_size=1&requests_per_second=0.00000001`, { body });
      expect(started.status, started.text).to.equal(200);
      const task = started.json.task as string;
      for (;;) {
        const r = await call(gw.url, 'GET', `/_tasks/${task}`);
        expect(r.status, r.text).to.equal(200);
        if (r.json.task.status.throttled_until_millis > 0) return task;
      }
    }

    /** Lets the task go on at full speed, and answers its result. */
    async function resultOf(op: string, task: string): Promise<Record<string, any>> {
      const rethrottled = await call(gw.url, 'POST', `/${op}/${task}/_rethrottle?requests_per_second=-1`);
      expect(rethrottled.status, rethrottled.text).to.equal(200);
      const done = await call(gw.url, 'GET', `/_tasks/${task}?wait_for_completion=true`);
      expect(done.json.completed, done.text).to.equal(true);
      return done.json.response;
    }

    it('_update_by_query with conflicts=proceed counts a document updated and one deleted after its snapshot, and leaves them as written', async () => {
      await fourDocuments('snap');
      const task = await afterFirstBatch('/snap/_update_by_query', { conflicts: 'proceed', script: { source: 'ctx._source.n += 100' } });
      expect((await call(gw.url, 'PUT', '/snap/_doc/3', { body: { n: 30 } })).status).to.equal(200);
      expect((await call(gw.url, 'DELETE', '/snap/_doc/4')).status).to.equal(200);
      const response = await resultOf('_update_by_query', task);
      expect(response).to.deep.include({ total: 4, updated: 2, version_conflicts: 2, failures: [] });
      await call(gw.url, 'POST', '/snap/_refresh');
      const docs = await call(gw.url, 'POST', '/snap/_search', { body: { sort: [{ n: 'asc' }] } });
      expect(docs.json.hits.hits.map((h: { _id: string; _source: { n: number } }) => [h._id, h._source.n])).to.deep.equal([['3', 30], ['1', 101], ['2', 102]]);
    });

    it('_update_by_query (conflicts=abort, the default) fails on the first document changed after its snapshot', async () => {
      await fourDocuments('snap-abort');
      const task = await afterFirstBatch('/snap-abort/_update_by_query', { script: { source: 'ctx._source.n += 100' } });
      expect((await call(gw.url, 'PUT', '/snap-abort/_doc/2', { body: { n: 20 } })).status).to.equal(200);
      const response = await resultOf('_update_by_query', task);
      expect(response).to.deep.include({ total: 4, updated: 1, version_conflicts: 1 });
      expect(response.failures).to.have.length(1);
      expect(response.failures[0]).to.deep.include({ index: 'snap-abort', id: '2', status: 409 });
      expect(response.failures[0].cause.type).to.equal('version_conflict_engine_exception');
    });

    it('_delete_by_query with conflicts=proceed counts a document updated after its snapshot and keeps it', async () => {
      await fourDocuments('snap-delete');
      const task = await afterFirstBatch('/snap-delete/_delete_by_query', { conflicts: 'proceed', query: { match_all: {} } });
      expect((await call(gw.url, 'PUT', '/snap-delete/_doc/3', { body: { n: 30 } })).status).to.equal(200);
      const response = await resultOf('_delete_by_query', task);
      expect(response).to.deep.include({ total: 4, deleted: 3, version_conflicts: 1, failures: [] });
      await call(gw.url, 'POST', '/snap-delete/_refresh');
      const left = await call(gw.url, 'POST', '/snap-delete/_search');
      expect(left.json.hits.hits.map((h: { _id: string; _source: { n: number } }) => [h._id, h._source.n])).to.deep.equal([['3', 30]]);
    });
  });
}
