import { expect } from 'chai';
import fc from 'fast-check';
import { authorizationDisagreementCount } from '../../lib/metrics/index.js';
import { basic, call, NDJSON } from '../support/http.js';
import { isResolutionLookup, leaksIn, RECORDED_BACKENDS, type RecordingUpstream } from '../support/recording-upstream.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Review of "index names are read as written, at commas, trimming nothing" (h-review6): a hostile
 * tenant (a credential scoped to `tenant-a`: every category, read/write/delete, raw DSL) spells
 * names with whitespace and invisible characters (leading, trailing, inside a comma list),
 * percent-encoded or \u-escaped, in every place a name is read — paths, `index=`, `source`, bulk,
 * mget and msearch lines, reindex source and dest, alias actions, templates, `_resolve/index`,
 * `_cat`, `_field_caps`, `_search_shards`, date math, `remote:`, exclusions, `_all`, wildcards,
 * upper case, lookalikes — and makes credentials holding such names; on both backends (the HTTP
 * one recorded: what reached the engine). The admin creates, reads and deletes such names by the
 * same name on both.
 *
 * Finding (fails now):
 * 1. A name slot that holds ONE name (a document write's path index, a bulk item's `_index`,
 *    `_update`, `_reindex`'s `dest.index`, `PUT /{index}/_alias/{name}`) is read by the gateway as
 *    a comma list: `tenant-a,` (`,tenant-a`, `tenant-a,,`, `tenant-a,tenant-a`) is checked as
 *    `tenant-a` and forwarded; the engine acts on the name `tenant-a,` (Elasticsearch: one name,
 *    invalid). Through the HTTP backend the request reaches the engine unchecked (400 from the
 *    engine); on the embedded engine the engine's own check refuses it (403): the two checks
 *    disagree. At fault: lib/auth/classify/classifying.ts:127 (`pathIndex` splits every path
 *    list, single-name slots too) and lib/auth/classify/body-indices.ts:79 (`expressionsOf` splits
 *    any string, bulk `_index` and `dest.index` too). No foreign index was reached: the engine
 *    refuses a name holding a comma — the gateway's reading holds only as long as it does.
 */

const OWN = 'tenant-a';
const FOREIGN = 'tenant-b';
const MARK = 'foreignmark6';
const CATEGORIES = ['docs', 'search', 'indices', 'streams', 'declarative', 'pipelines', 'credentials', 'rules', 'searchrelevancy', 'cache', 'analytics', 'logs', 'cluster'];
/** Characters JavaScript's trim() removes, and invisible ones it does not: each makes another name. */
const ODD = ['\u2028', '\u00a0', '\t', '\n', ' ', '\ufeff', '\u3000', '\u200b', '\u0000', '\u0301'];
const e = encodeURIComponent;

interface Probe { m: string; p: string; body?: unknown; nd?: boolean }

/** Every place a tenant may write one index name `n` (a name, not a list). */
const SLOTS: Array<(n: string) => Probe> = [
  (n) => ({ m: 'PUT', p: `/${e(n)}/_doc/x?refresh=true`, body: { f: 1 } }),
  (n) => ({ m: 'PUT', p: `/${e(n)}` }),
  (n) => ({ m: 'GET', p: `/${e(n)}/_doc/1` }),
  (n) => ({ m: 'GET', p: `/${OWN},${e(n)}/_search` }),
  (n) => ({ m: 'GET', p: `/${OWN}/_search?index=${e(n)}` }),
  (n) => ({ m: 'DELETE', p: `/${e(n)}` }),
  (n) => ({ m: 'POST', p: `/${e(n)}/_close` }),
  (n) => ({ m: 'POST', p: '/_bulk?refresh=true', nd: true, body: `${JSON.stringify({ index: { _index: n, _id: 'z' } })}\n{"f":1}\n` }),
  (n) => ({ m: 'POST', p: '/_mget', body: { docs: [{ _index: n, _id: '1' }] } }),
  (n) => ({ m: 'POST', p: '/_msearch', nd: true, body: `${JSON.stringify({ index: `${OWN},${n}` })}\n{}\n` }),
  (n) => ({ m: 'POST', p: '/_reindex?refresh=true', body: { source: { index: OWN }, dest: { index: n } } }),
  (n) => ({ m: 'POST', p: '/_reindex?refresh=true', body: { source: { index: [OWN, n] }, dest: { index: OWN } } }),
  (n) => ({ m: 'POST', p: '/_aliases', body: { actions: [{ add: { index: n, alias: `${OWN}-al` } }] } }),
  (n) => ({ m: 'POST', p: '/_aliases', body: { actions: [{ add: { indices: [OWN, n], alias: `${OWN}-al` } }] } }),
  (n) => ({ m: 'POST', p: '/_aliases', body: { actions: [{ add: { index: OWN, alias: n } }] } }),
  (n) => ({ m: 'POST', p: '/_aliases', body: { actions: [{ remove_index: { index: n } }] } }),
  (n) => ({ m: 'PUT', p: `/${OWN}/_alias/${e(n)}` }),
  (n) => ({ m: 'GET', p: `/_resolve/index/${OWN},${e(n)}` }),
  (n) => ({ m: 'GET', p: `/_cat/indices/${e(n)}?format=json` }),
  (n) => ({ m: 'GET', p: `/${e(n)}/_field_caps?fields=*` }),
  (n) => ({ m: 'GET', p: `/${e(n)}/_search_shards` }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search`, body: { query: { terms: { f: { index: n, id: '1', path: 'f' } } } } }),
  (n) => ({ m: 'GET', p: `/${OWN}/_search?source_content_type=application/json&source=${e(JSON.stringify({ query: { terms: { f: { index: n, id: '1', path: 'f' } } } }))}` }),
  (n) => ({ m: 'PUT', p: '/_index_template/t6', body: { index_patterns: [`${n}*`], template: { aliases: { [FOREIGN]: {} } } } }),
];

/** Spellings of other indices that do not name `tenant-a`, beyond what ODD × position generates. */
const NAMED: string[] = [
  'TENANT-A', 'tenant-\u0430', 'tenant-b', 'TENANT-B', 'tenant-*', '*', '_all', `remote:${FOREIGN}`, ` remote:${FOREIGN}`,
  '<tenant-a-{now/d}>', ' <tenant-b>', '\u2028<tenant-b>', '<tenant-b>', `-${FOREIGN}`, '.gateway-credentials',
];

for (const backend of RECORDED_BACKENDS) {
  describe(`review session 6: index names read as written, against a hostile tenant (${backend.name})`, function () {
    this.timeout(300_000);
    let gw: TestGateway;
    let upstream: RecordingUpstream | undefined;
    let stop: () => Promise<void>;
    let tenant: string;

    const state = async () => {
      const cat = await call(gw.url, 'GET', '/_cat/indices?format=json&h=index,status,docs.count&expand_wildcards=all');
      const aliases = await call(gw.url, 'GET', '/_alias?expand_wildcards=all');
      const foreign = await call(gw.url, 'GET', `/${FOREIGN}/_doc/1`);
      const creds = await call(gw.url, 'GET', '/_credentials');
      const names = (cat.json as Array<Record<string, string>>).filter((i) => !i.index.startsWith('.')).map((i) => `${i.index}:${i.status}:${i['docs.count']}`).sort();
      const aliased = Object.entries(aliases.json as Record<string, { aliases?: object }>).filter(([i, a]) => !i.startsWith('.') && Object.keys(a.aliases ?? {}).length);
      return JSON.stringify({ names, aliased, foreign: foreign.json?._version, creds: JSON.stringify(creds.json).length });
    };

    /** Sends one probe as the tenant: its answer, and what (beyond index resolution) reached the engine. */
    const send = async (p: Probe, as: 'tenant' | 'admin' = 'tenant') => {
      upstream?.clear();
      const reply = await call(gw.url, p.m, p.p, { ...(as === 'tenant' ? { auth: tenant } : {}), ...(p.body === undefined ? {} : { body: p.body }), ...(p.nd ? { headers: NDJSON } : {}) });
      const reached = (upstream?.requests ?? []).filter((r) => !isResolutionLookup(r) && !r.path.startsWith('/.gateway-'));
      return { reply, reached };
    };

    /** A probe that must change nothing, show nothing foreign, answer a 4xx and forward nothing foreign. */
    const refusedOrHarmless = async (p: Probe, before: string): Promise<string[]> => {
      const { reply, reached } = await send(p);
      const problems: string[] = [];
      const where = `${p.m} ${p.p} ${p.body === undefined ? '' : JSON.stringify(p.body).slice(0, 160)}`;
      if (reply.status >= 500) problems.push(`${where}: ${reply.status} ${reply.text.slice(0, 160)}`);
      if (reply.text.includes(MARK)) problems.push(`${where}: shows the foreign marker`);
      for (const leak of leaksIn(reached, { names: [FOREIGN], reachable: [FOREIGN] })) problems.push(`${where}: reached the engine: ${leak}`);
      const after = await state();
      if (after !== before) problems.push(`${where}: changed ${before} → ${after}`);
      return problems;
    };

    before(async () => {
      ({ gateway: gw, upstream, stop } = await backend.start());
      const bulk = `{"index":{"_index":"${OWN}","_id":"a1"}}\n{"f":"own"}\n{"index":{"_index":"${FOREIGN}","_id":"1"}}\n{"f":"${MARK}"}\n`;
      expect((await call(gw.url, 'POST', '/_bulk?refresh=true', { body: bulk, headers: NDJSON })).status).to.equal(200);
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN], categories: CATEGORIES, ops: ['read', 'write', 'delete'], allow_raw_dsl: true } });
      expect(made.status, made.text).to.equal(201);
      tenant = basic(made.json.credential.username, made.json.password);
    });
    after(() => stop?.());

    it('held: a name with a whitespace or invisible character (leading, trailing, inside) in any slot is another index: refused, nothing changed or forwarded (generated)', async () => {
      const before = await state();
      const problems: string[] = [];
      const name = fc.tuple(fc.constantFrom(OWN, FOREIGN), fc.constantFrom(...ODD), fc.nat(8)).map(([n, c, at]) => n.slice(0, at) + c + n.slice(at));
      await fc.assert(fc.asyncProperty(name, fc.nat(SLOTS.length - 1), async (n, slot) => {
        problems.push(...(await refusedOrHarmless(SLOTS[slot](n), before)));
      }), { numRuns: Number(process.env.FAST_CHECK_RUNS ?? 120), seed: 6606 });
      expect(problems.slice(0, 20), problems.slice(0, 20).join('\n')).to.deep.equal([]);
    });

    it('held: upper case, Cyrillic lookalikes, wildcards, _all, remote:, date math, exclusions and system names in every slot: nothing changed, shown or forwarded', async () => {
      const before = await state();
      const problems: string[] = [];
      for (const n of NAMED) for (const slot of SLOTS) problems.push(...(await refusedOrHarmless(slot(n), before)));
      const lists: Probe[] = [
        { m: 'GET', p: `/tenant-*,${e(' -tenant-a')}/_search` },
        { m: 'GET', p: `/_all,${e('-tenant-a\u2028')}/_search` },
        { m: 'GET', p: `/${OWN}/_search?index=${e(`${OWN}, ${FOREIGN}`)}` },
        { m: 'POST', p: '/_bulk?refresh=true', nd: true, body: '{"index":{"_index":"tenant-a","\\u005findex":"tenant-b","_id":"d"}}\n{"f":1}\n' },
        { m: 'POST', p: '/_bulk?refresh=true', nd: true, body: '{"index":{"_index":"\\u2028tenant-a","_id":"d"}}\n{"f":1}\n' },
        { m: 'POST', p: '/_reindex?refresh=true', body: '{"source":{"index":"tenant-a"},"dest":{"index":"tenant-a","index":"tenant-b"}}' },
        { m: 'POST', p: '/_aliases', body: '{"actions":[{"add":{"index":"tenant-a","alias":"tenant-a-y","alias":"tenant-b"}}]}' },
        { m: 'POST', p: '/_msearch', nd: true, body: '{"index":["tenant-a","\\u3000tenant-b"]}\n{}\n' },
        { m: 'PUT', p: '/_template/t6', body: { index_patterns: ['tenant-a\u2028*'] } },
      ];
      for (const p of lists) problems.push(...(await refusedOrHarmless(p, before)));
      expect(problems.slice(0, 20), problems.slice(0, 20).join('\n')).to.deep.equal([]);
    });

    it('held: a tenant with `credentials` cannot make a credential holding another spelling of a name (it would grant beyond its maker)', async () => {
      const before = await state();
      for (const indices of [[`${OWN}\u2028`], [` ${OWN}`], [`${OWN}\u00a0`], [`${OWN}*`], [`${OWN},${FOREIGN}`], [OWN, ` ${FOREIGN}`], ['<tenant-a>'], ['TENANT-A'], [`*${OWN}`], [`${OWN}\u200b`]]) {
        const { reply } = await send({ m: 'POST', p: '/_credentials', body: { indices, categories: ['docs'], ops: ['read'] } });
        expect(reply.status, `${JSON.stringify(indices)}: ${reply.text.slice(0, 200)}`).to.be.oneOf([400, 403]);
      }
      expect(await state()).to.equal(before);
    });

    it('held: the admin creates, writes, reads, closes, aliases, reindexes and deletes an odd name by that name, never touching the name it looks like', async () => {
      const baseline = await state();
      for (const n of [`${OWN}\u2028`, `${OWN}\u00a0`, `${OWN}\t`, `${OWN}\ufeff`, `\u3000${FOREIGN}`, `${OWN}\u200b`]) {
        const steps: Probe[] = [
          { m: 'PUT', p: `/${e(n)}` }, { m: 'PUT', p: `/${e(n)}/_doc/1?refresh=true`, body: { f: 'odd' } },
          { m: 'POST', p: `/${e(n)}/_close` }, { m: 'POST', p: `/${e(n)}/_open` },
          { m: 'POST', p: '/_aliases', body: { actions: [{ add: { index: n, alias: `${n}al` } }] } },
          { m: 'POST', p: '/_reindex?refresh=true', body: { source: { index: n }, dest: { index: `${n}r` } } },
        ];
        for (const s of steps) expect((await send(s, 'admin')).reply.status, `${s.m} ${JSON.stringify(s.p)}`).to.be.oneOf([200, 201]);
        const got = await send({ m: 'GET', p: `/${e(n)}/_doc/1` }, 'admin');
        expect(got.reply.json._index).to.equal(n);
        const resolved = await send({ m: 'GET', p: `/_resolve/index/${e(n)}` }, 'admin');
        expect(resolved.reply.json.indices.map((i: { name: string }) => i.name)).to.deep.equal([n]);
        const searched = await send({ m: 'GET', p: `/${e(n)}/_search` }, 'admin');
        expect(searched.reply.json.hits.hits.map((h: { _index: string }) => h._index)).to.deep.equal([n]);
        for (const gone of [`${n}r`, n]) expect((await send({ m: 'DELETE', p: `/${e(gone)}` }, 'admin')).reply.status).to.equal(200);
        expect(await state(), `after ${JSON.stringify(n)}`).to.equal(baseline);
      }
    });

    it('held (was 1): a slot holding ONE name written as a comma list (`tenant-a,`) is read whole, as the engine reads it, and refused', async () => {
      const disagreements = await authorizationDisagreementCount();
      const problems: string[] = [];
      for (const n of [`${OWN},`, `,${OWN}`, `${OWN},,`, `${OWN},${OWN}`]) {
        const probes: Probe[] = [
          { m: 'PUT', p: `/${e(n)}/_doc/c1?refresh=true`, body: { f: 1 } },
          { m: 'PUT', p: `/${n}/_doc/c2?refresh=true`, body: { f: 1 } },
          { m: 'POST', p: `/${e(n)}/_update/a1`, body: { doc: { g: 1 }, doc_as_upsert: true } },
          { m: 'POST', p: '/_bulk?refresh=true', nd: true, body: `${JSON.stringify({ index: { _index: n, _id: 'c3' } })}\n{"f":1}\n` },
          { m: 'POST', p: '/_reindex?refresh=true', body: { source: { index: OWN }, dest: { index: n } } },
          { m: 'PUT', p: `/${OWN}/_alias/${e(n)}` },
        ];
        for (const p of probes) {
          const { reply, reached } = await send(p);
          const where = `${p.m} ${p.p} ${p.body === undefined ? '' : JSON.stringify(p.body)}`;
          if (reply.status >= 500) problems.push(`${where}: ${reply.status}`);
          // the gateway checked `tenant-a`; a request naming `tenant-a,` must not have gone on
          const forwarded = reached.filter((r) => decodeURIComponent(r.path + r.body).includes(n));
          if (forwarded.length) problems.push(`${where}: reached the engine as ${forwarded.map((r) => `${r.method} ${r.path} ${r.body.slice(0, 80)}`).join(' | ')} → ${reply.status} ${reply.text.slice(0, 120)}`);
        }
      }
      const disagreed = (await authorizationDisagreementCount()) - disagreements;
      if (disagreed) problems.push(`the gateway's check and the embedded engine's disagreed ${disagreed} times`);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  });
}
