import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * OpenSearch 2's forms of routes and parameters the engine serves (its API specification's test
 * stories call them), through the gateway on both backends: what they answer, and that a scoped
 * credential is refused what it has no right to.
 */
for (const backend of BACKENDS) {
  describe(`gateway (${backend.name}): OpenSearch 2's routes and parameters`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let aOnly: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      for (const index of ['a1', 'b1']) expect((await call(gw.url, 'PUT', `/${index}`)).status).to.equal(200);
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['a*'], categories: ['indices', 'search'], ops: ['read', 'write'] } });
      aOnly = basic(cred.json.credential.username, cred.json.password);
    });
    after(() => stop());

    it('put alias with the index, the alias or both in the body; the body names replace the path names', async () => {
      for (const [method, path, body] of [
        ['PUT', '/a1/_alias', { alias: 'a-one' }],
        ['POST', '/a1/_aliases', { alias: 'a-two', is_write_index: true }],
        ['PUT', '/_alias/a-three', { index: 'a1' }],
        ['PUT', '/_alias', { index: 'a1', alias: 'a-four' }],
        ['POST', '/_aliases/a-five', { index: 'a1' }],
        ['PUT', '/_aliases/a-six', { index: 'a1' }],
      ] as const) {
        const r = await call(gw.url, method, path, { body });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(200);
        expect(r.json).to.deep.equal({ acknowledged: true });
      }
      const aliases = await call(gw.url, 'GET', '/a1/_alias');
      expect(Object.keys(aliases.json.a1.aliases).sort()).to.deep.equal(['a-five', 'a-four', 'a-one', 'a-six', 'a-three', 'a-two']);
      const missing = await call(gw.url, 'PUT', '/_alias', { body: { alias: 'a-seven' } });
      expect(missing.status).to.equal(400);
      expect(missing.json.error.reason).to.equal('Validation Failed: 1: One of [index] or [indices] is required;');
    });

    it('a credential scoped to a* is refused an alias on b1 named in the body, and an alias name it does not reach', async () => {
      expect((await call(gw.url, 'PUT', '/a1/_alias', { auth: aOnly, body: { alias: 'a-mine' } })).status).to.equal(200);
      for (const [path, body] of [
        ['/_alias/a-theirs', { index: 'b1' }],
        ['/a1/_alias/a-x', { index: 'b1' }],
        ['/_alias', { index: 'b1', alias: 'a-y' }],
        ['/a1/_alias', { alias: 'b-alias' }],
        // a member put alias does not take is not read for the index it names (the engine refuses it): refused, never forwarded
        ['/_aliases/a-z', { source: { index: 'b1' }, dest: { index: 'a1' } }],
      ] as const) {
        const r = await call(gw.url, 'PUT', path, { auth: aOnly, body });
        expect(r.status, `${path} ${JSON.stringify(body)}: ${r.text}`).to.equal(403);
      }
      const post = await call(gw.url, 'POST', '/_aliases/a-theirs', { auth: aOnly, body: { index: 'b1' } });
      expect(post.status, post.text).to.equal(403);
      expect(Object.keys((await call(gw.url, 'GET', '/b1/_alias')).json.b1.aliases)).to.deep.equal([]);
    });

    it('GET /_mapping?index= reads the indices the parameter names; a scoped credential is refused another tenant\'s', async () => {
      const own = await call(gw.url, 'GET', '/_mapping?index=a1');
      expect(own.status, own.text).to.equal(200);
      expect(Object.keys(own.json)).to.deep.equal(['a1']);
      expect(Object.keys((await call(gw.url, 'GET', '/_mappings?index=a1,b1')).json).sort()).to.deep.equal(['a1', 'b1']);
      expect((await call(gw.url, 'GET', '/_mapping?index=a1', { auth: aOnly })).status).to.equal(200);
      for (const index of ['b1', 'a1,b1', '*']) {
        const r = await call(gw.url, 'GET', `/_mapping?index=${index}`, { auth: aOnly });
        expect(r.status, `${index}: ${r.text}`).to.equal(403);
      }
    });

    it('cache clearing with file, force merge with primary_only, opening with wait_for_completion=false', async () => {
      expect((await call(gw.url, 'POST', '/_cache/clear?file=true')).json._shards.failed).to.equal(0);
      expect((await call(gw.url, 'POST', '/a1/_cache/clear?file=yes')).json.error.reason).to.equal('Failed to parse value [yes] as only [true] or [false] are allowed.');
      expect((await call(gw.url, 'POST', '/_forcemerge?primary_only=true')).status).to.equal(200);
      expect((await call(gw.url, 'POST', '/a1/_close')).status).to.equal(200);
      const opened = await call(gw.url, 'POST', '/a1/_open?wait_for_completion=false');
      expect(opened.status, opened.text).to.equal(200);
      const task = await call(gw.url, 'GET', `/_tasks/${opened.json.task}?wait_for_completion=true`);
      expect(task.json.completed, task.text).to.equal(true);
      expect(task.json.response).to.deep.equal({ acknowledged: true, shards_acknowledged: true });
      expect((await call(gw.url, 'GET', '/a1/_search')).status).to.equal(200);
    });

    it('_list/indices and _list/shards show a scoped credential its indices only; allocation explain and nodes usage are refused it', async () => {
      const mine = await call(gw.url, 'GET', '/_list/indices?format=json&h=index', { auth: aOnly });
      expect(mine.status, mine.text).to.equal(200);
      expect(mine.json).to.deep.equal({ next_token: null, indices: [{ index: 'a1' }] });
      expect((await call(gw.url, 'GET', '/_list/indices/b1', { auth: aOnly })).status).to.equal(403);
      const shards = await call(gw.url, 'GET', '/_list/shards?format=json&h=index', { auth: aOnly });
      expect(new Set(shards.json.shards.map((s: { index: string }) => s.index))).to.deep.equal(new Set(['a1']));
      const all = await call(gw.url, 'GET', '/_list/indices?format=json&h=index');
      expect(all.json.indices.map((i: { index: string }) => i.index)).to.include.members(['a1', 'b1']);
      expect((await call(gw.url, 'GET', '/_list')).text.split('\n')[0]).to.equal('=^.^=');
      for (const [method, path, body] of [
        ['GET', '/_cluster/allocation/explain', undefined],
        ['POST', '/_cluster/allocation/explain', { index: 'a1', shard: 0, primary: true }],
        ['GET', '/_nodes/usage', undefined],
        ['GET', '/_nodes/_all/usage/rest_actions', undefined],
        ['GET', '/_nodes/hot_threads', undefined],
        ['GET', '/_dangling', undefined],
      ] as const) {
        expect((await call(gw.url, method, path, { auth: aOnly, body })).status, `${method} ${path}`).to.equal(403);
      }
      const explained = await call(gw.url, 'POST', '/_cluster/allocation/explain', { body: { index: 'b1', shard: 0, primary: false } });
      expect(explained.json).to.include({ index: 'b1', current_state: 'unassigned' });
      expect((await call(gw.url, 'GET', '/_nodes/_all/usage/_all')).status).to.equal(200);
      const hot = await call(gw.url, 'GET', '/_nodes/hot_threads');
      expect(hot.headers['content-type']).to.match(/^text\/plain/);
      expect(hot.text).to.match(/^::: /);
    });

    it("OpenSearch's deprecated _cluster/nodes spellings of hot threads answer as _nodes/hot_threads", async () => {
      for (const path of ['/_cluster/nodes/hot_threads?threads=1', '/_cluster/nodes/hotthreads', '/_cluster/nodes/_all/hot_threads', '/_cluster/nodes/_local/hotthreads']) {
        const r = await call(gw.url, 'GET', path);
        expect([r.status, r.headers['content-type']?.toString().split(';')[0]], `${path}: ${r.text}`).to.deep.equal([200, 'text/plain']);
        expect(r.text).to.match(/^::: /);
      }
    });

    it('cluster health by awareness attribute', async () => {
      const r = await call(gw.url, 'GET', '/_cluster/health?level=awareness_attributes&awareness_attribute=zone');
      expect(r.status, r.text).to.equal(200);
      expect(r.json.awareness_attributes).to.deep.equal({ zone: {} });
      const wrong = await call(gw.url, 'GET', '/_cluster/health?awareness_attribute=zone');
      expect(wrong.status).to.equal(400);
      expect(wrong.json.error.reason).to.equal('Validation Failed: 1: level=awareness_attributes is required with awareness_attribute parameter;');
    });

    it("resize with OpenSearch's copy_settings: true (or empty) copies the settings, false is refused before anything else", async () => {
      const created = await call(gw.url, 'PUT', '/a-src', { body: { settings: { 'index.number_of_shards': 2, 'index.max_result_window': 500, 'index.blocks.write': true } } });
      expect(created.status, created.text).to.equal(200);
      for (const [path, body] of [['/a-src/_shrink/a-shrunk?copy_settings=true', {}], ['/a-src/_clone/a-cloned?copy_settings', {}], ['/a-src/_split/a-split?copy_settings=true', { settings: { 'index.number_of_shards': 4 } }]] as const) {
        const r = await call(gw.url, 'POST', path, { body });
        expect(r.status, `${path}: ${r.text}`).to.equal(200);
        const target = path.split('/')[3].split('?')[0];
        const settings = await call(gw.url, 'GET', `/${target}/_settings/index.max_result_window?flat_settings=true`);
        expect(settings.json[target].settings['index.max_result_window'], target).to.equal('500');
      }
      // named at all, copy_settings is deprecated: OpenSearch's warning to an OpenSearch client, Elasticsearch's (7.x compatibility) to others
      const openSearch = await call(gw.url, 'POST', '/a-src/_clone/a-os-cloned?copy_settings=true', { headers: { 'user-agent': 'opensearch-js/2.13.0 (linux; Node.js v20)' } });
      expect(openSearch.status, openSearch.text).to.equal(200);
      expect(openSearch.headers.warning).to.match(/^299 OpenSearch-2\.19\.0-[0-9a-f]+ "parameter \[copy_settings\] is deprecated and will be removed in 3\.0\.0"$/);
      const elastic = await call(gw.url, 'POST', '/a-src/_clone/a-es-cloned?copy_settings');
      expect(elastic.headers.warning).to.match(/^299 Elasticsearch-8\.[0-9.]+-[0-9a-f]+ "parameter \[copy_settings\] is deprecated and will be removed in 8\.0\.0"$/);
      const unnamed = await call(gw.url, 'POST', '/a-src/_clone/a-plain-cloned', { headers: { 'user-agent': 'opensearch-js/2.13.0 (linux; Node.js v20)' } });
      expect(unnamed.status, unnamed.text).to.equal(200);
      expect(unnamed.headers).to.not.have.property('warning');
      for (const path of ['/a-src/_shrink/a-other?copy_settings=false', '/no-such-index/_clone/a-other?copy_settings=false']) {
        const r = await call(gw.url, 'POST', path);
        expect([r.status, r.json.error.reason], path).to.deep.equal([400, 'parameter [copy_settings] can not be explicitly set to [false]']);
      }
      const theirs = await call(gw.url, 'POST', '/b1/_clone/a-stolen?copy_settings=true', { auth: aOnly });
      expect(theirs.status, theirs.text).to.equal(403);
    });

    it('search.phase_took_enabled answers every search its phase times; a search\'s own phase_took wins', async () => {
      const set = await call(gw.url, 'PUT', '/_cluster/settings', { body: { transient: { 'search.phase_took_enabled': true } } });
      expect(set.status, set.text).to.equal(200);
      try {
        expect((await call(gw.url, 'POST', '/a1/_search', { body: {} })).json).to.have.property('phase_took');
        expect((await call(gw.url, 'POST', '/a1/_search?phase_took=false', { body: {} })).json).to.not.have.property('phase_took');
        const multi = await call(gw.url, 'POST', '/_msearch', { headers: { 'content-type': 'application/x-ndjson' }, body: '{"index":"a1"}\n{}\n{"index":"a1","phase_took":false}\n{}\n' });
        expect(multi.json.responses.map((r: Record<string, unknown>) => 'phase_took' in r)).to.deep.equal([true, false]);
      } finally {
        await call(gw.url, 'PUT', '/_cluster/settings', { body: { transient: { 'search.phase_took_enabled': null } } });
      }
      expect((await call(gw.url, 'POST', '/a1/_search', { body: {} })).json).to.not.have.property('phase_took');
    });

    it("multi search: cancel_after_time_interval on the URL, cancel_after_time_interval and phase_took in a header (and a search template's URL); a scoped credential still reads its own only", async () => {
      const ndjson = { 'content-type': 'application/x-ndjson' };
      const body = '{"index":"a1","cancel_after_time_interval":"5s","phase_took":true}\n{"size":0}\n{"index":"a1"}\n{"size":0}\n';
      const r = await call(gw.url, 'POST', '/_msearch?cancel_after_time_interval=10s', { headers: ndjson, body });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.responses.map((x: { status: number }) => x.status)).to.deep.equal([200, 200]);
      expect(Object.keys(r.json.responses[0].phase_took).sort()).to.deep.equal(['can_match', 'dfs_pre_query', 'dfs_query', 'expand', 'fetch', 'query']);
      expect(r.json.responses[1]).to.not.have.property('phase_took');
      const single = await call(gw.url, 'POST', '/a1/_search/template?cancel_after_time_interval=10s&phase_took=true', { body: { source: { size: 0 } } });
      expect(single.status, single.text).to.equal(200);
      expect(single.json).to.have.property('phase_took');
      expect((await call(gw.url, 'POST', '/a1/_search/template?cancel_after_time_interval=soon', { body: { source: { size: 0 } } })).status).to.equal(400);
      const template = await call(gw.url, 'POST', '/_msearch/template', { headers: ndjson, body: '{"index":"a1","phase_took":true,"cancel_after_time_interval":"-1"}\n{"source":{"size":0}}\n' });
      expect(template.status, template.text).to.equal(200);
      expect(template.json.responses[0]).to.have.property('phase_took');
      for (const [path, text] of [
        ['/_msearch?cancel_after_time_interval=soon', '{"index":"a1"}\n{}\n'],
        ['/_msearch', '{"index":"a1","cancel_after_time_interval":"soon"}\n{}\n'],
        ['/_msearch', '{"index":"a1","phase_took":"maybe"}\n{}\n'],
      ] as const) {
        const bad = await call(gw.url, 'POST', path, { headers: ndjson, body: text });
        expect([bad.status, bad.json.error.type], `${path} ${text}: ${bad.text}`).to.deep.equal([400, 'illegal_argument_exception']);
      }
      const own = await call(gw.url, 'POST', '/_msearch?cancel_after_time_interval=10s', { auth: aOnly, headers: ndjson, body: '{"index":"a1","phase_took":true}\n{}\n' });
      expect([own.status, own.json.responses[0].status], own.text).to.deep.equal([200, 200]);
      const theirs = await call(gw.url, 'POST', '/_msearch?cancel_after_time_interval=10s', { auth: aOnly, headers: ndjson, body: '{"index":"b1","phase_took":true}\n{}\n' });
      expect(theirs.status, theirs.text).to.equal(403);
    });
  });
}
