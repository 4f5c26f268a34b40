import { expect } from 'chai';
import { createRouter } from '../../../../lib/engine/embedded/rest/rest-handler.js';
import { Router } from '../../../../lib/engine/embedded/rest/router.js';
import type { Route } from '../../../../lib/engine/embedded/rest/types.js';
import { ES_API, type EsApi } from '../../../../lib/request/index.js';

/**
 * The embedded engine registers its handlers by route id against the one route table
 * (lib/request's `ES_API`): an id the table lacks does not compile (`Route.id` is the table's id
 * type), and an API of the table without a handler, or with two, stops the engine at startup.
 */
describe('the embedded engine\'s handlers, by route id of the one table', () => {
  const handler: Route['handler'] = () => ({ status: 200, body: {} });
  const every = (ES_API as readonly EsApi[]).map((api) => ({ id: api.id, handler }) as Route);

  it('the engine has a handler for every API of the table', () => {
    expect(() => createRouter()).not.to.throw();
    expect(() => new Router(every)).not.to.throw();
  });

  it('an API without a handler stops the engine at startup', () => {
    expect(() => new Router(every.filter((r) => r.id !== 'search'))).to.throw('no handler for route search');
  });

  it('two handlers for one API stop it too', () => {
    expect(() => new Router([...every, { id: 'search', handler: () => ({ status: 201 }) }])).to.throw('two handlers for route search');
  });

  it('each path of an API reaches that API\'s handler, with the path\'s own parameters', () => {
    const router = createRouter();
    const found = router.match('PUT', ['_scripts', 'my-script', 'score']);
    expect(found.kind).to.equal('found');
    if (found.kind !== 'found') return;
    expect(found.pattern).to.equal('/_scripts/{id}/{context}');
    expect([...found.params]).not.to.include('context');
    const plain = router.match('PUT', ['_scripts', 'my-script']);
    expect(plain.kind === 'found' && plain.handler).to.equal(found.handler);
    expect(plain.kind === 'found' && [...plain.params]).to.include('context');
  });
});
