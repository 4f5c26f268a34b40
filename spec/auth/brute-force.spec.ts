import { expect } from 'chai';
import { once } from 'node:events';
import http from 'node:http';
import WebSocket from 'ws';
import { adminAuth, basic, call, type Reply } from '../support/http.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN, startTestGateway, type TestGateway } from '../support/servers.js';

/** A GET / from another loopback address than the other calls' 127.0.0.1. */
function fromOtherAddress(base: string, auth: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(base + '/', { headers: { authorization: auth }, localAddress: '127.0.0.2' }, (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      })
      .once('error', reject);
  });
}

function expectThrottled(reply: Reply, reasonMentions: string): void {
  expect(reply.status, reply.text).to.equal(429);
  const seconds = Number(reply.headers['retry-after']);
  expect(seconds).to.be.within(1, 60);
  expect(reply.json.status).to.equal(429);
  expect(reply.json.error.type).to.equal('es_rejected_execution_exception');
  expect(reply.json.error.root_cause[0].type).to.equal('es_rejected_execution_exception');
  expect(reply.json.error.reason).to.contain(reasonMentions);
}

describe('failed logins are throttled (brute force)', function () {
  this.timeout(60_000);

  describe('per username (default budget: 10 a minute)', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway();
    });
    after(() => gw.close());

    it('answers 429 with Retry-After after 10 failures for a username; other users still log in', async () => {
      const created = await call(gw.url, 'POST', '/_credentials', { body: { username: 'reader', indices: ['*'], categories: ['cluster'], ops: ['read'] } });
      expect(created.status, created.text).to.equal(201);
      const reader = basic('reader', created.json.password);
      for (let i = 0; i < 10; i++) {
        expect((await call(gw.url, 'GET', '/', { auth: basic('victim', `guess-${i}`) })).status).to.equal(401);
      }
      expectThrottled(await call(gw.url, 'GET', '/', { auth: basic('victim', 'guess-10') }), 'user [victim]');
      // the username is refused whatever the password, for the window; nobody else is
      expectThrottled(await call(gw.url, 'GET', '/', { auth: basic('victim', 'guess-0') }), 'user [victim]');
      expect((await call(gw.url, 'GET', '/', { auth: reader })).status).to.equal(200);
      expect((await call(gw.url, 'GET', '/')).status).to.equal(200);
    });
  });

  describe("a burst of one client's requests", () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway();
    });
    after(() => gw.close());

    it('30 concurrent requests with a right header not verified yet are one login, not 30 attempts', async () => {
      const created = await call(gw.url, 'POST', '/_credentials', { body: { username: 'burst', indices: ['*'], categories: ['cluster'], ops: ['read'] } });
      const auth = basic('burst', created.json.password);
      const statuses = await Promise.all(Array.from({ length: 30 }, () => call(gw.url, 'GET', '/', { auth }).then((r) => r.status)));
      expect(statuses).to.deep.equal(Array(30).fill(200));
      expect((await call(gw.url, 'GET', '/', { auth })).status).to.equal(200);
    });
  });

  describe('per client address', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway({ AUTH_MAX_FAILURES_PER_IP_PER_MINUTE: '5', AUTH_MAX_FAILURES_PER_MINUTE: '100' });
    });
    after(() => gw.close());

    it('answers 429 to an address past its budget, whatever the username; a success clears nothing', async () => {
      for (let i = 0; i < 4; i++) {
        expect((await call(gw.url, 'GET', '/', { auth: basic(`user-${i}`, 'wrong') })).status).to.equal(401);
      }
      // a successful login in between does not give the address back its failures
      const success = await call(gw.url, 'GET', '/', { auth: basic(ADMIN.user, ADMIN.password) });
      expect(success.status, success.text).to.equal(200);
      expect((await call(gw.url, 'GET', '/', { auth: basic('user-4', 'wrong') })).status).to.equal(401);
      expectThrottled(await call(gw.url, 'GET', '/', { auth: basic('user-5', 'wrong') }), 'client address');
      // from this address even the right password is refused now (without being checked) …
      expectThrottled(await call(gw.url, 'GET', '/', { auth: adminAuth() }), 'client address');
      // … while another address logs in as usual
      expect(await fromOtherAddress(gw.url, adminAuth())).to.equal(200);
    });
  });

  describe('failed headers are remembered', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway({ AUTH_MAX_FAILURES_PER_IP_PER_MINUTE: '1000', AUTH_MAX_FAILURES_PER_MINUTE: '1000' });
    });
    after(() => gw.close());

    const timed = async (auth: string) => {
      const t0 = process.hrtime.bigint();
      const reply = await call(gw.url, 'GET', '/', { auth });
      return { status: reply.status, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
    };

    it('200 repeats of a wrong header cost far less than 200 password checks, and still answer 401', async () => {
      // what one password check costs here: fresh wrong headers (each one a scrypt)
      const fresh = [await timed(basic('admin', 'fresh-1')), await timed(basic('admin', 'fresh-2')), await timed(basic('admin', 'fresh-3'))];
      expect(fresh.map((r) => r.status)).to.deep.equal([401, 401, 401]);
      const scryptMs = fresh.map((r) => r.ms).sort((a, b) => a - b)[1];
      const wrong = basic('admin', 'the same wrong password');
      expect((await timed(wrong)).status).to.equal(401); // verified once, then remembered
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 200; i++) expect((await call(gw.url, 'GET', '/', { auth: wrong })).status).to.equal(401);
      const totalMs = Number(process.hrtime.bigint() - t0) / 1e6;
      expect(totalMs, `200 remembered failures took ${totalMs} ms; one scrypt ${scryptMs} ms`).to.be.below((200 * scryptMs) / 5);
    });

    it('forgets a failed header once a credential with that password is created', async () => {
      const auth = basic('latecomer', 'chosen-password-123');
      expect((await call(gw.url, 'GET', '/', { auth })).status).to.equal(401);
      const created = await call(gw.url, 'POST', '/_credentials', {
        body: { username: 'latecomer', password: 'chosen-password-123', indices: ['*'], categories: ['cluster'], ops: ['read'] },
      });
      expect(created.status, created.text).to.equal(201);
      expect((await call(gw.url, 'GET', '/', { auth })).status).to.equal(200);
    });
  });

  describe('counted cluster-wide through Redis', () => {
    let redis: TestRedis;
    let a: TestGateway;
    let b: TestGateway;
    before(async function () {
      redis = await startRedis(this);
      a = await startTestGateway({ REDIS_URL: redis.url });
      b = await startTestGateway({ REDIS_URL: redis.url });
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await redis?.stop();
    });

    it('failures on node A count on node B', async () => {
      for (let i = 0; i < 5; i++) expect((await call(a.url, 'GET', '/', { auth: basic('shared-victim', `a-${i}`) })).status).to.equal(401);
      for (let i = 0; i < 5; i++) expect((await call(b.url, 'GET', '/', { auth: basic('shared-victim', `b-${i}`) })).status).to.equal(401);
      // ten failures in all, five on each node: both nodes refuse the username now
      expectThrottled(await call(b.url, 'GET', '/', { auth: basic('shared-victim', 'b-5') }), 'user [shared-victim]');
      expectThrottled(await call(a.url, 'GET', '/', { auth: basic('shared-victim', 'a-5') }), 'user [shared-victim]');
      expect((await call(a.url, 'GET', '/')).status).to.equal(200);
    });
  });

  describe('a WebSocket that keeps failing authentication', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway();
    });
    after(() => gw.close());

    it('is closed with 1008 after 5 failed frames, each answered with its 401 error frame', async () => {
      const ws = new WebSocket(gw.url.replace('http://', 'ws://') + '/anyapp');
      await once(ws, 'open');
      const frames: any[] = [];
      ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
      const closed = once(ws, 'close');
      for (let i = 0; i < 5; i++) {
        ws.send(JSON.stringify({ id: `s${i}`, path: 'anyapp/_doc/1', method: 'GET', authorization: basic('nobody', `guess-${i}`) }));
      }
      const [code] = await closed;
      expect(code).to.equal(1008);
      // frames are handled concurrently: their answers may come in any order, all before the close
      expect(frames.map((f) => [f.id, f.status])).to.have.deep.members([0, 1, 2, 3, 4].map((i) => [`s${i}`, 401]));
      expect(frames[0].error.type).to.equal('security_exception');
    });
  });
});
