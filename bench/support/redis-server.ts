import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface BenchRedis {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** SIGTERM, wait for exit, remove the data directory. Idempotent. */
  stop(): Promise<void>;
}

/** Is `redis-server` on PATH? */
export function redisServerAvailable(): boolean {
  return !spawnSync('redis-server', ['--version']).error;
}

/** A throwaway redis-server (no persistence) on a free loopback port, answering PING. */
export async function startBenchRedis(): Promise<BenchRedis> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-redis-'));
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before answering PING:\n${output}`))),
    );
    exited.catch(() => {});
    try {
      await Promise.race([waitForPing(port, 10_000), exited]);
    } catch (err) {
      await halt(child);
      if (attempt >= 3) {
        await rm(dir, { recursive: true, force: true });
        throw err;
      }
      continue; // someone took the port meanwhile
    }
    let stopped: Promise<void> | undefined;
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      pid: child.pid!,
      stop: () => (stopped ??= halt(child).then(() => rm(dir, { recursive: true, force: true }))),
    };
  }
}

async function halt(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** redis-server has no `--port 0`: take a port the kernel picked, then release it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPing(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await pings(port))) {
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
