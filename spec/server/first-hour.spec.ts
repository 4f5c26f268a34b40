import { expect } from 'chai';
import WebSocket from 'ws';
import { spawn } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { ConfigError, loadConfig } from '../../lib/config/index.js';
import { ClientAddresses } from '../../lib/logging/index.js';
import { typeFieldHiding } from '../../lib/apps/index.js';
import { readBody } from '../../lib/engine/index.js';
import { Readable } from 'node:stream';
import { basic, call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import { ADMIN, distEntry, spawnGateway, tempDir, type TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';

const TYPE_FIELD = '_gateway_type';
const ES_CLIENT = { accept: 'application/vnd.elasticsearch+json; compatible-with=8' };

/** Issue 33: what a new user meets in the first hour. */
for (const backend of BACKENDS) {
  describe(`the first hour (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      // the tests' own connections come from 127.0.0.1: trusted as a proxy here, so that they can say who the client is
      ({ gateway: gw, stop } = await backend.start({ TRUSTED_PROXIES: '127.0.0.1, ::1', AUTH_MAX_FAILURES_PER_IP_PER_MINUTE: '3' }));
      expect((await call(gw.url, 'PUT', '/_apps/library')).status).to.equal(200);
      for (const [type, id, doc] of [['book', '1', { title: 'dune', pages: 412, big: '9007199254740993' }], ['film', '2', { title: 'dune', minutes: 155 }]] as const) {
        const put = await call(gw.url, 'PUT', `/library/${type}/${id}?refresh=true`, { body: doc });
        expect(put.status, put.text).to.be.oneOf([200, 201]);
      }
      // a long past 2^53 beside the type field: the hiding gives it as the engine does
      const exact = await call(gw.url, 'PUT', '/library/_doc/3?refresh=true', { body: `{"title":"exact","serial":9007199254740993,"${TYPE_FIELD}":"book"}` });
      expect(exact.status, exact.text).to.equal(201);
    });
    after(() => stop());

    describe('the type field never leaves the gateway', () => {
      const reads: Array<[string, string, unknown?]> = [
        ['GET', '/library/_doc/1'],
        ['GET', '/library/_source/1'],
        ['POST', '/library/_mget', { ids: ['1', '2'] }],
        ['POST', '/library/_search', { query: { match: { title: 'dune' } }, fields: ['*'], docvalue_fields: ['*'], highlight: { fields: { '*': {} } } }],
        ['POST', '/_search', { query: { match_all: {} } }],
        ['POST', '/library/_search?scroll=1m', { size: 1 }],
        ['POST', '/library/_search', { size: 3, aggs: { top: { top_hits: { size: 3 } } } }],
        ['POST', '/library/_explain/1', { query: { match: { title: 'dune' } } }],
        ['GET', '/library/_field_caps?fields=*'],
        ['GET', '/_field_caps?fields=*'],
        ['GET', '/library/_mapping'],
        ['GET', `/library/_mapping/field/${TYPE_FIELD}`],
        ['GET', '/library/_mapping/field/*'],
        ['GET', '/library?pretty'],
        ['GET', '/_cluster/state/metadata/library'],
        ['POST', '/library/_update/2?_source=true', { doc: { minutes: 156 } }],
        ['GET', '/library/book/1'],
        ['POST', '/library/book/_search', { fields: ['*'] }],
      ];
      for (const [method, target, body] of reads) {
        it(`${method} ${target}`, async () => {
          const res = await call(gw.url, method, target, { body });
          expect(res.status, res.text).to.equal(200);
          expect(res.text).not.to.contain(TYPE_FIELD);
        });
      }

      it('what the field hid is still there for the gateway: app-style reads keep their type', async () => {
        const book = await call(gw.url, 'GET', '/library/book/1');
        expect(book.json).to.include({ _type: 'book', found: true });
        expect(book.json._source).to.deep.equal({ title: 'dune', pages: 412, big: '9007199254740993' });
        expect((await call(gw.url, 'GET', '/library/film/1')).status).to.equal(404);
        const films = await call(gw.url, 'POST', '/library/film/_search', { body: { query: { match_all: {} } } });
        expect(films.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2']);
        // the documents are found by their type field, which only the answers hide
        const byType = await call(gw.url, 'POST', '/library/_count', { body: { query: { term: { [TYPE_FIELD]: 'film' } } } });
        expect(byType.json.count).to.equal(1);
      });

      it('an answer is the engine\'s own but for the field, byte for byte', async () => {
        // the engine's answer without the field, asked of it by a source filter
        const hidden = await call(gw.url, 'GET', '/library/_doc/3');
        const filtered = await call(gw.url, 'GET', `/library/_doc/3?_source_excludes=${TYPE_FIELD}`);
        expect(hidden.text).to.equal(filtered.text);
        const query = { query: { ids: { values: ['3'] } } };
        const hit = await call(gw.url, 'POST', '/library/_search', { body: query });
        const filteredHit = await call(gw.url, 'POST', `/library/_search?_source_excludes=${TYPE_FIELD}`, { body: query });
        expect({ ...hit.json, took: 0 }).to.deep.equal({ ...filteredHit.json, took: 0 });
        expect(hit.text.replace(/"took":\d+/, '')).to.equal(filteredHit.text.replace(/"took":\d+/, ''));
      });

      it('the console\'s facets, built from the field list, do not offer it', async () => {
        const caps = await call(gw.url, 'GET', '/library/_field_caps?fields=*');
        expect(Object.keys(caps.json.fields)).to.include('title').and.not.to.include(TYPE_FIELD);
      });

      it('a document stream on an index-addressed path does not show it either', async () => {
        const s = await openStream(gw.url, '/library/_doc/1?stream=true');
        await s.until((m) => m.length >= 1);
        expect(s.messages[0]._source).to.deep.equal({ title: 'dune', pages: 412, big: '9007199254740993' });
        s.close();
      });
    });

    describe('GET /{app}: the greeting and the index', () => {
      it('a plain GET of a registered app is greeted', async () => {
        const res = await call(gw.url, 'GET', '/library');
        expect(res.json).to.deep.equal({ status: 200, message: 'You have reached /library/ and are all set to make API requests' });
      });

      it('an Elasticsearch client gets the index (the official client\'s indices.get)', async () => {
        const client = new Client({ node: gw.url, auth: { username: ADMIN.user, password: ADMIN.password } });
        try {
          const index = await client.indices.get({ index: 'library' });
          expect(index).to.have.property('library');
          expect(index.library.mappings?.properties).to.have.property('title');
          expect(index.library.mappings?.properties).not.to.have.property(TYPE_FIELD);
        } finally {
          await client.close();
        }
        const compat = await call(gw.url, 'GET', '/library', { headers: ES_CLIENT });
        expect(compat.json).to.have.property('library');
      });

      it('any parameter asks for the index', async () => {
        const res = await call(gw.url, 'GET', '/library?flat_settings=true');
        expect(res.json.library.settings).to.have.property('index.number_of_shards');
      });
    });

    describe('a document stream on a missing index', () => {
      for (const target of ['/no-such-index/_doc/1?stream=true', '/no-such-index/book/1?stream=true']) {
        it(`${target}: 404, ES-shaped, and closed`, async () => {
          const s = await openStream(gw.url, target);
          await s.ended;
          expect(s.status).to.equal(404);
          const answer = JSON.parse(s.raw());
          expect(answer.status).to.equal(404);
          expect(answer.error.type).to.equal('index_not_found_exception');
          expect(answer.error.index).to.equal('no-such-index');
        });
      }

      it('a missing document of an existing index is still waited for', async () => {
        const s = await openStream(gw.url, '/library/_doc/later?stream=true');
        await s.until((m) => m.length >= 1);
        expect(s.status).to.equal(200);
        expect(s.messages[0]).to.include({ _id: 'later', found: false });
        await call(gw.url, 'PUT', '/library/_doc/later', { body: { title: 'arrived' } });
        await s.until((m) => m.length >= 2);
        expect(s.messages[1]._source).to.deep.equal({ title: 'arrived' });
        s.close();
      });
    });

    describe('an Elasticsearch API the engine lacks', () => {
      for (const [method, target] of [['POST', '/_sql'], ['GET', '/_snapshot'], ['GET', '/_license'], ['PUT', '/_snapshot/repo'], ['GET', '/_ilm/policy?pretty']]) {
        it(`${method} ${target}: Elasticsearch's "no handler found"`, async () => {
          const res = await call(gw.url, method, target, method === 'PUT' ? { body: { type: 'fs' } } : {});
          expect(res.status, res.text).to.equal(400);
          expect(res.json).to.deep.equal({ error: `no handler found for uri [${target}] and method [${method}]` });
        });
      }

      it('a name starting with _ that names no API is still an invalid index name, as in Elasticsearch', async () => {
        const res = await call(gw.url, 'GET', '/_foo');
        expect(res.status).to.equal(400);
        expect(res.json.error.type).to.equal('invalid_index_name_exception');
      });
    });

    describe('TRUSTED_PROXIES: the client address behind a proxy', () => {
      let remote: string;
      before(async () => {
        const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['library'], categories: ['docs'], ops: ['read'], sources: ['203.0.113.0/24'] } });
        expect(res.status, res.text).to.equal(201);
        remote = basic(res.json.credential.username, res.json.password);
      });

      it('credential sources see the forwarded client', async () => {
        const read = (headers: Record<string, string>) => call(gw.url, 'GET', '/library/_doc/1', { auth: remote, headers }).then((r) => r.status);
        expect(await read({})).to.equal(403);
        expect(await read({ 'x-forwarded-for': '203.0.113.7' })).to.equal(200);
        expect(await read({ forwarded: 'for=203.0.113.9;proto=https' })).to.equal(200);
        // walked right to left: the hop the trusted proxy appended is the client, whatever it was told before
        expect(await read({ 'x-forwarded-for': '203.0.113.7, 198.51.100.1' })).to.equal(403);
        expect(await read({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7, 127.0.0.1' })).to.equal(200);
      });

      it('a WebSocket subscription sees the forwarded client too', async () => {
        const created = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['library'], categories: ['docs', 'streams'], ops: ['read'], sources: ['203.0.113.0/24'] } });
        expect(created.status, created.text).to.equal(201);
        const streamer = basic(created.json.credential.username, created.json.password);
        const subscribe = async (headers: Record<string, string>) => {
          const ws = new WebSocket(gw.url.replace(/^http/, 'ws') + '/library', { headers: { authorization: streamer, ...headers } });
          await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
          const answer = new Promise<{ status?: number; channel?: string }>((resolve) => ws.once('message', (d) => resolve(JSON.parse(String(d)))));
          ws.send(JSON.stringify({ id: 's', path: 'library/_doc/1' }));
          const frame = await answer;
          ws.close();
          return frame.channel === 's' ? 200 : frame.status;
        };
        expect(await subscribe({})).to.equal(403);
        expect(await subscribe({ 'x-forwarded-for': '203.0.113.7' })).to.equal(200);
      });

      it('the login limit per address counts the forwarded client', async () => {
        const attempt = (ip: string, n: number) =>
          call(gw.url, 'GET', '/', { auth: basic(`nobody-${ip}-${n}`, 'wrong-password'), headers: { 'x-forwarded-for': ip } }).then((r) => r.status);
        const statuses = [];
        for (let n = 0; n < 4; n++) statuses.push(await attempt('198.51.100.20', n));
        expect(statuses).to.deep.equal([401, 401, 401, 429]);
        expect(await attempt('198.51.100.21', 0)).to.equal(401);
        expect((await call(gw.url, 'GET', '/', { headers: { 'x-forwarded-for': '198.51.100.20' } })).status).to.equal(429);
        expect((await call(gw.url, 'GET', '/')).status).to.equal(200);
      });
    });
  });
}

describe('the type field hidden from an HTTP engine\'s answer', () => {
  const engineAnswer = (text: string) => typeFieldHiding()(async () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(text)]) }));
  const read = async (text: string) => (await readBody((await engineAnswer(text)({ method: 'GET', path: '/i/_doc/1' })).body)).toString();

  it('takes the field out, and keeps integers past 2^53 exact', async () => {
    expect(await read(`{"_id":"1","_source":{"serial":9007199254740993,"${TYPE_FIELD}":"book"}}`)).to.equal('{"_id":"1","_source":{"serial":9007199254740993}}');
    expect(await read(`{"hits":{"hits":[{"_source":{"a":1,"${TYPE_FIELD}":"b"},"fields":{"${TYPE_FIELD}":["b"],"a":[1]}}]}}`)).to.equal('{"hits":{"hits":[{"_source":{"a":1},"fields":{"a":[1]}}]}}');
  });

  it('leaves an answer without it as the engine wrote it, and aggregations named like it alone', async () => {
    expect(await read('{ "a" : 1.50 }')).to.equal('{ "a" : 1.50 }');
    expect(await read(`{"aggregations":{"${TYPE_FIELD}":{"buckets":[]}}}`)).to.equal(`{"aggregations":{"${TYPE_FIELD}":{"buckets":[]}}}`);
  });
});

describe('TRUSTED_PROXIES: reading the chain', () => {
  const request = (peer: string, headers: Record<string, string>) => ({ socket: { remoteAddress: peer }, headers } as unknown as IncomingMessage);
  const addresses = (list: string) => new ClientAddresses(loadConfig({ TRUSTED_PROXIES: list }).trustedProxies);

  it('believes forwarding headers only from a trusted peer', () => {
    const proxies = addresses('10.0.0.0/8,::1');
    expect(proxies.of(request('192.0.2.1', { 'x-forwarded-for': '203.0.113.7' }))).to.equal('192.0.2.1');
    expect(proxies.of(request('10.1.2.3', { 'x-forwarded-for': '203.0.113.7' }))).to.equal('203.0.113.7');
    expect(proxies.of(request('::ffff:10.1.2.3', { 'x-forwarded-for': '203.0.113.7, 10.9.9.9' }))).to.equal('203.0.113.7');
    expect(proxies.of(request('::1', { forwarded: 'for="[2001:db8::1]:4711", for=10.0.0.2' }))).to.equal('2001:db8::1');
    expect(proxies.of(request('10.1.2.3', { 'x-forwarded-for': '10.0.0.7, 10.0.0.8' }))).to.equal('10.0.0.7');
    expect(proxies.of(request('10.1.2.3', { 'x-forwarded-for': 'garbage, 10.0.0.8' }))).to.equal('10.0.0.8');
    expect(addresses('').of(request('10.1.2.3', { 'x-forwarded-for': '203.0.113.7' }))).to.equal('10.1.2.3');
  });

  it('refuses what is not an address or a range', () => {
    for (const bad of ['nginx', '10.0.0.0/33', '10.0.0.1/8/1', '::1/200']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad }), bad).to.throw(ConfigError, /TRUSTED_PROXIES/);
    }
  });
});

describe('the process at start and stop', function () {
  this.timeout(60_000);

  it('refuses an admin password shorter than 12 characters, in one line', async () => {
    const { code, out } = await runMain({ ADMIN_USER: 'admin', ADMIN_PASSWORD: 'eleven-char' });
    expect(code).to.equal(1);
    expect(out.trim().split('\n')).to.have.length(1);
    expect(out).to.match(/^invalid configuration: ADMIN_PASSWORD must be at least 12 characters/);
  });

  it('logs JSON lines only when stdout is not a terminal: startup with the real bind address, the generated credential, shutdown', async () => {
    const data = await tempDir();
    try {
      const gw = await spawnGateway({ DATA_DIR: data.dir, HOST: '0.0.0.0' });
      expect(gw.url).to.match(/^http:\/\/0\.0\.0\.0:\d+$/);
      const status = (await call(gw.url.replace('0.0.0.0', '127.0.0.1'), 'GET', '/_gateway/health', { auth: null })).status;
      expect(status).to.be.oneOf([200, 401]);
      expect(await gw.stop()).to.equal(0);
      const lines = gw.output().split('\n').filter((l) => l.trim() !== '');
      const entries = lines.map((l) => {
        try {
          return JSON.parse(l) as { level: string; msg: string; time: string };
        } catch {
          throw new Error(`not a JSON line: ${l}`);
        }
      });
      for (const e of entries) expect(e).to.have.property('time');
      const messages = entries.map((e) => e.msg);
      expect(messages.some((m) => /^generated admin credential \(shown once, stored hashed\): admin:\S+ /.test(m)), messages.join('\n')).to.equal(true);
      expect(messages.some((m) => /^gateway listening on http:\/\/0\.0\.0\.0:\d+ /.test(m)), messages.join('\n')).to.equal(true);
      expect(messages.some((m) => /SIGTERM: shutting down/.test(m)), messages.join('\n')).to.equal(true);
    } finally {
      await data.remove();
    }
  });

  it('the access line names the client behind a trusted proxy', async () => {
    const data = await tempDir();
    try {
      const gw = await spawnGateway({ DATA_DIR: data.dir, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password, TRUSTED_PROXIES: '127.0.0.1' });
      await call(gw.url, 'GET', '/', { headers: { 'x-forwarded-for': '203.0.113.50' } });
      await gw.stop();
      const access = gw.output().split('\n').filter((l) => l.includes('"GET"') || l.includes('"method"')).map((l) => JSON.parse(l));
      expect(access.some((a) => JSON.stringify(a).includes('203.0.113.50')), gw.output()).to.equal(true);
    } finally {
      await data.remove();
    }
  });
});

function runMain(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [distEntry('lib/main.js')], { env: { PATH: process.env.PATH ?? '', ...env } });
    let out = '';
    proc.stdout.on('data', (c) => (out += c));
    proc.stderr.on('data', (c) => (out += c));
    proc.on('exit', (code) => resolve({ code, out }));
  });
}
