import { expect } from 'chai';
import fc from 'fast-check';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import { RECORDED_BACKENDS, type RecordingUpstream } from '../support/recording-upstream.js';
import type { TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';

/**
 * The three low findings of the hostile review of the request value (issue 32), on both backends:
 * a stream's parameters go through the route table's check as any engine request's do; a refusal
 * of a stored search template names only what the caller wrote; a pipeline stage's computed path
 * that cannot be a request is the stage's 400.
 */

/** Stream requests of both kinds and address styles, both ways of asking; `path` is what an error names. */
const STREAMS = [
  { method: 'GET', path: '/mine/_doc/1' },
  { method: 'GET', path: '/mine/doc/1' },
  { method: 'POST', path: '/mine/_search', body: { query: { match_all: {} } } },
  { method: 'POST', path: '/mine/doc/_search', body: { query: { match_all: {} } } },
];
const ASKING = ['stream=true', 'streamonly=true'];

for (const backend of RECORDED_BACKENDS) {
  describe(`request value, low findings (${backend.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let upstream: RecordingUpstream | undefined;
    let stop: () => Promise<void>;
    let tenant: string;

    before(async () => {
      ({ gateway: gw, upstream, stop } = await backend.start());
      for (const [index, word] of [['mine', 'one'], ['secret-idx', 'hidden-value']]) {
        const put = await call(gw.url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { word } });
        expect(put.status, put.text).to.equal(201);
      }
      const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['mine'], categories: ['docs', 'search', 'streams'], ops: ['read'] } });
      expect(res.status, res.text).to.equal(201);
      tenant = basic(res.json.credential.username, res.json.password);
    });
    after(() => stop());

    describe('(a) a stream\'s parameters go through the route table\'s check', () => {
      it('what the table knows opens the stream for a scoped credential', async () => {
        const stream = await openStream(gw.url, '/mine/_doc/1?stream=true&_source_includes=word', { auth: tenant });
        try {
          expect(stream.status).to.equal(200);
          const [first] = await stream.until((m) => m.length > 0);
          expect(first).to.include({ _id: '1', found: true });
          expect(first._source).to.deep.equal({ word: 'one' });
        } finally {
          stream.close();
        }
      });

      it('a parameter the read\'s route does not know is refused with Elasticsearch\'s error, and reaches no engine', async () => {
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...STREAMS), fc.constantFrom(...ASKING), fc.stringMatching(/^[a-z][a-z0-9_]{2,10}$/), async (s, asking, n) => {
            const name = `zz_${n}`;
            upstream?.clear();
            const stream = await openStream(gw.url, `${s.path}?${asking}&${name}=1`, { auth: tenant, method: s.method, body: s.body });
            // a refusal is answered whole; a stream that opened stays open: closed at once, and failed below
            if (stream.status !== 200) await stream.ended;
            stream.close();
            expect(stream.status, `${s.method} ${s.path}?${asking}&${name}=1: ${stream.raw()}`).to.equal(400);
            const answer = JSON.parse(stream.raw());
            expect(answer.error.type).to.equal('illegal_argument_exception');
            expect(answer.error.reason).to.equal(`request [${s.path}] contains unrecognized parameter: [${name}]`);
            if (upstream) expect(upstream.requests.filter((r) => r.query.includes(name)), 'nothing carrying it reached the engine').to.deep.equal([]);
          }),
          { numRuns: 16, seed: 32 },
        );
      });
    });

    describe('(b) a refused stored search template names only what the caller wrote', () => {
      before(async () => {
        // the admin's template looks a value up in an index the tenant may not read
        const stored = await call(gw.url, 'PUT', '/_scripts/peek', {
          body: { script: { lang: 'mustache', source: { query: { terms: { word: { index: 'secret-idx', id: '1', path: 'word' } } } } } },
        });
        expect(stored.status, stored.text).to.equal(200);
      });

      it('_search/template, _msearch/template and _render/template with its id: 403, naming no index of the template\'s', async () => {
        const asks = [
          () => call(gw.url, 'POST', '/mine/_search/template', { auth: tenant, body: { id: 'peek' } }),
          () => call(gw.url, 'POST', '/mine/_msearch/template', { auth: tenant, body: ndjson([{}, { id: 'peek' }]), headers: NDJSON }),
          () => call(gw.url, 'POST', '/_render/template/peek', { auth: tenant, body: {} }),
        ];
        for (const ask of asks) {
          upstream?.clear();
          const res = await ask();
          expect(res.status, res.text).to.equal(403);
          expect(res.json.error.type).to.equal('security_exception');
          expect(res.text).not.to.contain('secret-idx');
          if (upstream) expect(upstream.requests.filter((r) => r.body.includes('hidden-value') || r.path.includes('_search'))).to.deep.equal([]);
        }
      });

      it('what the caller wrote itself is still named', async () => {
        const res = await call(gw.url, 'POST', '/mine/_msearch/template', {
          auth: tenant, body: ndjson([{ index: 'secret-idx' }, { id: 'peek' }]), headers: NDJSON,
        });
        expect(res.status, res.text).to.equal(403);
        expect(res.json.error.reason).to.contain('on indices [secret-idx]');
      });
    });

    describe('(c) a pipeline stage\'s computed path with `..`', () => {
      it('is a 400 naming the stage, and reaches no engine', async () => {
        const reg = await call(gw.url, 'POST', '/_pipeline', { body: {
          id: 'climber',
          routes: [{ path: '/mine/_count', method: 'POST' }],
          stages: [
            { id: 'climb', script: 'function handleRequest() { return { request: { path: "/mine/../secret-idx/_search" } }; }' },
            { id: 'send', use: 'engineQuery' },
          ],
        } });
        expect(reg.status, reg.text).to.equal(201);
        try {
          for (const auth of [undefined, tenant]) {
            upstream?.clear();
            const res = await call(gw.url, 'POST', '/mine/_count', { auth, body: {} });
            expect(res.status, res.text).to.equal(400);
            expect(res.json.error.type).to.equal('pipeline_stage_exception');
            expect(res.json.error.stage).to.equal('send');
            expect(res.json.error.reason).to.equal('stage [send] of pipeline [climber] failed: invalid path segment [..] in [/mine/../secret-idx/_search]');
            if (upstream) expect(upstream.requests.filter((r) => r.path.includes('secret-idx'))).to.deep.equal([]);
          }
        } finally {
          await call(gw.url, 'DELETE', '/_pipeline/climber');
        }
      });
    });
  });
}
