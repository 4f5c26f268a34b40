import { expect } from 'chai';
import fc from 'fast-check';
import type { EngineAccess } from '../../lib/engine/backend.js';
import { openEmbeddedEngine, type EmbeddedEngine } from '../../lib/engine/embedded/index.js';
import { authorizationDisagreementCount } from '../../lib/metrics/index.js';
import { tempDir } from '../engine/embedded/support.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON, type Reply } from '../support/http.js';

/**
 * Hostile-tenant review of the engine APIs added together: search profiling (`profile: true` on
 * `_search` and `_msearch` lines), the shard-level monitoring APIs (`_segments`, `_recovery`,
 * `_shard_stores`, OpenSearch's `_upgrade`), queries on `_seq_no` and the `missing` aggregation's
 * `missing` value and script. A credential for `mine*` (read, field rules hiding `secret`) must
 * learn nothing of `other-*`, of `.gateway-*` or of the hidden field through any of them, on
 * both backends; every refusal is an Elasticsearch-shaped 4xx.
 */

/** Cases: FAST_CHECK_RUNS (default 150 per backend, fixed seed FAST_CHECK_SEED); `npm run fuzz:tenancy` runs more. */
const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 150);
const SEED = Number(process.env.FAST_CHECK_SEED ?? 3737);
const SECRET = 'sesame-7f3';
const FOREIGN = ['other-1', '.gateway-', 'other-ds'];

/** No foreign index name, no hidden value, and never a 5xx; a refusal is Elasticsearch-shaped. */
function expectNothingForeign(res: Reply, what: string): void {
  expect(res.status, `${what} → ${res.status} ${res.text}`).to.be.below(500);
  // a refusal may repeat what the request named itself, nothing more
  const named = (name: string) => res.status >= 400 && decoded(what).includes(name.replace(/-$/, ''));
  for (const name of FOREIGN) if (!named(name)) expect(res.text, `${what} names ${name}: ${res.text}`).not.to.contain(name);
  expect(res.text, `${what} tells the hidden value: ${res.text}`).not.to.contain(SECRET);
  if (res.status >= 400 && res.status !== 405 && res.text) {
    expect(res.json?.error?.type, `${what}: ${res.text}`).to.be.a('string');
    expect(res.json?.status, `${what}: ${res.text}`).to.equal(res.status);
  }
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Spellings of an index list a tenant may try in a path, with `X` the foreign index. */
const INDEX_SPELLINGS = ['', '/', '/_all', '/*', '/other-1', '/mine-1,other-1', '/mine-1%2Cother-1', '/mine-1%2cother-1', '/other*', '/*,-mine-1',
  '/%2A', '/.gateway-*', '/mine-1,.gateway-*', '/_all,other-1', '/<other-{now/d}>', '/%3Cother-%7Bnow%2Fd%7D%3E', '/mine-alias-to-other', '/_ALL', '/other-ds', '/.ds-*', '/mine-1/../other-1', '/mine-1/%2E%2E/other-1', '/_data_stream/other-ds',
  '/remote:other-1', '/*:*', '/mine-1,*:other-1', '/*,-mine*', '/-other-1', '/mine-1,-*,other-1', '/mine-1,_all', '/mine-1,,other-1', '/%20other-1', '/mine-1%2C%20other-1', '/mine-?', '/other-%2A', '/_all%2Cother-1'];
const SHARD_ENDPOINTS = ['_segments', '_recovery', '_shard_stores', '_upgrade'];
const SPELL_ENDPOINT = (e: string) => [e, `%5F${e.slice(1)}`, `%5f${e.slice(1)}`];
const SMUGGLED = ['', '/other-1', '/../other-1', '?index=other-1', '?status=all', '?status=all&index=other-1', '?source=%7B%7D', '?%73ource=x', '?ignore_unavailable=true&ignore_unavailable=false',
  '?expand_wildcards=all', '?expand_wildcards=all,hidden', '?allow_no_indices=false', '?unknown_param=1', '?detailed=true&active_only=false'];

describe('the shard-level APIs on the engine alone: its second line checks them as the gateway\'s table does', function () {
  this.timeout(60_000);
  let engine: EmbeddedEngine;
  let remove: () => Promise<void>;
  const reader: EngineAccess = { user: 'reader', indices: [{ names: ['mine*'], ops: ['read'] }] };
  const writer: EngineAccess = { user: 'writer', indices: [{ names: ['mine*'], ops: ['read', 'write'] }] };
  const send = async (method: string, path: string, access?: EngineAccess, body?: string) => {
    const res = await engine.request({ method, path, headers: { 'content-type': 'application/x-ndjson' }, body, access });
    const text = (res.body as Buffer | undefined)?.toString('utf8') ?? '';
    return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
  };

  before(async () => {
    const dir = await tempDir();
    remove = dir.remove;
    engine = await openEmbeddedEngine({ dataDir: dir.dir });
    await send('POST', '/_bulk', undefined, '{"index":{"_index":"mine-1","_id":"1"}}\n{"f":"a"}\n{"index":{"_index":"other-1","_id":"1"}}\n{"f":"x"}\n');
    await send('POST', '/_refresh');
  });
  after(async () => {
    await engine.close();
    await remove();
  });

  it('a named foreign index is refused with Elasticsearch\'s monitoring action; a wildcard is narrowed and counted', async () => {
    for (const [endpoint, action] of [['_segments', 'indices:monitor/segments'], ['_recovery', 'indices:monitor/recovery'], ['_shard_stores', 'indices:monitor/shard_stores'], ['_upgrade', 'indices:monitor/upgrade']]) {
      const named = await send('GET', `/other-1/${endpoint}`, reader);
      expect(named.status, named.text).to.equal(403);
      expect(named.json.error.reason).to.equal(`action [${action}] is unauthorized for user [reader] on indices [other-1]`);
      const before = await authorizationDisagreementCount();
      const every = await send('GET', `/${endpoint}${endpoint === '_shard_stores' ? '?status=all' : ''}`, reader);
      expect(every.status, every.text).to.equal(200);
      expect(every.text).to.contain('mine-1');
      expect(every.text).not.to.contain('other-1');
      expect((await authorizationDisagreementCount()) - before).to.equal(1);
    }
  });

  it('POST _upgrade is a write (indices:admin/upgrade): refused to a reader, done for a writer', async () => {
    const refused = await send('POST', '/mine-1/_upgrade', reader);
    expect(refused.status, refused.text).to.equal(403);
    expect(refused.json.error.reason).to.equal('action [indices:admin/upgrade] is unauthorized for user [reader] on indices [mine-1]');
    const none = await send('POST', '/_upgrade', reader);
    expect(none.json.upgraded_indices ?? {}, none.text).to.deep.equal({});
    const done = await send('POST', '/mine-1/_upgrade', writer);
    expect(done.status, done.text).to.equal(200);
    expect(Object.keys(done.json.upgraded_indices)).to.deep.equal(['mine-1']);
  });
});

for (const backend of BACKENDS) {
  describe(`hostile tenant against profile, shard-level APIs, _seq_no and missing (${backend.name})`, function () {
    this.timeout(120_000);
    let url: string;
    let stop: () => Promise<void>;
    let tenant: string;
    let including: string;
    let writer: string;

    before(async () => {
      const started = await backend.start();
      url = started.gateway.url;
      stop = started.stop;
      for (const ix of ['mine-1', 'other-1']) {
        const made = await call(url, 'PUT', `/${ix}`, { body: { mappings: { properties: { f: { type: 'keyword' }, secret: { type: 'keyword' }, n: { type: 'long' } } } } });
        expect(made.status, made.text).to.equal(200);
      }
      const lines = [
        { index: { _index: 'mine-1', _id: '1' } }, { f: 'a', secret: SECRET, n: 1 },
        { index: { _index: 'mine-1', _id: '2' } }, { f: 'b', n: 2 },
        { index: { _index: 'other-1', _id: '1' } }, { f: 'x', secret: SECRET, n: 3 },
      ];
      const bulk = await call(url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON });
      expect(bulk.json.errors, bulk.text).to.equal(false);
      // another tenant's data stream: its backing indices are hidden `.ds-` indices
      const template = await call(url, 'PUT', '/_index_template/other-ds', { body: { index_patterns: ['other-ds*'], data_stream: {} } });
      expect(template.status, template.text).to.equal(200);
      const ds = await call(url, 'POST', '/other-ds/_doc?refresh=true', { body: { '@timestamp': '2024-01-01T00:00:00Z', secret: SECRET } });
      expect(ds.status, ds.text).to.equal(201);
      // an alias in the tenant's namespace that points at another tenant's index
      const alias = await call(url, 'POST', '/_aliases', { body: { actions: [{ add: { index: 'other-1', alias: 'mine-alias-to-other' } }] } });
      expect(alias.status, alias.text).to.equal(200);
      // a filtered alias of the tenant's own index, its filter on the hidden field
      const view = await call(url, 'POST', '/_aliases', { body: { actions: [{ add: { index: 'mine-1', alias: 'mine-view', filter: { term: { secret: SECRET } } } }] } });
      expect(view.status, view.text).to.equal(200);
      // a filtered alias in the tenant's namespace over its own index and another tenant's: the
      // profile (which shows an alias filter, as Elasticsearch's does) must not show the other's
      const both = await call(url, 'POST', '/_aliases', {
        body: { actions: [{ add: { index: 'mine-1', alias: 'mine-filtered-both', filter: { term: { f: 'a' } } } }, { add: { index: 'other-1', alias: 'mine-filtered-both', filter: { term: { f: 'x' } } } }] },
      });
      expect(both.status, both.text).to.equal(200);
      const res = await call(url, 'POST', '/_credentials', {
        body: { description: 'mine, read', indices: ['mine*'], categories: ['docs', 'search', 'indices'], ops: ['read'], exclude_fields: ['secret'] },
      });
      expect(res.status, res.text).to.equal(201);
      tenant = basic(res.json.credential.username, res.json.password);
      const inc = await call(url, 'POST', '/_credentials', {
        body: { description: 'mine, read, f and n only', indices: ['mine*'], categories: ['docs', 'search', 'indices'], ops: ['read'], include_fields: ['f', 'n'] },
      });
      expect(inc.status, inc.text).to.equal(201);
      including = basic(inc.json.credential.username, inc.json.password);
      const w = await call(url, 'POST', '/_credentials', { body: { description: 'mine, write', indices: ['mine*'], categories: ['docs', 'search', 'indices'], ops: ['read', 'write'] } });
      expect(w.status, w.text).to.equal(201);
      writer = basic(w.json.credential.username, w.json.password);
    });
    after(() => stop());

    it('shard-level APIs: every index spelling, endpoint spelling and smuggled parameter shows only the tenant\'s own indices (generated)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...INDEX_SPELLINGS), fc.constantFrom(...SHARD_ENDPOINTS), fc.nat(2), fc.constantFrom(...SMUGGLED), fc.constantFrom('GET', 'POST'),
          async (index, endpoint, spelling, query, method) => {
            const path = `${index}/${SPELL_ENDPOINT(endpoint)[spelling]}${query}`;
            const res = await call(url, method, path, { auth: tenant });
            expectNothingForeign(res, `${method} ${path}`);
            // a POST _upgrade is a write: a reader is refused it
            if (method === 'POST' && endpoint === '_upgrade') expect(res.status, `${method} ${path} ${res.text}`).to.be.oneOf([403, 404, 400]);
          }),
        { seed: SEED, numRuns: RUNS },
      );
    });

    it('shard-level APIs need the indices category, and a credential none of whose indices exist is refused, not failed', async () => {
      const make = async (body: Record<string, unknown>) => {
        const res = await call(url, 'POST', '/_credentials', { body: { ops: ['read', 'write'], ...body } });
        expect(res.status, res.text).to.equal(201);
        return basic(res.json.credential.username, res.json.password);
      };
      const searchOnly = await make({ indices: ['mine*'], categories: ['docs', 'search'] });
      const nothing = await make({ indices: ['nothing*'], categories: ['docs', 'search', 'indices'] });
      for (const endpoint of SHARD_ENDPOINTS) {
        for (const method of endpoint === '_upgrade' ? ['GET', 'POST'] : ['GET']) {
          for (const path of [`/${endpoint}`, `/mine-1/${endpoint}`]) {
            const refused = await call(url, method, path, { auth: searchOnly });
            expectNothingForeign(refused, `${method} ${path}`);
            expect(refused.status, `${method} ${path} ${refused.text}`).to.equal(403);
          }
          const none = await call(url, method, `/${endpoint}`, { auth: nothing });
          expectNothingForeign(none, `${method} /${endpoint}`);
          expect(none.status, `${method} /${endpoint} ${none.text}`).to.be.oneOf([200, 403]);
          if (none.status === 200) expect(none.text).not.to.contain('mine-1');
        }
      }
    });

    it('shard-level APIs without an index answer the tenant\'s own indices', async () => {
      for (const endpoint of SHARD_ENDPOINTS) {
        const res = await call(url, 'GET', `/${endpoint}${endpoint === '_shard_stores' ? '?status=all' : ''}`, { auth: tenant });
        expectNothingForeign(res, endpoint);
        if (res.status === 200) expect(res.text, endpoint).to.contain('mine-1');
      }
    });

    const searches: Array<[string, unknown]> = [
      ['profile of a terms lookup into the tenant\'s hidden field', { profile: true, query: { terms: { f: { index: 'mine-1', id: '1', path: 'secret' } } } }],
      ['profile of a terms lookup into another index', { profile: true, query: { terms: { f: { index: 'other-1', id: '1', path: 'f' } } } }],
      ['profile of a query on the hidden field', { profile: true, query: { prefix: { secret: 's' } } }],
      ['profile of an aggregation on the hidden field', { profile: true, size: 0, aggs: { t: { terms: { field: 'secret' } } } }],
      ['profile of a wildcard field query', { profile: true, query: { query_string: { query: 'sesame*' } } }],
      ['profile of a more_like_this naming another index', { profile: true, query: { more_like_this: { fields: ['f'], like: [{ _index: 'other-1', _id: '1' }], min_term_freq: 1, min_doc_freq: 1 } } }],
      ['profile of a query_string over every field (field names expanded)', { profile: true, query: { query_string: { query: 'a' } } }],
      ['profile of a multi_match over a wildcard field list', { profile: true, query: { multi_match: { query: 'a', fields: ['*'] } } }],
      ['profile of a simple_query_string over every field', { profile: true, query: { simple_query_string: { query: 'a' } } }],
      ['profile of an exists over a field pattern', { profile: true, query: { exists: { field: 's*' } } }],
      ['_seq_no term on its own', { query: { range: { _seq_no: { gte: 0 } } } }],
      ['_seq_no with the hidden field', { query: { bool: { filter: [{ range: { _seq_no: { gte: 0 } } }, { exists: { field: 'secret' } }] } } }],
      ['_seq_no profile', { profile: true, query: { terms: { _seq_no: [0, 1, 2] } } }],
      ['missing aggregation on the hidden field with a missing value', { size: 0, aggs: { m: { missing: { field: 'secret', missing: 'x' } } } }],
      ['missing aggregation with a script reading the hidden field', { size: 0, aggs: { m: { missing: { script: { source: "doc['secret'].size() > 0 && doc['secret'].value.startsWith('s') ? doc['secret'].value : null" } } } } }],
      ['missing aggregation with a script reading _source', { size: 0, aggs: { m: { missing: { script: { source: "params._source.secret" } } } } }],
      ['missing on a hidden field, profiled', { profile: true, size: 0, aggs: { m: { missing: { field: 'secret' } } } }],
    ];
    for (const [name, body] of searches) {
      it(`${name}: nothing of the hidden field or another index`, async () => {
        for (const [path, auth] of ['/mine-1/_search', '/mine*/_search', '/_search', '/mine-filtered-both/_search', '/mine-alias-to-other/_search', '/other-1/_search'].flatMap((p) => [[p, tenant], [p, including]])) {
          const res = await call(url, 'POST', path, { auth, body });
          expectNothingForeign(res, `${name} ${path} ${JSON.stringify(body)}`);
          // a hidden field is not even named in an answer to a request that did not name it
          if (res.status === 200 && !JSON.stringify(body).includes('secret')) expect(res.text, `${name} ${path}: ${res.text}`).not.to.contain('secret');
        }
      });
    }

    it('_msearch lines with profile naming other indices, aliases and system indices', async () => {
      for (const header of [{ index: 'other-1' }, { index: 'mine-alias-to-other' }, { index: '.gateway-credentials' }, { index: ['mine-1', 'other-1'] }, { index: 'mine-1,other-1' }, {}]) {
        for (const path of ['/_msearch', '/mine-1/_msearch']) {
          const body = ndjson([header, { profile: true, query: { match_all: {} } }, {}, { profile: true, query: { terms: { f: { index: 'other-1', id: '1', path: 'f' } } } }]);
          const res = await call(url, 'POST', path, { auth: tenant, body, headers: NDJSON });
          expectNothingForeign(res, `msearch ${path} ${body}`);
        }
      }
    });

    it('POST _upgrade by a writer of mine* upgrades (and names) only its own indices, whatever the spelling; every index is refused', async () => {
      for (const index of INDEX_SPELLINGS) {
        const res = await call(url, 'POST', `${index}/_upgrade`, { auth: writer });
        expectNothingForeign(res, `POST ${index}/_upgrade`);
        if (res.status === 200) expect(Object.keys(res.json.upgraded_indices ?? {}).every((n) => n.startsWith('mine')), res.text).to.equal(true);
      }
      // a write is never narrowed (as _forcemerge or _close): every index is refused, the tenant's own is upgraded
      for (const path of ['/_upgrade', '/_forcemerge']) {
        const every = await call(url, 'POST', path, { auth: writer });
        expect(every.status, every.text).to.equal(403);
        expect(every.json.error.type).to.equal('security_exception');
      }
      const own = await call(url, 'POST', '/mine-1/_upgrade', { auth: writer });
      expect(own.status, own.text).to.equal(200);
      expect(Object.keys(own.json.upgraded_indices)).to.deep.equal(['mine-1']);
    });

    /** Malformed or odd requests to the new APIs: each an Elasticsearch-shaped answer, never a 5xx. */
    const ODD: Array<[string, string, unknown?]> = [
      ['GET', '/mine-1/_shard_stores?status='], ['GET', '/mine-1/_shard_stores?status=,,'], ['GET', '/mine-1/_shard_stores?status=GREEN'],
      ['GET', '/mine-1/_recovery?active_only=maybe'], ['GET', '/mine-1/_recovery?detailed=1'], ['GET', '/mine-1/_segments?verbose=true'],
      ['GET', '/mine-1/_upgrade?only_ancient_segments=true'], ['POST', '/mine-1/_upgrade?wait_for_completion=x'], ['GET', '/MINE-1/_segments'],
      ['GET', '/mine-1%00/_segments'], ['GET', '/%FF/_segments'], ['GET', '/mine-1%2F..%2Fother-1/_segments'], ['DELETE', '/mine-1/_segments'],
      ['PUT', '/mine-1/_recovery'], ['HEAD', '/mine-1/_shard_stores'], ['GET', '/mine-1/_segments/extra'], ['GET', `/${'m'.repeat(300)}/_segments`],
      ['GET', '/mine-1/_segments?ignore_unavailable=maybe'], ['GET', '/mine-1/_segments?expand_wildcards=bogus'],
      ['POST', '/mine-1/_search', { profile: 'yes' }], ['POST', '/mine-1/_search', { profile: null }], ['POST', '/mine-1/_search', { profile: 1 }],
      ['POST', '/mine-1/_search', { profile: { a: 1 } }], ['POST', '/mine-1/_search?scroll=1m', { profile: true }], ['POST', '/mine-1/_search?search_type=dfs_query_then_fetch', { profile: true }],
      ['POST', '/mine-1/_search?profile=true', {}], ['POST', '/mine-1/_count', { profile: true }], ['POST', '/mine-1/_search/template', { source: { profile: true }, profile: true }],
      ['POST', '/mine-1/_search', { profile: true, suggest: { s: { text: 'a', term: { field: 'f' } } } }], ['POST', '/mine-1/_search', { profile: true, rescore: { query: { rescore_query: { match_all: {} } } } }],
      ['POST', '/mine-1/_search', { profile: true, collapse: { field: 'f' } }], ['POST', '/mine-1/_search', { profile: true, post_filter: { term: { _seq_no: 0 } } }],
      ['POST', '/mine-1/_search', { query: { term: { _seq_no: 'abc' } } }], ['POST', '/mine-1/_search', { query: { range: { _seq_no: { gte: 'now' } } } }],
      ['POST', '/mine-1/_search', { query: { terms: { _seq_no: [null] } } }], ['POST', '/mine-1/_search', { query: { exists: { field: '_seq_no' } } }],
      ['POST', '/mine-1/_search', { query: { term: { _seq_no: 1e30 } } }], ['POST', '/mine-1/_search', { query: { range: { _seq_no: { gt: 9223372036854775807, lt: -1 } } } }],
      ['POST', '/mine-1/_search', { query: { terms: { _seq_no: { index: 'mine-1', id: '1', path: 'n' } } } }], ['POST', '/mine-1/_search', { query: { prefix: { _seq_no: '1' } } }],
      ['POST', '/mine-1/_search', { query: { match: { _seq_no: '1' } } }], ['POST', '/mine-1/_search', { sort: ['_seq_no'], query: { term: { _seq_no: 0 } } }],
      ['POST', '/mine-1/_search', { size: 0, aggs: { m: { missing: {} } } }], ['POST', '/mine-1/_search', { size: 0, aggs: { m: { missing: { field: 'n', missing: 'abc' } } } }],
      ['POST', '/mine-1/_search', { size: 0, aggs: { m: { missing: { field: 'f', missing: { a: 1 } } } } }], ['POST', '/mine-1/_search', { size: 0, aggs: { m: { missing: { script: 'bad syntax (' } } } }],
      ['POST', '/mine-1/_search', { size: 0, aggs: { m: { missing: { script: "doc['f'].value" } } } }], ['POST', '/mine-1/_search', { size: 0, aggs: { m: { missing: { field: '_seq_no' } } } }],
      ['POST', '/mine-1/_search', { profile: true, size: 0, aggs: { m: { missing: { field: 'f', missing: null } } } }],
    ];

    it('odd and malformed requests to the new APIs answer as Elasticsearch does, never a 5xx, for the tenant and the admin (generated)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ODD), fc.boolean(), async ([method, path, body], asTenant) => {
          const res = await call(url, method, path, { auth: asTenant ? tenant : undefined, body });
          if (asTenant) expectNothingForeign(res, `${method} ${path} ${JSON.stringify(body)}`);
          expect(res.status, `${method} ${path} ${JSON.stringify(body)} → ${res.text}`).to.be.below(500);
          // Elasticsearch's 405 carries its reason as the error itself
          if (res.status === 405) expect(res.json?.error?.reason ?? res.json?.error, res.text).to.match(/^Incorrect HTTP method/);
          else if (res.status >= 400 && method !== 'HEAD') expect(res.json?.error?.type, `${method} ${path} ${res.text}`).to.be.a('string');
        }),
        { seed: SEED, numRuns: Math.min(RUNS, 150) },
      );
    });

    it('the admin path is unchanged: the admin sees every index in each shard-level API and profiles', async () => {
      for (const endpoint of SHARD_ENDPOINTS) {
        const res = await call(url, 'GET', `/${endpoint}${endpoint === '_shard_stores' ? '?status=all' : ''}`);
        expect(res.status, res.text).to.equal(200);
        expect(res.text).to.contain('other-1');
        expect(res.text).to.contain('mine-1');
      }
      const prof = await call(url, 'POST', '/mine-1/_search', { body: { profile: true, query: { terms: { f: { index: 'mine-1', id: '1', path: 'secret' } } } } });
      expect(prof.status, prof.text).to.equal(200);
      expect(prof.json.profile.shards.length).to.be.above(0);
    });
  });
}
