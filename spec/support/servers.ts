import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../lib/config/index.js';
import { startGateway, type RunningGateway, type StartOptions } from '../../lib/server/index.js';
import { silentLogger } from '../../lib/logging/index.js';
import { distEntry } from './dist-entry.js';

export { distEntry };

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const ADMIN = { user: 'admin', password: 'test-admin-password' };

export async function tempDir(prefix = 'gw-test-'): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface TestGateway extends RunningGateway {
  dataDir: string;
}

/**
 * A real gateway on an ephemeral port, in this process: embedded engine unless ENGINE_URL is given.
 * It logs nothing unless `options` gives it a logger (or a `log`) of its own.
 */
export async function startTestGateway(env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestGateway> {
  const data = await tempDir();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: data.dir,
    ADMIN_USER: ADMIN.user,
    ADMIN_PASSWORD: ADMIN.password,
    ...env,
  });
  const gw = await startGateway(config, { log: () => {}, logger: silentLogger(), ...options });
  return {
    ...gw,
    dataDir: data.dir,
    async close() {
      await gw.close();
      await data.remove();
    },
  };
}

export interface ChildServer {
  url: string;
  proc: ChildProcess;
  output: () => string;
  /** SIGTERM (or the given signal) and wait for exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const MAX_OUTPUT = 4 * 1024 ** 2;
const START_WITHIN_MS = 60_000;

/**
 * Spawns `node <script>` from the built tree (its bundle: `distEntry`) and resolves once stdout prints `<what> listening on <url>`.
 * A child not listening within `startTimeoutMs` is killed and the promise rejects (a minute: a
 * gateway on the HTTP backend took 16–20 s to start on this machine under its shared load).
 */
export function spawnServer(
  script: string, env: Record<string, string>, what: 'gateway' | 'engine' | 'floor', startTimeoutMs = START_WITHIN_MS, nodeArgs: string[] = [],
): Promise<ChildServer> {
  const proc = spawn(process.execPath, [...nodeArgs, distEntry(script)], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  // a child's output is kept for startup and diagnostics; its access lines would grow it without
  // bound over a long run: past MAX_OUTPUT, only the head and the latest part are kept
  const keep = (text: string) => {
    out += text;
    if (out.length > MAX_OUTPUT) out = `${out.slice(0, MAX_OUTPUT / 4)}\n[…]\n${out.slice(-MAX_OUTPUT / 2)}`;
  };
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${what} did not start within ${startTimeoutMs} ms:\n${out}`));
    }, startTimeoutMs);
    const listening = new RegExp(`${what} listening on (http://[^\\s]+)`);
    let started = false;
    const onData = (chunk: Buffer) => {
      keep(chunk.toString());
      // once started, what the child prints (its access lines) is only kept: the caller is often
      // a benchmark's load generator, which must not scan megabytes per chunk
      if (started) return;
      const m = listening.exec(out);
      if (m) {
        started = true;
        clearTimeout(timer);
        resolve({
          url: m[1],
          proc,
          output: () => out,
          async stop(signal: NodeJS.Signals = 'SIGTERM') {
            if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
            return exited;
          },
        });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (c: Buffer) => keep(c.toString()));
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before listening:\n${out}`));
    });
  });
}

export async function spawnEngine(dataDir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  return spawnServer('lib/engine/embedded/standalone.js', { ENGINE_PORT: '0', ENGINE_DATA_DIR: dataDir, ...env }, 'engine');
}

/** Runs `use` against a standalone engine of its own (a fresh data directory), stopped and removed after, whatever `use` does. */
export async function withStandaloneEngine<T>(env: Record<string, string>, use: (engine: ChildServer) => Promise<T>): Promise<T> {
  const data = await tempDir('gw-engine-');
  try {
    const engine = await spawnEngine(data.dir, env);
    try {
      return await use(engine);
    } finally {
      await engine.stop();
    }
  } finally {
    await data.remove();
  }
}

export async function spawnGateway(env: Record<string, string>, startTimeoutMs?: number, nodeArgs?: string[]): Promise<ChildServer> {
  return spawnServer('lib/main.js', { PORT: '0', HOST: '127.0.0.1', ...env }, 'gateway', startTimeoutMs, nodeArgs);
}
