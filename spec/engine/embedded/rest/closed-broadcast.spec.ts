import { expect } from 'chai';
import { call } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
 * Elasticsearch's broadcast and field-reading actions that forbid closed indices (`_stats`,
 * `_refresh`, `_flush`, `_field_caps`, `_validate/query`; `strictExpandOpenAndForbidClosed`): a
 * closed index named is the request's index_closed_exception, and `ignore_unavailable=true` leaves
 * it out as it leaves out a missing index — the answer is then the open indices' alone.
 */
for (const backend of BACKENDS) {
  describe(`closed indices in broadcast actions, with and without ignore_unavailable (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await call(url, 'PUT', '/open-one', { body: { settings: { number_of_replicas: 0 }, mappings: { properties: { a: { type: 'keyword' } } } } })).status).to.equal(200);
      expect((await call(url, 'PUT', '/open-one/_doc/1?refresh=true', { body: { a: 'x' } })).status).to.equal(201);
      expect((await call(url, 'PUT', '/shut', { body: { mappings: { properties: { b: { type: 'keyword' } } } } })).status).to.equal(200);
      expect((await call(url, 'POST', '/shut/_close')).status).to.equal(200);
    });
    after(() => stop());

    const refused = [
      ['GET', '/shut/_stats'], ['POST', '/shut/_refresh'], ['POST', '/shut/_flush'],
      ['GET', '/shut/_field_caps?fields=*'], ['GET', '/shut/_validate/query?q=b:x'],
    ] as const;
    for (const [method, path] of refused) {
      it(`${method} ${path}: index_closed_exception`, async () => {
        const r = await call(url, method, path);
        expect(r.status, r.text).to.equal(400);
        expect(r.json.error.type).to.equal('index_closed_exception');
        expect(r.json.error.index).to.equal('shut');
      });
    }

    it('_stats?ignore_unavailable=true: the closed index left out', async () => {
      const alone = await call(url, 'GET', '/shut/_stats?ignore_unavailable=true');
      expect(alone.status, alone.text).to.equal(200);
      expect(alone.json._shards).to.deep.equal({ total: 0, successful: 0, failed: 0 });
      expect(alone.json.indices).to.deep.equal({});
      const both = await call(url, 'GET', '/shut,open-one/_stats/docs?ignore_unavailable=true');
      expect(Object.keys(both.json.indices)).to.deep.equal(['open-one']);
      expect(both.json._all.primaries.docs.count).to.equal(1);
    });

    it('_refresh and _flush with ignore_unavailable=true: no shard of the closed index counted', async () => {
      for (const action of ['_refresh', '_flush']) {
        const alone = await call(url, 'POST', `/shut/${action}?ignore_unavailable=true`);
        expect(alone.status, alone.text).to.equal(200);
        expect(alone.json._shards).to.deep.equal({ total: 0, successful: 0, failed: 0 });
        const both = await call(url, 'POST', `/shut,open-one/${action}?ignore_unavailable=true`);
        expect(both.json._shards, action).to.deep.equal({ total: 1, successful: 1, failed: 0 });
      }
    });

    it('_field_caps?ignore_unavailable=true: only the open index\'s fields', async () => {
      const alone = await call(url, 'GET', '/shut/_field_caps?fields=b&ignore_unavailable=true');
      expect(alone.status, alone.text).to.equal(200);
      expect(alone.json).to.deep.equal({ indices: [], fields: {} });
      const both = await call(url, 'GET', '/shut,open-one/_field_caps?fields=a,b&ignore_unavailable=true');
      expect(both.json.indices).to.deep.equal(['open-one']);
      expect(Object.keys(both.json.fields)).to.deep.equal(['a']);
    });

    it('_cluster/health: a closed index keeps its shards (allocated since Elasticsearch 7.2), expand_wildcards picks the states', async () => {
      const health = async (q: string) => (await call(url, 'GET', `/_cluster/health/open-one,shut*?level=indices&${q}`)).json;
      const both = await health('expand_wildcards=all');
      expect(both.active_primary_shards).to.equal(2);
      expect(Object.keys(both.indices).sort()).to.deep.equal(['open-one', 'shut']);
      expect(both.indices.shut).to.include({ number_of_shards: 1, active_primary_shards: 1, active_shards: 1 });
      const closedOnly = await health('expand_wildcards=closed');
      expect(Object.keys(closedOnly.indices).sort()).to.deep.equal(['open-one', 'shut']);
      const openOnly = await health('expand_wildcards=open');
      expect(Object.keys(openOnly.indices)).to.deep.equal(['open-one']);
      expect(openOnly.active_shards).to.equal(1);
      const named = (await call(url, 'GET', '/_cluster/health/shut')).json;
      expect(named).to.include({ active_primary_shards: 1, timed_out: false });
    });

    it('_validate/query?ignore_unavailable=true: validated against the open indices', async () => {
      const r = await call(url, 'GET', '/shut,open-one/_validate/query?q=a:x&ignore_unavailable=true');
      expect(r.status, r.text).to.equal(200);
      expect(r.json.valid).to.equal(true);
    });
  });
}
