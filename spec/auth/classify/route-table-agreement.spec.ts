import { expect } from 'chai';
import fc from 'fast-check';
import { createRouter } from '../../../lib/engine/embedded/rest/rest-handler.js';
import { ES_API, GATEWAY_ROUTES, findRoute, patternParam, patternSegments, type EsApi } from '../../../lib/request/index.js';

/**
 * Issue 32: the gateway's reading of a request and the embedded engine's router are built from
 * one table, so they cannot disagree about which Elasticsearch API a request is. For paths made
 * from every pattern of the table (and random paths of API words and names), whenever the engine's
 * router finds an API, the gateway's match is that API's same path, with the same path parameters —
 * or one of the gateway's own APIs that takes the path first (a subtree like `/_cache/…`), or none
 * where the path names an API word in an index's place (`/_foo/_search`: the gateway refuses what
 * it does not know for a scoped credential, the engine answers `invalid_index_name_exception`).
 */

const ROUTER = createRouter();
const PATTERNS = (ES_API as readonly EsApi[]).flatMap((api) => api.paths.map((p) => ({ id: api.id, ...p })));
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];
const GATEWAY_PREFIXES = GATEWAY_ROUTES.map((r) => patternSegments(r.pattern.endsWith('/*') ? r.pattern.slice(0, -2) : r.pattern));

const value = fc.constantFrom('books', '_all', 'a,b', 'x*', '_foo', 'stats', '_stats', 'usage', 'painless', 'é', '1', '_doc', 'clear', 'field', 'template');
const word = fc.constantFrom('_search', '_doc', '_cache', 'clear', '_cat', 'indices', '_cluster', 'state', '_mapping', '_alias', '_nodes', 'stats', 'books', '_all', '_scripts', 'painless', '_data_stream', '_stats', 'pipeline', '_ingest');

const underGateway = (segments: readonly string[]) =>
  GATEWAY_PREFIXES.some((prefix) => prefix.length <= segments.length && prefix.every((s, i) => s === segments[i] || (patternParam(s) !== undefined && !segments[i].startsWith('_'))));

function agree(method: string, segments: string[]): void {
  const engine = ROUTER.match(method, segments);
  const gateway = findRoute(method, segments);
  const label = `${method} /${segments.join('/')}`;
  if (engine.kind !== 'found') {
    // nothing the engine lacks is an Elasticsearch API of the gateway's table, but the ones it says the engine does not implement
    expect(gateway?.route.owner === 'elasticsearch' && gateway.route.api.engine !== false, label).to.equal(false);
    return;
  }
  if (gateway === undefined) {
    expect(segments[0].startsWith('_') && engine.pattern.startsWith('/{'), `${label}: the gateway found no route, the engine ${engine.pattern}`).to.equal(true);
    return;
  }
  if (gateway.route.owner === 'gateway') {
    expect(underGateway(segments), `${label}: the gateway's ${gateway.route.id}, the engine's ${engine.pattern}`).to.equal(true);
    return;
  }
  if (gateway.route.owner !== 'elasticsearch') throw new Error(`${label}: the table's unknown route`);
  expect(gateway.route.path.pattern, label).to.equal(engine.pattern);
  const params = Object.fromEntries(Object.entries(gateway.slots).map(([name, at]) => [name, segments[at]]));
  expect(params, label).to.deep.equal(engine.pathParams);
}

describe('the gateway and the embedded engine read a request from one table (issue 32)', () => {
  it('every pattern of the table, with any values and any method', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATTERNS), fc.array(value, { minLength: 4, maxLength: 4 }), fc.constantFrom(...METHODS), (path, values, method) => {
        let n = 0;
        agree(method, patternSegments(path.pattern).map((s) => (patternParam(s) === undefined ? s : values[n++])));
      }),
      { numRuns: 3000, seed: 32 },
    );
  });

  it('random paths of API words and names', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), fc.constantFrom(...METHODS), (segments, method) => agree(method, segments)),
      { numRuns: 3000, seed: 32 },
    );
  });

  it('every pattern is reached as the engine reaches it (the engine\'s own methods, sample names)', () => {
    for (const path of PATTERNS) {
      const segments = patternSegments(path.pattern).map((s) => (patternParam(s) === undefined ? s : 'sample'));
      for (const method of path.methods) {
        const found = findRoute(method, segments);
        if (found?.route.owner === 'gateway') continue; // a gateway subtree's (`POST /_cache/clear`)
        expect(found?.route.id, `${method} ${path.pattern}`).to.equal(path.id);
      }
    }
  });
});
