import { expect } from 'chai';
import fc from 'fast-check';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON, type Reply } from '../support/http.js';
import { openStream } from '../support/stream-client.js';

/**
 * Hostile-tenant review of the field rules (issue 32): a credential whose `exclude_fields` hide
 * `secret*` (and one whose `include_fields` show `public.*` only) on `mine-1`, where the admin's
 * documents hold hidden values, tries to learn a hidden value — or whether a document has one —
 * through anything but `_source`. The oracle is differential: each attack is sent twice, once
 * with the right guess and once with a wrong one (a value oracle), and once naming the hidden
 * field and once naming a hidden field no document has (an existence oracle); the two answers must
 * not differ (status, error type, hits, counts, scores, order, aggregations), and no answer may
 * show a hidden value. Refusing (403/400) is as good as answering as if the field did not exist,
 * as long as it does not depend on the value. Both backends.
 */

/** Cases: FAST_CHECK_RUNS (default 60 per backend, fixed seed FAST_CHECK_SEED); `npm run fuzz:tenancy` runs more. */
const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 60);
const SEED = Number(process.env.FAST_CHECK_SEED ?? 3232);
const SECRET = 'sesame-7f3';
const WRONG = 'zzzzzz-000';
const SECRET_N = 7;
/** A hidden field (under both credentials' rules) that no document holds and no mapping names. */
const ABSENT = 'secretzz';

type Attack = { method?: string; path?: string; body?: unknown; ndjson?: boolean };
/** An attack on field `f` with guessed value `v` (a string; `n` its number form for numeric fields). */
type Template = (f: string, v: string, n: number) => Attack;

const q = (query: unknown): unknown => ({ query, _source: ['public.title', 'f'] });

/** Queries on a hidden keyword field: each must not tell whether a document's value is `v`. */
const QUERY_ATTACKS: Record<string, Template> = {
  term: (f, v) => ({ body: q({ term: { [f]: v } }) }),
  'term on the multi-field': (f, v) => ({ body: q({ term: { [`${f}.raw`]: v } }) }),
  terms: (f, v) => ({ body: q({ terms: { [f]: [v] } }) }),
  'range gte': (f, v) => ({ body: q({ range: { [f]: { gte: v } } }) }),
  prefix: (f, v) => ({ body: q({ prefix: { [f]: v.slice(0, 4) } }) }),
  wildcard: (f, v) => ({ body: q({ wildcard: { [f]: { value: `${v.slice(0, 3)}*` } } }) }),
  regexp: (f, v) => ({ body: q({ regexp: { [f]: `${v.slice(0, 3)}.*` } }) }),
  fuzzy: (f, v) => ({ body: q({ fuzzy: { [f]: v } }) }),
  match: (f, v) => ({ body: q({ match: { [f]: v } }) }),
  'match_bool_prefix': (f, v) => ({ body: q({ match_bool_prefix: { [f]: v.slice(0, 4) } }) }),
  intervals: (f, v) => ({ body: q({ intervals: { [f]: { match: { query: v } } } }) }),
  'intervals use_field': (f, v) => ({ body: q({ intervals: { f: { match: { query: v, use_field: f } } } }) }),
  span_term: (f, v) => ({ body: q({ span_term: { [f]: v } }) }),
  'span_multi prefix': (f, v) => ({ body: q({ span_multi: { match: { prefix: { [f]: { value: v.slice(0, 4) } } } } }) }),
  'field_masking_span': (f, v) => ({ body: q({ span_near: { clauses: [{ span_term: { f: 'a' } }, { field_masking_span: { query: { span_term: { [f]: v } }, field: 'f' } }], slop: 5, in_order: false } }) }),
  'query_string field:value': (f, v) => ({ body: q({ query_string: { query: `${f}:"${v}"`, default_field: 'f' } }) }),
  'query_string field :value (a blank before the colon)': (f, v) => ({ body: q({ query_string: { query: `${f} :"${v}"`, default_field: 'f' } }) }),
  'query_string field: value (a blank after the colon)': (f, v) => ({ body: q({ query_string: { query: `${f}: "${v}"`, default_field: 'f' } }) }),
  'query_string grouped field': (f, v) => ({ body: q({ query_string: { query: `(${f}:"${v}")`, default_field: 'f' } }) }),
  'query_string field pattern': (f, v) => ({ body: q({ query_string: { query: `${f.slice(0, 3)}*:"${v}"`, default_field: 'f' } }) }),
  'query_string escaped field': (f, v) => ({ body: q({ query_string: { query: `${f.slice(0, 2)}\\${f.slice(2)}:"${v}"`, default_field: 'f' } }) }),
  'query_string default_field': (f, v) => ({ body: q({ query_string: { query: `"${v}"`, default_field: f } }) }),
  'query_string default_field *': (_f, v) => ({ body: q({ query_string: { query: `"${v}"`, default_field: '*' } }) }),
  'query_string without fields': (_f, v) => ({ body: q({ query_string: { query: `"${v}"` } }) }),
  'query_string _exists_': (f) => ({ body: q({ query_string: { query: `_exists_:${f}`, default_field: 'f' } }) }),
  'simple_query_string over *': (_f, v) => ({ body: q({ simple_query_string: { query: `"${v}"`, fields: ['*'] } }) }),
  'simple_query_string without fields': (_f, v) => ({ body: q({ simple_query_string: { query: `"${v}"` } }) }),
  'multi_match over *': (_f, v) => ({ body: q({ multi_match: { query: v, fields: ['*'] } }) }),
  'multi_match over a boosted pattern': (f, v) => ({ body: q({ multi_match: { query: v, fields: [`${f.slice(0, 2)}*^3`] } }) }),
  'combined_fields': (f, v) => ({ body: q({ combined_fields: { query: v, fields: [f, 'f'] } }) }),
  'more_like_this like text over *': (_f, v) => ({ body: q({ more_like_this: { like: v, fields: ['*'], min_term_freq: 1, min_doc_freq: 1 } }) }),
  'more_like_this like text without fields': (_f, v) => ({ body: q({ more_like_this: { like: v, min_term_freq: 1, min_doc_freq: 1 } }) }),
  'more_like_this like an artificial document': (f, v) => ({ body: q({ more_like_this: { fields: ['f'], like: [{ doc: { [f]: v } }], min_term_freq: 1, min_doc_freq: 1 } }) }),
  'terms lookup path on the hidden field': (f) => ({ body: q({ terms: { f: { index: 'mine-1', id: '1', path: f } } }) }),
  'terms_set minimum_should_match_field': (f, _v, n) => ({ body: q({ terms_set: { f: { terms: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].slice(0, n), minimum_should_match_field: `${f}_n` } } }) }),
  'terms_set minimum_should_match_script': (f, v) => ({
    body: q({ terms_set: { f: { terms: ['a'], minimum_should_match_script: { source: `doc['${f}'].size() > 0 && doc['${f}'].value == params.v ? 1 : 2`, params: { v } } } } }),
  }),
  'exists': (f) => ({ body: q({ exists: { field: f } }) }),
  'exists on a pattern': (f) => ({ body: q({ exists: { field: `${f.slice(0, 3)}*` } }) }),
  'function_score field_value_factor': (f) => ({ body: q({ function_score: { query: { match_all: {} }, field_value_factor: { field: `${f}_n`, missing: 1 } } }) }),
  'function_score decay': (f, _v, n) => ({ body: q({ function_score: { gauss: { [`${f}_n`]: { origin: n, scale: 1 } } } }) }),
  'function_score script_score': (f, v) => ({ body: q({ function_score: { script_score: { script: { source: `doc['${f}'].size() > 0 && doc['${f}'].value == params.v ? 2 : 1`, params: { v } } } } }) }),
  'script_score reading _source': (f, v) => ({ body: q({ script_score: { query: { match_all: {} }, script: { source: `params._source.${f} == params.v ? 2 : 1`, params: { v } } } }) }),
  'script query': (f, v) => ({ body: q({ script: { script: { source: `doc['${f}'].size() > 0 && doc['${f}'].value == params.v`, params: { v } } } }) }),
  'min_score over a hidden-field score': (f, v) => ({ body: { ...(q({ bool: { should: [{ match_all: {} }, { term: { [f]: v } }] } }) as object), min_score: 1.5 } }),
  'runtime_mappings': (f, v) => ({ body: { ...(q({ term: { probe: true } }) as object), runtime_mappings: { probe: { type: 'boolean', script: { source: `emit(params._source.${f} == '${v}')` } } } } }),
  'percolate a document': (f, v) => ({ body: q({ percolate: { field: 'f', document: { [f]: v } } }) }),
  'nested under an object path': (f, v) => ({ body: q({ bool: { filter: [{ term: { [f]: v } }] } }) }),
  'post_filter': (f, v) => ({ body: { ...(q({ match_all: {} }) as object), post_filter: { term: { [f]: v } } } }),
  'rescore query': (f, v) => ({ body: { ...(q({ match_all: {} }) as object), rescore: { window_size: 10, query: { rescore_query: { term: { [f]: v } } } } } }),
  'highlight_query': (f, v) => ({ body: { ...(q({ match_all: {} }) as object), highlight: { fields: { f: { highlight_query: { term: { [f]: v } } } } } } }),
  'aggregation filter': (f, v) => ({ body: { size: 0, aggs: { x: { filter: { term: { [f]: v } } } } } }),
  'aggregation terms': (f) => ({ body: { size: 0, aggs: { x: { terms: { field: f } } } } }),
  'aggregation terms include': (f, v) => ({ body: { size: 0, aggs: { x: { terms: { field: f, include: [v] } } } } }),
  'aggregation significant_text': (f) => ({ body: { size: 0, aggs: { x: { significant_text: { field: `${f}_note` } } } } }),
  'aggregation cardinality': (f) => ({ body: { size: 0, aggs: { x: { cardinality: { field: f } } } } }),
  'aggregation max over the number': (f) => ({ body: { size: 0, aggs: { x: { max: { field: `${f}_n` } } } } }),
  'aggregation top_hits _source': (f) => ({ body: { size: 0, aggs: { x: { top_hits: { _source: [f] } } } } }),
  'aggregation top_hits wildcard _source': () => ({ body: { size: 0, aggs: { x: { top_hits: { _source: { includes: ['*'] } } } } } }),
  'aggregation scripted_metric': (f, v) => ({
    body: { size: 0, aggs: { x: { scripted_metric: { init_script: 'state.n = 0', map_script: `if (params._source.${f} == '${v}') state.n++`, combine_script: 'return state.n', reduce_script: 'return states' } } } },
  }),
  'aggregation terms on a visible field, ordered by a hidden max': (f) => ({ body: { size: 0, aggs: { x: { terms: { field: 'f', order: { m: 'desc' } }, aggs: { m: { max: { field: `${f}_n` } } } } } } }),
  'sort on the hidden field': (f) => ({ body: { ...(q({ match_all: {} }) as object), sort: [{ [f]: 'asc' }, '_id'] } }),
  'sort with search_after': (f, v) => ({ body: { ...(q({ match_all: {} }) as object), sort: [{ [f]: 'asc' }, { _id: 'asc' }], search_after: [v, ''] } }),
  'sort by a script': (f) => ({ body: { ...(q({ match_all: {} }) as object), sort: { _script: { type: 'string', script: { source: `doc['${f}'].size() > 0 ? doc['${f}'].value : ''` }, order: 'asc' } } } }),
  'sort in the URL': (f) => ({ path: `/mine-1/_search?sort=${f}:asc,_id&_source=f`, method: 'GET' }),
  'collapse': (f) => ({ body: { ...(q({ match_all: {} }) as object), collapse: { field: f } } }),
  'highlight *': (_f, v) => ({ body: { ...(q({ query_string: { query: `"${v}"`, default_field: 'f' } }) as object), highlight: { fields: { '*': {} }, require_field_match: false } } }),
  'highlight the hidden field': (f) => ({ body: { ...(q({ match_all: {} }) as object), highlight: { fields: { [f]: {} } } } }),
  'docvalue_fields': (f) => ({ body: { ...(q({ match_all: {} }) as object), docvalue_fields: [f] } }),
  'fields *': () => ({ body: { ...(q({ match_all: {} }) as object), fields: ['*'] } }),
  'fields with a pattern': (f) => ({ body: { ...(q({ match_all: {} }) as object), fields: [`${f.slice(0, 2)}*`] } }),
  'stored_fields': (f) => ({ body: { ...(q({ match_all: {} }) as object), stored_fields: [f, '_source'] } }),
  '_source includes with wildcards': () => ({ body: { query: { match_all: {} }, _source: { includes: ['*', 's*'] } } }),
  '_source in the URL': (f) => ({ method: 'GET', path: `/mine-1/_search?_source_includes=${f},*` }),
  'suggest on the hidden field': (f, v) => ({ body: { suggest: { s: { text: v, term: { field: f } } } } }),
  'slice on the hidden field': (f) => ({ body: { ...(q({ match_all: {} }) as object), slice: { field: `${f}_n`, id: 0, max: 2 } } }),
  'q in the URL': (f, v) => ({ method: 'GET', path: `/mine-1/_search?q=${encodeURIComponent(`${f}:"${v}"`)}&df=f&_source=f` }),
  'q in the URL, a blank before the colon': (f, v) => ({ method: 'GET', path: `/mine-1/_search?q=${encodeURIComponent(`${f} :"${v}"`)}&df=f&_source=f` }),
  'df in the URL': (f, v) => ({ method: 'GET', path: `/mine-1/_search?q=${encodeURIComponent(`"${v}"`)}&df=${f}&_source=f` }),
  '_count': (f, v) => ({ path: '/mine-1/_count', body: { query: { term: { [f]: v } } } }),
  '_count q': (f, v) => ({ method: 'GET', path: `/mine-1/_count?q=${encodeURIComponent(`${f}:"${v}"`)}&df=f` }),
  '_explain': (f, v) => ({ path: '/mine-1/_explain/1', body: { query: { term: { [f]: v } } } }),
  '_validate/query rewrite': (f, v) => ({ path: '/mine-1/_validate/query?explain=true&rewrite=true', body: { query: { prefix: { [f]: v.slice(0, 3) } } } }),
  '_validate/query q': (f, v) => ({ method: 'GET', path: `/mine-1/_validate/query?explain=true&q=${encodeURIComponent(`${f}:"${v}"`)}&df=f` }),
  'profile': (f, v) => ({ body: { ...(q({ wildcard: { [f]: `${v.slice(0, 3)}*` } }) as object), profile: true } }),
  '_msearch': (f, v) => ({ path: '/mine-1/_msearch', ndjson: true, body: [{}, { _source: ['f'], query: { term: { [f]: v } } }] }),
  '_msearch naming the index in its header': (f, v) => ({ path: '/_msearch', ndjson: true, body: [{ index: 'mine-1' }, { _source: ['f'], query: { term: { [f]: v } } }] }),
  '_search/template inline': (f, v) => ({ path: '/mine-1/_search/template', body: { source: '{"query":{"term":{"{{f}}":"{{v}}"}},"_source":["f"]}', params: { f, v } } }),
  '_search/template spliced key': (f, v) => ({ path: '/mine-1/_search/template', body: { source: `{"query":{"term":{"${f.slice(0, 2)}{{rest}}":"{{v}}"}},"_source":["f"]}`, params: { rest: f.slice(2), v } } }),
  '_terms_enum': (f, v) => ({ path: '/mine-1/_terms_enum', body: { field: f, string: v.slice(0, 3) } }),
  '_field_caps filter': (f, v) => ({ method: 'GET', path: '/mine-1/_field_caps?fields=f', body: { index_filter: { term: { [f]: v } } } }),
  '_async_search': (f, v) => ({ path: '/mine-1/_async_search?wait_for_completion_timeout=30s', body: q({ term: { [f]: v } }) }),
  'declarative dataField': (f, v) => ({ path: '/mine-1/_declarative', body: { query: [{ id: 's', dataField: [f], value: v, includeFields: ['f'] }] } }),
  'declarative without dataField': (_f, v) => ({ path: '/mine-1/_declarative', body: { query: [{ id: 's', value: v, includeFields: ['f'] }] } }),
  'declarative term component': (f, v) => ({ path: '/mine-1/_declarative', body: { query: [{ id: 's', type: 'term', dataField: f, value: v, includeFields: ['f'] }] } }),
  'declarative defaultQuery': (f, v) => ({ path: '/mine-1/_declarative', body: { query: [{ id: 's', dataField: ['f'], defaultQuery: { query: { term: { [f]: v } } }, includeFields: ['f'] }] } }),
  'declarative queryString': (f, v) => ({ path: '/mine-1/_declarative', body: { query: [{ id: 's', dataField: ['f'], queryString: true, value: `${f}:"${v}"`, includeFields: ['f'] }] } }),
  'declarative queryString, a blank before the colon': (f, v) => ({ path: '/mine-1/_declarative', body: { query: [{ id: 's', dataField: ['f'], queryString: true, value: `${f} :"${v}"`, includeFields: ['f'] }] } }),
  'declarative suggestion without dataField': (_f, v) => ({ path: '/mine-1/_declarative', body: { query: [{ id: 's', type: 'suggestion', value: v.slice(0, 4) }] } }),
  'GET _doc with stored_fields': (f) => ({ method: 'GET', path: `/mine-1/_doc/1?stored_fields=${f}` }),
  'GET _doc with _source_includes': (f) => ({ method: 'GET', path: `/mine-1/_doc/1?_source_includes=${f}` }),
  'GET _source': () => ({ method: 'GET', path: '/mine-1/_source/1' }),
  'GET _source with _source_includes': (f) => ({ method: 'GET', path: `/mine-1/_source/1?_source_includes=${f}*` }),
  '_mget with an item _source': (f) => ({ path: '/_mget', body: { docs: [{ _index: 'mine-1', _id: '1', _source: [f] }] } }),
  '_mget with an item stored_fields': (f) => ({ path: '/mine-1/_mget', body: { docs: [{ _id: '1', stored_fields: [f] }] } }),
  '_mget with _source true': () => ({ path: '/mine-1/_mget', body: { docs: [{ _id: '1', _source: true }] } }),
  '_field_caps of the hidden field': (f) => ({ method: 'GET', path: `/mine-1/_field_caps?fields=${f}*` }),
  '_mapping/field of the hidden field': (f) => ({ method: 'GET', path: `/mine-1/_mapping/field/${f}*` }),
  'an admin-made field alias to the hidden field': (_f, v) => ({ body: q({ term: { nick: v } }) }),
  'an admin-made field alias, aggregated': () => ({ body: { size: 0, aggs: { x: { terms: { field: 'nick' } } } } }),
  'an admin-made field alias, sorted': () => ({ body: { ...(q({ match_all: {} }) as object), sort: [{ nick: 'asc' }, '_id'] } }),
  'an admin-made field alias, in fields': () => ({ body: { ...(q({ match_all: {} }) as object), fields: ['nick'] } }),
};

/** What may vary between two sends of one request: timings, ids of tasks. */
const VOLATILE = /^(took|time|time_in_nanos|.*_nanos|breakdown|debug|id|start_time_in_millis|expiration_time_in_millis|completion_time_in_millis|_shards|node)$/;

function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalized);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([k]) => !VOLATILE.test(k)).map(([k, v]) => [k, normalized(v)]));
}

/** An answer as an oracle sees it: the status, an error's type, the rest of a success. */
function seen(res: Reply, swap: [string, string][]): unknown {
  let text = res.text;
  for (const [from, to] of swap) text = text.split(from).join(to);
  let json: unknown;
  try {
    json = text.trim() ? JSON.parse(text.trim().startsWith('{') && text.includes('}{') ? `[${text.replace(/}\s*{/g, '},{')}]` : text) : undefined;
  } catch {
    json = text;
  }
  if (res.status >= 400) return { status: res.status, type: (json as { error?: { type?: string } })?.error?.type };
  return { status: res.status, body: normalized(json) };
}

for (const backend of BACKENDS) {
  describe(`hostile tenant against the field rules: value and existence oracles (${backend.name})`, function () {
    this.timeout(600_000);
    let url: string;
    let stop: () => Promise<void>;
    const tenants: Record<string, string> = {};

    const send = (auth: string, attack: Attack): Promise<Reply> => {
      const body = attack.ndjson ? ndjson(attack.body as unknown[]) : attack.body;
      return call(url, attack.method ?? 'POST', attack.path ?? '/mine-1/_search', { auth, body, headers: attack.ndjson ? NDJSON : undefined });
    };

    /** The attack must answer alike for the right and a wrong guess, and for the hidden field and an absent hidden one. */
    async function expectNoOracle(name: string, template: Template, auth: string, who: string): Promise<void> {
      const right = await send(auth, template('secret', SECRET, SECRET_N));
      const wrong = await send(auth, template('secret', WRONG, SECRET_N + 2));
      const absent = await send(auth, template(ABSENT, WRONG, SECRET_N + 2));
      const what = `${who}: ${name} ${JSON.stringify(template('secret', SECRET, SECRET_N))}`;
      for (const res of [right, wrong, absent]) expect(res.status, `${what} → ${res.status} ${res.text}`).to.be.below(500);
      expect(wrong.text, `${what} shows a hidden value: ${wrong.text}`).not.to.contain(SECRET);
      expect(absent.text, `${what} shows a hidden value: ${absent.text}`).not.to.contain(SECRET);
      expect(wrong.text, `${what} shows a hidden value: ${wrong.text}`).not.to.contain('sesame');
      expect(seen(right, [[SECRET, WRONG], [String(SECRET_N), String(SECRET_N + 2)]]), `${what}: the right guess answers otherwise than a wrong one\n right: ${right.text}\n wrong: ${wrong.text}`)
        .to.deep.equal(seen(wrong, []));
      expect(seen(absent, [[ABSENT, 'secret']]), `${what}: the hidden field answers otherwise than an absent hidden field\n secret: ${wrong.text}\n absent: ${absent.text}`)
        .to.deep.equal(seen(wrong, []));
    }

    before(async () => {
      const started = await backend.start();
      url = started.gateway.url;
      stop = started.stop;
      const mappings = {
        properties: {
          f: { type: 'keyword' },
          public: { properties: { title: { type: 'text' }, tag: { type: 'keyword' } } },
          secret: { type: 'keyword', fields: { raw: { type: 'keyword' } } },
          secret_n: { type: 'long' },
          secret_note: { type: 'text' },
          owner: { properties: { secret: { type: 'keyword' } } },
          // the admin's own alias of a hidden field
          nick: { type: 'alias', path: 'secret' },
          // and of a visible one
          also_f: { type: 'alias', path: 'f' },
        },
      };
      for (const ix of ['mine-1', 'other-1']) {
        const made = await call(url, 'PUT', `/${ix}`, { body: { mappings } });
        expect(made.status, made.text).to.equal(200);
      }
      const lines = [
        { index: { _index: 'mine-1', _id: '1' } }, { f: 'a', public: { title: 'alpha one', tag: 'x' }, secret: SECRET, secret_n: SECRET_N, secret_note: `${SECRET} is the word`, owner: { secret: 'o1' } },
        { index: { _index: 'mine-1', _id: '2' } }, { f: 'b', public: { title: 'beta two', tag: 'y' } },
        { index: { _index: 'mine-1', _id: '3' } }, { f: 'a', public: { title: 'gamma three', tag: 'x' }, secret: 'aaaa-0', secret_n: 1, secret_note: 'plain words' },
        { index: { _index: 'other-1', _id: '1' } }, { f: 'x', secret: SECRET },
      ];
      const bulk = await call(url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON });
      expect(bulk.json.errors, bulk.text).to.equal(false);
      const make = async (body: Record<string, unknown>) => {
        const res = await call(url, 'POST', '/_credentials', { body: { indices: ['mine*'], categories: ['docs', 'search', 'indices', 'streams', 'declarative'], ...body } });
        expect(res.status, res.text).to.equal(201);
        return basic(res.json.credential.username, res.json.password);
      };
      tenants.excluding = await make({ description: 'hides secret*', ops: ['read'], exclude_fields: ['secret*'] });
      tenants.including = await make({ description: 'shows public.* and f', ops: ['read'], include_fields: ['public.*', 'f', 'q'] });
      tenants.unruled = await make({ description: 'no field rules', ops: ['read'] });
      tenants.piper = await make({ description: 'pipelines, hides secret*', ops: ['read', 'write'], exclude_fields: ['secret*'], categories: ['docs', 'search', 'pipelines'] });
      tenants.writer = await make({ description: 'writes, hides secret*', ops: ['read', 'write'], exclude_fields: ['secret*'] });
    });
    after(() => stop());

    it('the oracle is seen where there is one: a credential without field rules tells the right guess from a wrong one', async () => {
      for (const name of ['term', 'aggregation terms include', 'query_string field:value', 'prefix', 'exists', '_count']) {
        let seen = false;
        try {
          await expectNoOracle(name, QUERY_ATTACKS[name], tenants.unruled, 'unruled');
        } catch {
          seen = true;
        }
        expect(seen, name).to.equal(true);
      }
    });

    for (const [name, template] of Object.entries(QUERY_ATTACKS)) {
      it(`${name}: no value or existence oracle`, async () => {
        for (const who of ['excluding', 'including']) await expectNoOracle(name, template, tenants[who], who);
      });
    }

    it('generated mixes: an attack nested in bool/dis_max/constant_score/boosting, in either credential, tells nothing (generated)', async () => {
      const wrap = fc.constantFrom<(x: unknown) => unknown>(
        (x) => ({ bool: { must: [x] } }),
        (x) => ({ bool: { should: [x, { match_all: {} }] } }),
        (x) => ({ bool: { must_not: [x] } }),
        (x) => ({ dis_max: { queries: [x, { term: { f: 'b' } }] } }),
        (x) => ({ constant_score: { filter: x } }),
        (x) => ({ boosting: { positive: { match_all: {} }, negative: x, negative_boost: 0.5 } }),
        (x) => ({ function_score: { query: { match_all: {} }, functions: [{ filter: x, weight: 3 }] } }),
      );
      const leaf = fc.constantFrom<(f: string, v: string) => unknown>(
        (f, v) => ({ term: { [f]: v } }),
        (f, v) => ({ query_string: { query: `${f} : "${v}"`, default_field: 'f' } }),
        (f, v) => ({ query_string: { query: `${f}\t:${v}`, default_field: 'f' } }),
        (f, v) => ({ query_string: { query: `f:a OR ${f}\n:"${v}"`, default_field: 'f' } }),
        (f) => ({ exists: { field: f } }),
        (f, v) => ({ match_phrase_prefix: { [f]: v.slice(0, 5) } }),
        (f, v) => ({ terms_set: { f: { terms: ['a'], minimum_should_match_script: { source: `doc['${f}'].value == '${v}' ? 1 : 9` } } } }),
        (f, v) => ({ span_first: { match: { span_term: { [f]: v } }, end: 3 } }),
      );
      await fc.assert(
        fc.asyncProperty(wrap, leaf, fc.constantFrom('excluding', 'including'), async (w, l, who) => {
          const template: Template = (f, v) => ({ body: { ...(q(w(l(f, v))) as object), sort: ['_score', { _id: 'asc' }] } });
          await expectNoOracle('generated', template, tenants[who], who);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });

    it('an alias field of a hidden field is hidden as the field is (Elasticsearch\'s field-level security reads the concrete field); an alias of a visible field is not', async () => {
      const bodies: Array<(field: string) => unknown> = [
        (field) => q({ term: { [field]: SECRET } }),
        (field) => q({ exists: { field } }),
        (field) => ({ size: 0, aggs: { x: { terms: { field } } } }),
        (field) => ({ ...(q({ match_all: {} }) as object), sort: [{ [field]: 'asc' }] }),
        (field) => ({ ...(q({ match_all: {} }) as object), fields: [field] }),
        (field) => ({ ...(q({ match_all: {} }) as object), docvalue_fields: [field] }),
        (field) => ({ ...(q({ match_all: {} }) as object), fields: [`${field.slice(0, 2)}*`] }),
      ];
      for (const who of ['excluding', 'including']) {
        for (const body of bodies) {
          const direct = await call(url, 'POST', '/mine-1/_search', { auth: tenants[who], body: body('secret') });
          const aliased = await call(url, 'POST', '/mine-1/_search', { auth: tenants[who], body: body('nick') });
          expect(direct.status, `${who} ${JSON.stringify(body('secret'))}: ${direct.text}`).to.equal(403);
          expect(aliased.status, `${who} ${JSON.stringify(body('nick'))}: ${aliased.text}`).to.equal(403);
          expect(aliased.json.error.type).to.equal('security_exception');
          // (an include list names the fields a credential reads, aliases included)
          if (who === 'including') continue;
          const visible = await call(url, 'POST', '/mine-1/_search', { auth: tenants[who], body: body('also_f') });
          expect(visible.status, `${who} ${JSON.stringify(body('also_f'))}: ${visible.text}`).to.equal(200);
        }
        // the mapping does not name the hidden field through the alias either
        const mapping = await call(url, 'GET', '/mine-1/_mapping', { auth: tenants[who] });
        expect(mapping.status, mapping.text).to.equal(200);
        expect(mapping.text, mapping.text).not.to.contain('"path":"secret"');
        expect(mapping.text, mapping.text).not.to.contain('"secret_n"');
        expect(mapping.text, mapping.text).not.to.contain('nick');
        if (who === 'excluding') expect(mapping.text, mapping.text).to.contain('also_f');
      }
    });

    it('a field named in query text with blanks before its colon (`secret :x`, Lucene\'s grammar skips them) is refused as `secret:x` is', async () => {
      const texts = fc.tuple(fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u3000'), fc.constantFrom('', ' '), fc.constantFrom('secret', 'secret.raw', 'secret_n', 'se*', '_exists_'),
        fc.constantFrom('', 'f:a OR ', '(', 'f:a AND NOT '));
      await fc.assert(
        fc.asyncProperty(texts, fc.constantFrom('excluding', 'including'), fc.constantFrom('body', 'q', 'declarative'), async ([blank, after, field, lead], who, where) => {
          const value = field === '_exists_' ? 'secret' : `"${SECRET}"`;
          const text = `${lead}${field}${blank}:${after}${value}${lead === '(' ? ')' : ''}`;
          const res = where === 'body'
            ? await call(url, 'POST', '/mine-1/_search', { auth: tenants[who], body: q({ query_string: { query: text, default_field: 'f' } }) })
            : where === 'q'
              ? await call(url, 'GET', `/mine-1/_search?df=f&_source=f&q=${encodeURIComponent(text)}`, { auth: tenants[who] })
              : await call(url, 'POST', '/mine-1/_declarative', { auth: tenants[who], body: { query: [{ id: 's', dataField: ['f'], queryString: true, value: text, includeFields: ['f'] }] } });
          expect(res.status, `${who} ${where} ${JSON.stringify(text)}: ${res.text}`).to.equal(403);
          expect(res.json.error.type).to.equal('security_exception');
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });

    it('a tenant\'s own pipeline that rewrites its request into a query on the hidden field, and reads the engine\'s answer in a script, learns nothing', async () => {
      const rewrite = 'function handleRequest() { const b = JSON.parse(context.request.body); '
        + 'const body = b.kind === "term" ? { query: { term: { [b.field]: b.probe } }, _source: ["f"] } '
        + ': b.kind === "source" ? { query: { match_all: {} }, _source: true } '
        + ': { size: 0, aggs: { x: { terms: { field: b.field } } } }; '
        + 'return { request: { method: "POST", path: "/mine-1/_search", query: {}, body: JSON.stringify(body) } }; }';
      const report = 'function handleRequest() { const r = JSON.parse(context.response.body); '
        + 'return { response: { code: context.response.code, body: JSON.stringify({ n: r.hits ? r.hits.total.value : -1, raw: r }) } }; }';
      const definition = {
        id: 'probe', enabled: true, priority: 10, routes: [{ path: '/mine-1/_probe', method: 'POST', classify: { category: 'search' } }],
        stages: [{ id: 'rewrite', script: rewrite }, { id: 'search', use: 'engineQuery' }, { id: 'report', script: report }],
      };
      const reg = await call(url, 'POST', '/_pipeline', { auth: tenants.piper, body: definition });
      expect(reg.status, reg.text).to.be.below(300);
      try {
        for (const kind of ['term', 'source', 'agg']) {
          await expectNoOracle(`pipeline ${kind}`, (f, v) => ({ path: '/mine-1/_probe', body: { kind, field: f, probe: v } }), tenants.piper, 'piper');
        }
      } finally {
        await call(url, 'DELETE', '/_pipeline/probe', { auth: tenants.piper });
      }
    });

    it('a live search on visible fields shows no hidden value in its pushes, a change to the hidden field included', async () => {
      for (const who of ['excluding', 'including']) {
        const stream = await openStream(url, '/mine-1/_search?stream=true&streamonly=true', { auth: tenants[who], method: 'POST', body: { query: { term: { f: 'a' } } } });
        await stream.live;
        // only the hidden field changes, then (the marker) a visible one
        const hiddenOnly = await call(url, 'POST', '/mine-1/_update/1?refresh=true', { body: { doc: { secret: `${SECRET}-2`, secret_n: 99 } } });
        expect(hiddenOnly.status, hiddenOnly.text).to.equal(200);
        const visible = await call(url, 'POST', '/mine-1/_update/3?refresh=true', { body: { doc: { public: { title: `gamma ${who}`, tag: 'x' } } } });
        expect(visible.status, visible.text).to.equal(200);
        const messages = await stream.until((m) => m.some((x) => x._id === '3'));
        stream.close();
        await call(url, 'POST', '/mine-1/_update/1?refresh=true', { body: { doc: { secret: SECRET, secret_n: SECRET_N } } });
        const text = JSON.stringify(messages);
        expect(text, text).not.to.contain('sesame');
        expect(text, text).not.to.contain('99');
        // a change to the hidden field alone is pushed (as `_updated`, its visible source unchanged): it tells
        // that the document changed, as its `_version` does in Elasticsearch under field-level security
        expect(messages.filter((x) => x._id === '1').every((x) => !JSON.stringify(x._source).includes('secret_n')), text).to.equal(true);
      }
    });

    it('by-query writes with a query on the hidden field are no count oracle for a writer', async () => {
      const byQuery: Template = (f, v) => ({ path: '/mine-1/_update_by_query?refresh=true', body: { query: { term: { [f]: v } } } });
      const byQueryText: Template = (f, v) => ({ path: `/mine-1/_update_by_query?refresh=true&df=f&q=${encodeURIComponent(`${f} :"${v}"`)}` });
      const byQueryAbsent: Template = (f, v) => ({ path: '/mine-1/_delete_by_query?refresh=true', body: { query: { bool: { filter: [{ term: { [f]: v } }, { term: { f: 'nothing' } }] } } } });
      for (const [name, template] of [['_update_by_query', byQuery], ['_update_by_query q', byQueryText], ['_delete_by_query', byQueryAbsent]] as const) {
        await expectNoOracle(name, template, tenants.writer, 'writer');
      }
    });

    it('a partial update naming a hidden field is no value oracle (detect_noop answers "noop" only when the value is the same)', async () => {
      const noop = async (value: string) => {
        const res = await call(url, 'POST', '/mine-1/_update/3', { auth: tenants.writer, body: { doc: { secret: value } } });
        expect(res.status, res.text).to.be.below(500);
        return { status: res.status, result: res.json?.result };
      };
      const right = await noop('aaaa-0');
      const reset = await call(url, 'PUT', '/mine-1/_doc/3?refresh=true', { body: { f: 'a', public: { title: 'gamma three', tag: 'x' }, secret: 'aaaa-0', secret_n: 1, secret_note: 'plain words' } });
      expect(reset.status, reset.text).to.be.below(300);
      const wrong = await noop('bbbb-1');
      await call(url, 'PUT', '/mine-1/_doc/3?refresh=true', { body: { f: 'a', public: { title: 'gamma three', tag: 'x' }, secret: 'aaaa-0', secret_n: 1, secret_note: 'plain words' } });
      expect(right, `right ${JSON.stringify(right)} wrong ${JSON.stringify(wrong)}`).to.deep.equal(wrong);
      for (const body of [
        { doc: { secret: 'aaaa-0' }, detect_noop: true },
        { doc: { 'secret.raw': 'aaaa-0' } },
        { doc: { secret_n: 1 } },
      ]) {
        const res = await call(url, 'POST', '/mine-1/_update/3', { auth: tenants.writer, body });
        expect(res.json?.result, `${JSON.stringify(body)} → ${res.text}`).not.to.equal('noop');
      }
      const bulk = await call(url, 'POST', '/mine-1/_bulk', { auth: tenants.writer, headers: NDJSON, body: ndjson([{ update: { _id: '3' } }, { doc: { secret: 'aaaa-0' } }]) });
      expect(bulk.status, bulk.text).to.be.below(500);
      expect(bulk.text, bulk.text).not.to.contain('noop');
      await call(url, 'PUT', '/mine-1/_doc/3?refresh=true', { body: { f: 'a', public: { title: 'gamma three', tag: 'x' }, secret: 'aaaa-0', secret_n: 1, secret_note: 'plain words' } });
    });

    it('a reindex into an index whose mapping makes the hidden field fail does not show its value in the failure', async () => {
      const made = await call(url, 'PUT', '/mine-typed', { auth: tenants.writer, body: { mappings: { properties: { secret: { type: 'long' } } } } });
      expect(made.status, made.text).to.be.below(500);
      for (const source of [{ index: 'mine-1', _source: ['f'] }, { index: 'mine-1' }, { index: 'mine-1', _source: ['secret'] }]) {
        const res = await call(url, 'POST', '/_reindex?refresh=true', { auth: tenants.writer, body: { source, dest: { index: 'mine-typed' } } });
        expect(res.status, res.text).to.be.below(500);
        expect(res.text, res.text).not.to.contain('sesame');
      }
      const read = await call(url, 'POST', '/mine-typed/_search', { auth: tenants.writer, body: { _source: ['f'], query: { match_all: {} } } });
      expect(read.text, read.text).not.to.contain('sesame');
    });
  });
}
