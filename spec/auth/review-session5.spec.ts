import { expect } from 'chai';
import fc from 'fast-check';
import net from 'node:net';
import { InvertedIndex } from '../../lib/engine/embedded/index/index.js';
import type { IndexableField } from '../../lib/engine/embedded/mapping/index.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Review of this session's changes (h-review): a hostile tenant (a scoped credential with a field
 * rule) against large bodies (_bulk read from its decoded pieces, credentials of 80,000 patterns),
 * the search cache across credentials, `_explain` with `_source`, `_termvectors` statistics,
 * `_stats` sections, cluster health level=shards, `_cat/segment_replication`, the OpenSearch
 * dialect, `_flush`, resize and strict_allow_templates, on both backends.
 *
 * Finding fixed (the spec fails on the code before the fix):
 * 1. `_termvectors`' field statistics (on by default) walked every posting of each field for each
 *    item: one `_mtermvectors` naming a document 200 times in an index of 900,000 positions held
 *    the engine's event loop 6.7 s (loaded machine), linear in the items. The field's live
 *    statistics are now kept until its next change (walked once), and the items are read a time
 *    slice at a time (946 ms for the same request, the rest the 6 MB answer itself).
 * 2. Requests waiting for their turn (past the connection guard's time slice) waited in one queue:
 *    one connection pipelining 20,000 requests in one write put every other client's request
 *    behind all of them (a probe waited 19 s; 3 s before the slices). They now begin a connection
 *    at a time, in turn (the probe: ≤ 1.2 s, loaded machine).
 * The rest of the matrix held; the other `describe`s keep it so.
 */

const OWN = 'tenant-a';
const FOREIGN = 'tenant-b';
const HIDDEN = 'hiddenvalues5';
const FOREIGN_MARK = 'foreignmarks5';
const CATEGORIES = ['docs', 'search', 'indices', 'streams', 'declarative'];

type Probe = [method: string, path: string, body?: unknown, headers?: Record<string, string>];

/** A text field of these tokens, as the mapper gives it to the index. */
const text = (tokens: string[]): IndexableField => ({ type: 'text', terms: [...tokens], positions: tokens.map((_, i) => i), values: [] });

describe("review session 5: a field's live term statistics are walked once between two of its changes", () => {
  it('sumDocFreq and termStats equal a count over the live documents after any sequence of puts and deletes, and asking again walks no posting (generated)', () => {
    const word = fc.constantFrom('a', 'b', 'c', 'd');
    const op = fc.oneof(
      fc.record({ put: fc.constantFrom('1', '2', '3', '4'), tokens: fc.array(word, { minLength: 1, maxLength: 6 }) }),
      fc.record({ del: fc.constantFrom('1', '2', '3', '4') }),
    );
    fc.assert(fc.property(fc.array(op, { minLength: 1, maxLength: 12 }), (ops) => {
      const inv = new InvertedIndex();
      const docs = new Map<string, string[]>();
      for (const o of ops) {
        if ('put' in o) {
          inv.put(o.put, { fields: new Map([['t', text(o.tokens)]]) });
          docs.set(o.put, o.tokens);
        } else {
          inv.delete(o.del);
          docs.delete(o.del);
        }
        const fi = inv.field('t');
        if (!fi) continue;
        const live = inv.liveness;
        const expectedSum = [...docs.values()].reduce((n, tokens) => n + new Set(tokens).size, 0);
        expect(fi.sumDocFreq(live)).to.equal(expectedSum);
        for (const w of ['a', 'b', 'c', 'd', 'e']) {
          const holding = [...docs.values()].filter((tokens) => tokens.includes(w));
          expect(fi.termStats(w, live)).to.deep.equal({ docFreq: holding.length, totalTermFreq: holding.flat().filter((t) => t === w).length });
        }
        // asked again with no change between: nothing is walked again
        let walked = 0;
        const postingsOf = fi.postingsOf.bind(fi);
        fi.postingsOf = (...args) => (walked++, postingsOf(...args));
        fi.sumDocFreq(live);
        for (const w of ['a', 'b', 'c', 'd']) fi.termStats(w, live);
        delete (fi as { postingsOf?: unknown }).postingsOf;
        expect(walked).to.equal(0);
      }
    }), { numRuns: 200 });
  });
});

for (const backend of BACKENDS) {
  describe(`review session 5: a hostile tenant against this session's engine APIs (${backend.name})`, function () {
    this.timeout(180_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let ruled: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const lines: unknown[] = [];
      lines.push({ index: { _index: OWN, _id: 'doc' } }, { pub: 'p', secret: HIDDEN });
      lines.push({ index: { _index: OWN, _id: 'two' } }, { pub: 'q' });
      lines.push({ index: { _index: FOREIGN, _id: '1' } }, { tag: FOREIGN_MARK, pub: FOREIGN_MARK });
      const bulk = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON });
      expect(bulk.status, bulk.text).to.equal(200);
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN], categories: CATEGORIES, ops: ['read', 'write', 'delete'], exclude_fields: ['secret'], allow_raw_dsl: true } });
      expect(made.status, made.text).to.equal(201);
      ruled = basic(made.json.credential.username, made.json.password);
    });
    after(() => stop?.());

    it('held: _explain with _source, _termvectors statistics, _stats sections, health level=shards, segment_replication, dialect, _flush, resize, range: no other index, no hidden field, no 5xx', async () => {
      const tv = (extra: string) => `/${OWN}/_termvectors/doc?${extra}`;
      const probes: Probe[] = [
        ['GET', `/${OWN}/_explain/doc?_source=true`],
        ['GET', `/${OWN}/_explain/doc?_source=secret`],
        ['GET', `/${OWN}/_explain/doc?_source_includes=secret`],
        ['GET', `/${OWN}/_explain/doc?_source_excludes=pub`],
        ['GET', `/${OWN}/_explain/doc?_source_include=secret`],
        ['GET', `/${OWN}/_explain/doc?stored_fields=secret`],
        ['POST', `/${OWN}/_explain/doc?_source=true`, { query: { match_all: {} } }],
        ['GET', `/${OWN}/_explain/doc?q=secret:${HIDDEN}`],
        ['GET', `/${FOREIGN}/_explain/1?_source=true`],
        ['GET', `/${OWN}%2C${FOREIGN}/_explain/1?_source=true`],
        ['GET', `/_all/_explain/1?_source=true`],
        ['GET', `/tenant-*/_explain/1?_source=true`],
        ['GET', `/TENANT-B/_explain/1?_source=true`],
        ['POST', `/${OWN}/_explain/doc?_source=true`, { query: { terms: { pub: { index: FOREIGN, id: '1', path: 'tag' } } } }],
        ['POST', `/${OWN}/_explain/doc?_source=true`, { query: { more_like_this: { fields: ['pub'], like: [{ _index: FOREIGN, _id: '1' }], min_term_freq: 1, min_doc_freq: 1 } } }],
        ['POST', `/${OWN}/_explain/doc`, { query: { match_all: {} }, index: FOREIGN }],
        ['POST', `/${OWN}/_explain/doc`, { query: { match_all: {} }, _source: true }],
        ['GET', tv('fields=secret&term_statistics=true')],
        ['GET', tv('fields=*&term_statistics=true&field_statistics=true')],
        ['GET', tv('term_statistics=true')],
        ['POST', `/${OWN}/_termvectors`, { doc: { secret: HIDDEN }, term_statistics: true, field_statistics: true }],
        ['POST', `/${OWN}/_termvectors`, { doc: { secret: HIDDEN, pub: 'p' }, fields: ['secret'], term_statistics: true }],
        ['POST', `/${OWN}/_termvectors/doc`, { fields: ['secret'], term_statistics: true }],
        ['POST', `/${OWN}/_termvectors/doc`, { per_field_analyzer: { secret: 'keyword' }, term_statistics: true }],
        ['POST', `/${OWN}/_mtermvectors`, { docs: [{ _index: FOREIGN, _id: '1', term_statistics: true }] }],
        ['POST', `/${OWN}/_mtermvectors?term_statistics=true`, { docs: [{ _id: 'doc', fields: ['secret'] }, { _id: 'doc', doc: { secret: HIDDEN } }] }],
        ['POST', `/_mtermvectors`, { docs: [{ _index: FOREIGN, _id: '1' }] }],
        ['GET', `/${FOREIGN}/_termvectors/1?term_statistics=true`],
        ['POST', `/${OWN}/_termvectors`, { doc: { pub: FOREIGN_MARK }, term_statistics: true, field_statistics: true, _index: FOREIGN }],
        ['GET', '/_stats'], ['GET', '/_stats/segments,translog,recovery,bulk,flush'], ['GET', '/_stats?level=shards'],
        ['GET', `/${FOREIGN}/_stats/segments`], ['GET', '/_stats/shard_stats'], ['GET', `/${OWN}/_stats?level=shards`],
        ['GET', '/_cluster/health?level=shards'], ['GET', `/_cluster/health/${FOREIGN}?level=shards`], ['GET', `/_cluster/health/${OWN}?level=shards`],
        ['GET', '/_cluster/health?level=indices'],
        ['GET', '/_cat/segment_replication'], ['GET', `/_cat/segment_replication/${FOREIGN}`], ['GET', '/_cat/segment_replication?format=json&h=*'],
        ['GET', `/_cat/segment_replication/${OWN}`], ['GET', `/_cat/segment_replication/nosuch-index`],
        ['GET', '/_nodes/stats/shard_indexing_pressure,caches', undefined, { 'user-agent': 'opensearch-py/2.4.0' }],
        ['GET', '/_nodes/stats', undefined, { 'user-agent': 'opensearch-js/2.0.0' }],
        ['GET', '/_cat/nodes?h=*', undefined, { 'user-agent': 'opensearch-js/2.0.0' }],
        ['GET', '/_cat/health?h=*', undefined, { 'user-agent': 'opensearch-js/2.0.0' }],
        ['GET', '/_cat/nodeattrs', undefined, { 'user-agent': 'opensearch-js/2.0.0' }],
        ['GET', '/_template?flat_settings=true'], ['GET', '/_template/*?flat_settings=true'],
        ['POST', '/_flush'], ['POST', `/${FOREIGN}/_flush`], ['POST', '/_flush?force=true'], ['POST', `/${OWN}/_flush?force=true`], ['POST', `/_all/_flush`],
        ['GET', '/_cat/indices?h=index,flush.total'], ['GET', `/_cat/indices/${FOREIGN}?h=index,flush.total`],
        ['POST', `/${FOREIGN}/_clone/${OWN}-clone`], ['POST', `/${OWN}/_clone/${FOREIGN}-x`, { settings: { 'index.number_of_shards': 6 } }],
        ['POST', `/${OWN}/_split/${OWN}-split`, { settings: { 'index.number_of_shards': 6 } }],
        ['PUT', `/${OWN}-strict`, { mappings: { dynamic: 'strict_allow_templates', dynamic_templates: [{ s: { match: '*', mapping: { type: 'keyword', copy_to: FOREIGN } } }] } }],
        ['POST', `/${OWN}/_search`, { size: 0, aggs: { r: { range: { field: 'n', ranges: Array.from({ length: 5000 }, (_, i) => ({ from: i, to: i + 1 })) } } } }],
        ['POST', `/${OWN}/_search`, { size: 0, aggs: { r: { range: { field: 'n', ranges: [{ from: 'x' }] } } } }],
        ['POST', `/${OWN}/_search`, { size: 0, aggs: { r: { range: { field: 'n', ranges: { from: 1 } } } } }],
        ['POST', `/${OWN}/_search`, { size: 0, aggs: { r: { range: { script: { source: 'doc["secret.keyword"].size()' }, ranges: [{ from: 1 }] } } } }],
        ['POST', `/${OWN}/_search`, { size: 0, aggs: { r: { range: { field: 'secret.keyword', ranges: [{ from: 1 }] } } } }],
      ];
      const problems: string[] = [];
      for (const [method, path, body, headers] of probes) {
        const res = await call(gw.url, method, path, { auth: ruled, body, headers });
        const line = `${method} ${path} ${body ? JSON.stringify(body).slice(0, 120) : ''} -> ${res.status} ${res.text.slice(0, 300)}`;
        if (res.status >= 500) problems.push(`5xx: ${line}`);
        if (res.text.includes(HIDDEN) && !(body && JSON.stringify(body).includes(HIDDEN)) && !path.includes(HIDDEN)) problems.push(`hidden: ${line}`);
        if (res.text.includes(FOREIGN_MARK) && !(body && JSON.stringify(body).includes(FOREIGN_MARK))) problems.push(`foreign: ${line}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  });
}

const MB = 1024 * 1024;
for (const backend of BACKENDS) {
  describe(`review session 5: a hostile tenant against large bodies, the cache and term vectors (${backend.name})`, function () {
    this.timeout(300_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let ruled: string;
    let both: string;
    let creds: string;
    /** Reads OWN-tv, no field rule (term vectors are refused under one). */
    let ruled2: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ CACHE_QUIET_MS: '0' }));
      const lines: unknown[] = [];
      lines.push({ index: { _index: OWN, _id: 'doc' } }, { pub: 'p', secret: HIDDEN });
      lines.push({ index: { _index: FOREIGN, _id: '1' } }, { tag: FOREIGN_MARK, pub: FOREIGN_MARK });
      expect((await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON })).status).to.equal(200);
      const make = async (body: Record<string, unknown>) => {
        const made = await call(gw.url, 'POST', '/_credentials', { body });
        expect(made.status, made.text).to.equal(201);
        return basic(made.json.credential.username, made.json.password);
      };
      ruled = await make({ indices: [OWN], categories: CATEGORIES, ops: ['read', 'write', 'delete'], exclude_fields: ['secret'], allow_raw_dsl: true });
      both = await make({ indices: [OWN, FOREIGN], categories: CATEGORIES, ops: ['read', 'write', 'delete'], allow_raw_dsl: true });
      creds = await make({ indices: [`${OWN}*`], categories: ['credentials', ...CATEGORIES], ops: ['read', 'write', 'delete'], allow_raw_dsl: true });
      ruled2 = await make({ indices: [`${OWN}-tv`], categories: CATEGORIES, ops: ['read'], allow_raw_dsl: true });
    });
    after(() => stop?.());

    const foreignCount = async () => (await call(gw.url, 'POST', `/${FOREIGN}/_refresh`), (await call(gw.url, 'GET', `/${FOREIGN}/_count`)).json.count);

    it('held: a _bulk of megabytes (read from its decoded pieces) writes no other index, however the foreign item is spelled or where it falls', async () => {
      const filler = (n: number, pad = 'x') => Array.from({ length: n }, (_, i) => `{"index":{"_index":"${OWN}","_id":"f${i}"}}\n{"pad":"${pad.repeat(200)}"}\n`).join('');
      const variants: Array<[string, string, string]> = [
        ['plain', '/_bulk', `{"index":{"_index":"${FOREIGN}","_id":"x"}}\n{"a":1}\n`],
        ['dupkey', '/_bulk', `{"index":{"_index":"${OWN}","_index":"${FOREIGN}","_id":"x"}}\n{"a":1}\n`],
        ['dupaction', '/_bulk', `{"index":{"_index":"${OWN}","_id":"x"},"index":{"_index":"${FOREIGN}","_id":"x"}}\n{"a":1}\n`],
        ['escape', '/_bulk', `{"index":{"_index":"tenant\\u002db","_id":"x"}}\n{"a":1}\n`],
        ['path', `/${OWN}/_bulk`, `{"index":{"_index":"${FOREIGN}","_id":"x"}}\n{"a":1}\n`],
        ['crlf', '/_bulk', `{"index":{"_index":"${FOREIGN}","_id":"x"}}\r\n{"a":1}\r\n`],
        ['update', '/_bulk', `{"update":{"_index":"${FOREIGN}","_id":"1"}}\n{"doc":{"tag":"z"}}\n`],
        ['delete', '/_bulk', `{"delete":{"_index":"${FOREIGN}","_id":"1"}}\n`],
        ['ls', '/_bulk', `{"index":{"_index":"${OWN}\u2028","_id":"x"}}\n{"a":1}\n`],
        ['cr-only', '/_bulk', `{"index":{"_index":"${OWN}","_id":"y"}}\r{"index":{"_index":"${FOREIGN}","_id":"x"}}\n{"a":1}\n`],
      ];
      const problems: string[] = [];
      let tried = 0;
      for (const [name, path, evil] of variants) {
        for (const pad of ['x', '𝄞']) {
          for (const at of [1]) {
            tried++;
            const before = filler(Math.floor((at * MB) / 230), pad);
            const body = before + evil + filler(300, pad);
            const res = await call(gw.url, 'POST', path, { auth: ruled, body, headers: NDJSON });
            const count = await foreignCount();
            const tag = (await call(gw.url, 'GET', `/${FOREIGN}/_doc/1`)).json?._source?.tag;
            const x = (await call(gw.url, 'GET', `/${FOREIGN}/_doc/x`)).status;
            const line = `${name} pad=${pad} at=${at}: ${res.status} ${res.text.slice(0, 200)} foreign count=${count} tag=${tag} x=${x}`;
            if (res.status >= 500 || count !== 1 || tag !== FOREIGN_MARK || x !== 404) problems.push(line);
          }
        }
      }
      expect(tried).to.equal(variants.length * 2);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('held: a credential body of 80,000 patterns (classified one at a time) grants nothing beyond its maker', async () => {
      const many = Array.from({ length: 80_000 }, (_, i) => `${OWN}-${i}`);
      const variants: Array<[string, string]> = [
        ['last', JSON.stringify({ indices: [...many, FOREIGN], categories: ['docs'], ops: ['read'] })],
        ['first', JSON.stringify({ indices: [FOREIGN, ...many], categories: ['docs'], ops: ['read'] })],
        ['comma', JSON.stringify({ indices: [...many, `${OWN},${FOREIGN}`], categories: ['docs'], ops: ['read'] })],
        ['dup', `{"indices":${JSON.stringify(many)},"categories":["docs"],"ops":["read"],"indices":["${FOREIGN}"]}`],
        ['dup2', `{"indices":["${FOREIGN}"],"categories":["docs"],"ops":["read"],"indices":${JSON.stringify(many)}}`],
        ['star', JSON.stringify({ indices: [...many, '*'], categories: ['docs'], ops: ['read'] })],
        ['nonstring', JSON.stringify({ indices: [...many, { a: FOREIGN }], categories: ['docs'], ops: ['read'] })],
        ['escape', JSON.stringify({ indices: many, categories: ['docs'], ops: ['read'] }).replace(`"${OWN}-5"`, '"tenant\\u002db"')],
        ['admin', JSON.stringify({ indices: many, categories: ['docs'], ops: ['read'], role: 'admin' })],
        ['cats', JSON.stringify({ indices: many, categories: ['docs', 'cluster', 'credentials', 'logs'], ops: ['read', 'admin'] })],
      ];
      const problems: string[] = [];
      for (const [name, body] of variants) {
        const res = await call(gw.url, 'POST', '/_credentials', { auth: creds, body, headers: { 'content-type': 'application/json' } });
        const line = `${name}: ${res.status} ${res.text.slice(0, 200)}`;
        if (res.status >= 500) problems.push(line);
        if (res.status < 300) {
          const auth = basic(res.json.credential.username, res.json.password);
          const read = await call(gw.url, 'GET', `/${FOREIGN}/_doc/1`, { auth });
          if (read.status === 200) problems.push(`reads foreign: ${line}`);
          if (name === 'admin' || name === 'cats') problems.push(`widened: ${line} ${JSON.stringify(res.json.credential).slice(-300)}`);
        }
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('held: a cached answer reaches no credential that may not see it (same body, narrowed index lists, _msearch)', async () => {
      const problems: string[] = [];
      const bodies: Array<Record<string, unknown>> = [{ query: { ids: { values: ['1', 'doc'] } } }, { query: { ids: { values: ['1', 'doc'] } }, size: 5 }, { query: { ids: { values: ['1', 'doc'] } }, aggs: { t: { terms: { field: 'pub.keyword' } } } }];
      const paths = ['/tenant-*/_search', '/_search', `/${OWN},${FOREIGN}/_search`, '/_all/_search', `/${OWN}/_search`, '/tenant-*/_search?request_cache=true', '/*/_search?ignore_unavailable=true'];
      let tried = 0;
      for (const body of bodies) {
        for (const path of paths) {
          tried++;
          const first = await call(gw.url, 'POST', path, { auth: both, body });
          const again = await call(gw.url, 'POST', path, { auth: ruled, body });
          if (again.status >= 500 || again.text.includes(FOREIGN_MARK) || again.text.includes(HIDDEN)) problems.push(`${path} ${JSON.stringify(body)}: first ${first.status}, ruled ${again.status} ${again.text.slice(0, 300)}`);
          // and the other way around: a whole answer after a ruled one
          await call(gw.url, 'POST', path, { auth: ruled, body: { ...body, from: 0 } });
          const whole = await call(gw.url, 'POST', path, { auth: both, body: { ...body, from: 0 } });
          if (path !== `/${OWN}/_search` && whole.status === 200 && !whole.text.includes(FOREIGN_MARK)) problems.push(`narrowed answer served to a wider credential: ${path} ${whole.text.slice(0, 300)}`);
        }
      }
      const msearch = ndjson([{ index: 'tenant-*' }, { query: { match_all: {} } }, {}, { query: { match_all: {} } }]);
      await call(gw.url, 'POST', '/_msearch', { auth: both, body: msearch, headers: NDJSON });
      const m = await call(gw.url, 'POST', '/_msearch', { auth: ruled, body: msearch, headers: NDJSON });
      if (m.text.includes(FOREIGN_MARK) || m.text.includes(HIDDEN)) problems.push(`msearch: ${m.text.slice(0, 300)}`);
      expect(tried).to.equal(bodies.length * paths.length);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it("1. an _mtermvectors of many items answers each with the statistics a single _termvectors gives, kept up to date by writes", async () => {
      const words = Array.from({ length: 200 }, (_, i) => `w${i % 40}`).join(' ');
      const lines: unknown[] = [];
      for (let i = 0; i < 300; i++) lines.push({ index: { _index: `${OWN}-tv`, _id: `t${i}` } }, { body: words });
      expect((await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON })).status).to.equal(200);
      const vectors = (res: { json: any }) => res.json.term_vectors ?? res.json.docs?.[0]?.term_vectors;
      const statsOf = async () => {
        const one = await call(gw.url, 'GET', `/${OWN}-tv/_termvectors/t0?term_statistics=true`, { auth: ruled2 });
        expect(one.status, one.text.slice(0, 300)).to.equal(200);
        const many = await call(gw.url, 'POST', `/${OWN}-tv/_mtermvectors?term_statistics=true`, { auth: ruled2, body: { ids: Array.from({ length: 400 }, (_, i) => `t${i % 299}`) } });
        expect(many.status, many.text.slice(0, 300)).to.equal(200);
        expect(many.json.docs).to.have.length(400);
        for (const d of many.json.docs) expect(d.term_vectors?.body?.field_statistics, JSON.stringify(d).slice(0, 300)).to.deep.equal(vectors(one).body.field_statistics);
        expect(many.json.docs[0].term_vectors.body.terms.w0).to.deep.equal(vectors(one).body.terms.w0);
        return vectors(one).body;
      };
      const before = await statsOf();
      expect(before.field_statistics).to.deep.equal({ sum_doc_freq: 300 * 40, doc_count: 300, sum_ttf: 300 * 200 });
      expect(before.terms.w0).to.include({ doc_freq: 300, ttf: 300 * 5 });
      // a delete and a new document: the statistics follow
      expect((await call(gw.url, 'DELETE', `/${OWN}-tv/_doc/t299?refresh=true`)).status).to.equal(200);
      expect((await call(gw.url, 'PUT', `/${OWN}-tv/_doc/n1?refresh=true`, { body: { body: 'w0 w0 fresh' } })).status).to.equal(201);
      const after = await statsOf();
      expect(after.field_statistics).to.deep.equal({ sum_doc_freq: 299 * 40 + 2, doc_count: 300, sum_ttf: 299 * 200 + 3 });
      expect(after.terms.w0).to.include({ doc_freq: 300, ttf: 299 * 5 + 2 });
    });

    it("2. a connection pipelining thousands of requests at once does not hold another client's request behind them", async () => {
      const N = 12_000;
      const url = new URL(gw.url);
      const request = `GET /${OWN}/_count HTTP/1.1\r\nHost: x\r\nAuthorization: ${ruled}\r\n\r\n`;
      let answered = 0;
      const flood = net.connect(Number(url.port), url.hostname);
      let firstAnswer!: () => void;
      const begun = new Promise<void>((resolve) => (firstAnswer = resolve));
      flood.on('data', (chunk: Buffer) => {
        for (let at = chunk.indexOf('HTTP/1.1 200'); at !== -1; at = chunk.indexOf('HTTP/1.1 200', at + 1)) answered++;
        if (answered > 0) firstAnswer();
      });
      flood.on('error', () => {});
      try {
        // the probe goes once the server has read the whole pipelined write (its last bytes taken by the kernel) and answered one
        await new Promise<void>((resolve, reject) => flood.write(request.repeat(N), (err) => (err ? reject(err) : resolve())));
        await begun;
        const probe = await call(gw.url, 'GET', `/${OWN}/_count`, { auth: ruled });
        expect(probe.status, probe.text).to.equal(200);
        // in one queue, the probe began after every pipelined request read before it (seen: 3,100-3,300 on the embedded
        // backend, whose client shares the gateway's process; 10,200-11,100 on the HTTP one); in turns, after those
        // begun already (seen: 80-460 and 680-1,750 on a quiet machine, up to 2,600 on the HTTP one with three spec
        // workers beside it): each backend's bound lies between the two
        const bound = backend.name.startsWith('embedded') ? 2_400 : 5_000;
        expect(answered, `the probe was answered after ${answered} of the ${N} pipelined requests`).to.be.below(bound);
      } finally {
        flood.destroy();
      }
    });
  });
}
