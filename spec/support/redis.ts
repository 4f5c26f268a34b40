import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const INSTALL_HINT = 'redis-server is not installed: install it with `apt-get install -y redis-server` (the tests start their own on a free port)';

export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** SIGKILL: no shutdown save, connections drop at once. */
  kill(): Promise<void>;
  /** Starts redis-server again on the same port and data directory. */
  restart(): Promise<void>;
  /** Stops the server (if running) and removes its data directory. */
  stop(): Promise<void>;
}

export interface TestRedisOptions {
  /** Append-only file with fsync on every write, so data survives a SIGKILL + restart. */
  durable?: boolean;
}

/**
 * Starts a real redis-server on a free port for the calling suite. Without the binary the suite
 * is skipped (or, under CI=true, fails) with the install hint. Call from a mocha `before` hook.
 */
export async function startRedis(suite: Mocha.Context, options: TestRedisOptions = {}): Promise<TestRedis> {
  if (!redisServerAvailable()) {
    if (process.env.CI === 'true') throw new Error(INSTALL_HINT);
    console.warn(`      skipped: ${INSTALL_HINT}`);
    suite.skip();
  }
  return launchRedis(options);
}

export function redisServerAvailable(): boolean {
  return !spawnSync('redis-server', ['--version']).error;
}

/** A real redis-server on a free port (benchmarks use it too); throws when it cannot start. */
export async function launchRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gw-redis-'));
  const argsFor = (port: number) => [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, '--daemonize', 'no',
    ...(options.durable ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
  ];
  const started = await serveOnFreePort(argsFor);
  const port = started.port;
  let proc: ChildProcess | undefined = started.child;
  const halt = async (signal: NodeJS.Signals) => {
    const child = proc;
    proc = undefined;
    if (child !== undefined) await killed(child, signal);
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => halt('SIGKILL'),
    restart: async () => {
      await halt('SIGKILL');
      proc = await serve(argsFor(port), port);
    },
    stop: async () => {
      await halt('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Sends `signal` to a child still running and waits for its exit. */
async function killed(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/**
 * `redis-server <args>` answering PING on `port`; rejects when it exits first (its output in the
 * error) or has not answered within 10 s (it is killed then).
 */
async function serve(args: string[], port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before answering PING:\n${output}`))),
  );
  exited.catch(() => {});
  try {
    await Promise.race([waitForPing(port, 10_000), exited]);
  } catch (err) {
    await killed(child, 'SIGKILL');
    throw err;
  }
  return child;
}

/**
 * `serve` on a port the kernel picked free: tried again on another port (three tries in all) when
 * the server cannot start on it, which happens when another process (a parallel spec worker) took
 * the port between its release and the server's bind.
 */
async function serveOnFreePort(argsFor: (port: number) => string[]): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { port, child: await serve(argsFor(port), port) };
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
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
  for (;;) {
    if (await pings(port)) return;
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

export interface TestSentinel {
  readonly port: number;
  /** REDIS_URL through this Sentinel, for the master it monitors as `name`. */
  readonly url: string;
  stop(): Promise<void>;
}

/** A Redis Sentinel (redis-server --sentinel) monitoring the given server as master `name`. */
export async function launchSentinel(master: TestRedis, name = 'gwmaster'): Promise<TestSentinel> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gw-sentinel-'));
  const conf = path.join(dir, 'sentinel.conf');
  const { port, child } = await serveOnFreePort((port) => {
    writeFileSync(conf, [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, `sentinel monitor ${name} 127.0.0.1 ${master.port} 1`, `sentinel down-after-milliseconds ${name} 1000`, ''].join('\n'));
    return [conf, '--sentinel'];
  });
  return {
    port,
    url: `redis+sentinel://127.0.0.1:${port}/${name}`,
    async stop() {
      await killed(child, 'SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface TestRedisCluster {
  /** REDIS_URL of the cluster (two of its nodes as seeds). */
  readonly url: string;
  readonly ports: number[];
  stop(): Promise<void>;
}

/** A Redis Cluster of three masters (no replicas) on free ports, created with `redis-cli --cluster create`. */
export async function launchRedisCluster(): Promise<TestRedisCluster> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gw-cluster-'));
  const ports: number[] = [];
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map((child) => killed(child, 'SIGKILL')));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i++) {
      const { port, child } = await serveOnFreePort((port) => {
        const nodeDir = path.join(dir, String(port));
        mkdirSync(nodeDir, { recursive: true });
        return ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--save', '', '--appendonly', 'no', '--dir', nodeDir];
      });
      children.push(child);
      ports.push(port);
    }
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], { encoding: 'utf8', timeout: 30_000 });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    const deadline = Date.now() + 20_000;
    for (const port of ports) {
      while (!/cluster_state:ok/.test(spawnSync('redis-cli', ['-p', String(port), 'cluster', 'info'], { encoding: 'utf8' }).stdout ?? '')) {
        if (Date.now() > deadline) throw new Error(`the cluster did not become ready on port ${port}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `redis+cluster://127.0.0.1:${ports[0]},127.0.0.1:${ports[1]}`, ports, stop };
}
