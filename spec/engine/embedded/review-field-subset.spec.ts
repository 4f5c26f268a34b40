import { expect } from 'chai';
import type { EngineAccess } from '../../../lib/engine/backend.js';
import { openEmbeddedEngine, type EmbeddedEngine } from '../../../lib/engine/embedded/index.js';
import { ndjson } from '../../support/http.js';
import { tempDir } from './support.js';

/**
 * Hostile-tenant review of the embedded engine's field-level security (issue 32): a credential
 * whose rules hide `secret` (with its multi-field, `copy_to` source, nested and object members)
 * sends requests straight to the engine with its access attached — the gateway's first line
 * bypassed — through every door that reads or copies a field: reindex into a visible index,
 * update answers that return the document, scroll, templates, msearch, mtermvectors, suggesters,
 * profile, nested inner hits, stored fields, mappings it writes itself. No answer and no index
 * the tenant can read afterwards holds a hidden value.
 */

const SECRET = 'sesame32b';
const INDEX = 'mine-fls';
const MAPPINGS = {
  properties: {
    title: { type: 'text', fields: { raw: { type: 'keyword' } } },
    n: { type: 'integer' },
    secret: { type: 'text', fields: { keyword: { type: 'keyword' } } },
    suggest_secret: { type: 'completion' },
    people: { type: 'nested', properties: { name: { type: 'keyword' }, secret: { type: 'keyword' } } },
    vault: { properties: { label: { type: 'keyword' }, secret: { type: 'keyword' } } },
    visible: { type: 'keyword' },
  },
};
const HIDDEN = ['secret', 'suggest_secret', 'people.secret', 'vault.secret'];

describe('review: the embedded engine keeps hidden fields hidden through every door (engine alone)', function () {
  this.timeout(120_000);
  let engine: EmbeddedEngine;
  let remove: () => Promise<void>;
  const tenant: EngineAccess = { user: 'tenant', indices: [{ names: ['mine*'], ops: ['read', 'write', 'delete'] }], fields: { exclude: HIDDEN } };

  const send = async (method: string, path: string, body?: unknown, access?: EngineAccess) => {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const res = await engine.request({ method, path, headers: { 'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json' }, body: text, access });
    const out = (res.body as Buffer).toString('utf8');
    let json: any;
    try {
      json = JSON.parse(out);
    } catch {
      json = undefined;
    }
    return { status: res.status, text: out, json };
  };
  /** The tenant's request: whatever its status, its answer shows no hidden value. */
  const attack = async (method: string, path: string, body?: unknown) => {
    const res = await send(method, path, body, tenant);
    if (process.env.REVIEW_TALLY) console.log("TALLY", res.status, method, path, res.text.slice(0, 200));
    expect(res.status, `${method} ${path} ${JSON.stringify(body)} → ${res.text}`).to.be.below(500);
    expect(res.text, `${method} ${path} ${JSON.stringify(body)} shows a hidden value`).not.to.contain(SECRET);
    return res;
  };
  /** What the tenant can read of an index afterwards, searched every way it reads: no hidden value. */
  const tenantReadsNoSecret = async (index: string) => {
    for (const body of [{ query: { query_string: { query: `*${SECRET}*`, analyze_wildcard: true } } }, { fields: ['*'] }, { query: { match_all: {} } }]) {
      const res = await send('POST', `/${index}/_search?refresh=true`, body, tenant);
      expect(res.text, `${index} ${JSON.stringify(body)}`).not.to.contain(SECRET);
      if (res.status === 200 && 'query' in body && 'query_string' in (body.query as object)) expect(res.json.hits.total.value, `${index} matches the hidden value`).to.equal(0);
    }
    // the admin reads the copy whole: a hidden value there is one the tenant may read as a visible field
    const admin = await send('POST', `/${index}/_search`, { query: { match_all: {} } });
    if (admin.status === 200) {
      for (const hit of admin.json.hits.hits) {
        for (const [k, v] of Object.entries(hit._source as Record<string, unknown>)) {
          if (!HIDDEN.some((h) => h === k || h.startsWith(`${k}.`))) expect(JSON.stringify(v), `${index}: visible field ${k} holds the hidden value`).not.to.contain(SECRET);
        }
      }
    }
  };

  before(async () => {
    const dir = await tempDir();
    remove = dir.remove;
    engine = await openEmbeddedEngine({ dataDir: dir.dir });
    expect((await send('PUT', `/${INDEX}`, { mappings: MAPPINGS })).status).to.equal(200);
    const docs = [0, 1, 2].map((i) => ({
      title: `door ${i}`, n: i, visible: `v${i}`, secret: `${SECRET} word${i}`, suggest_secret: `${SECRET}${i}`,
      people: [{ name: `p${i}`, secret: `${SECRET}-p${i}` }], vault: { label: `l${i}`, secret: `${SECRET}-v${i}` },
    }));
    const bulk = await send('POST', '/_bulk?refresh=true', ndjson(docs.flatMap((d, i) => [{ index: { _index: INDEX, _id: String(i) } }, d])));
    expect(bulk.json.errors, bulk.text).to.equal(false);
  });
  after(async () => {
    await engine?.close();
    await remove?.();
  });

  it('the hidden values are there for the admin', async () => {
    expect((await send('GET', `/${INDEX}/_doc/0`)).text).to.contain(SECRET);
  });

  it('_reindex from the index into one the tenant reads copies no hidden field (Elasticsearch reads the source as the user)', async () => {
    for (const [dest, body] of [
      ['mine-copy-1', {}],
      ['mine-copy-2', { source: { _source: ['secret', 'vault', 'people'] } }],
      ['mine-copy-3', { source: { runtime_mappings: { r: { type: 'keyword', script: { source: "emit(params._source.secret)" } } } } }],
    ] as const) {
      await attack('POST', '/_reindex?refresh=true', { ...body, source: { index: INDEX, ...(body as any).source }, dest: { index: dest } });
      await tenantReadsNoSecret(dest);
    }
    const scripted = await attack('POST', '/_reindex?refresh=true', { source: { index: INDEX }, dest: { index: 'mine-copy-4' }, script: { source: 'ctx._source.visible = ctx._source.secret' } });
    await tenantReadsNoSecret('mine-copy-4');
    expect(scripted.status, scripted.text).to.be.within(200, 499);
  });

  it('a mapping the tenant writes that reads one field into another (copy_to from a hidden field, runtime, alias) is refused: rewritten by update_by_query or a partial update, the hidden value would land in a visible field', async () => {
    const index = 'mine-fls-map';
    expect((await send('PUT', `/${index}`, { mappings: MAPPINGS })).status).to.equal(200);
    expect((await send('PUT', `/${index}/_doc/0?refresh=true`, { title: 'd', secret: SECRET })).status).to.equal(201);
    const reading = [
      { properties: { secret: { type: 'text', copy_to: 'leak' }, leak: { type: 'text', store: true } } },
      { properties: { vault: { properties: { secret: { type: 'keyword', copy_to: 'leak' } } } } },
      { runtime: { leak2: { type: 'keyword', script: { source: 'emit(params._source.secret)' } } } },
      { properties: { leak3: { type: 'alias', path: 'secret' } } },
      { dynamic_templates: [{ s: { match: 'secret*', mapping: { type: 'keyword', copy_to: 'leak' } } }] },
    ];
    for (const mapping of reading) {
      const res = await attack('PUT', `/${index}/_mapping`, mapping);
      expect(res.status, `${JSON.stringify(mapping)} → ${res.text}`).to.equal(403);
      expect(res.json.error.type).to.equal('security_exception');
      // and at creation (the index's first writer may be another, holding the hidden field)
      const created = await attack('PUT', '/mine-fls-new', { mappings: mapping });
      expect(created.status, `create ${JSON.stringify(mapping)} → ${created.text}`).to.equal(403);
    }
    await attack('POST', `/${index}/_update_by_query?refresh=true`, { query: { match_all: {} } });
    await attack('POST', `/${index}/_update/0?refresh=true`, { doc: { title: 'e' } });
    for (const body of [{ query: { match: { leak: SECRET } } }, { query: { exists: { field: 'leak' } } }, { fields: ['leak', 'leak2'], stored_fields: ['leak'] }]) {
      const res = await attack('POST', `/${index}/_search`, body);
      expect(res.json.hits.total.value, `${JSON.stringify(body)}: the hidden value is in a visible field: ${res.text}`).to.equal(body.query ? 0 : 1);
    }
    // a mapping that reads nothing across goes through
    expect((await attack('PUT', `/${index}/_mapping`, { properties: { plain: { type: 'keyword' } } })).status).to.equal(200);
  });

  it('update answers (`_source` of the updated document, in _update and _bulk) show no hidden field', async () => {
    await attack('POST', `/${INDEX}/_update/1?_source=true`, { doc: { visible: 'x1' } });
    await attack('POST', `/${INDEX}/_update/1?_source_includes=secret,vault.*`, { doc: { visible: 'x2' } });
    await attack('POST', `/${INDEX}/_update/1`, { doc: { visible: 'x3' }, _source: true });
    await attack('POST', `/${INDEX}/_update/1`, { doc: { visible: 'x4' }, _source: ['secret', 'people'] });
    await attack('POST', '/_bulk', ndjson([{ update: { _index: INDEX, _id: '1', _source: true } }, { doc: { visible: 'x5' } }]));
    await attack('POST', '/_bulk', ndjson([{ update: { _index: INDEX, _id: '1' } }, { doc: { visible: 'x6' }, _source: true }]));
    // an upsert document that writes a hidden field of a document that exists: the doc member decides
    await attack('POST', `/${INDEX}/_update/1`, { doc: { visible: 'x7' }, upsert: { secret: SECRET }, _source: true });
  });

  it('scroll, search templates, msearch, mget, mtermvectors, suggesters, profile, nested inner hits and stored fields show no hidden value', async () => {
    const scrolled = await attack('POST', `/${INDEX}/_search?scroll=1m`, { size: 1, query: { match_all: {} } });
    expect(scrolled.status, scrolled.text).to.equal(200);
    await attack('POST', '/_search/scroll', { scroll: '1m', scroll_id: scrolled.json._scroll_id });
    // a scroll the admin opened, continued by the tenant
    const adminScroll = await send('POST', `/${INDEX}/_search?scroll=1m`, { size: 1, query: { match_all: {} } });
    await attack('POST', '/_search/scroll', { scroll: '1m', scroll_id: adminScroll.json._scroll_id });
    await attack('POST', `/${INDEX}/_search/template`, { source: '{"query":{"match_all":{}},"fields":["{{f}}"],"docvalue_fields":["{{f}}.keyword"]}', params: { f: 'secret' } });
    await attack('POST', `/${INDEX}/_msearch`, ndjson([{}, { query: { match_all: {} }, fields: ['*'], docvalue_fields: ['secret.keyword'] }, { index: INDEX }, { size: 0, aggs: { a: { terms: { field: 'vault.secret' } } } }]));
    await attack('POST', '/_mget', { docs: [{ _index: INDEX, _id: '0', _source: ['secret'] }, { _index: INDEX, _id: '0', stored_fields: ['secret'] }] });
    await attack('POST', `/${INDEX}/_mtermvectors`, { docs: [{ _id: '0', fields: ['secret', 'secret.keyword', 'people.secret'] }], term_statistics: true });
    await attack('POST', `/${INDEX}/_termvectors`, { doc: { secret: 'probe' }, fields: ['secret'], term_statistics: true, field_statistics: true });
    await attack('POST', `/${INDEX}/_search`, { suggest: { c: { prefix: SECRET.slice(0, 4), completion: { field: 'suggest_secret' } } } });
    await attack('POST', `/${INDEX}/_search`, { suggest: { p: { text: 'sesame', phrase: { field: 'secret' } }, t: { text: 'sesamy', term: { field: 'secret', suggest_mode: 'always' } } } });
    await attack('POST', `/${INDEX}/_search`, { profile: true, query: { match: { secret: SECRET } } });
    await attack('POST', `/${INDEX}/_search`, { query: { nested: { path: 'people', query: { match_all: {} }, inner_hits: { _source: true, fields: ['people.*'], docvalue_fields: ['people.secret'] } } } });
    await attack('POST', `/${INDEX}/_search`, { stored_fields: ['*'], docvalue_fields: ['*'], fields: [{ field: '*', include_unmapped: true }], script_fields: { s: { script: { source: "params._source.secret" } } } });
    await attack('POST', `/${INDEX}/_search`, { _source: { includes: ['vault.*', 'people.*', 'secret*'] }, highlight: { fields: { '*': {} } }, query: { query_string: { query: 'door' } } });
    await attack('GET', `/${INDEX}/_source/0?_source_includes=secret`);
    await attack('GET', `/${INDEX}/_doc/0?stored_fields=secret,secret.keyword&_source=true`);
    await attack('POST', `/${INDEX}/_explain/0`, { query: { match: { secret: SECRET } } });
    await attack('GET', `/${INDEX}/_mapping/field/secret*,people.*,vault.*`);
    await attack('POST', `/${INDEX}/_validate/query?explain=true&rewrite=true`, { query: { more_like_this: { fields: ['secret'], like: [{ _index: INDEX, _id: '0' }], min_term_freq: 1, min_doc_freq: 1 } } });
    const pit = await attack('POST', `/${INDEX}/_pit?keep_alive=1m`);
    await attack('POST', '/_search', { pit: { id: pit.json.id }, sort: [{ 'secret.keyword': 'asc' }, { n: 'asc' }], search_after: ['a', 0], fields: ['*'] });
  });
});
