import { expect } from 'chai';
import { TypedDocuments } from '../../lib/apps/index.js';
import { uncached } from '../../lib/cache/index.js';
import { callJson, intercept, InterceptedBackend, type Backend, type EngineRequest } from '../../lib/engine/index.js';
import { openEmbeddedEngine } from '../../lib/engine/embedded/index.js';
import { proxy } from '../../lib/server/proxy.js';
import { tempDir } from '../support/servers.js';

/**
 * The engine as it is and the engine behind the gateway's interceptors are two types: a caller
 * acting for a client takes an InterceptedBackend, and handing it the raw engine (which would skip
 * the system-index guard, the cache and change publishing) is a compile error. The
 * `@ts-expect-error` lines below are that check: `tsc` fails the build if one of them compiles.
 */
function rawEngineIsRefused(engine: Backend): void {
  // @ts-expect-error the raw engine is not an intercepted backend
  new TypedDocuments(engine);
  // @ts-expect-error
  proxy(engine, 1024);
  // @ts-expect-error
  uncached(engine);
  // @ts-expect-error a look-alike object is not one either: only `intercept` makes one
  const lookAlike: InterceptedBackend = { kind: engine.kind, request: (r: EngineRequest) => engine.request(r), close: () => engine.close() };
  void lookAlike;
}
void rawEngineIsRefused;

describe('engine: the intercepted backend', () => {
  let engine: Backend;
  let remove: () => Promise<void>;
  before(async () => {
    const data = await tempDir('intercepted-');
    remove = data.remove;
    engine = await openEmbeddedEngine({ dataDir: data.dir });
  });
  after(async () => {
    await engine.close();
    await remove();
  });

  it('sends every request through its interceptors, the first outermost, and answers what the engine answers', async () => {
    const seen: string[] = [];
    const backend = intercept(engine,
      (next) => async (req) => { seen.push(`outer ${req.method} ${req.path}`); return next(req); },
      (next) => async (req) => { seen.push(`inner ${req.cache === false ? 'uncached' : 'cached'}`); return next(req); });
    expect(backend).to.be.instanceOf(InterceptedBackend);
    expect(backend.kind).to.equal(engine.kind);
    const created = await callJson(uncached(backend), 'PUT', '/intercepted', {});
    expect(created.status).to.equal(200);
    expect(seen).to.deep.equal(['outer PUT /intercepted', 'inner uncached']);
    const missing = await callJson(backend, 'GET', '/intercepted/_doc/none');
    expect(missing.status).to.equal(404);
    expect(seen.slice(2)).to.deep.equal(['outer GET /intercepted/_doc/none', 'inner cached']);
  });
});
