import { expect } from 'chai';
import type { EngineAccess } from '../../lib/engine/backend.js';
import { hideFields } from '../../lib/engine/embedded/access/index.js';
import { openEmbeddedEngine, type EmbeddedEngine } from '../../lib/engine/embedded/index.js';
import { authorizationDisagreementCount } from '../../lib/metrics/index.js';
import { tempDir } from '../engine/embedded/support.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import { within } from '../support/within.js';
import { openStream } from '../support/stream-client.js';

/**
 * Field rules in every answer that carries documents: whatever API reads them out (search, get,
 * mget, msearch, explain, a scroll's pages, top hits), a hidden field is absent from the answer on
 * both backends — and on the embedded engine the engine takes it out where the documents are read
 * out (`hideFields`) as a second line, counting a disagreement when the gateway let one through.
 */

describe('field rules where documents are read out (engine, unit)', () => {
  it('hides excluded fields in hits, inner and top hits, gets, mget docs and msearch responses; counts only what it removed', () => {
    const doc = () => ({ _id: '1', _source: { title: 't', secret: 's', user: { name: 'n', ssn: 'x' } }, fields: { secret: ['s'], title: ['t'] }, highlight: { secret: ['<em>s</em>'] } });
    const answer = {
      responses: [{ hits: { hits: [doc(), { ...doc(), inner_hits: { c: { hits: { hits: [doc()] } } } }] } }],
      docs: [doc()],
      aggregations: { top: { hits: { hits: [doc()] } } },
      ...doc(),
    };
    expect(hideFields(answer, { exclude: ['secret', 'user.ssn'] })).to.equal(true);
    const text = JSON.stringify(answer);
    expect(text).not.to.contain('secret');
    expect(text).not.to.contain('ssn');
    expect(text).to.contain('"title":"t"');
    expect(text).to.contain('"name":"n"');
    // nothing hidden: nothing counted
    const clean = { hits: { hits: [{ _id: '1', _source: { title: 't' } }] } };
    expect(hideFields(clean, { exclude: ['secret'] })).to.equal(false);
    // include rules: only what they cover, whole objects by their leaves
    const only = { _id: '2', _source: { title: 't', secret: 's', user: { name: 'n', ssn: 'x' } } };
    expect(hideFields(only, { include: ['title', 'user.name'] })).to.equal(true);
    expect(only._source).to.deep.equal({ title: 't', user: { name: 'n' } });
    // user data that looks like a hit inside _source is left as the user wrote it
    const nested = { _id: '3', _source: { title: 't', copy: { _id: 'x', _source: { secret: 'kept as data of a shown field' } } } };
    hideFields(nested, { exclude: ['secret'] });
    expect(nested._source.copy._source.secret).to.equal('kept as data of a shown field');
  });
});

describe('field rules where documents are read out (the engine alone, no gateway in front)', function () {
  this.timeout(60_000);
  let engine: EmbeddedEngine;
  let remove: () => Promise<void>;
  const ruled: EngineAccess = { user: 'ruled', indices: [{ names: ['ruled'], ops: ['read'] }], fields: { exclude: ['secret'] } };
  const send = async (method: string, path: string, body?: string, access?: EngineAccess) => {
    const res = await engine.request({ method, path, headers: { 'content-type': 'application/x-ndjson' }, body, access });
    return (res.body as Buffer).toString('utf8');
  };

  before(async () => {
    const dir = await tempDir();
    remove = dir.remove;
    engine = await openEmbeddedEngine({ dataDir: dir.dir });
    await send('POST', '/_bulk', '{"index":{"_index":"ruled","_id":"1"}}\n{"title":"one","secret":"sesame"}\n');
    await send('POST', '/ruled/_refresh');
  });
  after(async () => {
    await engine.close();
    await remove();
  });

  it('a search, an mget and an msearch the gateway did not narrow come back without the hidden field, each counted as a disagreement', async () => {
    const before = await authorizationDisagreementCount();
    for (const [method, path, body] of [
      ['POST', '/ruled/_search', '{"query":{"match_all":{}}}'],
      ['POST', '/ruled/_mget', '{"ids":["1"]}'],
      ['POST', '/ruled/_msearch', '{}\n{"query":{"match_all":{}},"aggs":{"t":{"top_hits":{}}}}\n'],
      ['GET', '/ruled/_doc/1', undefined],
    ] as const) {
      const text = await send(method, path, body, ruled);
      expect(text, path).to.contain('"title":"one"');
      expect(text, path).not.to.contain('sesame');
    }
    expect((await authorizationDisagreementCount()) - before).to.equal(4);
    // the admin's answer is the document as it is
    expect(await send('GET', '/ruled/_doc/1')).to.contain('sesame');
  });
});

for (const backend of BACKENDS) {
  describe(`field rules in every answer that carries documents (${backend.name})`, function () {
    this.timeout(60_000);
    let url: string;
    let stop: () => Promise<void>;
    let hiding: string;
    let showing: string;

    before(async () => {
      const { gateway, stop: s } = await backend.start({ LOGS_BODIES: 'true' });
      url = gateway.url;
      stop = s;
      const lines = [{ index: { _index: 'ruled', _id: '1' } }, { title: 'one', secret: 'sesame', user: { name: 'ann', ssn: '123' } },
        { index: { _index: 'ruled', _id: '2' } }, { title: 'two', secret: 'sesame', user: { name: 'bob', ssn: '456' } }];
      expect((await call(url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON })).json.errors).to.equal(false);
      const make = async (rules: Record<string, unknown>) => {
        const res = await call(url, 'POST', '/_credentials', { body: { indices: ['ruled'], categories: ['docs', 'search', 'streams', 'logs'], ops: ['read'], ...rules } });
        expect(res.status, res.text).to.equal(201);
        return basic(res.json.credential.username, res.json.password);
      };
      hiding = await make({ exclude_fields: ['secret', 'user.ssn'] });
      showing = await make({ include_fields: ['title', 'user.name'] });
    });
    after(() => stop());

    /** Each read and what the gateway makes of it: answered without the hidden fields, or refused whole (it cannot narrow the body). */
    const reads: Array<[string, string, string, 'shown' | 'refused', unknown?, boolean?]> = [
      ['search', 'POST', '/ruled/_search', 'shown', { query: { match_all: {} } }],
      ['URI search naming its field', 'GET', '/ruled/_search?q=one&df=title', 'shown'],
      ['URI search over every field', 'GET', '/ruled/_search?q=sesame', 'refused'],
      ['get', 'GET', '/ruled/_doc/1', 'shown'],
      ['get _source', 'GET', '/ruled/_source/1', 'shown'],
      ['mget', 'POST', '/ruled/_mget', 'shown', { ids: ['1', '2'] }],
      // each search's _source narrowed to the credential's rules, as a search's URL filter is
      ['msearch', 'POST', '/ruled/_msearch', 'shown', [{}, { query: { match_all: {} } }, {}, { query: { term: { title: 'two' } } }], true],
      ['msearch naming its fields', 'POST', '/ruled/_msearch', 'shown', [{}, { _source: ['title', 'user.name'], query: { match_all: {} } }], true],
      ['top hits', 'POST', '/ruled/_search', 'refused', { size: 0, aggs: { top: { top_hits: { size: 2 } } } }],
      ['top hits naming their fields', 'POST', '/ruled/_search', 'shown', { size: 0, aggs: { top: { top_hits: { size: 2, _source: ['title'] } } } }],
      ['scroll', 'POST', '/ruled/_search?scroll=1m&size=1', 'shown', { query: { match_all: {} } }],
    ];

    for (const [name, method, path, outcome, body, isNdjson] of reads) {
      it(`${name}: ${outcome === 'shown' ? 'answered without a hidden field' : 'refused whole'}, for both credentials`, async () => {
        for (const auth of [hiding, showing]) {
          const res = await call(url, method, path, { auth, body: isNdjson ? ndjson(body as unknown[]) : body, headers: isNdjson ? NDJSON : undefined });
          expect(res.text, res.text).not.to.contain('sesame');
          expect(res.text, res.text).not.to.contain('123');
          if (outcome === 'refused') {
            expect(res.status, res.text).to.equal(403);
            expect(res.json.error.type).to.equal('security_exception');
            continue;
          }
          expect(res.status, res.text).to.equal(200);
          expect(res.text, res.text).not.to.contain('123');
          expect(res.text).to.match(/ann|bob|one|two/);
        }
      });
    }

    it('a document stream hides them in every change, not only in its first read', async () => {
      for (const auth of [hiding, showing]) {
        const stream = await openStream(url, '/ruled/_doc/9?stream=true', { auth });
        await stream.live;
        await call(url, 'PUT', '/ruled/_doc/9', { body: { title: 'nine', secret: 'sesame', user: { name: 'cy', ssn: '123' } } });
        await stream.until((m) => m.some((x) => x._source?.title === 'nine'));
        stream.close();
        const text = JSON.stringify(stream.messages);
        expect(text).not.to.contain('sesame');
        expect(text).not.to.contain('123');
        expect(text).to.contain('"name":"cy"');
        await call(url, 'DELETE', '/ruled/_doc/9');
      }
    });

    it('HEAD /{index} answers whether it exists (no body to narrow), and compatible-with=7 typed mappings hide the fields too', async () => {
      for (const auth of [hiding, showing]) {
        expect((await call(url, 'HEAD', '/ruled', { auth })).status).to.equal(200);
        const compat = { accept: 'application/vnd.elasticsearch+json;compatible-with=7' };
        for (const path of ['/ruled/_mapping?include_type_name=true', '/_mapping?include_type_name=true']) {
          const res = await call(url, 'GET', path, { auth, headers: compat });
          expect(res.status, res.text).to.equal(200);
          expect(res.text).to.contain('title');
          expect(res.text, path).not.to.contain('secret');
          expect(res.text, path).not.to.contain('ssn');
        }
      }
    });

    it('a pipeline that claims a mappings route hands a reader with field rules no mapping', async () => {
      const def = { id: 'map-leak', enabled: true, priority: 5, routes: [{ path: '/ruled/_mapping', method: 'GET', classify: { category: 'search' } }], stages: [{ id: 'q', use: 'engineQuery' }] };
      expect((await call(url, 'POST', '/_pipeline', { body: def })).status).to.be.below(300);
      try {
        for (const auth of [hiding, showing]) {
          const res = await call(url, 'GET', '/ruled/_mapping', { auth });
          expect(res.text).not.to.contain('secret');
          expect(res.text).not.to.contain('ssn');
          expect(res.status, res.text).to.equal(403);
        }
      } finally {
        await call(url, 'DELETE', '/_pipeline/map-leak');
      }
    });

    it('a field the mapping computes with a script (runtime) is not readable with field rules, and none may be added by them', async () => {
      const runtime = { runtime: { copy: { type: 'keyword', script: { source: "emit(params._source.secret)" } } } };
      expect((await call(url, 'PUT', '/ruled/_mapping', { body: runtime })).status).to.equal(200);
      try {
        const reads: unknown[] = [
          { fields: ['copy'], _source: false },
          { size: 0, aggs: { c: { terms: { field: 'copy' } } } },
          { sort: [{ copy: 'asc' }], _source: ['title'] },
          { query: { term: { copy: 'sesame' } }, _source: ['title'] },
          { fields: ['co*'], _source: false },
        ];
        for (const auth of [hiding, showing]) {
          for (const body of reads) {
            const res = await call(url, 'POST', '/ruled/_search', { auth, body });
            expect(res.status, `${JSON.stringify(body)}: ${res.text}`).to.equal(403);
            expect(res.text).not.to.contain('sesame');
          }
        }
        // nor through a request that names no index (it reaches every index the credential may see)
        for (const auth of [hiding, showing]) {
          for (const [path, body] of [['/_search', { size: 0, aggs: { c: { terms: { field: 'copy' } } } }], ['/_count', { query: { term: { copy: 'sesame' } } }]] as const) {
            const res = await call(url, 'POST', path, { auth, body });
            expect(res.status, `${path}: ${res.text}`).to.equal(403);
          }
        }
        // the admin reads it
        expect((await call(url, 'POST', '/ruled/_search', { body: { fields: ['copy'], _source: false } })).text).to.contain('sesame');
        // a credential with field rules adds no scripted field, through a mapping or an index's creation
        const made = await call(url, 'POST', '/_credentials', { body: { indices: ['ruled', 'ruled-*'], categories: ['indices', 'search'], ops: ['read', 'write', 'delete'], exclude_fields: ['secret'] } });
        const writer = basic(made.json.credential.username, made.json.password);
        const add = await call(url, 'PUT', '/ruled/_mapping', { auth: writer, body: { runtime: { copy2: { type: 'keyword', script: { source: "emit(params._source.secret)" } } } } });
        expect(add.status, add.text).to.equal(403);
        const create = await call(url, 'PUT', '/ruled-2', { auth: writer, body: { mappings: runtime } });
        expect(create.status, create.text).to.equal(403);
        // nor what copies or points one field into another, nor a dynamic template making any of them
        const copying: unknown[] = [
          { properties: { secret: { type: 'keyword', copy_to: 'vis' }, vis: { type: 'keyword' } } },
          { properties: { leak: { type: 'alias', path: 'secret' } } },
          { dynamic_templates: [{ x: { match: '*zz', runtime: { type: 'keyword', script: { source: 'emit(params._source.secret)' } } } }] },
          { dynamic_templates: [{ x: { match: 'secret*', mapping: { type: 'keyword', copy_to: 'vis' } } }] },
          { dynamic: 'runtime' },
        ];
        for (const body of copying) {
          const res = await call(url, 'PUT', '/ruled/_mapping', { auth: writer, body });
          expect(res.status, `${JSON.stringify(body)}: ${res.text}`).to.equal(403);
        }
        // an alias filter is a query: one on a hidden field would be a value oracle
        for (const [method, path, body] of [
          ['PUT', '/ruled/_alias/ruled-d', { filter: { term: { secret: 'sesame' } } }],
          ['POST', '/_aliases', { actions: [{ add: { index: 'ruled', alias: 'ruled-e', filter: { prefix: { secret: 's' } } } }] }],
        ] as const) {
          const res = await call(url, method, path, { auth: writer, body });
          expect(res.status, `${path}: ${res.text}`).to.equal(403);
        }
        expect((await call(url, 'PUT', '/ruled/_alias/ruled-f', { auth: writer, body: { filter: { term: { title: 'one' } } } })).status).to.equal(200);
        expect((await call(url, 'PUT', '/ruled/_mapping', { auth: writer, body: { properties: { plain: { type: 'keyword' } } } })).status).to.equal(200);
      } finally {
        await call(url, 'PUT', '/ruled/_mapping', { body: { runtime: { copy: null } } });
      }
    });

    it('request logs show a reader with field rules no bodies (they hold whole documents)', async () => {
      await call(url, 'GET', '/ruled/_doc/1');
      // the admin's own record of it is the one to wait for (the readers' ones of earlier cases are there already)
      await within(15_000, async () => (await call(url, 'GET', '/ruled/_logs?size=100')).json.logs?.some((l: { path: string; user: string }) => l.path === '/ruled/_doc/1' && l.user === 'admin'));
      for (const auth of [hiding, showing]) {
        const res = await call(url, 'GET', '/ruled/_logs?size=100', { auth });
        expect(res.status, res.text).to.equal(200);
        expect(res.json.logs.length).to.be.above(0);
        expect(res.json.logs.some((l: Record<string, unknown>) => 'response_body' in l || 'request_body' in l)).to.equal(false);
        expect(res.text, 'a query string may hold a hidden value').not.to.contain('q=sesame');
      }
      // the admin still reads them: the document's hidden field among them (`secret` is redacted from every body by its name)
      const admin = (await call(url, 'GET', '/ruled/_logs?size=100')).json.logs as Array<Record<string, string>>;
      const own = admin.filter((l) => l.path === '/ruled/_doc/1' && l.user === 'admin');
      expect(own.map((l) => l.response_body).join(), JSON.stringify(own)).to.contain('"ssn":"123"');
    });

    it('a scroll\'s later pages hide them too', async () => {
      for (const auth of [hiding, showing]) {
        const first = await call(url, 'POST', '/ruled/_search?scroll=1m&size=1', { auth, body: { query: { match_all: {} } } });
        const next = await call(url, 'POST', '/_search/scroll', { auth, body: { scroll: '1m', scroll_id: first.json._scroll_id } });
        expect(next.status, next.text).to.equal(200);
        expect(next.json.hits.hits).to.have.length(1);
        expect(next.text).not.to.contain('sesame');
      }
    });
  });
}
