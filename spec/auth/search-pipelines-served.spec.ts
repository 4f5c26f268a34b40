import { expect } from 'chai';
import type { Backend, EngineRequest, EngineResponse } from '../../lib/engine/index.js';
import { servesSearchPipelines } from '../../lib/auth/search-pipelines-served.js';

/**
 * `search_pipeline=_none` is sent only to an engine that has search pipelines: the embedded engine
 * and OpenSearch do; Elasticsearch has no such API (`GET /_search/pipeline` is refused) and would
 * refuse the parameter on every search of a bounded credential. An engine is asked once.
 */
function engine(kind: Backend['kind'], status: number, body: unknown): Backend & { asked: string[] } {
  const asked: string[] = [];
  return {
    kind,
    asked,
    async request(req: EngineRequest): Promise<EngineResponse> {
      asked.push(`${req.method} ${req.path}`);
      return { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
    },
    async close() {},
  };
}

describe('servesSearchPipelines: whether an engine takes search_pipeline', () => {
  it('the embedded engine does, without asking', async () => {
    const e = engine('embedded', 500, {});
    expect(await servesSearchPipelines(e)).to.equal(true);
    expect(e.asked).to.deep.equal([]);
  });

  it('an HTTP engine is asked once: OpenSearch lists its pipelines (200) or answers {} (404)', async () => {
    for (const [status, body] of [[200, { shared: { request_processors: [] } }], [200, {}], [404, {}]] as const) {
      const e = engine('http', status, body);
      expect(await servesSearchPipelines(e), `${status} ${JSON.stringify(body)}`).to.equal(true);
      expect(await servesSearchPipelines(e)).to.equal(true);
      expect(e.asked).to.deep.equal(['GET /_search/pipeline']);
    }
  });

  it('Elasticsearch, which has no search pipelines, does not', async () => {
    const noHandler = { error: 'no handler found for uri [/_search/pipeline] and method [GET]' };
    for (const [status, body] of [[400, noHandler], [405, noHandler], [404, { error: { type: 'index_not_found_exception' }, status: 404 }]] as const) {
      expect(await servesSearchPipelines(engine('http', status, body)), `${status}`).to.equal(false);
    }
  });
});
