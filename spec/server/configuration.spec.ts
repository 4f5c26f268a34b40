import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { loadConfig, ConfigError } from '../../lib/config/index.js';
import { openEmbeddedEngine } from '../../lib/engine/embedded/index.js';
import { callJson } from '../../lib/engine/index.js';
import { basic, call } from '../support/http.js';
import { REPO_ROOT, spawnGateway, tempDir } from '../support/servers.js';

// the modules of dist/lib, as `make run` starts them (the other spawned gateways run its bundle)
function runMain(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [path.join(REPO_ROOT, 'dist/lib/main.js')], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let out = '';
    proc.stdout.on('data', (c) => (out += c));
    proc.stderr.on('data', (c) => (out += c));
    proc.on('exit', (code) => resolve({ code, out }));
  });
}

describe('configuration', () => {
  it('has defaults: port 8000, embedded engine in ./data, 100mb body limit', () => {
    const c = loadConfig({});
    expect(c.port).to.equal(8000);
    expect(c.engineUrl).to.equal(undefined);
    expect(c.dataDir).to.equal(path.resolve('data'));
    expect(c.maxContentLength).to.equal(100 * 1024 * 1024);
  });

  it('refuses invalid values with one clear message', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).to.throw(ConfigError, /PORT must be an integer/);
    expect(() => loadConfig({ PORT: '70000' })).to.throw(ConfigError, /PORT must be between/);
    expect(() => loadConfig({ ENGINE_URL: 'not a url' })).to.throw(ConfigError, /ENGINE_URL/);
    expect(() => loadConfig({ ENGINE_URL: 'ftp://x' })).to.throw(ConfigError, /http/);
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).to.throw(ConfigError, /REDIS_URL/);
    expect(() => loadConfig({ ADMIN_USER: 'a' })).to.throw(ConfigError, /together/);
    expect(() => loadConfig({ MAX_CONTENT_LENGTH: 'lots' })).to.throw(ConfigError, /byte size/);
    expect(loadConfig({ MAX_CONTENT_LENGTH: '1kb' }).maxContentLength).to.equal(1024);
  });

  it('LOGS_FLUSH_MS: how often waiting request log records are written, 1000 ms unless set, 10 to 60000', () => {
    expect(loadConfig({}).logs.flushMs).to.equal(1000);
    expect(loadConfig({ LOGS_FLUSH_MS: '50' }).logs.flushMs).to.equal(50);
    expect(() => loadConfig({ LOGS_FLUSH_MS: '5' })).to.throw(ConfigError, /LOGS_FLUSH_MS/);
    expect(() => loadConfig({ LOGS_FLUSH_MS: 'soon' })).to.throw(ConfigError, /LOGS_FLUSH_MS/);
  });

  it('an invalid configuration stops the start with one line and exit code 1', async () => {
    const { code, out } = await runMain({ PORT: 'eighty' });
    expect(code).to.equal(1);
    expect(out.trim().split('\n')).to.have.length(1);
    expect(out).to.match(/^invalid configuration: PORT must be an integer/);
  });

  it('generates an admin credential on the first start, prints it once, stores it hashed', async function () {
    this.timeout(30_000);
    const data = await tempDir();
    try {
      const first = await spawnGateway({ DATA_DIR: data.dir });
      const m = /generated admin credential \(shown once, stored hashed\): (\S+):(\S+)/.exec(first.output());
      expect(m, first.output()).to.not.equal(null);
      const [, user, password] = m!;
      expect((await call(first.url, 'GET', '/', { auth: basic(user, password) })).status).to.equal(200);
      const direct = await call(first.url, 'GET', '/.gateway-credentials/_doc/admin', { auth: basic(user, password) });
      expect(direct.status, 'the credentials index is not reachable through the REST API').to.equal(403);
      expect(direct.text).not.to.contain(password);
      await first.stop();
      // what is on disk: a scrypt hash, not the password
      const engine = await openEmbeddedEngine({ dataDir: data.dir });
      const stored = await callJson<{ _source: { hash: string } }>(engine, 'GET', '/.gateway-credentials/_doc/admin');
      await engine.close();
      expect(stored.body._source.hash).to.match(/^scrypt\$/);
      expect(JSON.stringify(stored.body)).not.to.contain(password);

      const second = await spawnGateway({ DATA_DIR: data.dir });
      expect(second.output()).not.to.contain('generated admin credential');
      expect((await call(second.url, 'GET', '/', { auth: basic(user, password) })).status).to.equal(200);
      expect((await call(second.url, 'GET', '/', { auth: basic(user, 'wrong') })).status).to.equal(401);
      await second.stop();
    } finally {
      await data.remove();
    }
  });
});
