import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

export type ServerKind = 'gateway' | 'engine';

/** A server process started for one conformance run. */
export interface StartedServer {
  /** Base URL, with credentials in userinfo when the server needs them. */
  url: string;
  stop(): Promise<void>;
}

const LAUNCH: Record<ServerKind, { script: string; banner: RegExp }> = {
  gateway: { script: 'dist/lib/main.js', banner: /gateway listening on (https?:\/\/\S+)/ },
  engine: { script: 'dist/lib/engine/embedded/standalone.js', banner: /engine listening on (https?:\/\/\S+)/ },
};

/**
 * Starts a fresh gateway (or standalone engine) on a free port with an empty data directory,
 * and resolves once it prints its "listening on" line. The wait is long: in `make test` three
 * runners start theirs at once beside the other spec files, on a machine at load 15 or more.
 */
export async function startServer(kind: ServerKind, repoRoot: string, startupTimeoutMs = 120_000): Promise<StartedServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `conformance-${kind}-`));
  const password = randomBytes(12).toString('hex');
  const env: NodeJS.ProcessEnv =
    kind === 'gateway'
      ? { ...process.env, PORT: '0', DATA_DIR: dataDir, ADMIN_USER: 'elastic', ADMIN_PASSWORD: password }
      : { ...process.env, ENGINE_PORT: '0', ENGINE_DATA_DIR: dataDir, ENGINE_AUTH: '' };
  const { script, banner } = LAUNCH[kind];
  const child = spawn(process.execPath, [path.join(repoRoot, script)], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });

  const stop = async (): Promise<void> => {
    await terminate(child);
    await rm(dataDir, { recursive: true, force: true });
  };

  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk.toString());
    if (stderr.length > 50) stderr.shift();
  });

  try {
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${kind} did not report listening within ${startupTimeoutMs} ms`)), startupTimeoutMs);
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        const match = banner.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${kind} exited with code ${code} before listening:\n${stderr.join('')}`));
      });
    });
    // Keep draining output so the child never blocks on a full pipe.
    child.stdout?.resume();
    const url = new URL(address);
    if (kind === 'gateway') {
      url.username = 'elastic';
      url.password = password;
    }
    return { url: url.toString().replace(/\/$/, ''), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
