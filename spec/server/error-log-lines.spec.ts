import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { EsError } from '../../lib/errors/index.js';
import { esResponse } from '../../lib/server/es-response.js';

/**
 * What the gateway logs of a failed request (`esResponse`): a 5xx the code meant — an EsError, as
 * a cancelled search (OpenSearch's cancel_after_time_interval) or a failed shard is — is one line
 * with its type and reason, so a setting that cancels many searches does not fill the log with
 * stacks; any other failure is the gateway's own fault and keeps its stack. Below 500, nothing.
 */
describe('failed requests: the log line', function () {
  this.timeout(20_000);
  const lines: string[] = [];
  let server: http.Server;
  let origin: string;

  before(async () => {
    const app = new Koa();
    app.use(esResponse((line) => lines.push(line)));
    app.use((ctx) => {
      if (ctx.path === '/cancelled') throw new EsError(500, 'search_phase_execution_exception', 'all shards failed', { root_cause: [{ type: 'task_cancelled_exception', reason: 'cancelled task' }] });
      if (ctx.path === '/missing') throw new EsError(404, 'index_not_found_exception', 'no such index [x]');
      throw new TypeError('something is undefined');
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (lines.length = 0));

  it('an EsError of 500: one line, its status, type and reason, no stack', async () => {
    const res = await fetch(`${origin}/cancelled`);
    expect(res.status).to.equal(500);
    expect(((await res.json()) as { error: { type: string } }).error.type).to.equal('search_phase_execution_exception');
    expect(lines).to.deep.equal(['GET /cancelled failed: 500 search_phase_execution_exception: all shards failed']);
  });

  it('any other failure: its stack', async () => {
    const res = await fetch(`${origin}/boom`);
    expect(res.status).to.equal(500);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^GET \/boom failed: TypeError: something is undefined\n\s+at /);
  });

  it('a 4xx: nothing logged', async () => {
    expect((await fetch(`${origin}/missing`)).status).to.equal(404);
    expect(lines).to.deep.equal([]);
  });
});
