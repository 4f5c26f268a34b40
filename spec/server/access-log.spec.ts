import { expect } from 'chai';
import net from 'node:net';
import { loadConfig } from '../../lib/config/index.js';
import { createLogger, lineLogger, type DestinationStream } from '../../lib/logging/index.js';
import { adminAuth, basic, call, type Reply } from '../support/http.js';
import { startRecordingUpstream, type RecordingUpstream } from '../support/recording-upstream.js';
import { ADMIN, startTestGateway, type TestGateway } from '../support/servers.js';

/** A log destination that keeps every line, parsed. */
class CapturedLog implements DestinationStream {
  readonly lines: Array<Record<string, unknown>> = [];
  readonly raw: string[] = [];

  write(line: string): void {
    this.raw.push(line);
    this.lines.push(JSON.parse(line) as Record<string, unknown>);
  }

  get access(): Array<Record<string, unknown>> {
    return this.lines.filter((l) => l.log === 'access');
  }

  accessOf(requestId: string): Record<string, unknown> {
    const found = this.access.filter((l) => l.request_id === requestId);
    expect(found, `one access line for ${requestId} in:\n${this.raw.join('')}`).to.have.length(1);
    return found[0];
  }
}

interface LoggedGateway {
  gw: TestGateway;
  log: CapturedLog;
  /** A call, answered once the gateway is done with it (its response closed on the server's side). */
  call(method: string, path: string, options?: Parameters<typeof call>[3]): Promise<Reply>;
}

/** A gateway in this process whose structured log (made from its configuration) is captured. */
async function loggedGateway(env: Record<string, string> = {}): Promise<LoggedGateway> {
  const log = new CapturedLog();
  const logger = createLogger({ level: loadConfig(env).logLevel, destination: log });
  const gw = await startTestGateway(env, { logger, log: lineLogger(logger) });
  return {
    gw,
    log,
    async call(method, path, options) {
      const closed = nextResponseClosed(gw);
      const reply = await call(gw.url, method, path, options);
      await closed;
      return reply;
    },
  };
}

/**
 * The next response the gateway closes. The access line is written when a response closes, by a
 * listener the request path registers as the request comes in, so before this one: once this
 * resolves, the request's access line (if any) has been written.
 */
function nextResponseClosed(gw: TestGateway): Promise<void> {
  return new Promise((resolve) => {
    gw.server.once('request', (_req, res) => res.once('close', () => resolve()));
  });
}

/** A request written by hand, as it comes: here with credentials in the request target's userinfo. */
function rawRequest(gw: TestGateway, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(gw.port, '127.0.0.1', () => socket.end(head));
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('structured logs: access lines and request ids', function () {
  this.timeout(60_000);

  describe('with the defaults (LOG_LEVEL=info, ACCESS_LOG=true)', () => {
    let g: LoggedGateway;
    before(async () => {
      g = await loggedGateway();
      await g.call('PUT', '/books/_doc/1?refresh=true', { body: { title: 'The Hobbit' } });
    });
    after(() => g.gw.close());

    it('writes one JSON access line per request, with the X-Request-Id the response answers', async () => {
      const res = await g.call('POST', '/books/_search', { body: { query: { match: { title: 'hobbit' } } } });
      expect(res.status).to.equal(200);
      const id = String(res.headers['x-request-id']);
      expect(id).to.match(/^[0-9a-f-]{36}$/);
      const line = g.log.accessOf(id);
      expect(line).to.include({ level: 'info', method: 'POST', path: '/books/_search', status: 200, family: 'engine', category: 'search', user: ADMIN.user });
      expect(line.took).to.be.a('number').at.least(0);
      expect(line.time).to.be.a('string');
      expect(line.msg).to.equal('POST /books/_search 200');
      expect(line).not.to.have.property('aborted');
    });

    it('escapes a path as sent, quotes and backslashes too, alike in its path and its message', async () => {
      // Node's parser admits `"` and `\` in a request target: the line is still one JSON value saying them
      const closed = nextResponseClosed(g.gw);
      const raw = await rawRequest(g.gw, `GET /bo"ok\\s/_doc/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${adminAuth()}\r\nConnection: close\r\n\r\n`);
      await closed;
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(raw)?.[1]);
      expect(status).to.be.at.least(400);
      const line = g.log.access.find((l) => String(l.path).includes('"'));
      expect(line).to.include({ method: 'GET', path: '/bo"ok\\s/_doc/1', status });
      expect(line!.msg).to.equal(`GET /bo"ok\\s/_doc/1 ${status}`);
    });

    it("keeps a client's sane X-Request-Id, and replaces one that is not", async () => {
      const own = await g.call('GET', '/books/_doc/1', { headers: { 'x-request-id': 'client-id.42:a/b=' } });
      expect(own.headers['x-request-id']).to.equal('client-id.42:a/b=');
      g.log.accessOf('client-id.42:a/b=');
      for (const insane of ['has space', 'x'.repeat(200), '"quoted"']) {
        const res = await g.call('GET', '/books/_doc/1', { headers: { 'x-request-id': insane } });
        expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
        g.log.accessOf(String(res.headers['x-request-id']));
      }
    });

    it('answers an X-Request-Id on errors too, and logs requests refused before they were classified', async () => {
      const missing = await g.call('GET', '/books/_doc/nope');
      expect(missing.status).to.equal(404);
      expect(g.log.accessOf(String(missing.headers['x-request-id']))).to.include({ status: 404, category: 'docs' });
      const refused = await g.call('GET', '/books/_search', { auth: null });
      expect(refused.status).to.equal(401);
      const line = g.log.accessOf(String(refused.headers['x-request-id']));
      expect(line).to.include({ status: 401, path: '/books/_search' });
      expect(line).not.to.have.property('user');
    });

    it('logs a request whose client went away before any answer with 499 (client closed request), not a 404', async () => {
      const closed = nextResponseClosed(g.gw);
      // the head and part of a declared body, then the client hangs up: nothing was answered
      const socket = net.connect(g.gw.port, '127.0.0.1', () => {
        socket.write(`POST /gone-499/_search HTTP/1.1\r\nHost: x\r\nAuthorization: ${adminAuth()}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":`);
      });
      socket.on('error', () => {});
      // the gateway has the head once it waits for the body: its request event came
      await new Promise<void>((resolve) => g.gw.server.once('request', () => resolve()));
      socket.destroy();
      await closed;
      const line = g.log.access.find((l) => l.path === '/gone-499/_search');
      expect(line, g.log.raw.join('')).to.include({ status: 499, aborted: true });
    });

    it('carries X-Opaque-Id into the access line and echoes it, on every engine answer', async () => {
      const res = await g.call('POST', '/books/_search', { headers: { 'x-opaque-id': 'dashboard-7' }, body: { query: { match_all: {} } } });
      expect(res.headers['x-opaque-id']).to.equal('dashboard-7');
      expect(g.log.accessOf(String(res.headers['x-request-id']))).to.include({ opaque_id: 'dashboard-7' });
      // the same search again comes from the search cache: with this request's id
      const cached = await g.call('POST', '/books/_search', { headers: { 'x-opaque-id': 'dashboard-8' }, body: { query: { match_all: {} } } });
      expect(cached.headers['x-opaque-id']).to.equal('dashboard-8');
      expect(g.log.accessOf(String(cached.headers['x-request-id']))).to.include({ opaque_id: 'dashboard-8' });
    });

    it('never logs Authorization, cookies, passwords nor secret query parameters', async () => {
      const secrets: string[] = [adminAuth(), Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64'), ADMIN.password];
      // a password sent in a _credentials body, and the one the gateway issues
      const sentPassword = 'body-password-Zq81';
      await g.call('POST', '/_credentials', { body: { indices: ['books'], categories: ['search'], ops: ['read'], password: sentPassword } });
      const issued = await g.call('POST', '/_credentials', { body: { indices: ['books'], categories: ['search'], ops: ['read'] } });
      expect(issued.status, issued.text).to.equal(201);
      secrets.push(sentPassword, issued.json.password);
      // the issued credential in use, and a wrong password for it
      const scoped = basic(issued.json.credential.username, issued.json.password);
      const wrong = basic(issued.json.credential.username, 'wrong-password-Kx5');
      secrets.push(scoped, wrong, 'wrong-password-Kx5');
      expect((await g.call('GET', '/books/_search', { auth: scoped })).status).to.equal(200);
      expect((await g.call('GET', '/books/_search', { auth: wrong })).status).to.equal(401);
      // cookies and secret-looking query parameters
      const cookie = 'session=cookie-value-Wm3';
      secrets.push('cookie-value-Wm3', 'qs-token-Rt9', 'qs-key-Pp2');
      const withQuery = await g.call('GET', '/books/_search?q=hobbit&access_token=qs-token-Rt9&api_key=qs-key-Pp2', { headers: { cookie } });
      expect(g.log.accessOf(String(withQuery.headers['x-request-id'])).query).to.equal('q=hobbit&access_token=[redacted]&api_key=[redacted]');
      // credentials in the request target's userinfo
      const closed = nextResponseClosed(g.gw);
      const raw = await rawRequest(g.gw, `GET http://${ADMIN.user}:${ADMIN.password}@127.0.0.1:${g.gw.port}/books/_count HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${adminAuth()}\r\nConnection: close\r\n\r\n`);
      await closed;
      expect(raw).to.match(/^HTTP\/1\.1 200/);
      expect(g.log.access.find((l) => l.path === '/books/_count')).to.include({ status: 200 });

      const everything = g.log.raw.join('');
      for (const secret of secrets) expect(everything, `a log line carries ${secret}`).not.to.include(secret);
      expect(everything).not.to.match(/authorization|cookie/i);
    });
  });

  it('ACCESS_LOG=false writes no access line, and still answers X-Request-Id', async () => {
    const g = await loggedGateway({ ACCESS_LOG: 'false' });
    try {
      const res = await g.call('GET', '/_cluster/health');
      expect(res.status).to.equal(200);
      expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      expect(g.log.access).to.deep.equal([]);
    } finally {
      await g.gw.close();
    }
  });

  it('LOG_LEVEL=warn drops info lines (access lines among them) and keeps warnings', async () => {
    const g = await loggedGateway({ LOG_LEVEL: 'warn' });
    try {
      await g.call('GET', '/_cluster/health', { headers: { 'x-opaque-id': 'quiet' } });
      expect(g.log.lines.filter((l) => l.level === 'info' || l.level === 'debug')).to.deep.equal([]);
      expect(g.log.access).to.deep.equal([]);
    } finally {
      await g.gw.close();
    }
    // the modules' plain lines go out as warnings, which pass; and are scrubbed of credentials
    const log = new CapturedLog();
    const logger = createLogger({ level: loadConfig({ LOG_LEVEL: 'warn' }).logLevel, destination: log });
    logger.info('not shown');
    lineLogger(logger)('engine http://elastic:upstream-secret@127.0.0.1:9200 refused Basic ZWxhc3RpYzpzZWNyZXQ=');
    expect(log.lines.map((l) => [l.level, l.msg])).to.deep.equal([['warn', 'engine http://[redacted]@127.0.0.1:9200 refused Basic [redacted]']]);
  });

  describe('with ENGINE_URL', () => {
    let upstream: RecordingUpstream;
    let g: LoggedGateway;
    before(async () => {
      upstream = await startRecordingUpstream();
      g = await loggedGateway({ ENGINE_URL: upstream.url });
    });
    after(async () => {
      await g.gw.close();
      await upstream.stop();
    });

    it("passes the client's X-Opaque-Id on to the engine, and logs the engine's answer", async () => {
      upstream.clear();
      const res = await g.call('GET', '/_cluster/health', { headers: { 'x-opaque-id': 'to-the-engine' } });
      expect(res.status).to.equal(200);
      expect(upstream.requests.find((r) => r.path === '/_cluster/health')?.headers['x-opaque-id']).to.equal('to-the-engine');
      expect(g.log.accessOf(String(res.headers['x-request-id']))).to.include({ opaque_id: 'to-the-engine', status: 200 });
    });
  });
});
