/**
 * `node dist/bench/support/vanishing-crowd.js [clients]`: what a crowd of slow-body clients that
 * vanish in the same millisecond costs the gateway (embedded engine) — its longest event-loop block
 * in its own CPU time (bench/support/loop-cpu.ts) and its CPU in all, from the moment the crowd
 * (each connection: a search's head and the first byte of its body) closes at once. BENCH_CPU_PROF=dir
 * profiles the gateway (bench/support/long-blocks.ts reads it).
 */
import net from 'node:net';
import { ADMIN, spawnGateway, tempDir } from '../../spec/support/servers.js';
import { AUTHORIZATION, longestLoopCpuMs } from './probe.js';

const CLIENTS = Number(process.argv[2] ?? 4_000);
const ADDRESSES = ['127.0.0.40', '127.0.0.41', '127.0.0.42', '127.0.0.43', '127.0.0.44', '127.0.0.45'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The child's CPU time (ms) from /proc. */
async function cpuOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function main(): Promise<void> {
  const data = await tempDir('bench-crowd-');
  const gw = await spawnGateway({ DATA_DIR: data.dir, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password }, undefined,
    ['--import', new URL('./loop-cpu.js', import.meta.url).href, ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])]);
  const { port, hostname, host } = new URL(gw.url);
  const head = `POST /_search HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${AUTHORIZATION}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`;
  try {
    const sockets = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ port: Number(port), host: hostname, localAddress: ADDRESSES[i % ADDRESSES.length] });
      s.once('connect', () => s.write(head, () => resolve(s)));
      s.once('error', reject);
    })));
    // the crowd's requests are read and waiting for their bodies (a measuring tool may wait)
    await sleep(3_000);
    await longestLoopCpuMs(gw);
    const before = await cpuOf(gw.proc.pid!);
    let open = sockets.length;
    for (const s of sockets) s.once('close', () => open--);
    for (const s of sockets) s.end();
    // the gateway closes each connection: a few seconds, or the count of those it left open
    for (let waited = 0; open > 0 && waited < 20_000; waited += 100) await sleep(100);
    await sleep(2_000);
    if (open) console.log(`${open} connections left open by the gateway`);
    const cpu = (await cpuOf(gw.proc.pid!)) - before;
    console.log(`${CLIENTS} clients vanishing at once: longest loop block ${await longestLoopCpuMs(gw)} ms of CPU, ${cpu} ms of gateway CPU in all (2 s after)`);
  } finally {
    await gw.stop();
    await data.remove();
  }
}

void main();
