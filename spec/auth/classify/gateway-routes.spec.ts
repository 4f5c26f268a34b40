import { expect } from 'chai';
import fc from 'fast-check';
import { GATEWAY_ROUTES, readRawRequest } from '../../../lib/auth/classify/index.js';
import { RouteTable, patternParam, patternSegments } from '../../../lib/request/index.js';

/**
 * The gateway's own APIs are entries of the route table: the request value names the route id the
 * server dispatches on, and its decoded path parameters — read from the one decoding of the edge,
 * whatever spelling the client used for the path (`//`, `%5F`, percent-encoded names). A
 * credentials route reached as `//_credentials/{user}` or `/%5Fcredentials/{user}` is the same
 * route, with the same parameter, as `/_credentials/{user}`.
 */

/** Names a route parameter may hold: none is an API word (`_x`), nor empty, nor a dot segment. */
const name = fc.stringMatching(/^[a-z0-9][a-z0-9.\-+ %/é]{0,12}$/).filter((s) => s !== '.' && s !== '..');

/** Spellings of one decoded segment that the edge reads as that segment: as is, `_` as `%5F`, every character escaped. */
const spelled = (segment: string, how: number): string => {
  const encoded = encodeURIComponent(segment);
  if (how === 1) return encoded.replace(/_/g, '%5F');
  if (how === 2) return encoded.replace(/%[0-9A-F]{2}|[^%]/g, (m) => (m.length === 3 ? m : `%${m.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`));
  return encoded;
};

/** The routes a request of each family reaches by its own method (HEAD shares GET's routes). */
const ROUTES = GATEWAY_ROUTES.filter((r) => !r.pattern.endsWith('/*'));

describe('the gateway\'s own routes in the route table', () => {
  it('every entry is reached by its method and pattern, with its id and decoded path parameters, whatever the spelling', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ROUTES), fc.array(name, { minLength: 3, maxLength: 3 }), fc.integer({ min: 0, max: 2 }), fc.boolean(), (route, names, how, doubled) => {
        const method = route.methods[0];
        const params: Record<string, string> = {};
        let n = 0;
        const segments = patternSegments(route.pattern).map((s) => {
          const param = patternParam(s);
          if (param === undefined) return s;
          return (params[param] = names[n++]);
        });
        const path = (doubled ? '//' : '/') + segments.map((s) => spelled(s, how)).join(doubled ? '//' : '/');
        // an index name holding a path separator is refused where the request is read, as Elasticsearch refuses it
        const indexParams = ['app', 'index', route.auth.index ?? 'index', ...Object.keys(route.auth.names ?? {})];
        const separatorInIndex = indexParams.some((p) => /[/\\]/.test(params[p] ?? ''));
        let req;
        try {
          req = readRawRequest(method, path, '');
        } catch (err) {
          expect(separatorInIndex, `${method} ${path}: ${(err as Error).message}`).to.equal(true);
          expect(err).to.have.property('type', 'invalid_index_name_exception');
          return;
        }
        expect(separatorInIndex, `${method} ${path} was not refused`).to.equal(false);
        expect(req.route, `${method} ${path}`).to.equal(route.id);
        expect(req.pathParams).to.deep.equal(params);
      }),
      { numRuns: 300, seed: 32 },
    );
  });

  it('a name parameter never holds an API word: `/{app}/{type}/_mget` is no typed document', () => {
    expect(readRawRequest('POST', '/shop/product/_mget', '', '{"ids":["1"]}').route).not.to.match(/^typed\./);
    expect(readRawRequest('GET', '/shop/_doc', '', undefined).route).not.to.match(/^typed\./);
    expect(readRawRequest('GET', '/_all/_credentials', '', undefined).route).not.to.equal('index_credentials.list');
    expect(readRawRequest('GET', '/shop/product/1', '', undefined)).to.include({ route: 'typed.get' });
  });

  it('an Elasticsearch request\'s route is its API in the same table, with the path parameters the engine\'s router reads', () => {
    const req = readRawRequest('GET', '/books/_doc/%31', '', undefined);
    expect(req.route).to.equal('get');
    expect(req.pathParams).to.deep.equal({ index: 'books', id: '1' });
    expect(readRawRequest('PUT', '//%62ooks', '', undefined)).to.deep.include({ route: 'indices.create', pathParams: { index: 'books' } });
  });

  it('the matcher: a literal segment wins over a parameter, a parameter is one decoded segment, another method is no match', () => {
    const table = new RouteTable<string>();
    table.add(['GET'], '/{index}/{id}', 'param');
    table.add(['GET'], '/{index}/_count', 'literal');
    expect(table.find('GET', ['a', '_count'])?.value).to.equal('literal');
    expect(table.find('GET', ['a', 'b/c'])).to.deep.equal({ value: 'param', pathParams: { index: 'a', id: 'b/c' } });
    expect(table.find('POST', ['a', 'b'])).to.equal(undefined);
    expect(table.find('GET', ['a', 'b', 'c'])).to.equal(undefined);
  });
});
