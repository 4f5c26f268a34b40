import { expect } from 'chai';
import { checkEngineRoute, openEmbeddedEngine, type EmbeddedEngine } from '../../../../lib/engine/embedded/index.js';
import { Router } from '../../../../lib/engine/embedded/rest/router.js';
import type { EngineRequest } from '../../../../lib/engine/index.js';
import { requestTarget } from '../../../../lib/request/index.js';
import { tempDir } from '../support.js';

describe('embedded engine: the request target read once, at its edge', function () {
  this.timeout(60_000);
  let engine: EmbeddedEngine;
  let data: { dir: string; remove(): Promise<void> };
  const ask = async (req: EngineRequest) => {
    const res = await engine.request(req);
    return { status: res.status, value: res.value as Record<string, unknown> };
  };

  before(async () => {
    data = await tempDir();
    engine = await openEmbeddedEngine({ dataDir: data.dir });
    const bulk = ['a', 'b', 'c'].map((t, i) => `{"index":{"_index":"t","_id":"${i}"}}\n{"title":"${t}"}\n`).join('');
    expect((await engine.request({ method: 'POST', path: '/_bulk', querystring: 'refresh=true', body: bulk, headers: { 'content-type': 'application/x-ndjson' } })).status).to.equal(200);
  });
  after(async () => {
    await engine.close();
    await data.remove();
  });

  /** Counts the route table's matches while `run` runs. */
  async function matches(run: () => Promise<unknown>): Promise<number> {
    const original = Router.prototype.match;
    let n = 0;
    Router.prototype.match = function (this: Router, ...args: Parameters<Router['match']>) {
      n++;
      return original.apply(this, args);
    };
    try {
      await run();
    } finally {
      Router.prototype.match = original;
    }
    return n;
  }

  it('reads parameters decoded once: a name given twice keeps its last value, as Elasticsearch reads it', async () => {
    const res = await ask({ method: 'GET', path: '/t/_search', querystring: 'size=0&size=2&filter_path=hits.hits._id' });
    expect(res.status).to.equal(200);
    expect((res.value.hits as { hits: unknown[] }).hits).to.have.length(2);
    // `+` is a space and an escape is read once, in names too
    const typed = await ask({ method: 'GET', path: '/t/_search', querystring: 'q=title:%61&%73ize=1' });
    expect((typed.value.hits as { total: { value: number } }).total.value).to.equal(1);
  });

  it('a broken escape in the target is a 400, not a crash', async () => {
    const res = await ask({ method: 'GET', path: '/t/_search', querystring: 'q=%E0%A4%A' });
    expect(res.status).to.equal(400);
    expect((res.value.error as { type: string }).type).to.equal('illegal_argument_exception');
  });

  it("takes a caller's target and route as they are: the route is matched once for a checked request", async () => {
    const target = requestTarget('/t/_search', 'size=1');
    const req: EngineRequest = { method: 'GET', path: target.path, querystring: target.querystring, target };
    const route = checkEngineRoute(req);
    let res: Awaited<ReturnType<typeof ask>> | undefined;
    expect(await matches(async () => (res = await ask({ ...req, route })))).to.equal(0);
    expect((res!.value.hits as { hits: unknown[] }).hits).to.have.length(1);
    // without the route, the engine matches it itself
    expect(await matches(() => ask(req))).to.equal(1);
  });

  it('a target or route that no longer says what the path and query string say is not believed', async () => {
    const target = requestTarget('/t/_search', 'size=1');
    const route = checkEngineRoute({ method: 'GET', path: target.path, querystring: target.querystring, target });
    // a later step changed the query string and kept the rest
    const res = await ask({ method: 'GET', path: '/t/_search', querystring: 'size=3', target, route });
    expect((res.value.hits as { hits: unknown[] }).hits).to.have.length(3);
    // another path: the route found for `/t/_search` is not used for `/t/_count`
    const count = await ask({ method: 'GET', path: '/t/_count', route });
    expect(count.value.count).to.equal(3);
    // a route the engine did not issue is ignored
    const forged = { ...route };
    expect(await matches(() => ask({ method: 'GET', path: '/t/_search', querystring: 'size=1', route: forged }))).to.equal(1);
  });

  it('checkEngineRoute refuses what the engine refuses, with the same words', async () => {
    expect(() => checkEngineRoute({ method: 'GET', path: '/t/_search', querystring: 'no_such=1' })).to.throw('request [/t/_search] contains unrecognized parameter: [no_such]');
    const res = await ask({ method: 'GET', path: '/t/_search', querystring: 'no_such=1' });
    expect((res.value.error as { reason: string }).reason).to.equal('request [/t/_search] contains unrecognized parameter: [no_such]');
  });
});
