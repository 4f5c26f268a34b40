import { expect } from 'chai';
import fc from 'fast-check';
import { classifyTarget } from './path-reading-oracle.js';
import { classifyRoute } from '../../../lib/auth/classify/classify-route.js';
import { ES_API, GATEWAY_ROUTES, findRoute, patternParam, patternSegments, requestTarget, validateIndexName, type EsApi } from '../../../lib/request/index.js';

/**
 * Issue 32: the gateway classifies a request by its route in the one route table (the entry's
 * authorization metadata, read with the path parameters the table matched), and that gives what
 * the classifier's path reading gave. Generated over every path of the table's APIs (Elasticsearch's
 * and the gateway's own) that carry metadata × its methods (and HEAD) × index expressions (names, lists, wildcards,
 * exclusions, `_all`, hidden and system names, date math) × path spellings (`//`, `%5F`, every
 * character escaped) × parameters (`stream`, `pipeline`, `index=`, `expand_wildcards`,
 * `source`) × bodies (none, a search with a terms lookup, a point in time, `_bulk` and `_msearch`
 * lines, alias actions, creation bodies, broken JSON). Both readings must agree exactly, a refusal
 * (the engine's 400) included. FAST_CHECK_RUNS cases (default 1000, fixed seed).
 */

const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 1000);
const SEED = Number(process.env.FAST_CHECK_SEED ?? 3232);

const PATHS = [
  ...(ES_API as readonly EsApi[]).filter((api) => api.auth).flatMap((api) => api.paths.map((path) => ({ id: api.id as string, ...path }))),
  ...GATEWAY_ROUTES.filter((route) => route.auth).map((route) => ({ id: route.id as string, methods: route.methods, pattern: route.pattern })),
];

const expression = fc.constantFrom(
  'books', 'books,films', 'bo*', '*', '_all', '-books', 'books,-films', '.gateway-credentials', '.ds-logs-000001', '<logs-{now/d}>',
  'logs-*', 'a:remote', 'Books', 'x%y', 'b ooks', 'é', '_all,books', '_foo', 'name_with_underscore',
);
const word = fc.constantFrom('1', 'doc-1', '_search', 'abc', 'é', 'a b', 'metric', 'store', 'x,y', '_all', 'usage', 'stats', 'hot_threads', 'explain', '_execute', 'grok', '_simulate', '_test', 'template', 'scroll', 'field', 'validate', 'clear', 'painless', 'point_in_time', '_verify');

/** A decoded segment as a client may spell it: as is, `_` as `%5F`, every character escaped. */
const spelled = (segment: string, how: number): string => {
  const encoded = encodeURIComponent(segment);
  if (how === 1) return encoded.replace(/_/g, '%5F');
  if (how === 2) return encoded.replace(/%[0-9A-F]{2}|[^%]/g, (m) => (m.length === 3 ? m : `%${m.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`));
  return encoded;
};

const INDEX_PARAMS = new Set(['index', 'target', 'new_index', 'name', 'app']);

const lookupQuery = (index: string) => JSON.stringify({ query: { terms: { user: { index, id: '1', path: 'followers' } } } });
const body = fc.oneof(
  fc.constant(undefined),
  fc.constant(''),
  fc.constant('{"query":{"match_all":{}}}'),
  expression.map(lookupQuery),
  fc.constant('{"pit":{"id":"not-a-pit-id"}}'),
  expression.map((i) => `{"index":{"_index":${JSON.stringify(i)},"_id":"1"}}\n{"a":1}\n{"delete":{"_index":"films","_id":"2"}}\n`),
  expression.map((i) => `{"delete":{"_index":${JSON.stringify(i)},"_id":"1"}}\n`),
  expression.map((i) => `{"index":${JSON.stringify(i)}}\n{"query":{"match_all":{}}}\n{}\n${lookupQuery('films')}\n`),
  expression.map((i) => JSON.stringify({ docs: [{ _index: i, _id: '1' }, { _id: '2' }] })),
  expression.map((i) => JSON.stringify({ actions: [{ add: { index: i, alias: 'al' } }, { remove_index: { index: 'films' } }] })),
  expression.map((i) => JSON.stringify({ aliases: { [i]: { filter: { terms: { f: { index: 'films', id: '1', path: 'p' } } } } }, settings: { 'index.default_pipeline': 'p' } })),
  expression.map((i) => JSON.stringify({ source: { index: i }, dest: { index: 'films', pipeline: 'p' } })),
  fc.constant('{"id":"x","params":{"a":1}}'),
  expression.map((i) => JSON.stringify({ indices: [i, 'films'], categories: ['docs'], ops: ['read'] })),
  expression.map((i) => JSON.stringify({ indices: i })),
  fc.constant('{"source":{"query":{"match":{"{{f}}":"x"}}},"params":{"f":"title"}}'),
  fc.constant('{"index":{"default_pipeline":"p"}}'),
  fc.constant('{broken'),
  fc.constant('[1,2]'),
);

const query = fc.subarray(['stream=true', 'streamonly=true', 'pipeline=p', 'pipeline=_none', 'index=films', 'expand_wildcards=all', 'source=%7B%22query%22%3A%7B%7D%7D', 'refresh=true', 'level=indices'], { maxLength: 3 });

/**
 * Where the two readings differ on purpose, the table's wins, being the engine's reading:
 * - `/_data_stream/{name}` with a name starting with `_` (`_all`, `_foo`): the path reading
 *   skipped it and asked for every index; the engine's router takes it as the name, and it is that
 *   name (`_all`: every data stream) that is authorized now.
 * - a cluster-level write whose path parameter is a word of a read-only API (`PUT
 *   /_ingest/pipeline/_simulate`, `POST /_scripts/explain`): the path reading took it for that API
 *   and classified a read; it stores a pipeline or script named so, a write.
 * - a stored script named `painless` (`GET|DELETE /_scripts/painless`): the path reading took it
 *   for the painless execute API (a read needing no `manage_scripts`); it reads or deletes the
 *   script, which needs `manage_scripts`.
 * - `/_nodes/{node_id}/…` with a node id or metric named `stats`, `usage` or `hot_threads`: the
 *   path reading named the action after the word; the engine's router reads the route's API.
 * - a snapshot or repository named like a snapshot API's word (`_verify`, `_status`): the same.
 * - `POST /_pipeline/validate`: the path reading took `validate` for a pipeline's id; it names none.
 * - a name the request creates (`PUT /{index}`, a rollover's `{new_index}`, a resize's `{target}`)
 *   that is no valid index name (`_foo`, `a*`, `a,b`, upper case): the path reading read it as an
 *   expression; it is refused 400 `invalid_index_name_exception`, as Elasticsearch refuses it.
 */
const READ_ONLY_WORDS = new Set(['_simulate', '_execute', '_verify', 'grok', 'explain', '_explain', 'hot_threads']);
function knownDifference(id: string, method: string, words: readonly string[], segments: readonly string[]): boolean {
  if (id.includes('data_stream') && segments.length > 1 && segments[1].startsWith('_') && segments[1] !== '_stats' && segments[1] !== '_modify') return true;
  if (!['GET', 'HEAD', 'DELETE'].includes(method) && /^(ingest|put_script|indices\.put_|cluster\.put_|synonyms|query_rules|dangling|license)/.test(id) && words.some((w) => READ_ONLY_WORDS.has(w))) return true;
  if (/_script$/.test(id) && words[0] === 'painless') return true;
  if (id === 'pipelines.validate') return true;
  if (creates(id, segments)) return true;
  if (id.startsWith('snapshot.') && words.some((w) => w.startsWith('_'))) return true;
  return id.startsWith('nodes.') && words.some((w) => ['stats', 'usage', 'hot_threads'].includes(w));
}

/** A route naming an index it creates, with a name Elasticsearch refuses (see `validateIndexName`). */
function creates(id: string, segments: readonly string[]): boolean {
  const name = id === 'indices.create' ? segments[0] : id === 'indices.create_data_stream' ? segments[1] : id === 'indices.rollover' || /^indices\.(split|shrink|clone)$/.test(id) ? segments[2] : undefined;
  if (name === undefined || (name.startsWith('<') && name.endsWith('>'))) return false;
  try {
    validateIndexName(name);
    return false;
  } catch {
    return true;
  }
}

function classifyBoth(method: string, path: string, querystring: string, text: string | undefined) {
  const target = requestTarget(path, querystring, text !== undefined && text.length > 0);
  const asked = { method, segments: target.segments, params: target.params, body: text ?? target.source?.text };
  const outcome = (f: () => unknown) => {
    try {
      return { value: f() };
    } catch (err) {
      return { error: `${(err as { type?: string }).type}: ${(err as Error).message}` };
    }
  };
  const match = findRoute(method, target.segments);
  return { match, byRoute: match && outcome(() => classifyRoute(asked, match)), byPath: outcome(() => classifyTarget(asked)) };
}

describe('the route table\'s metadata classifies as the path reading did (issue 32)', () => {
  it('covers the families converted (every Elasticsearch API of the table; the gateway\'s credentials, apps, pipelines, metrics, authenticate)', () => {
    const ids = new Set(PATHS.map((p) => p.id));
    for (const id of ['index', 'get', 'bulk', 'mget', 'search', 'msearch', 'count', 'indices.create', 'indices.put_settings', 'indices.update_aliases', 'indices.rollover', 'reindex', 'cluster.state', 'cat.aliases', 'put_script', 'credentials.update', 'index_credentials.create', 'apps.create', 'pipelines.put', 'security.authenticate', 'security.authinfo', 'security.whoami', 'security.health', 'security.dashboardsinfo', 'security.account']) expect(ids, id).to.include(id);
  });

  it('every path of an API with metadata × methods × names × spellings × parameters × bodies', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PATHS), fc.boolean(), fc.array(expression, { minLength: 3, maxLength: 3 }), fc.array(word, { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 0, max: 2 }), fc.constantFrom('/', '//', '///'), query, body,
        (path, head, names, words, how, separator, params, text) => {
          const methods = head && path.methods.includes('GET') ? [...path.methods, 'HEAD'] : path.methods;
          let n = 0;
          let w = 0;
          const segments = patternSegments(path.pattern).map((s) => {
            const param = patternParam(s);
            if (param === undefined) return s;
            return INDEX_PARAMS.has(param) ? names[n++] : words[w++];
          });
          for (const method of methods) {
            const raw = '/' + segments.map((s) => spelled(s, how)).join(separator);
            const { match, byRoute, byPath } = classifyBoth(method, raw, params.join('&'), text);
            // another route (a gateway subtree's), or none: the path reading classifies it, as before
            if (!byRoute || ('value' in byRoute && byRoute.value === undefined)) continue;
            if (knownDifference(path.id, method, words.slice(0, w), segments)) continue;
            if (process.env.ORACLE_DIFF && JSON.stringify(byRoute) !== JSON.stringify(byPath)) console.log(JSON.stringify(byRoute), '\n', JSON.stringify(byPath));
            expect(byRoute, `${method} ${raw}?${params.join('&')} ${text ?? ''} (${match?.route.id})`).to.deep.equal(byPath);
          }
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('a path naming an API word where an index goes is no index route: `/_foo/_search` is read by the path reading', () => {
    expect(findRoute('GET', ['_foo', '_search'])).to.equal(undefined);
    expect(findRoute('GET', ['_all', '_search'])?.route.id).to.equal('search');
    expect(findRoute('POST', ['_cache', 'clear'])?.route.id).to.equal('indices.clear_cache');
    expect(findRoute('GET', ['_cache', 'stats'])?.route.id).to.equal('cache');
    expect(findRoute('POST', ['books', '_cache', 'clear'])?.route.id).to.equal('indices.clear_cache');
  });
});
