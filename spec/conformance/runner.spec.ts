import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const RUNNER = path.join(REPO_ROOT, 'dist', 'conformance', 'run.js');

/** Minimal API specs, in the format of `api/*.json`. */
const API_SPECS: Record<string, unknown> = {
  'indices.create': { url: { paths: [{ path: '/{index}', methods: ['PUT'], parts: { index: {} } }] }, params: {}, body: {} },
  index: {
    url: {
      paths: [
        { path: '/{index}/_doc/{id}', methods: ['PUT', 'POST'], parts: { index: {}, id: {} } },
        { path: '/{index}/_doc', methods: ['POST'], parts: { index: {} } },
      ],
    },
    params: { refresh: {} },
    body: { required: true },
  },
  get: { url: { paths: [{ path: '/{index}/_doc/{id}', methods: ['GET'], parts: { index: {}, id: {} } }] }, params: {} },
  search: {
    url: { paths: [{ path: '/{index}/_search', methods: ['GET', 'POST'], parts: { index: {} } }] },
    params: { size: {} },
    body: {},
  },
};

const TESTS = `
setup:
  - do:
      indices.create:
        index: test
---
"indexes and gets a document":
  - do:
      index:
        index: test
        body: { title: "hello", n: 1 }
  - match: { result: created }
  - set: { _id: doc_id }
  - do:
      get:
        index: test
        id: $doc_id
  - match: { _id: $doc_id }
  - match: { _source: { title: hello, n: 1.0 } }
  - match: { _source.title: /^hel+o$/ }
  - do:
      catch: missing
      get:
        index: test
        id: nope
  - match: { found: false }
---
"fails on a wrong value":
  - do:
      index:
        index: test
        id: "1"
        body: { title: "hello" }
  - match: { _id: "2" }
---
"catches a client-side param error":
  - do:
      catch: param
      get:
        index: test
        id: "1"
        no_such_param: true
---
"catches an error by regex":
  - do:
      catch: /parsing_exception.+unknown query \\[nope\\]/
      search:
        index: test
        body: { query: { nope: {} } }
  - match: { status: 400 }
---
"times out on a hanging request":
  - do:
      get:
        index: test
        id: hang
---
"skipped by version":
  - skip:
      version: "8.0.0 - "
      reason: not for 8.x
  - do:
      get: { index: test, id: "1" }
---
"skipped by the skip list":
  - do:
      get: { index: test, id: "1" }
`;

/** A few canned Elasticsearch-like answers over an in-memory document map. */
function startFakeElasticsearch(): Promise<Server> {
  const docs = new Map<string, unknown>();
  let autoId = 0;
  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const handle = (req: IncomingMessage, res: ServerResponse, text: string): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (req.headers.authorization !== `Basic ${Buffer.from('elastic:secret').toString('base64')}`) {
      return send(res, 401, { error: { type: 'security_exception' }, status: 401 });
    }
    if (req.method === 'DELETE' || parts[0]?.startsWith('_')) {
      docs.clear();
      return send(res, 200, { acknowledged: true });
    }
    if (req.method === 'PUT' && parts.length === 1) return send(res, 200, { acknowledged: true, index: parts[0] });
    if (parts[1] === '_search') {
      return send(res, 400, { error: { type: 'parsing_exception', reason: 'unknown query [nope]' }, status: 400 });
    }
    if (parts[1] === '_doc' && (req.method === 'PUT' || req.method === 'POST')) {
      const id = parts[2] ?? `auto-${++autoId}`;
      docs.set(`${parts[0]}/${id}`, JSON.parse(text));
      return send(res, 201, { _index: parts[0], _id: id, _version: 1, result: 'created' });
    }
    if (parts[1] === '_doc' && req.method === 'GET') {
      if (parts[2] === 'hang') return; // never answers
      const source = docs.get(`${parts[0]}/${parts[2]}`);
      if (source === undefined) return send(res, 404, { _index: parts[0], _id: parts[2], found: false });
      return send(res, 200, { _index: parts[0], _id: parts[2], _version: 1, found: true, _source: source });
    }
    send(res, 404, { error: { type: 'unknown' }, status: 404 });
  };
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => handle(req, res, text));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [RUNNER, ...args], { env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('conformance runner, end to end', () => {
  let server: Server;
  let dir: string;
  let url: string;
  let common: string[];

  before(async () => {
    server = await startFakeElasticsearch();
    url = `http://elastic:secret@127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = await mkdtemp(path.join(os.tmpdir(), 'conformance-e2e-'));
    await mkdir(path.join(dir, 'api'));
    for (const [name, spec] of Object.entries(API_SPECS)) {
      await writeFile(path.join(dir, 'api', `${name}.json`), JSON.stringify({ [name]: spec }));
    }
    await mkdir(path.join(dir, 'mini', 'tests', 'docs'), { recursive: true });
    await writeFile(path.join(dir, 'mini', 'tests', 'docs', '10_basic.yml'), TESTS);
    await writeFile(
      path.join(dir, 'skip-list.json'),
      JSON.stringify({ tests: { 'mini/tests/docs/10_basic.yml :: skipped by the skip list': 'out of scope' } }),
    );
    common = ['--url', url, '--timeout', '1000', '--skip-list', path.join(dir, 'skip-list.json')];
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('reports passes, failures (including a timeout) and skips, per folder and in JSON', async () => {
    const json = path.join(dir, 'results.json');
    const run = await runCli([...common, '--verbose', '--json', json], { CONFORMANCE_DIR: dir });

    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^mini\/docs\s+3\s+2\s+2$/m);
    expect(run.stdout.trimEnd().split('\n').at(-1)).to.equal('3 passed, 2 failed, 2 skipped');
    expect(run.stdout).to.include('FAIL mini/tests/docs/10_basic.yml :: fails on a wrong value');
    expect(run.stdout).to.match(/expected: 2\n\s+actual:\s+1/);

    const results = JSON.parse(await readFile(json, 'utf8')) as Array<{ test: string; status: string; reason?: string; failure?: { message: string } }>;
    const byName = new Map(results.map((r) => [r.test, r]));
    expect(byName.get('indexes and gets a document')?.status).to.equal('passed');
    expect(byName.get('catches a client-side param error')?.status).to.equal('passed');
    expect(byName.get('catches an error by regex')?.status).to.equal('passed');
    expect(byName.get('fails on a wrong value')?.status).to.equal('failed');
    expect(byName.get('times out on a hanging request')?.failure?.message).to.match(/timed out/);
    expect(byName.get('skipped by version')?.reason).to.match(/not for 8\.x/);
    expect(byName.get('skipped by the skip list')?.reason).to.equal('out of scope');
  });

  it('fails the run when fewer tests pass than the gate asks, and passes it otherwise', async () => {
    const gated = await runCli([...common, '--min-passed', '4', '--filter', 'docs/10_basic'], { CONFORMANCE_DIR: dir });
    expect(gated.code).to.equal(1);
    expect(gated.stderr).to.match(/fewer than the required 4/);

    const baseline = path.join(dir, 'baseline.json');
    await writeFile(baseline, JSON.stringify({ passed: 3 }));
    const passing = await runCli([...common, '--baseline', baseline], { CONFORMANCE_DIR: dir });
    expect(passing.code).to.equal(0);
  });
});
