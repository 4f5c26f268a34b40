/**
 * A/B of two built trees' gateways on one search cache hit (bench:cache's "cost of a hit"): each
 * gateway on its own embedded engine with the defaults (request logs, access lines, metrics, cache
 * on), the same Debian packages loaded, the same `bool_prefix` search sent by one client, one at a
 * time; beside them the floor (bench/support/fixed-answer.ts, the same answer's bytes). Interleaved
 * rounds (order reversed every other round): CPU per request of each serving process (its /proc
 * stat) and p50 latency, with medians over rounds and the B/A ratio.
 * Env: AB_A, AB_B (repository roots whose dist/ holds the builds; B defaults to this tree),
 * AB_DOCS (5000), AB_ROUNDS (8), AB_ROUND_MS (2000), AB_WARMUP_MS (8000: the JIT settles late — with
 * 1.5 s the first rounds cost 2-5× the steady state), AB_PROF=dir (--cpu-prof of each gateway; each
 * round's window is printed, for self-time.ts), AB_THREADS=1|tid (CPU per request by thread: the
 * main thread and V8's helpers, which run GC marking), AB_STRACE=1 (syscalls per request),
 * AB_SCOPED=1 (the searches sent with a scoped credential's header — read, search, on `debian` —
 * rather than the admin's: the cost of a hit that is authorized), AB_A_ENV / AB_B_ENV (`K=V,K=V` more settings), AB_NODE_ARGS / AB_A_NODE_ARGS / AB_B_NODE_ARGS
 * (node flags), AB_OUT=file (the gateways' stdout, to `file.<pid>`).
 * Usage: node dist/bench/support/ab-hit.js
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Pool } from 'undici';
import { spawnServer, tempDir, REPO_ROOT, type ChildServer } from '../../spec/support/servers.js';
import { bulkIndex, loadCorpus } from './corpus.js';
import { cpuMicros } from './cpu.js';
import { dropOutput } from './dropped-output.js';
import { spawnBuild } from './spawn-build.js';
import { DEBIAN_INDEX } from './live-search-mix.js';

const A = process.env.AB_A ?? REPO_ROOT;
const B = process.env.AB_B ?? REPO_ROOT;
const DOCS = Number(process.env.AB_DOCS ?? 5000);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 8);
const ROUND_MS = Number(process.env.AB_ROUND_MS ?? 2000);
const ADMIN = { ADMIN_USER: 'bench', ADMIN_PASSWORD: 'bench-password' };
const AUTHORIZATION = 'Basic ' + Buffer.from('bench:bench-password').toString('base64');
const HEADERS = { 'content-type': 'application/json', authorization: AUTHORIZATION };
const BODY = JSON.stringify({ size: 10, query: { multi_match: { query: 'lib', type: 'bool_prefix', fields: ['name^3', 'summary'] } } });

async function load(url: string, docs: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const created = await fetch(`${url}/debian`, { method: 'PUT', headers: HEADERS, body: JSON.stringify(DEBIAN_INDEX) });
  if (!created.ok) throw new Error(`create ${created.status}: ${await created.text()}`);
  await created.text();
  await bulkIndex(url, AUTHORIZATION, 'debian', docs);
  const refreshed = await fetch(`${url}/debian/_refresh`, { method: 'POST', headers: HEADERS });
  await refreshed.text();
}

/** The headers the searches are sent with: the admin's, or (AB_SCOPED) a scoped credential's made on that gateway. */
async function searcher(url: string): Promise<Record<string, string>> {
  if (!process.env.AB_SCOPED) return HEADERS;
  const res = await fetch(`${url}/_credentials`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ indices: ['debian'], categories: ['search'], ops: ['read'] }) });
  const made = (await res.json()) as { credential: { username: string }; password: string };
  if (res.status !== 201) throw new Error(`credential ${res.status}: ${JSON.stringify(made)}`);
  return { ...HEADERS, authorization: 'Basic ' + Buffer.from(`${made.credential.username}:${made.password}`).toString('base64') };
}

/** CPU µs so far of each thread of `pid`, by thread name (/proc/<pid>/task/<tid>/stat; 100 ticks a second). */
function threadMicros(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const key = tid === String(pid) ? 'main' : process.env.AB_THREADS === 'tid' ? `${name}#${tid}` : name;
      out.set(key, (out.get(key) ?? 0) + (Number(f[11]) + Number(f[12])) * 1e4);
    } catch {
      // the thread ended
    }
  }
  return out;
}

const median = (v: number[]) => { const s = [...v].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

/** One client, one request at a time, for `ms`: CPU µs per request of the serving process, and the latencies. */
async function hits(server: ChildServer, ms: number, gateway: boolean, headers: Record<string, string> = HEADERS): Promise<{ cpu: number; p50: number; n: number; threads: Map<string, number> }> {
  const threads0 = threadMicros(server.proc.pid!);
  const pool = new Pool(server.url, { connections: 1, pipelining: 1 });
  const latencies: number[] = [];
  const pid = server.proc.pid!;
  const cpu0 = cpuMicros(pid);
  const deadline = performance.now() + ms;
  try {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const res = await pool.request({ method: 'POST', path: '/debian/_search', headers, body: BODY });
      await res.body.dump();
      latencies.push(performance.now() - t0);
      if (res.statusCode !== 200) throw new Error(`answered ${res.statusCode}`);
      if (gateway && res.headers['x-request-cache'] !== 'true') throw new Error('an answer not from the cache');
    }
  } finally {
    await pool.close();
  }
  const threads = threadMicros(pid);
  for (const [name, us] of threads) threads.set(name, (us - (threads0.get(name) ?? 0)) / latencies.length);
  return { cpu: (cpuMicros(pid) - cpu0) / latencies.length, p50: median(latencies), n: latencies.length, threads };
}

async function main() {
  const data = await tempDir('ab-hit-');
  const running: ChildServer[] = [];
  try {
    const docs = await loadCorpus(DOCS);
    const prof = process.env.AB_PROF;
    const extra = (v?: string): Record<string, string> => Object.fromEntries((v ?? '').split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]));
    const env = (n: string) => ({ DATA_DIR: `${data.dir}/${n}`, CACHE_QUIET_MS: '0', ...ADMIN });
    const a = await spawnBuild(A, { ...env('a'), ...extra(process.env.AB_A_ENV) }, { prof: prof && prof + '/a', nodeArgs: process.env.AB_A_NODE_ARGS, keepOutput: process.env.AB_OUT }); running.push(a);
    const b = await spawnBuild(B, { ...env('b'), ...extra(process.env.AB_B_ENV) }, { prof: prof && prof + '/b', nodeArgs: process.env.AB_B_NODE_ARGS, keepOutput: process.env.AB_OUT }); running.push(b);
    await Promise.all([load(a.url, docs), load(b.url, docs)]);
    const answer = await (await fetch(`${a.url}/debian/_search`, { method: 'POST', headers: HEADERS, body: BODY })).text();
    const answerB = await (await fetch(`${b.url}/debian/_search`, { method: 'POST', headers: HEADERS, body: BODY })).text();
    const shown = (t: string) => { const h = (JSON.parse(t) as { hits: { total: unknown; hits: Array<{ _source: { name: string } }> } }).hits; return JSON.stringify([h.total, h.hits.map((x) => x._source.name)]); };
    if (shown(answer) !== shown(answerB)) throw new Error('A and B answer differently');
    writeFileSync(`${data.dir}/answer.json`, answer);
    const floor = dropOutput(await spawnServer('bench/support/fixed-answer.js', { ANSWER_FILE: `${data.dir}/answer.json`, PORT: '0' }, 'fixed' as 'engine'));
    running.push(floor);
    const targets = [
      { name: 'A', s: a, gateway: true, headers: await searcher(a.url) },
      { name: 'B', s: b, gateway: true, headers: await searcher(b.url) },
      { name: 'floor', s: floor, gateway: false, headers: HEADERS },
    ];
    for (const t of targets) await hits(t.s, Number(process.env.AB_WARMUP_MS ?? 8000), false, t.headers);
    if (process.env.AB_STRACE) {
      for (const t of targets) {
        const st = spawn('strace', ['-c', '-f', '-p', String(t.s.proc.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
        let text = '';
        st.stderr!.on('data', (c: Buffer) => (text += c));
        await new Promise((r) => setTimeout(r, 500)); // strace attaching: no signal to wait for
        const res = await hits(t.s, ROUND_MS, t.gateway, t.headers);
        const done = new Promise((r) => st.once('exit', r));
        st.kill('SIGINT');
        await done;
        const calls = text.split('\n').filter((l) => /^\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+/.test(l)).map((l) => l.trim().split(/\s+/)).map((f) => [f[f.length - 1], Number(f[3])] as const);
        console.log(`${t.name}: ${res.n} requests; syscalls per request: ` + calls.sort((x, y) => y[1] - x[1]).slice(0, 14).map(([n, c]) => `${n} ${(c / res.n).toFixed(2)}`).join(', '));
      }
      return;
    }
    const cpu = new Map(targets.map((t) => [t.name, [] as number[]]));
    const p50 = new Map(targets.map((t) => [t.name, [] as number[]]));
    let n = 0;
    const byThread = new Map(targets.map((t) => [t.name, new Map<string, number>()]));
    const from = process.hrtime.bigint() / 1000n;
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of r % 2 ? [...targets].reverse() : targets) {
        const begun = process.hrtime.bigint() / 1000n;
        const res = await hits(t.s, ROUND_MS, t.gateway, t.headers);
        if (process.env.AB_PROF) console.log(`${t.name} round ${r}: ${res.n} requests in window ${begun}-${process.hrtime.bigint() / 1000n}`);
        cpu.get(t.name)!.push(res.cpu);
        p50.get(t.name)!.push(res.p50);
        n += res.n;
        for (const [name, us] of res.threads) byThread.get(t.name)!.set(name, (byThread.get(t.name)!.get(name) ?? 0) + us / ROUNDS);
      }
    }
    console.log(`${n} requests, ${ROUNDS} rounds of ${ROUND_MS} ms (window ${from}-${process.hrtime.bigint() / 1000n} µs); answer ${answer.length} bytes`);
    for (const t of targets) console.log(`${t.name.padEnd(6)} CPU µs/req median ${median(cpu.get(t.name)!).toFixed(1)} [${cpu.get(t.name)!.map((x) => x.toFixed(0)).join(' ')}]  p50 median ${median(p50.get(t.name)!).toFixed(3)} ms [${p50.get(t.name)!.map((x) => x.toFixed(3)).join(' ')}]`);
    if (process.env.AB_THREADS) for (const t of targets) console.log(`${t.name.padEnd(6)} CPU µs/req by thread (mean of rounds): ${[...byThread.get(t.name)!].filter(([, us]) => us >= 0.5).sort((x, y) => y[1] - x[1]).map(([name, us]) => `${name} ${us.toFixed(1)}`).join(', ')}`);
    const ratio = (x: string, y: string, m: Map<string, number[]>) => median(m.get(x)!.map((v, i) => v / m.get(y)![i]));
    console.log(`B/A CPU ${ratio('B', 'A', cpu).toFixed(3)}, p50 ${ratio('B', 'A', p50).toFixed(3)}; A/floor p50 ${ratio('A', 'floor', p50).toFixed(2)}, B/floor p50 ${ratio('B', 'floor', p50).toFixed(2)}; A/floor CPU ${ratio('A', 'floor', cpu).toFixed(2)}, B/floor CPU ${ratio('B', 'floor', cpu).toFixed(2)}`);
  } finally {
    await Promise.all(running.map((s) => s.stop()));
    await data.remove();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
