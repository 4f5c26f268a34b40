import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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
  let port = 0;
  let proc: ChildProcess | undefined;
  const launch = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, '--daemonize', 'no'];
    args.push(...(options.durable ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']));
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before answering PING:\n${output}`))),
    );
    exited.catch(() => {});
    await Promise.race([waitForPing(port, 10_000), exited]);
    proc = child;
  };
  const halt = async (signal: NodeJS.Signals) => {
    const child = proc;
    proc = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };

  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (err) {
      await halt('SIGKILL');
      if (attempt >= 3) throw err; // another process took the port meanwhile: try another
    }
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => halt('SIGKILL'),
    restart: async () => {
      await halt('SIGKILL');
      await launch();
    },
    stop: async () => {
      await halt('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
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
  const port = await freePort();
  const conf = path.join(dir, 'sentinel.conf');
  const { writeFile } = await import('node:fs/promises');
  await writeFile(conf, [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, `sentinel monitor ${name} 127.0.0.1 ${master.port} 1`, `sentinel down-after-milliseconds ${name} 1000`, ''].join('\n'));
  const child = spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
  await waitForPing(port, 10_000);
  return {
    port,
    url: `redis+sentinel://127.0.0.1:${port}/${name}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
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
    await Promise.all(children.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return exited;
    }));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const nodeDir = path.join(dir, String(port));
      await import('node:fs/promises').then((fs) => fs.mkdir(nodeDir));
      children.push(spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--save', '', '--appendonly', 'no', '--dir', nodeDir], { stdio: 'ignore' }));
      await waitForPing(port, 10_000);
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
