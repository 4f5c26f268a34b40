import { expect } from 'chai';
import fc from 'fast-check';
import type { EngineAccess } from '../../lib/engine/backend.js';
import { openEmbeddedEngine, type EmbeddedEngine } from '../../lib/engine/embedded/index.js';
import { authorizationDisagreementCount } from '../../lib/metrics/index.js';
import { tempDir } from '../engine/embedded/support.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON } from '../support/http.js';

/**
 * Value oracles through hidden fields are closed (Elasticsearch's field-level security): for a
 * credential whose field rules hide `secret`, `pin` and `vault.code`, whatever a request does with
 * a hidden field — names it in a query, an aggregation, a sort, a collapse, a script, a lookup, a
 * highlight, a suggester, term vectors, field caps; reaches it through a wildcard, `query_string`
 * or `multi_match` over `*` — its answer on the index that holds the field is the answer on an
 * index where the field was never indexed (same documents, same mappings, without it).
 *
 * On the embedded engine alone (no gateway: the engine's own view is the line that holds), and
 * through the gateway on both backends (on the HTTP backend the gateway's refusal is the only line:
 * each request is refused, or answered as on the index without the field).
 */

const HIDDEN = ['secret', 'pin', 'vault.code'];
const SECRETS = ['sesame', 'opensesame', 'shut'];
const PINS = [1234, 5678, 9012];

const MAPPINGS = (withHidden: boolean) => ({
  properties: {
    title: { type: 'text', fields: { raw: { type: 'keyword' } } },
    tag: { type: 'keyword' },
    n: { type: 'integer' },
    vault: { properties: { label: { type: 'keyword' }, ...(withHidden ? { code: { type: 'keyword' } } : {}) } },
    ...(withHidden ? { secret: { type: 'keyword', fields: { raw: { type: 'keyword' } } }, pin: { type: 'long' } } : {}),
  },
});

function documents(withHidden: boolean): Array<Record<string, unknown>> {
  return Array.from({ length: 9 }, (_, i) => ({
    title: `door ${['red', 'blue', 'green'][i % 3]} number ${i}`,
    tag: `t${i % 2}`,
    n: i,
    vault: { label: `v${i % 3}`, ...(withHidden ? { code: SECRETS[(i + 1) % 3] } : {}) },
    ...(withHidden ? { secret: SECRETS[i % 3], pin: PINS[i % 3] } : {}),
  }));
}

/** The index holding the hidden fields, and the one that never had them. */
const HOLDS = 'fls-holds';
const NEVER = 'fls-never';

// ---------------------------------------------------------------------------------------------
// Requests that read a hidden field

interface Probe {
  method: string;
  /** `{index}` stands for the index searched. */
  path: string;
  body?: unknown;
}

const hiddenName = fc.constantFrom(...HIDDEN);
/** A name or pattern that reaches a hidden field. */
const hiddenRef = fc.constantFrom(...HIDDEN, 'secr*', 'sec*et', 'secret.raw', 'vault.*', 'p*n');
const hiddenValue = fc.constantFrom<string | number>(...SECRETS, ...PINS);

const query = fc.oneof(
  fc.tuple(hiddenName, hiddenValue).map(([f, v]) => ({ term: { [f]: v } })),
  fc.tuple(hiddenName, hiddenValue).map(([f, v]) => ({ match: { [f]: v } })),
  fc.tuple(hiddenName, hiddenValue).map(([f, v]) => ({ terms: { [f]: [v, 'x'] } })),
  fc.constantFrom(1000, 6000).map((v) => ({ range: { pin: { gte: v } } })),
  hiddenRef.map((f) => ({ exists: { field: f } })),
  fc.constantFrom('s', 'se', 'o').map((p) => ({ prefix: { secret: p } })),
  fc.constantFrom('ses*', '*ame', 'o*').map((p) => ({ wildcard: { secret: p } })),
  fc.tuple(hiddenRef, hiddenValue).map(([f, v]) => ({ query_string: { query: `${f.replace('.', '\\.')}:${v}` } })),
  hiddenValue.map((v) => ({ query_string: { query: String(v) } })),
  fc.tuple(hiddenName, hiddenValue).map(([f, v]) => ({ query_string: { query: String(v), default_field: f } })),
  fc.tuple(hiddenValue, fc.constantFrom('*', 'secr*', 'title,secret')).map(([v, f]) => ({ query_string: { query: String(v), fields: f.split(',') } })),
  fc.tuple(hiddenValue, fc.constantFrom(['*'], ['secret', 'title'], ['s*'])).map(([v, fields]) => ({ multi_match: { query: String(v), fields, lenient: true } })),
  fc.tuple(hiddenValue, fc.constantFrom(['*'], ['secret'], ['pin', 'n'])).map(([v, fields]) => ({ simple_query_string: { query: String(v), fields, lenient: true } })),
  fc.tuple(hiddenName, hiddenValue).map(([f, v]) => ({
    script_score: { query: { match_all: {} }, script: { source: `doc.containsKey('${f}') && doc['${f}'].size() > 0 && doc['${f}'].value == params.v ? 2 : 1`, params: { v } } },
  })),
  fc.tuple(fc.constantFrom('secret', 'pin'), hiddenValue).map(([f, v]) => ({
    script_score: { query: { match_all: {} }, script: { source: `params._source.containsKey('${f}') && params._source['${f}'] == params.v ? 2 : 1`, params: { v } } },
  })),
  fc.tuple(hiddenName, fc.integer({ min: 0, max: 8 })).map(([path, id]) => ({ terms: { 'title.raw': { index: '{index}', id: String(id), path } } })),
  fc.tuple(hiddenName, fc.integer({ min: 0, max: 8 })).map(([path, id]) => ({ terms: { tag: { index: '{index}', id: String(id), path } } })),
  fc.tuple(hiddenName, hiddenValue).map(([f, v]) => ({ more_like_this: { fields: [f], like: String(v), min_term_freq: 1, min_doc_freq: 1 } })),
  fc.integer({ min: 0, max: 8 }).map((id) => ({ more_like_this: { fields: ['secret', 'title'], like: [{ _index: '{index}', _id: String(id) }], min_term_freq: 1, min_doc_freq: 1 } })),
  fc.tuple(hiddenName, hiddenValue).map(([f, v]) => ({ bool: { should: [{ match_all: {} }, { term: { [f]: { value: v, boost: 5 } } }] } })),
  fc.tuple(hiddenName, hiddenValue).map(([f, v]) => ({ bool: { must_not: [{ term: { [f]: v } }] } })),
  fc.tuple(hiddenName, hiddenValue).map(([f, v]) => ({ constant_score: { filter: { term: { [f]: v } }, boost: 3 } })),
);

const aggs = fc.oneof(
  hiddenName.map((f) => ({ a: { terms: { field: f } } })),
  hiddenName.map((f) => ({ a: { terms: { field: f, missing: 'none' } } })),
  fc.constantFrom('min', 'max', 'sum', 'avg', 'stats', 'cardinality', 'value_count').map((m) => ({ a: { [m]: { field: 'pin' } } })),
  fc.constant({ a: { histogram: { field: 'pin', interval: 1000 } } }),
  fc.constant({ a: { range: { field: 'pin', ranges: [{ to: 5000 }, { from: 5000 }] } } }),
  fc.tuple(hiddenName, hiddenValue).map(([f, v]) => ({ a: { filter: { term: { [f]: v } } } })),
  hiddenName.map((f) => ({ a: { missing: { field: f } } })),
  fc.constant({ a: { significant_text: { field: 'secret' } } }),
  hiddenName.map((f) => ({ a: { terms: { script: { source: `doc.containsKey('${f}') && doc['${f}'].size() > 0 ? doc['${f}'].value.toString() : 'none'` } } } })),
  hiddenName.map((f) => ({ a: { top_hits: { size: 3, sort: [{ [f]: { order: 'desc', unmapped_type: 'keyword' } }], _source: ['title'] } } })),
);

const sort = fc.oneof(
  fc.tuple(hiddenName, fc.constantFrom('asc', 'desc')).map(([f, order]) => [{ [f]: { order, unmapped_type: 'long' } }, { n: 'asc' }]),
  hiddenName.map((f) => [{ [f]: 'asc' }]),
  hiddenName.map((f) => [{ _script: { type: 'string', order: 'asc', script: { source: `doc.containsKey('${f}') && doc['${f}'].size() > 0 ? doc['${f}'].value.toString() : 'z'` } } }, { n: 'asc' }]),
);

const search = fc.oneof(
  query.map((q) => ({ query: q, _source: ['title', 'n'] })),
  query.map((q) => ({ size: 0, track_total_hits: true, query: q })),
  fc.tuple(query, fc.constantFrom(1.5, 2)).map(([q, min]) => ({ query: q, min_score: min, _source: ['n'] })),
  aggs.map((a) => ({ size: 0, aggs: a })),
  sort.map((s) => ({ sort: s, _source: ['n'] })),
  fc.tuple(hiddenName, fc.constantFrom(SECRETS[0], PINS[0])).map(([f, v]) => ({ sort: [{ [f]: { order: 'asc', unmapped_type: 'keyword' } }, { n: 'asc' }], search_after: [v, 0], _source: ['n'] })),
  hiddenName.map((f) => ({ collapse: { field: f }, _source: ['n'] })),
  hiddenRef.map((f) => ({ fields: [f], _source: false })),
  hiddenRef.map((f) => ({ docvalue_fields: [f], _source: false })),
  hiddenName.map((f) => ({ _source: false, runtime_mappings: { copy: { type: 'keyword', script: { source: `if (doc.containsKey('${f}') && doc['${f}'].size() > 0) emit(doc['${f}'].value.toString())` } } }, fields: ['copy'] })),
  fc.tuple(hiddenRef, fc.constantFrom('door', 'red')).map(([f, text]) => ({ query: { match: { title: text } }, _source: false, highlight: { require_field_match: false, fields: { [f]: {} } } })),
  hiddenValue.map((v) => ({ size: 0, suggest: { s: { text: String(v), term: { field: 'secret' } } } })),
);

const probe: fc.Arbitrary<Probe> = fc.oneof(
  { weight: 6, arbitrary: search.map((body) => ({ method: 'POST', path: '/{index}/_search', body })) },
  { weight: 2, arbitrary: query.map((q) => ({ method: 'POST', path: '/{index}/_count', body: { query: q } })) },
  fc.tuple(query, fc.integer({ min: 0, max: 8 })).map(([q, id]) => ({ method: 'POST', path: `/{index}/_explain/${id}`, body: { query: q } })),
  query.map((q) => ({ method: 'POST', path: '/{index}/_validate/query?explain=true', body: { query: q } })),
  fc.tuple(hiddenRef, fc.integer({ min: 0, max: 8 })).map(([f, id]) => ({ method: 'GET', path: `/{index}/_termvectors/${id}?fields=${f}&term_statistics=true&field_statistics=true` })),
  hiddenRef.map((f) => ({ method: 'GET', path: `/{index}/_field_caps?fields=${f}` })),
);

/** Reads that name no hidden field but show fields or documents wholesale: the hidden ones are not among them. */
const wide: fc.Arbitrary<Probe> = fc.oneof(
  fc.constantFrom('/{index}/_mapping', '/{index}', '/{index}/_field_caps?fields=*', '/{index}/_mapping/field/*').map((path) => ({ method: 'GET', path })),
  fc.tuple(fc.constantFrom('_doc', '_source'), fc.integer({ min: 0, max: 8 })).map(([api, id]) => ({ method: 'GET', path: `/{index}/${api}/${id}` })),
  fc.constant({ method: 'POST', path: '/{index}/_mget', body: { ids: ['0', '4', '8'] } }),
  fc.constant({ method: 'POST', path: '/{index}/_search', body: { sort: [{ n: 'asc' }] } }),
  fc.constantFrom('red', 'door').map((text) => ({ method: 'POST', path: '/{index}/_search', body: { query: { match: { title: text } }, highlight: { fields: { title: {} } } } })),
);

const anyProbe = fc.oneof({ weight: 4, arbitrary: probe }, { weight: 1, arbitrary: wide });

/** An answer with what differs between two indices of the same documents taken out: names, uuids, timings. */
function normalized(status: number, text: string, index: string): unknown {
  const value = JSON.parse(text.split(index).join('{index}')) as unknown;
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!['took', 'index_uuid', 'uuid', 'creation_date'].includes(k)) out[k] = strip(x);
    return out;
  };
  return { status, answer: strip(value) };
}

const bodyText = (p: Probe, index: string) => (p.body === undefined ? undefined : JSON.stringify(p.body).split('{index}').join(index));
const pathOf = (p: Probe, index: string) => p.path.split('{index}').join(index);

// ---------------------------------------------------------------------------------------------

describe('field rules close value oracles: the embedded engine alone (its own view, no gateway in front)', function () {
  this.timeout(300_000);
  let engine: EmbeddedEngine;
  let remove: () => Promise<void>;
  const ruled: EngineAccess = { user: 'ruled', indices: [{ names: ['fls-*'], ops: ['read'] }], fields: { exclude: HIDDEN } };
  /** The same fields shown by an allow-list (whole objects by their leaves, multi-fields with their field). */
  const including: EngineAccess = { user: 'including', indices: [{ names: ['fls-*'], ops: ['read'] }], fields: { include: ['title', 'tag', 'n', 'vault.label'] } };

  const send = async (method: string, path: string, body?: string, access?: EngineAccess) => {
    const res = await engine.request({ method, path, headers: { 'content-type': 'application/json' }, body, access });
    return { status: res.status, text: (res.body as Buffer).toString('utf8') };
  };

  before(async () => {
    const dir = await tempDir();
    remove = dir.remove;
    engine = await openEmbeddedEngine({ dataDir: dir.dir });
    for (const [index, withHidden] of [[HOLDS, true], [NEVER, false]] as const) {
      expect((await send('PUT', `/${index}`, JSON.stringify({ mappings: MAPPINGS(withHidden) }))).status).to.equal(200);
      const lines = documents(withHidden).flatMap((doc, i) => [{ index: { _index: index, _id: String(i) } }, doc]);
      expect(JSON.parse((await send('POST', '/_bulk?refresh=true', ndjson(lines))).text).errors).to.equal(false);
    }
  });
  after(async () => {
    await engine?.close();
    await remove?.();
  });

  it('the hidden fields are there for the admin (the oracles below would answer)', async () => {
    const res = await send('POST', `/${HOLDS}/_count`, JSON.stringify({ query: { term: { secret: 'sesame' } } }));
    expect(JSON.parse(res.text).count).to.equal(3);
  });

  it('property: whatever a request does with a hidden field, the answer is the one on an index that never had it', async () => {
    await fc.assert(
      fc.asyncProperty(anyProbe, fc.constantFrom(ruled, including), async (p, access) => {
        const holds = await send(p.method, pathOf(p, HOLDS), bodyText(p, HOLDS), access);
        const never = await send(p.method, pathOf(p, NEVER), bodyText(p, NEVER), access);
        expect(normalized(holds.status, holds.text, HOLDS), `${p.method} ${p.path} ${JSON.stringify(p.body)}`).to.deep.equal(normalized(never.status, never.text, NEVER));
      }),
      { seed: 3232, numRuns: 150 },
    );
  });

  it('mappings, field caps and documents show no hidden field; naming one is counted as a disagreement', async () => {
    const before = await authorizationDisagreementCount();
    for (const path of [`/${HOLDS}/_mapping`, `/${HOLDS}`, `/${HOLDS}/_field_caps?fields=*`, `/${HOLDS}/_doc/1`, `/${HOLDS}/_mapping/field/*`]) {
      const res = await send('GET', path, undefined, ruled);
      expect(res.status, path).to.equal(200);
      for (const hidden of ['"secret', '"pin', '"code', ...SECRETS, ...PINS.map(String)]) expect(res.text, path).not.to.contain(hidden);
    }
    const counted = await authorizationDisagreementCount();
    // the document came back as the view read it (nothing narrowed its _source on the way): one disagreement
    expect(counted - before).to.equal(1);
    const named = await send('POST', `/${HOLDS}/_search`, JSON.stringify({ query: { term: { secret: 'sesame' } } }), ruled);
    expect(JSON.parse(named.text).hits.total.value).to.equal(0);
    expect((await authorizationDisagreementCount()) - counted).to.equal(1);
  });

  it('a point in time opened by the admin is read with the caller\'s field rules', async () => {
    const pit = JSON.parse((await send('POST', `/${HOLDS}/_pit?keep_alive=1m`)).text).id as string;
    const res = await send('POST', '/_search', JSON.stringify({ pit: { id: pit }, size: 0, query: { term: { secret: 'sesame' } }, aggs: { a: { terms: { field: 'pin' } } } }), ruled);
    expect(res.status, res.text).to.equal(200);
    const answer = JSON.parse(res.text);
    expect(answer.hits.total.value).to.equal(0);
    expect(answer.aggregations.a.buckets).to.deep.equal([]);
  });

  it('an update whose partial document writes a hidden field (its `noop` would tell the value) or runs a script is refused, and counted', async () => {
    const writer: EngineAccess = { user: 'writer', indices: [{ names: ['fls-*'], ops: ['read', 'write'] }], fields: { exclude: HIDDEN } };
    const before = await authorizationDisagreementCount();
    for (const doc of [{ secret: SECRETS[0] }, { vault: { code: SECRETS[1] } }, { 'vault.code': null }, { pin: [] }]) {
      const res = await send('POST', `/${HOLDS}/_update/0`, JSON.stringify({ doc }), writer);
      expect(res.status, res.text).to.equal(403);
      expect(JSON.parse(res.text).error.type).to.equal('security_exception');
    }
    const scripted = await send('POST', `/${HOLDS}/_update/0`, JSON.stringify({ script: { source: 'ctx._source.title = ctx._source.secret' } }), writer);
    expect(scripted.status, scripted.text).to.equal(403);
    expect((await authorizationDisagreementCount()) - before).to.equal(5);
    const bulk = await send('POST', '/_bulk', ndjson([{ update: { _index: HOLDS, _id: '0' } }, { doc: { secret: 'guess' } }]), writer);
    expect(JSON.parse(bulk.text).items[0].update.status, bulk.text).to.equal(403);
    const visible = await send('POST', `/${HOLDS}/_update/0`, JSON.stringify({ doc: { vault: { label: 'v0' }, tag: 't0' } }), writer);
    expect(visible.status, visible.text).to.equal(200);
    expect(JSON.parse((await send('GET', `/${HOLDS}/_doc/0`)).text)._source).to.include({ secret: SECRETS[0], pin: PINS[0], title: 'door red number 0' });
  });

  it('a by-query operation finds documents as the caller reads them, and writes them whole; its script is refused', async () => {
    const writer: EngineAccess = { user: 'writer', indices: [{ names: ['fls-*'], ops: ['read', 'write', 'delete'] }], fields: { exclude: HIDDEN } };
    const deleted = await send('POST', `/${HOLDS}/_delete_by_query?refresh=true`, JSON.stringify({ query: { term: { secret: 'sesame' } } }), writer);
    expect(deleted.status, deleted.text).to.equal(200);
    expect(JSON.parse(deleted.text).deleted).to.equal(0);
    const updated = await send('POST', `/${HOLDS}/_update_by_query?refresh=true`, JSON.stringify({ query: { term: { n: 1 } } }), writer);
    expect(JSON.parse(updated.text).updated).to.equal(1);
    // rewritten whole: the admin still finds its hidden fields
    expect(JSON.parse((await send('GET', `/${HOLDS}/_doc/1`)).text)._source).to.include({ secret: SECRETS[1], pin: PINS[1] });
    const scripted = await send('POST', `/${HOLDS}/_update_by_query`, JSON.stringify({ script: { source: 'ctx._source.title = ctx._source.secret' } }), writer);
    expect(scripted.status, scripted.text).to.equal(400);
    expect(JSON.parse(scripted.text).error.type).to.equal('security_exception');
    expect((await send('GET', `/${HOLDS}/_doc/2`)).text).not.to.contain('"title":"shut"');
  });
});

for (const backend of BACKENDS) {
  describe(`field rules close value oracles through the gateway (${backend.name})`, function () {
    this.timeout(300_000);
    let url: string;
    let stop: () => Promise<void>;
    let tenant: string;

    before(async () => {
      const started = await backend.start();
      url = started.gateway.url;
      stop = started.stop;
      for (const [index, withHidden] of [[HOLDS, true], [NEVER, false]] as const) {
        expect((await call(url, 'PUT', `/${index}`, { body: { mappings: MAPPINGS(withHidden) } })).status).to.equal(200);
        const lines = documents(withHidden).flatMap((doc, i) => [{ index: { _index: index, _id: String(i) } }, doc]);
        expect((await call(url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON })).json.errors).to.equal(false);
      }
      const res = await call(url, 'POST', '/_credentials', { body: { indices: ['fls-*'], categories: ['docs', 'search', 'indices'], ops: ['read'], exclude_fields: HIDDEN } });
      expect(res.status, res.text).to.equal(201);
      tenant = basic(res.json.credential.username, res.json.password);
    });
    after(() => stop?.());

    it('property: each request that reads a hidden field is refused, or answered as on an index that never had it', async () => {
      await fc.assert(
        fc.asyncProperty(anyProbe, async (p) => {
          const ask = (index: string) => call(url, p.method, pathOf(p, index), { auth: tenant, body: bodyText(p, index), headers: { 'content-type': 'application/json' } });
          const holds = await ask(HOLDS);
          const what = `${p.method} ${p.path} ${JSON.stringify(p.body)} → ${holds.status} ${holds.text.slice(0, 300)}`;
          if (holds.status === 403) {
            expect(holds.json.error.type, what).to.equal('security_exception');
            return;
          }
          const never = await ask(NEVER);
          expect(normalized(holds.status, holds.text, HOLDS), what).to.deep.equal(normalized(never.status, never.text, NEVER));
        }),
        { seed: 3232, numRuns: 60 },
      );
    });

    it('an alias field (which reads its target, perhaps a hidden field) is refused as a scripted field is', async () => {
      const index = 'fls-aliased';
      expect((await call(url, 'PUT', `/${index}`, { body: { mappings: { properties: { secret: { type: 'keyword' }, also: { type: 'alias', path: 'secret' } } } } })).status).to.equal(200);
      expect((await call(url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { secret: SECRETS[0] } })).status).to.equal(201);
      for (const body of [{ query: { term: { also: SECRETS[0] } } }, { size: 0, aggs: { a: { terms: { field: 'also' } } } }, { fields: ['also'], _source: false }]) {
        const res = await call(url, 'POST', `/${index}/_search`, { auth: tenant, body });
        expect(res.status, `${JSON.stringify(body)} → ${res.text}`).to.equal(403);
        expect(res.json.error.reason).to.contain('alias');
      }
    });

    it('an update whose partial document writes a hidden field is refused (its `noop` would tell the value); one writing visible fields goes through', async () => {
      const res = await call(url, 'POST', '/_credentials', { body: { indices: ['fls-*'], categories: ['docs'], ops: ['read', 'write'], exclude_fields: HIDDEN } });
      const writer = basic(res.json.credential.username, res.json.password);
      for (const doc of [{ secret: SECRETS[0] }, { vault: { code: SECRETS[1] } }, { 'vault.code': null }, { pin: [] }]) {
        const refused = await call(url, 'POST', `/${HOLDS}/_update/0`, { auth: writer, body: { doc } });
        expect(refused.status, refused.text).to.equal(403);
        expect(refused.json.error.type).to.equal('security_exception');
      }
      const bulk = await call(url, 'POST', '/_bulk', { auth: writer, headers: NDJSON, body: ndjson([{ update: { _index: HOLDS, _id: '0' } }, { doc: { secret: SECRETS[0] } }]) });
      expect(bulk.status, bulk.text).to.equal(403);
      const visible = await call(url, 'POST', `/${HOLDS}/_update/0`, { auth: writer, body: { doc: { vault: { label: 'v0' }, tag: 't0' } } });
      expect(visible.status, visible.text).to.equal(200);
      expect((await call(url, 'GET', `/${HOLDS}/_doc/0`)).json._source).to.include({ secret: SECRETS[0], pin: PINS[0] });
    });
  });
}
