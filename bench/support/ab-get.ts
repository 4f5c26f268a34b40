/**
 * A/B of two built trees' gateways on one GET document, by CPU per request of each gateway process
 * (its /proc stat, user + system), in interleaved rounds (order reversed every other round) against
 * one standalone engine; a reference proxy (and, in embedded mode, the koa floor) measured beside them.
 * Env: AB_A, AB_B (repository roots whose dist/ holds the builds; B defaults to this tree),
 * AB_MODE=proxy|embedded, AB_ROUNDS (8), AB_ROUND_MS (2000), AB_CONCURRENCY (16), AB_PROF=dir.
 * Usage: node dist/bench/support/ab-get.js
 */
import { spawn } from 'node:child_process';
import { spawnEngine, spawnServer, tempDir, REPO_ROOT, type ChildServer } from '../../spec/support/servers.js';
import { runLoad } from './load.js';
import { cpuMicros } from './cpu.js';
import { dropOutput } from './dropped-output.js';
import { spawnBuild } from './spawn-build.js';

const A = process.env.AB_A ?? REPO_ROOT;
const B = process.env.AB_B ?? REPO_ROOT;
const MODE = process.env.AB_MODE ?? 'proxy';
const ROUNDS = Number(process.env.AB_ROUNDS ?? 8);
const ROUND_MS = Number(process.env.AB_ROUND_MS ?? 2000);
const CONCURRENCY = Number(process.env.AB_CONCURRENCY ?? 16);
const ADMIN = { ADMIN_USER: 'bench', ADMIN_PASSWORD: 'bench-password' };
const AUTHORIZATION = 'Basic ' + Buffer.from('bench:bench-password').toString('base64');

async function bulk(url: string, authorization?: string) {
  const lines: string[] = [];
  for (let i = 0; i < 1000; i++) lines.push(JSON.stringify({ index: { _index: 'bench', _id: String(i) } }), JSON.stringify({ name: `package-${i}`, section: i % 2 ? 'utils' : 'games', size: i }));
  const res = await fetch(`${url}/_bulk?refresh=true`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', ...(authorization ? { authorization } : {}) }, body: lines.join('\n') + '\n' });
  if (!res.ok) throw new Error(`bulk ${res.status}`);
  await res.text();
}

const median = (v: number[]) => { const s = [...v].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

async function main() {
  const data = await tempDir('ab-get-');
  const running: ChildServer[] = [];
  try {
    const engine = dropOutput(await spawnEngine(data.dir + '/engine')); running.push(engine);
    const prof = process.env.AB_PROF;
    const env = (n: string) => (MODE === 'proxy' ? { ENGINE_URL: engine.url, DATA_DIR: `${data.dir}/${n}`, ...ADMIN } : { DATA_DIR: `${data.dir}/${n}`, ...ADMIN });
    const extra = (v?: string): Record<string, string> => Object.fromEntries((v ?? '').split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]));
    const a = await spawnBuild(A, { ...env('a'), ...extra(process.env.AB_A_ENV) }, { prof: prof && prof + '/a' }); running.push(a);
    const b = await spawnBuild(B, { ...env('b'), ...extra(process.env.AB_B_ENV) }, { prof: prof && prof + '/b' }); running.push(b);
    const third = MODE === 'proxy'
      ? dropOutput(await spawnServer('bench/support/reference-proxy.js', { UPSTREAM_URL: engine.url, PORT: '0', REFERENCE_AUTH: 'bench:bench-password' }, 'reference' as 'engine', undefined, prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}/ref`] : []))
      : dropOutput(await spawnServer('bench/support/koa-floor.js', { ENGINE_DATA_DIR: data.dir + '/floor', PORT: '0' }, 'floor' as 'engine'));
    running.push(third);
    if (MODE === 'proxy') await bulk(engine.url);
    else await Promise.all([bulk(a.url, AUTHORIZATION), bulk(b.url, AUTHORIZATION), bulk(third.url)]);
    const targets = [
      { name: 'A', s: a, auth: true },
      { name: 'B', s: b, auth: true },
      { name: MODE === 'proxy' ? 'reference' : 'koa floor', s: third, auth: MODE === 'proxy' },
    ];
    const spec = (t: (typeof targets)[0]) => ({ method: 'GET' as const, path: '/bench/_doc/42', headers: t.auth ? { authorization: AUTHORIZATION } : undefined });
    for (const t of targets) await runLoad(t.s.url, spec(t), { concurrency: CONCURRENCY, durationMs: Number(process.env.AB_WARMUP_MS ?? 1500) });
    if (process.env.AB_STRACE) {
      for (const t of targets) {
        const st = spawn('strace', ['-c', '-f', '-p', String(t.s.proc.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
        let text = '';
        st.stderr!.on('data', (c: Buffer) => (text += c));
        await new Promise((r) => setTimeout(r, 500)); // strace attaching: no signal to wait for
        const res = await runLoad(t.s.url, spec(t), { concurrency: CONCURRENCY, durationMs: ROUND_MS });
        const done = new Promise((r) => st.once('exit', r));
        st.kill('SIGINT');
        await done;
        const calls = text.split('\n').filter((l) => /^\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+/.test(l)).map((l) => l.trim().split(/\s+/)).map((f) => [f[f.length - 1], Number(f[3])] as const);
        console.log(`${t.name}: ${res.requests} requests; syscalls per request: ` + calls.sort((x, y) => y[1] - x[1]).slice(0, 12).map(([n, c]) => `${n} ${(c / res.requests).toFixed(2)}`).join(', '));
      }
      return;
    }
    const cpu = new Map(targets.map((t) => [t.name, [] as number[]]));
    const rps = new Map(targets.map((t) => [t.name, [] as number[]]));
    const reqs = new Map(targets.map((t) => [t.name, 0]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of r % 2 ? [...targets].reverse() : targets) {
        const before = cpuMicros(t.s.proc.pid!);
        const res = await runLoad(t.s.url, spec(t), { concurrency: CONCURRENCY, durationMs: ROUND_MS });
        if (res.errors) throw new Error(`${t.name}: ${res.errors} errors`);
        cpu.get(t.name)!.push((cpuMicros(t.s.proc.pid!) - before) / res.requests);
        rps.get(t.name)!.push(res.rps);
        reqs.set(t.name, reqs.get(t.name)! + res.requests);
      }
    }
    const third3 = targets[2].name;
    console.log(`requests measured: ${targets.map((t) => `${t.name} ${reqs.get(t.name)}`).join(', ')}`);
    for (const t of targets) console.log(`${t.name.padEnd(10)} CPU µs/req median ${median(cpu.get(t.name)!).toFixed(1)} [${cpu.get(t.name)!.map((x) => x.toFixed(0)).join(' ')}]  req/s median ${median(rps.get(t.name)!).toFixed(0)}`);
    const ratio = (x: string, y: string, m: Map<string, number[]>) => median(m.get(x)!.map((v, i) => v / m.get(y)![i]));
    console.log(`B/A CPU ${ratio('B', 'A', cpu).toFixed(3)}; A/${third3} CPU ${ratio('A', third3, cpu).toFixed(2)}; B/${third3} CPU ${ratio('B', third3, cpu).toFixed(2)}; A/${third3} req/s ${ratio('A', third3, rps).toFixed(2)}; B/${third3} req/s ${ratio('B', third3, rps).toFixed(2)}`);
  } finally {
    await Promise.all(running.map((s) => s.stop()));
    await data.remove();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
