import { expect } from 'chai';
import { jsonOrUndefined } from '../../support/http.js';
import { distEntry } from '../../support/dist-entry.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { createEngineHttpServer, openEmbeddedEngine, type EmbeddedEngine } from '../../../lib/engine/embedded/index.js';
import type { ApiDialect } from '../../../lib/config/index.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function tempDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'embedded-engine-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** One HTTP call; objects are sent as JSON, strings as they are. */
export async function call(base: string, method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const h: Record<string, string> = { ...headers };
  let payload: string | undefined;
  if (body !== undefined) {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    h['content-type'] ??= 'application/json';
  }
  const res = await request(base + p, { method: method as 'GET', headers: h, body: payload });
  const text = await res.body.text();
  const json: unknown = jsonOrUndefined(text);
  return { status: res.statusCode, headers: res.headers, text, json };
}

export interface TestEngine {
  url: string;
  engine: EmbeddedEngine;
  dataDir: string;
  call(method: string, p: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Closes the server and engine; keeps the data unless `remove`. */
  close(remove?: boolean): Promise<void>;
}

/** The engine served over HTTP in this process, on an ephemeral port. */
export async function startEngine(opts: { dataDir?: string; auth?: string; maxContentLength?: number; apiDialect?: ApiDialect } = {}): Promise<TestEngine> {
  const data = opts.dataDir ? { dir: opts.dataDir, remove: () => rm(opts.dataDir!, { recursive: true, force: true }) } : await tempDir();
  const maxContentLength = opts.maxContentLength ?? 100 * 1024 * 1024;
  const engine = await openEmbeddedEngine({ dataDir: data.dir, maxContentLength, apiDialect: opts.apiDialect });
  const server = createEngineHttpServer(engine, { auth: opts.auth, maxContentLength });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    engine,
    dataDir: data.dir,
    call: (method, p, body, headers) => call(url, method, p, body, headers),
    async close(remove = true) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await engine.close();
      if (remove) await data.remove();
    },
  };
}

export interface EngineProcess {
  url: string;
  proc: ChildProcess;
  exited: Promise<number | null>;
}

/** `node dist/lib/engine/embedded/standalone.js` (its bundle: `distEntry`) on an ephemeral port; resolves on its listening line. */
export function spawnEngine(dataDir: string): Promise<EngineProcess> {
  const proc = spawn(process.execPath, [distEntry('lib/engine/embedded/standalone.js')], {
    env: { PATH: process.env.PATH ?? '', ENGINE_PORT: '0', ENGINE_HOST: '127.0.0.1', ENGINE_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  let out = '';
  return new Promise((resolve, reject) => {
    // the wait is for the listening line; the bound only turns a child that never starts into an error (60 s: a loaded machine)
    const timer = setTimeout(() => reject(new Error(`engine did not start within 60 s:\n${out}`)), 60_000);
    proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^engine listening on (http:\/\/\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], proc, exited });
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`engine exited with ${code}:\n${out}`));
    });
  });
}

export { ndjson } from '../../support/http.js';

/** The `aggregations` of a `size: 0` search of `index` (`params`: a query string), which must answer 200. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function aggregationsOf(es: TestEngine, index: string, body: Record<string, unknown>, params = ''): Promise<any> {
  const r = await es.call('POST', `/${index}/_search${params}`, { size: 0, ...body });
  expect(r.status, r.text).to.equal(200);
  return r.json.aggregations;
}

/** The error of a `size: 0` search of `index`, which must answer 400. */
export async function refusalOf(es: TestEngine, index: string, body: Record<string, unknown>): Promise<{ type: string; reason: string }> {
  const r = await es.call('POST', `/${index}/_search`, { size: 0, ...body });
  expect(r.status, r.text).to.equal(400);
  return r.json.error as { type: string; reason: string };
}
