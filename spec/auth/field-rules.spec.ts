import { expect } from 'chai';
import WebSocket from 'ws';
import fc from 'fast-check';
import {
  FieldVisibility, bulkRefusal, declarativeRefusal, fieldCapsRefusal, mgetRefusal, patternsIntersect, queryTextFields, searchRefusal, updateRefusal,
  visibleMappings,
} from '../../lib/auth/field-rules.js';
import { queryParams } from '../../lib/request/index.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON } from '../support/http.js';

const params = (qs = '') => queryParams(qs);

describe('field rules: what a request may name (unit)', () => {
  const hiding = new FieldVisibility({ exclude: ['secret', 'user.ssn'] });
  const only = new FieldVisibility({ include: ['public', 'user.name'] });

  it('two `*` patterns meet when some name matches both', () => {
    expect(patternsIntersect('*', 'secret')).to.equal(true);
    expect(patternsIntersect('s*', '*et')).to.equal(true);
    expect(patternsIntersect('p*', 'secret')).to.equal(false);
    expect(patternsIntersect('a*b', 'a*c')).to.equal(false);
    expect(patternsIntersect('*x*', '*y*')).to.equal(true);
    expect(patternsIntersect('ab*', '*ba')).to.equal(true);
    expect(patternsIntersect('pub', 'pub')).to.equal(true);
  });

  it('a hidden field, what lies under it, an object holding it and a pattern that could match it are hidden; metadata never', () => {
    for (const ref of ['secret', 'secret.raw', '*', 's*', '*cret', 'user', 'user.*', 'user.ssn']) expect(hiding.refusalOfField(ref), ref).to.be.a('string');
    for (const ref of ['public', 'public.raw', 'p*', 'user.name', '_id', '_score']) expect(hiding.refusalOfField(ref), ref).to.equal(undefined);
    expect(hiding.refusalOfField('secret')).to.equal("field [secret] is hidden by the credential's field rules");
    // include rules: only what they cover
    for (const ref of ['secret', '*', 'pub*', 'user', 'user.age']) expect(only.refusalOfField(ref), ref).to.be.a('string');
    for (const ref of ['public', 'public.raw', 'user.name', '_id']) expect(only.refusalOfField(ref), ref).to.equal(undefined);
    // a nested path is an object: refused only when it is hidden itself
    expect(hiding.refusalOfPath('user')).to.equal(undefined);
    expect(only.refusalOfPath('user')).to.equal(undefined);
    expect(hiding.refusalOfPath('secret')).to.be.a('string');
  });

  it('reads the fields of a query string, escapes undone, phrases, regexes and ranges skipped', () => {
    expect(queryTextFields('secret:x AND public:"a:b" OR _exists_:n')).to.deep.equal(['secret', 'public', 'n']);
    expect(queryTextFields('user.\\*:x -(a:1) +b:[1 TO 2] /c:d/ plain')).to.deep.equal(['user.*', 'a', 'b']);
    expect(queryTextFields('f:2020-01-01T10\\:00')).to.deep.equal(['f']);
    // read as Lucene's tokenizer reads it, never skipping further than it does
    expect(queryTextFields('["]" TO "a"] secret:x')).to.deep.equal(['secret']);
    expect(queryTextFields('["x TO y] secret:x')).to.deep.equal(['secret']);
    expect(queryTextFields('x/y/secret:q')).to.deep.equal(['secret']);
    expect(queryTextFields('\\u0073ecret:q a&&secret:q')).to.deep.equal(['secret', 'a&&secret']);
    expect(queryTextFields('_exists_:"secret" OR _exists_:(a b)')).to.deep.equal(['*', '*']);
  });

  const refused: Array<[string, unknown, string?]> = [
    ['fields *', { fields: ['*'] }],
    ['docvalue_fields', { docvalue_fields: [{ field: 'secret', format: 'x' }] }],
    ['stored_fields', { stored_fields: 'public,secret' }],
    ['script_fields', { script_fields: { x: { script: 'doc.public' } } }],
    ['runtime_mappings', { runtime_mappings: { x: { type: 'keyword' } } }],
    ['terms agg', { aggs: { a: { terms: { field: 'secret' } } } }],
    ['sub-agg', { aggs: { a: { terms: { field: 'public' }, aggs: { b: { cardinality: { field: 'secret.raw' } } } } } }],
    ['agg script', { aggs: { a: { max: { script: { source: '1' } } } } }],
    ['composite', { aggs: { a: { composite: { sources: [{ s: { terms: { field: 'secret' } } }] } } } }],
    ['top_hits without _source', { aggs: { a: { top_hits: { size: 1 } } } }],
    ['top_hits sort', { aggs: { a: { top_hits: { _source: ['public'], sort: ['secret'] } } } }],
    ['unknown agg', { aggs: { a: { no_such_agg: { field: 'public' } } } }],
    ['sort', { sort: [{ secret: { order: 'asc' } }] }],
    ['sort script', { sort: { _script: { type: 'number', script: '1' } } }],
    ['collapse', { collapse: { field: 'secret' } }],
    ['collapse inner_hits', { collapse: { field: 'public', inner_hits: { name: 'i' } } }],
    ['highlight *', { highlight: { fields: { '*': {} } } }],
    ['suggest', { suggest: { s: { text: 'x', term: { field: 'secret' } } } }],
    ['term', { query: { term: { secret: 'x' } } }],
    ['range', { query: { bool: { filter: [{ range: { secret: { gte: 'a' } } }] } } }],
    ['exists', { query: { exists: { field: 'secret' } } }],
    ['prefix in must_not', { query: { bool: { must_not: { prefix: { secret: 'a' } } } } }],
    ['terms lookup path', { query: { terms: { public: { index: 'x', id: '1', path: 'secret' } } } }],
    ['indexed shape path', { query: { geo_shape: { public: { indexed_shape: { index: 'x', id: '1', path: 'secret' } } } } }],
    ['xy indexed shape path', { query: { xy_shape: { public: { indexed_shape: { index: 'x', id: '1', path: 'secret' } } } } }],
    ['xy_shape on a hidden field', { query: { xy_shape: { secret: { shape: { type: 'envelope', coordinates: [[0, 1], [1, 0]] } } } } }],
    ['query_string default fields', { query: { query_string: { query: 'x' } } }],
    ['query_string field in text', { query: { query_string: { query: 'secret:x', default_field: 'public' } } }],
    ['simple_query_string', { query: { simple_query_string: { query: 'x' } } }],
    ['multi_match pattern', { query: { multi_match: { query: 'x', fields: ['pub*', 's*^2'] } } }],
    ['nested inner_hits', { query: { nested: { path: 'user', query: { match_all: {} }, inner_hits: {} } } }],
    ['function_score decay', { query: { function_score: { functions: [{ gauss: { secret: { origin: 1, scale: 1 } } }] } } }],
    ['script query', { query: { script: { script: '1' } } }],
    ['unknown query', { query: { no_such_query: {} } }],
    ['post_filter', { post_filter: { term: { secret: 'x' } } }],
    ['rescore', { rescore: { query: { rescore_query: { match: { secret: 'x' } } } } }],
    ['knn', { knn: { field: 'secret', query_vector: [1], k: 1, num_candidates: 1 } }],
    ['unknown member', { retriever: { standard: { query: { match_all: {} } } } }],
    ['q without df', {}, 'q=x'],
    ['q naming a hidden field', {}, 'q=secret:x&df=public'],
    ['sort parameter', {}, 'sort=secret:desc'],
    ['docvalue_fields parameter', {}, 'docvalue_fields=secret'],
  ];
  for (const [name, body, qs] of refused) {
    it(`refuses: ${name}`, () => expect(searchRefusal(hiding, body, params(qs))).to.be.a('string'));
  }

  const allowed: Array<[string, unknown, string?]> = [
    ['match_all', { query: { match_all: {} }, size: 3, from: 0, track_total_hits: true, _source: ['secret'] }],
    ['fields and doc values', { fields: ['public', { field: 'n', format: 'x' }, 'p*'], docvalue_fields: ['n'], stored_fields: '_none_' }],
    ['aggregations', { aggs: { a: { terms: { field: 'public', order: { m: 'desc' } }, aggs: { m: { max: { field: 'n' } }, s: { max_bucket: { buckets_path: 'a>m' } } } } } }],
    ['top_hits with _source', { aggs: { a: { top_hits: { _source: { includes: ['public'] }, sort: [{ n: 'asc' }] } } } }],
    ['sort and search_after', { sort: ['public', { n: 'desc' }, '_score'], search_after: ['x', 1, 2] }],
    ['collapse', { collapse: { field: 'public', inner_hits: { name: 'i', _source: false } } }],
    ['highlight', { query: { match: { public: 'x' } }, highlight: { fields: { public: {} } } }],
    ['queries', { query: { bool: { must: [{ term: { public: 'x' } }, { range: { n: { gte: 1 } } }, { exists: { field: 'public' } }], should: { ids: { values: ['1'] } } } } }],
    ['query_string with its fields', { query: { query_string: { query: 'public:x OR y', fields: ['public^2'] } } }],
    ['multi_match with its fields', { query: { multi_match: { query: 'x', fields: ['public', 'p*'] } } }],
    ['q with df', {}, 'q=public:x%20y&df=public&sort=n:asc'],
  ];
  for (const [name, body, qs] of allowed) {
    it(`allows: ${name}`, () => expect(searchRefusal(hiding, body, params(qs))).to.equal(undefined));
  }

  it('an _msearch search names the fields of its _source (no URL parameter narrows it)', () => {
    expect(searchRefusal(hiding, { query: { match_all: {} } }, undefined, true)).to.be.a('string');
    expect(searchRefusal(hiding, { query: { match_all: {} }, _source: ['public'] }, undefined, true)).to.equal(undefined);
    expect(searchRefusal(hiding, { _source: { includes: ['*'] } }, undefined, true)).to.be.a('string');
  });

  it('_field_caps, _mget and declarative requests', () => {
    expect(fieldCapsRefusal(hiding, undefined, params('fields=*'))).to.be.a('string');
    expect(fieldCapsRefusal(hiding, undefined, params('fields=public,n'))).to.equal(undefined);
    expect(mgetRefusal(hiding, { docs: [{ _id: '1', _source: true }] }, params())).to.be.a('string');
    expect(mgetRefusal(hiding, { docs: [{ _id: '1' }] }, params())).to.equal(undefined);
    expect(declarativeRefusal(hiding, { query: [{ id: 'a', type: 'term', dataField: 'secret' }] })).to.be.a('string');
    expect(declarativeRefusal(hiding, { query: [{ id: 'a', customQuery: { query: { term: { secret: 'x' } } } }] })).to.be.a('string');
    expect(declarativeRefusal(hiding, { query: [{ id: 'a', dataField: ['public'], sortField: 'n', defaultQuery: { term: { public: 'x' } } }] })).to.equal(undefined);
  });

  it('_update and _bulk updates: no script, and a _source asked back names allowed fields', () => {
    expect(updateRefusal(hiding, { script: { source: 'ctx._source.public = ctx._source.secret' } }, params())).to.be.a('string');
    expect(updateRefusal(hiding, { doc: { public: 'x' } }, params('_source=true'))).to.be.a('string');
    expect(updateRefusal(hiding, { doc: { public: 'x' }, _source: ['public'] }, params())).to.equal(undefined);
    const update = (sourceText: string, meta: Record<string, unknown> = {}) => ({ action: 'update' as const, meta, sourceText });
    expect(bulkRefusal(hiding, [update('{"script":"ctx._source.public = ctx._source.secret"}')], params())).to.be.a('string');
    expect(bulkRefusal(hiding, [update('{"doc":{"public":"x"}}', { _source: true })], params())).to.be.a('string');
    expect(bulkRefusal(hiding, [update('{"doc":{"public":"x"}}'), { action: 'index', meta: {}, sourceText: '{"script":1}' }], params())).to.equal(undefined);
  });

  it('a mappings answer loses the hidden fields (and their multi-fields), keeps the rest', () => {
    const answer = { i: { mappings: { properties: { public: { type: 'text', fields: { raw: { type: 'keyword' } } }, secret: { type: 'keyword' }, user: { properties: { ssn: { type: 'keyword' }, name: { type: 'keyword' } } } } } } };
    expect(visibleMappings(hiding, answer)).to.deep.equal({ i: { mappings: { properties: { public: answer.i.mappings.properties.public, user: { properties: { name: { type: 'keyword' } } } } } } });
    expect(visibleMappings(only, answer)).to.deep.equal({ i: { mappings: { properties: { public: answer.i.mappings.properties.public, user: { properties: { name: { type: 'keyword' } } } } } } });
  });
});

const SECRET = 'quokka';

for (const backend of BACKENDS) {
  describe(`field rules hold wherever fields are read (${backend.name})`, function () {
    this.timeout(120_000);
    let url: string;
    let stop: (() => Promise<void>) | undefined;
    let auth: string;
    let writer: string;

    before(async () => {
      const started = await backend.start();
      url = started.gateway.url;
      stop = started.stop;
      const created = await call(url, 'PUT', '/fls', { body: { mappings: { properties: { public: { type: 'keyword' }, secret: { type: 'keyword' }, n: { type: 'integer' } } } } });
      expect(created.status, created.text).to.equal(200);
      const docs = [{ public: 'alpha', secret: `${SECRET}1`, n: 1 }, { public: 'beta', secret: `${SECRET}2`, n: 2 }];
      const bulk = await call(url, 'POST', '/_bulk?refresh=true', { body: ndjson(docs.flatMap((d, i) => [{ index: { _index: 'fls', _id: String(i + 1) } }, d])), headers: NDJSON });
      expect(bulk.status, bulk.text).to.equal(200);
      const cred = await call(url, 'POST', '/_credentials', {
        body: { indices: ['fls'], categories: ['search', 'docs', 'streams', 'indices', 'declarative'], ops: ['read'], exclude_fields: ['secret'] },
      });
      expect(cred.status, cred.text).to.equal(201);
      auth = basic(cred.json.credential.username, cred.json.password);
      const writes = await call(url, 'POST', '/_credentials', {
        body: { indices: ['flsw'], categories: ['docs'], ops: ['read', 'write'], exclude_fields: ['secret'] },
      });
      expect(writes.status, writes.text).to.equal(201);
      writer = basic(writes.json.credential.username, writes.json.password);
      const put = await call(url, 'PUT', '/flsw/_doc/1?refresh=true', { body: { public: 'alpha', secret: `${SECRET}9` } });
      expect(put.status, put.text).to.be.oneOf([200, 201]);
    });
    after(() => stop?.());

    const as = (method: string, path: string, body?: unknown) =>
      call(url, method, path, { auth, body, headers: typeof body === 'string' ? NDJSON : undefined });

    const leaks: Array<[string, string, string, unknown?]> = [
      ['fields: ["*"]', 'POST', '/fls/_search', { fields: ['*'] }],
      ['docvalue_fields', 'POST', '/fls/_search', { docvalue_fields: ['secret'] }],
      ['stored_fields', 'POST', '/fls/_search', { stored_fields: ['secret'] }],
      ['script_fields', 'POST', '/fls/_search', { script_fields: { s: { script: { source: "doc['secret'].value" } } } }],
      ['terms aggregation', 'POST', '/fls/_search', { size: 0, aggs: { s: { terms: { field: 'secret' } } } }],
      ['aggregation script', 'POST', '/fls/_search', { size: 0, aggs: { s: { terms: { script: { source: "doc['secret'].value" } } } } }],
      ['top_hits _source', 'POST', '/fls/_search', { size: 0, aggs: { s: { top_hits: { size: 2 } } } }],
      ['sort values', 'POST', '/fls/_search', { sort: [{ secret: 'asc' }] }],
      ['collapse', 'POST', '/fls/_search', { collapse: { field: 'secret' } }],
      ['runtime_mappings', 'POST', '/fls/_search', { runtime_mappings: { s: { type: 'keyword', script: { source: "emit(doc['secret'].value)" } } }, fields: ['s'] }],
      ['highlight *', 'POST', '/fls/_search', { query: { match_all: {} }, highlight: { fields: { '*': {} } } }],
      ['suggest', 'POST', '/fls/_search', { suggest: { s: { text: 'quokka', term: { field: 'secret' } } } }],
      ['term oracle', 'POST', '/fls/_search', { query: { term: { secret: `${SECRET}1` } } }],
      ['range oracle', 'POST', '/fls/_count', { query: { range: { secret: { gte: 'q' } } } }],
      ['exists oracle', 'POST', '/fls/_count', { query: { exists: { field: 'secret' } } }],
      ['prefix oracle', 'POST', '/fls/_search', { query: { bool: { filter: { prefix: { secret: 'quo' } } } } }],
      ['query_string default fields', 'POST', '/fls/_search', { query: { query_string: { query: `${SECRET}1` } } }],
      ['query_string field in its text', 'POST', '/fls/_search', { query: { query_string: { query: `secret:${SECRET}1`, default_field: 'public' } } }],
      ['simple_query_string', 'POST', '/fls/_search', { query: { simple_query_string: { query: `${SECRET}1` } } }],
      ['multi_match', 'POST', '/fls/_search', { query: { multi_match: { query: `${SECRET}1` } } }],
      ['q= without df', 'GET', `/fls/_search?q=${SECRET}1`],
      ['q= naming the field', 'GET', `/fls/_search?q=secret:${SECRET}1&df=public`],
      ['sort parameter', 'GET', '/fls/_search?sort=secret:asc'],
      ['docvalue_fields parameter', 'GET', '/fls/_search?docvalue_fields=secret'],
      ['_field_caps *', 'GET', '/fls/_field_caps?fields=*'],
      ['explain', 'POST', '/fls/_explain/1', { query: { term: { secret: `${SECRET}1` } } }],
      ['unknown query type', 'POST', '/fls/_search', { query: { no_such_query: { secret: 'x' } } }],
      ['live search', 'POST', '/fls/_search?stream=true', { query: { term: { secret: `${SECRET}1` } } }],
      ['declarative dataField', 'POST', '/fls/_declarative', { query: [{ id: 'r', type: 'term', dataField: 'secret' }] }],
      ['declarative customQuery', 'POST', '/fls/_declarative', { query: [{ id: 'r', type: 'search', dataField: 'public', customQuery: { query: { term: { secret: `${SECRET}1` } } } }] }],
    ];
    for (const [name, method, path, body] of leaks) {
      it(`${name}: 403 security_exception`, async () => {
        const res = await as(method, path, body);
        expect(res.status, res.text.slice(0, 400)).to.equal(403);
        expect(res.json.error.type).to.equal('security_exception');
        expect(res.json.error.reason).to.match(/^action \[.+\] is unauthorized for user \[.+\]: /);
        expect(res.text).not.to.contain(SECRET);
      });
    }

    it('a WebSocket subscription is held to the same rules as the HTTP request', async () => {
      const ws = new WebSocket(url.replace(/^http/, 'ws') + '/fls', { headers: { authorization: auth } });
      await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
      const frames: Array<{ id: string; status?: number; channel?: string }> = [];
      const next = () => new Promise<{ id: string; status?: number; channel?: string }>((resolve) => ws.once('message', (d) => resolve(JSON.parse(String(d)))));
      let answer = next();
      ws.send(JSON.stringify({ id: 'hidden', path: 'fls/_search', method: 'POST', body: { query: { term: { secret: `${SECRET}1` } } } }));
      frames.push(await answer);
      answer = next();
      ws.send(JSON.stringify({ id: 'open', path: 'fls/_search', method: 'POST', body: { query: { term: { public: 'alpha' } } } }));
      frames.push(await answer);
      ws.close();
      expect(frames[0]).to.include({ id: 'hidden', status: 403 });
      expect(frames[1]).to.include({ id: 'open', channel: 'open' });
      expect(JSON.stringify(frames)).not.to.contain(SECRET);
    });

    it('names the hidden field in the refusal', async () => {
      const res = await as('POST', '/fls/_search', { aggs: { s: { terms: { field: 'secret' } } } });
      expect(res.json.error.reason).to.match(/: field \[secret\] is hidden by the credential's field rules$/);
    });

    const works: Array<[string, string, string, unknown?]> = [
      ['match_all', 'POST', '/fls/_search', { query: { match_all: {} } }],
      ['a body _source naming the hidden field (the URL filter wins)', 'POST', '/fls/_search', { _source: { includes: ['secret'] } }],
      ['the index (its mapping without the hidden field)', 'GET', '/fls'],
      ['_mget', 'POST', '/fls/_mget', { ids: ['1', '2'] }],
      ['fields, doc values', 'POST', '/fls/_search', { fields: ['public'], docvalue_fields: ['n'] }],
      ['terms aggregation', 'POST', '/fls/_search', { size: 0, aggs: { p: { terms: { field: 'public' }, aggs: { m: { max: { field: 'n' } } } } } }],
      ['top_hits naming its _source', 'POST', '/fls/_search', { size: 0, aggs: { p: { top_hits: { _source: ['public'] } } } }],
      ['sort', 'POST', '/fls/_search', { sort: [{ public: 'desc' }, { n: 'asc' }] }],
      ['collapse', 'POST', '/fls/_search', { collapse: { field: 'public' } }],
      ['highlight', 'POST', '/fls/_search', { query: { match: { public: 'alpha' } }, highlight: { fields: { public: {} } } }],
      ['term, range, exists', 'POST', '/fls/_count', { query: { bool: { filter: [{ term: { public: 'alpha' } }, { range: { n: { gte: 1 } } }, { exists: { field: 'public' } }] } } }],
      ['query_string on its fields', 'POST', '/fls/_search', { query: { query_string: { query: 'public:alpha OR beta', default_field: 'public' } } }],
      ['q= with df', 'GET', '/fls/_search?q=alpha&df=public&sort=n:asc'],
      ['document', 'GET', '/fls/_doc/1'],
      ['_field_caps of its fields', 'GET', '/fls/_field_caps?fields=public,n'],
      ['_mapping (the hidden field taken out)', 'GET', '/fls/_mapping'],
      ['_msearch naming its _source', 'POST', '/fls/_msearch', ndjson([{}, { query: { match_all: {} }, _source: ['public'] }])],
      // answered as Elasticsearch's field-level security answers them: without the hidden field
      ['_mapping of the field (answered without it)', 'GET', '/fls/_mapping/field/secret'],
      ['_msearch without _source (each search narrowed to the rules)', 'POST', '/fls/_msearch', ndjson([{}, { query: { match_all: {} } }])],
      ['declarative', 'POST', '/fls/_declarative', { query: [{ id: 'r', type: 'term', dataField: 'public' }, { id: 's', type: 'search', dataField: 'public', value: 'alpha' }] }],
    ];
    for (const [name, method, path, body] of works) {
      it(`${name}: answers without the hidden value`, async () => {
        const res = await as(method, path, body);
        expect(res.status, res.text.slice(0, 400)).to.equal(200);
        expect(res.text).not.to.contain(SECRET);
        expect(res.text).not.to.match(/"secret"/);
      });
    }

    it('a scroll it opens goes on (checked as the search that opened it)', async () => {
      const first = await as('POST', '/fls/_search?scroll=1m', { size: 1, sort: ['n'] });
      expect(first.status, first.text).to.equal(200);
      const next = await as('POST', '/_search/scroll', { scroll: '1m', scroll_id: first.json._scroll_id });
      expect(next.status, next.text).to.equal(200);
      expect(next.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2']);
      expect(first.text + next.text).not.to.contain(SECRET);
    });

    it('writes: an update script (alone or in a _bulk) is refused, a partial document goes through', async () => {
      const copy = { script: { source: 'ctx._source.public = ctx._source.secret' } };
      const scripted = await call(url, 'POST', '/flsw/_update/1', { auth: writer, body: copy });
      expect(scripted.status, scripted.text).to.equal(403);
      const bulk = await call(url, 'POST', '/_bulk', { auth: writer, headers: NDJSON, body: ndjson([{ update: { _index: 'flsw', _id: '1' } }, copy]) });
      expect(bulk.status, bulk.text).to.equal(403);
      const shown = await call(url, 'POST', '/flsw/_update/1?_source=true', { auth: writer, body: { doc: { public: 'alpha' } } });
      expect(shown.status, shown.text).to.equal(403);
      const plain = await call(url, 'POST', '/flsw/_update/1', { auth: writer, body: { doc: { public: 'alpha' } } });
      expect(plain.status, plain.text).to.equal(200);
      const indexed = await call(url, 'POST', '/_bulk', { auth: writer, headers: NDJSON, body: ndjson([{ index: { _index: 'flsw', _id: '2' } }, { public: 'beta' }]) });
      expect(indexed.status, indexed.text).to.equal(200);
      for (const res of [scripted, bulk, shown, plain, indexed]) expect(res.text).not.to.contain(SECRET);
    });

    it('the aggregation on an allowed field counts every document', async () => {
      const res = await as('POST', '/fls/_search', { size: 0, aggs: { p: { terms: { field: 'public' } } } });
      expect(res.json.aggregations.p.buckets.map((b: { key: string }) => b.key).sort()).to.deep.equal(['alpha', 'beta']);
    });

    it('property: bodies mixing allowed and hidden references never show the hidden value, and are refused exactly when they name a hidden field', async () => {
      const hidden = ['secret', 'secret.raw', '*', 's*'];
      const field = fc.constantFrom('public', 'n', 'p*', ...hidden);
      const valueFor = (f: string) => (f === 'n' ? 1 : hidden.includes(f) ? `${SECRET}1` : 'alpha');
      // each place a field can be named, as a piece of a search body
      type Piece = { refs: string[]; body: Record<string, unknown> };
      const concrete = (f: string) => (f.includes('*') ? 'public' : f);
      const place: fc.Arbitrary<Piece> = fc.oneof(
        field.map((f) => ({ refs: [concrete(f)], body: { query: { term: { [concrete(f)]: valueFor(f) } } } })),
        field.map((f) => ({ refs: [concrete(f)], body: { post_filter: { range: { [concrete(f)]: { gte: valueFor(f) } } } } })),
        field.map((f) => ({ refs: [concrete(f)], body: { query: { exists: { field: concrete(f) } } } })),
        field.map((f) => ({ refs: [f], body: { query: { query_string: { query: 'alpha', fields: [f] } } } })),
        field.map((f) => ({ refs: [f], body: { fields: [f] } })),
        field.map((f) => ({ refs: [f], body: { docvalue_fields: [f] } })),
        field.map((f) => ({ refs: [concrete(f)], body: { sort: [{ [concrete(f)]: 'asc' }] } })),
        field.map((f) => ({ refs: [concrete(f)], body: { aggs: { a: { terms: { field: concrete(f) } } } } })),
        field.map((f) => ({ refs: [concrete(f)], body: { aggs: { m: { max: { field: concrete(f) } } } } })),
        field.map((f) => ({ refs: [concrete(f)], body: { collapse: { field: concrete(f) } } })),
        field.map((f) => ({ refs: [f], body: { highlight: { fields: { [f]: {} } } } })),
        fc.tuple(field, field).map(([f, g]) => ({ refs: [concrete(f), g], body: { aggs: { t: { terms: { field: concrete(f) }, aggs: { h: { top_hits: { _source: [g] } } } } } } })),
      );
      const merge = (pieces: Piece[]): Piece => {
        const body: Record<string, unknown> = {};
        const refs: string[] = [];
        pieces.forEach((p, i) => {
          for (const [k, v] of Object.entries(p.body)) {
            if (k === 'aggs') {
              // each piece's aggregations under names of their own
              const aggs = (body.aggs ??= {}) as Record<string, unknown>;
              for (const [name, agg] of Object.entries(v as object)) aggs[`${name}${i}`] = agg;
            } else if (!(k in body)) body[k] = v;
            else continue;
            refs.push(...p.refs);
          }
        });
        return { refs, body };
      };
      await fc.assert(
        fc.asyncProperty(fc.array(place, { minLength: 1, maxLength: 4 }).map(merge), fc.boolean(), async ({ refs, body }, count) => {
          const res = count && !('aggs' in body || 'sort' in body || 'fields' in body || 'docvalue_fields' in body || 'collapse' in body || 'highlight' in body || 'post_filter' in body)
            ? await as('POST', '/fls/_count', body)
            : await as('POST', '/fls/_search', body);
          expect(res.text, JSON.stringify(body)).not.to.contain(SECRET);
          const namesHidden = refs.some((r) => hidden.includes(r));
          if (namesHidden) expect(res.status, `${JSON.stringify(body)} → ${res.text.slice(0, 300)}`).to.equal(403);
          else expect(res.status, `${JSON.stringify(body)} → ${res.text.slice(0, 300)}`).to.be.oneOf([200, 400]);
        }),
        { seed: 32, numRuns: 60 },
      );
    });
  });
}
