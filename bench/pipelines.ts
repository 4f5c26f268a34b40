/**
 * npm run bench:pipelines — latency of a route with a 3-stage pipeline (authorization, one small
 * script, engineQuery) against the same route without a pipeline, in one run, through the gateway
 * in-process on the embedded engine. Rounds alternate (pipeline on, off) so both see the same
 * machine. Goal: under 1 ms added at p50.
 */
import { Pool } from 'undici';
import { startTestGateway } from '../spec/support/servers.js';
import { adminAuth } from '../spec/support/http.js';

const ROUNDS = 5;
const PER_ROUND = 1_000;
const WARMUP = 300;
const ROUTE = '/bench/_search';
const BODY = JSON.stringify({ query: { match: { title: 'dune' } }, size: 5 });

const DEFINITION = {
  id: 'bench',
  routes: [{ path: '/{index}/_search', method: 'POST', classify: { category: 'search' } }],
  stages: [
    { id: 'check', use: 'authorization' },
    { id: 'tag', script: 'function handleRequest() { const body = JSON.parse(context.request.body); body.size = Math.min(body.size || 10, 20); return { request: { body: JSON.stringify(body) } }; }' },
    { id: 'search', use: 'engineQuery' },
  ],
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  const gw = await startTestGateway();
  const pool = new Pool(gw.url, { connections: 1, pipelining: 1 });
  const headers = { authorization: adminAuth(), 'content-type': 'application/json' };
  const send = async (method: string, path: string, body?: string) => {
    const res = await pool.request({ method: method as 'POST', path, headers, body });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return text;
  };
  const titles = ['Dune', 'Dune Messiah', 'Children of Dune', 'Emma', 'Ubik', 'Solaris', 'Neuromancer', 'Hyperion'];
  let bulk = '';
  for (let i = 0; i < 200; i++) bulk += `{"index":{"_index":"bench","_id":"${i}"}}\n${JSON.stringify({ title: `${titles[i % titles.length]} ${i}`, n: i })}\n`;
  await pool.request({ method: 'POST', path: '/_bulk?refresh=true', headers: { ...headers, 'content-type': 'application/x-ndjson' }, body: bulk }).then((r) => r.body.text());

  const measure = async (n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await send('POST', ROUTE, BODY);
      times.push(performance.now() - t);
    }
    return times;
  };
  const withPipeline: number[] = [];
  const without: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await send('DELETE', '/_pipeline/bench').catch(() => undefined);
    await measure(WARMUP);
    without.push(...(await measure(PER_ROUND)));
    await send('PUT', '/_pipeline/bench', JSON.stringify(DEFINITION));
    const check = JSON.parse(await send('POST', ROUTE, BODY)) as { hits?: unknown };
    if (!check.hits) throw new Error('the pipeline did not answer a search result');
    await measure(WARMUP);
    withPipeline.push(...(await measure(PER_ROUND)));
  }
  await pool.close();
  await gw.close();

  const report = (name: string, times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p99 = percentile(sorted, 99);
    console.log(`${name.padEnd(34)} n=${sorted.length}  p50 ${p50.toFixed(3)} ms  p90 ${percentile(sorted, 90).toFixed(3)} ms  p99 ${p99.toFixed(3)} ms`);
    return { p50, p99 };
  };
  console.log(`POST ${ROUTE} through the gateway (in-process, embedded engine), ${ROUNDS} alternating rounds of ${PER_ROUND}`);
  const a = report('without a pipeline', without);
  const b = report('with a 3-stage pipeline', withPipeline);
  console.log(`added at p50: ${(b.p50 - a.p50).toFixed(3)} ms (goal < 1 ms: ${b.p50 - a.p50 < 1 ? 'met' : 'NOT met'}); ratio p50 ${(b.p50 / a.p50).toFixed(2)}, p99 ${(b.p99 / a.p99).toFixed(2)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
