/**
 * bench:proxy — the same load against the standalone engine directly and through the gateway's
 * proxy path (ENGINE_URL), in one run: requests/s, p50/p99 latency, and the ratio gateway/direct.
 */
import { spawnEngine, spawnGateway, tempDir } from '../spec/support/servers.js';
import { runLoad, fmt, type LoadSpec } from './support/load.js';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const auth = 'Basic ' + Buffer.from('bench:bench-password').toString('base64');

async function main() {
  const data = await tempDir('bench-proxy-');
  const engine = await spawnEngine(data.dir);
  const gateway = await spawnGateway({ ENGINE_URL: engine.url, ADMIN_USER: 'bench', ADMIN_PASSWORD: 'bench-password', DATA_DIR: data.dir + '/gw' });
  try {
    const json = { 'content-type': 'application/json' };
    const lines: string[] = [];
    for (let i = 0; i < 1000; i++) {
      lines.push(JSON.stringify({ index: { _index: 'bench', _id: String(i) } }));
      lines.push(JSON.stringify({ name: `package-${i}`, section: i % 2 ? 'utils' : 'games', size: i }));
    }
    const loaded = await fetch(`${engine.url}/_bulk?refresh=true`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: lines.join('\n') + '\n' });
    if (!loaded.ok) throw new Error(`bulk load failed: ${loaded.status}`);

    const loads: Array<[string, LoadSpec]> = [
      ['GET document', { method: 'GET', path: '/bench/_doc/42' }],
      ['small _search', { method: 'POST', path: '/bench/_search', body: JSON.stringify({ size: 5, query: { term: { section: 'games' } } }), headers: json }],
    ];
    console.log(`bench:proxy — concurrency ${CONCURRENCY}, ${DURATION_MS} ms per run, Node ${process.version}`);
    console.log('load            | target   |   req/s |  p50 ms |  p99 ms | errors');
    for (const [name, spec] of loads) {
      // warm both paths (JIT, connection pools)
      await runLoad(engine.url, spec, { concurrency: CONCURRENCY, durationMs: 500 });
      await runLoad(gateway.url, { ...spec, headers: { ...spec.headers, authorization: auth } }, { concurrency: CONCURRENCY, durationMs: 500 });
      const direct = await runLoad(engine.url, spec, { concurrency: CONCURRENCY, durationMs: DURATION_MS });
      const proxied = await runLoad(gateway.url, { ...spec, headers: { ...spec.headers, authorization: auth } }, { concurrency: CONCURRENCY, durationMs: DURATION_MS });
      for (const [target, r] of [['direct', direct], ['gateway', proxied]] as const) {
        console.log(`${name.padEnd(15)} | ${target.padEnd(8)} | ${fmt(r.rps, 0).padStart(7)} | ${fmt(r.p50).padStart(7)} | ${fmt(r.p99).padStart(7)} | ${r.errors}`);
      }
      console.log(`${name.padEnd(15)} | ratio gateway/direct: req/s ${fmt(proxied.rps / direct.rps)}, p50 ${fmt(proxied.p50 / direct.p50)}, p99 ${fmt(proxied.p99 / direct.p99)}`);
    }
  } finally {
    await gateway.stop();
    await engine.stop();
    await data.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
