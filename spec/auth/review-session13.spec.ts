import { expect } from 'chai';
import fc from 'fast-check';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import { clientForwards, leaksIn, RECORDED_BACKENDS, systemIndexForwards, type RecordingUpstream } from '../support/recording-upstream.js';
import type { TestGateway } from '../support/servers.js';
import { within } from '../support/within.js';

/**
 * Review of session 13 (h-rev13): hostile tenants against what changed — OpenSearch's Index State
 * Management APIs (policies, add/remove/change_policy/retry/explain), the notifications channels
 * and the deprecated hot threads paths, cluster health honouring `expand_wildcards` (closed and
 * hidden indices listed), closed indices in broadcast actions (`_field_caps`, `_validate/query`,
 * `_stats`, `_refresh`), shard-level stats, and the cache hit path (a request value's plan
 * remembered, the system-index check skipped for a frozen classification that passed it, the
 * type field hidden once per kept answer). Both backends, the HTTP one recorded at the engine.
 *
 * Each case states the property; a case that held stays as a guard.
 *
 * Findings: none of these cases failed, on either backend. Noted, by design: ISM explain (and the
 * other managed-index APIs) with a wildcard or `_all` is narrowed to the tenant's own indices, as
 * any read's is, while explain naming no index is refused (every index); an alias over the
 * tenant's index and another's is listed with the tenant's index (`_alias`, `_resolve/index`, the
 * cluster state's metadata), as Elasticsearch lists an index's aliases to whoever may view it.
 */

/** The tenant's index, another tenant's it may not read, and another's that is closed. */
const [OWN, FOREIGN, CLOSED] = ['tenant-a', 'tenant-b', 'tenant-c'];
/** An alias over the tenant's index and another's. */
const BOTH = 'tenant-both';
const COMPAT = 'application/vnd.elasticsearch+json;compatible-with=7';
/**
 * What no answer to a tenant may hold: the other tenants' index names, document values, the gateway's
 * system indices. (The alias over its own index and another's is its own index's metadata: listed
 * with it, as Elasticsearch lists an index's aliases to whoever may view it; refused as a target.)
 */
const LEAK = /tenant-b(?!oth)|tenant-c|foreign13|\.gateway-/;

for (const backend of RECORDED_BACKENDS) {
  describe(`review of session 13: hostile tenants against this session's surfaces (${backend.name})`, function () {
    let gw: TestGateway, upstream: RecordingUpstream | undefined, stop: () => Promise<void>;
    // a tenant administering its indices; one whose field rules hide `hid`; one with max_size 3; the app's read-only pair
    let tenant: string, ruled: string, bounded: string, readOnly: string, other: string;
    this.timeout(180_000);

    const forwardedLeaks = (label: string, problems: string[]) => {
      const forwarded = clientForwards(upstream?.requests ?? []);
      for (const leak of leaksIn(forwarded, { names: [FOREIGN, CLOSED, BOTH], reachable: [FOREIGN, CLOSED, '.gateway-credentials'] })) problems.push(`${label}: ${leak}`);
      for (const leak of systemIndexForwards(forwarded)) problems.push(`${label}: ${leak}`);
    };
    const cred = async (body: Record<string, unknown>) => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [`${OWN}*`], allow_raw_dsl: true, ...body } });
      expect(made.status, made.text).to.equal(201);
      return basic(made.json.credential.username, made.json.password);
    };
    /** A tenant's request: refused, or answered without anything of another tenant's (in the answer or forwarded). */
    const probe = async (problems: string[], auth: string, method: string, path: string, body?: unknown, headers?: Record<string, string>, mayAnswer = false, forwarded = true) => {
      upstream?.clear();
      const r = await call(gw.url, method, path, { auth, body, headers });
      // a refusal names only what the request wrote (DESIGN: a 403 names its expressions as written)
      const written = decodeURIComponent(decodeURIComponent(path.replace(/%(?![0-9a-f]{2})/gi, '%25'))) + JSON.stringify(body ?? '');
      const leaked = [...r.text.matchAll(new RegExp(LEAK, 'g'))].some(([name]) => r.status < 400 || !written.includes(name));
      if ((!mayAnswer && r.status < 400) || leaked) problems.push(`${method} ${path}: ${r.status} ${r.text.slice(0, 240)} … ${[...r.text.matchAll(new RegExp(`.{0,120}(${LEAK.source}).{0,80}`, 'g'))].map((m) => m[0]).slice(0, 3).join(' | ')}`);
      if (forwarded) forwardedLeaks(`${method} ${path}`, problems);
      return r;
    };

    before(async () => {
      ({ gateway: gw, upstream, stop } = await backend.start());
      for (const index of [OWN, FOREIGN, CLOSED]) {
        const made = await call(gw.url, 'PUT', `/${index}`, { body: { mappings: { properties: { f: { type: 'keyword' }, hid: { type: 'keyword' } } } } });
        expect(made.status, made.text).to.equal(200);
      }
      const lines: unknown[] = [];
      for (let i = 1; i <= 6; i++) lines.push({ index: { _index: OWN, _id: `a${i}` } }, { f: `x${i}`, hid: 'hiddenvalue13' });
      lines.push({ index: { _index: FOREIGN, _id: '1' } }, { f: 'foreign13' }, { index: { _index: CLOSED, _id: '1' } }, { f: 'foreign13' });
      const bulked = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON });
      expect(bulked.json.errors, bulked.text).to.equal(false);
      expect((await call(gw.url, 'POST', '/_aliases', { body: { actions: [{ add: { indices: [OWN, FOREIGN], alias: BOTH } }] } })).status).to.equal(200);
      const policy = { policy: { description: 'p', default_state: 'hot', states: [{ name: 'hot', actions: [], transitions: [] }] } };
      const put = await call(gw.url, 'PUT', '/_plugins/_ism/policies/p13', { body: policy });
      expect(put.status, put.text).to.equal(201);
      const added = await call(gw.url, 'POST', `/_plugins/_ism/add/${FOREIGN}`, { body: { policy_id: 'p13' } });
      expect(added.json?.updated_indices, added.text).to.equal(1);
      expect((await call(gw.url, 'POST', `/${CLOSED}/_close`)).status).to.equal(200);
      tenant = await cred({ categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'] });
      ruled = await cred({ categories: ['docs', 'search'], ops: ['read'], exclude_fields: ['hid'] });
      bounded = await cred({ categories: ['docs', 'search'], ops: ['read'], max_size: 3 });
      other = await cred({ indices: [FOREIGN], categories: ['docs', 'search'], ops: ['read'] });
      const pair = await call(gw.url, 'POST', `/${OWN}/_credentials`, { body: { read_only: true } });
      expect(pair.status, pair.text).to.equal(201);
      readOnly = basic(pair.json.credential.username, pair.json.password);
    });
    after(() => stop?.());

    it('ISM: a tenant manages, explains and retries its own indices only — every index, another\'s by name, wildcard, alias, parameter, encoding or date math is refused; policies are the cluster\'s', async () => {
      const problems: string[] = [];
      const policyId = { policy_id: 'p13' };
      for (const action of ['add', 'remove', 'change_policy', 'retry']) {
        for (const target of [FOREIGN, `${OWN},${FOREIGN}`, 'tenant-*', '*', '_all', BOTH, '%74enant-b', 'tenant%2Db', `${OWN}%2C${FOREIGN}`, '%3Ctenant-b%3E', `*,-${OWN}`]) {
          await probe(problems, tenant, 'POST', `/_plugins/_ism/${action}/${target}`, policyId);
        }
        await probe(problems, tenant, 'POST', `/_plugins/_ism/${action}?index=${FOREIGN}`, policyId);
        await probe(problems, tenant, 'POST', `/_plugins/_ism/${action}`, { ...policyId, index: FOREIGN });
        await probe(problems, tenant, 'POST', `/_plugins/_ism/${action}/${OWN}?index=${FOREIGN}`, policyId, undefined, true);
        // the read-only pair changes nothing, its own index included
        await probe(problems, readOnly, 'POST', `/_plugins/_ism/${action}/${OWN}`, policyId);
      }
      for (const target of ['', `/${FOREIGN}`, `/${OWN},${FOREIGN}`, `/${BOTH}`, '/%74enant-b', '/%3Ctenant-b%3E', `?index=${FOREIGN}`, `?queryString=${FOREIGN}`]) {
        await probe(problems, tenant, 'GET', `/_plugins/_ism/explain${target}`);
        await probe(problems, tenant, 'POST', `/_plugins/_ism/explain${target}`, { filter: policyId });
      }
      // a wildcard or _all is narrowed to the tenant's indices, as a read's is: only its own index is explained
      for (const target of ['/tenant-*', '/*', '/_all', `/*,-${OWN}`, '/*?expand_wildcards=all']) {
        const r = await probe(problems, tenant, 'GET', `/_plugins/_ism/explain${target}`, undefined, undefined, true);
        if (r.status === 200 && Object.keys(r.json).some((k) => k !== OWN && k !== 'total_managed_indices')) problems.push(`explain${target}: ${r.text.slice(0, 200)}`);
      }
      // method overrides and Elasticsearch 7's compatible media type change nothing of what is authorized
      for (const headers of [{ 'x-http-method-override': 'GET' }, { 'x-http-method': 'GET' }, { 'content-type': COMPAT, accept: COMPAT }] as Array<Record<string, string>>) {
        await probe(problems, tenant, 'POST', `/_plugins/_ism/add/${FOREIGN}`, policyId, headers);
        await probe(problems, tenant, 'POST', `/_plugins/_ism/remove/${FOREIGN}?_method=GET`, policyId, headers);
        await probe(problems, tenant, 'GET', `/_plugins/_ism/explain/${FOREIGN}`, undefined, headers);
        await probe(problems, readOnly, 'POST', `/_plugins/_ism/add/${OWN}`, policyId, headers);
      }
      // the tenant's own index is explained (not managed: nothing of the policy on another's index shows)
      const own = await probe(problems, tenant, 'GET', `/_plugins/_ism/explain/${OWN}?show_policy=true`, undefined, undefined, true);
      expect(own.status, own.text).to.equal(200);
      expect(own.json.total_managed_indices).to.equal(0);
      await probe(problems, tenant, 'GET', `/_plugins/_ism/explain/${OWN}?index=${FOREIGN}`, undefined, undefined, true);
      // policies (and their ism_template index patterns, applied to any new index) are managed by `manage` only
      await probe(problems, tenant, 'GET', '/_plugins/_ism/policies');
      await probe(problems, tenant, 'GET', '/_plugins/_ism/policies/p13');
      await probe(problems, tenant, 'HEAD', '/_plugins/_ism/policies/p13');
      await probe(problems, tenant, 'PUT', '/_plugins/_ism/policies/mine', { policy: { description: 'm', default_state: 'hot', states: [{ name: 'hot', actions: [{ delete: {} }], transitions: [] }], ism_template: [{ index_patterns: ['tenant-*'] }] } });
      await probe(problems, tenant, 'PUT', '/_plugins/_ism/policies?policyID=mine', { policy: { description: 'm', default_state: 'hot', states: [{ name: 'hot', actions: [], transitions: [] }] } });
      await probe(problems, tenant, 'DELETE', '/_plugins/_ism/policies/p13');
      // the gateway's system indices are nobody's to manage, the admin's included
      for (const path of ['/_plugins/_ism/add/.gateway-credentials', '/_plugins/_ism/add/%2Egateway-credentials', '/_plugins/_ism/add?index=.gateway-*', '/_plugins/_ism/explain/.gateway-*', '/_plugins/_ism/explain/.g*']) {
        const r = await call(gw.url, 'POST', path, { body: policyId });
        if (r.status !== 403) problems.push(`admin POST ${path}: ${r.status} ${r.text.slice(0, 200)}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
      // and the foreign index is still managed by the admin's policy
      const still = await call(gw.url, 'GET', `/_plugins/_ism/explain/${FOREIGN}`);
      expect(still.json?.[FOREIGN]?.policy_id, still.text).to.equal('p13');
    });

    it('ISM, generated: any spelling of another tenant\'s index in any managed-index API is refused and never forwarded', async () => {
      const spelled = fc.oneof(
        // each character of `tenant-b` percent-encoded or not, hex in either case, once or twice
        fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()), { minLength: FOREIGN.length, maxLength: FOREIGN.length }).map((how) =>
          [...FOREIGN].map((ch, i) => {
            const [enc, upper, twice] = how[i];
            if (!enc) return ch;
            const hex = ch.charCodeAt(0).toString(16);
            const once = `%${upper ? hex.toUpperCase() : hex}`;
            return twice ? `%25${once.slice(1)}` : once;
          }).join('')),
        fc.constantFrom('%3Ctenant-b%3E', '%3Ctenant-%7Bb%7D%3E', 'tenant-b%00', 'tenant-b%20', 'tenant%E2%80%90b', 'tenant-%C4%B1b', 'TENANT-B', 'tenant-?', 'tenant-[b]', 'tenant-b,', ',tenant-b'),
      );
      await fc.assert(fc.asyncProperty(
        fc.constantFrom('add', 'remove', 'change_policy', 'retry', 'explain'), spelled, fc.constantFrom('path', 'param', 'both'),
        async (action, name, where) => {
          const problems: string[] = [];
          const path = where === 'path' ? `/_plugins/_ism/${action}/${name}` : where === 'param' ? `/_plugins/_ism/${action}?index=${name}` : `/_plugins/_ism/${action}/${OWN}?index=${name}`;
          const r = await probe(problems, tenant, action === 'explain' ? 'GET' : 'POST', path, action === 'explain' ? undefined : { policy_id: 'p13' }, undefined, true);
          // answered only for the own index (the path's, which the plugin reads first)
          if (r.status < 400 && !(where === 'both' && (action === 'explain' ? r.json?.[OWN] !== undefined : true))) problems.push(`${path}: ${r.status} ${r.text.slice(0, 200)}`);
          expect(problems, problems.join('\n')).to.deep.equal([]);
        },
      ), { numRuns: 60 });
    });

    it('cluster health, closed and hidden indices: a tenant\'s health, field caps, validation, stats and refreshes name no other index, closed or hidden', async () => {
      const problems: string[] = [];
      const levels = ['', '?level=indices', '?level=shards', '?level=indices&expand_wildcards=all', '?level=shards&expand_wildcards=closed,hidden', '?level=indices&expand_wildcards=hidden'];
      for (const level of levels) {
        for (const target of ['', '/*', '/_all', '/tenant-*', `/${OWN}*`]) await probe(problems, tenant, 'GET', `/_cluster/health${target}${level}`, undefined, undefined, true);
        for (const target of [`/${FOREIGN}`, `/${CLOSED}`, `/${BOTH}`, `/${OWN},${CLOSED}`, '/.gateway-*', '/%2Egateway-credentials']) await probe(problems, tenant, 'GET', `/_cluster/health${target}${level}`);
      }
      for (const suffix of ['', '?ignore_unavailable=true', '?expand_wildcards=all', '?expand_wildcards=closed', '?expand_wildcards=all&ignore_unavailable=true']) {
        const join = suffix ? '&' : '?';
        for (const target of ['', '/*', '/_all', '/tenant-*']) {
          await probe(problems, tenant, 'GET', `${target}/_field_caps${suffix}${join}fields=*`, undefined, undefined, true);
          await probe(problems, tenant, 'GET', `${target}/_validate/query${suffix}${join}q=x`, undefined, undefined, true);
          await probe(problems, tenant, 'GET', `${target}/_stats${suffix}${join}level=shards`, undefined, undefined, true);
          await probe(problems, tenant, 'GET', `${target}/_stats${suffix}${join}forbid_closed_indices=false`, undefined, undefined, true);
          await probe(problems, tenant, 'POST', `${target}/_refresh${suffix}`, undefined, undefined, true);
          await probe(problems, tenant, 'POST', `${target}/_flush${suffix}`, undefined, undefined, true);
          await probe(problems, tenant, 'GET', `${target}/_segments${suffix}`, undefined, undefined, true);
        }
        for (const target of [`/${CLOSED}`, `/${OWN},${CLOSED}`, `/${BOTH}`]) {
          await probe(problems, tenant, 'GET', `${target}/_field_caps${suffix}${join}fields=*`);
          await probe(problems, tenant, 'GET', `${target}/_validate/query${suffix}${join}q=x`);
          await probe(problems, tenant, 'GET', `${target}/_stats${suffix}`);
        }
      }
      for (const path of ['/_cat/health', '/_cluster/nodes/hot_threads', '/_cluster/nodes/hotthreads', '/_cluster/nodes/_local/hot_threads', '/_plugins/_notifications/channels']) {
        await probe(problems, tenant, 'GET', path, undefined, undefined, true);
        await probe(problems, readOnly, 'GET', path);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('monitoring reads a tenant with `cluster` may make name no other tenant\'s index, closed, managed by ISM or hidden', async () => {
      const problems: string[] = [];
      const paths = [
        '/_cluster/state', '/_cluster/state/metadata', '/_cluster/state/metadata/*', '/_cluster/state/_all/_all', '/_cluster/state/routing_table', '/_cluster/state/blocks',
        '/_cluster/state/metadata?expand_wildcards=all', '/_cluster/health?level=shards&expand_wildcards=all', '/_cluster/stats', '/_nodes/stats', '/_nodes/stats/indices',
        '/_cat/indices?expand_wildcards=all', '/_cat/indices/*?h=index,status,health', '/_cat/count', '/_cat/aliases', '/_cat/segments', '/_cat/recovery', '/_cat/health?v',
        '/_cat/allocation', '/_cat/pending_tasks', '/_tasks', '/_cluster/pending_tasks', '/_resolve/index/*?expand_wildcards=all', '/_list/indices', '/_stats?level=shards&expand_wildcards=all',
        '/_segments?expand_wildcards=all', '/_recovery', '/_shard_stores?status=green,yellow,red', '/_search_shards', '/_mapping?expand_wildcards=all', '/_settings?expand_wildcards=all',
        '/_alias', '/_aliases', '/_data_stream', '/_cluster/nodes/hot_threads', '/_plugins/_notifications/features', '/_plugins/_notifications/channels', '/_cat/indices?health=red',
      ];
      for (const path of paths) await probe(problems, tenant, 'GET', path, undefined, undefined, true);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('tasks: a tenant learns nothing of another tenant\'s background work (list, detail, cat, by id, its result)', async () => {
      const problems: string[] = [];
      const started = await call(gw.url, 'POST', `/${FOREIGN}/_update_by_query?wait_for_completion=false&refresh=true`, { body: { query: { match_all: {} } } });
      expect(started.status, started.text).to.equal(200);
      const id = started.json.task as string;
      // done before the tenant asks (the admin's writes, and the change events read for them, are not the tenant's requests)
      expect((await call(gw.url, 'GET', `/_tasks/${id}?wait_for_completion=true`)).status).to.equal(200);
      for (const path of ['/_tasks', '/_tasks?detailed=true', '/_tasks?detailed=true&actions=*byquery', '/_cat/tasks?detailed=true', `/_tasks/${id}`, `/_tasks/${encodeURIComponent(id)}?wait_for_completion=true`, '/_tasks?group_by=none&detailed']) {
        await probe(problems, tenant, 'GET', path, undefined, undefined, true, false);
      }
      // answers only: the gateway's change publishing reads the admin's updated documents (an `_mget` of them) whenever it gets to it
      await probe(problems, tenant, 'POST', `/_tasks/${id}/_cancel`, undefined, undefined, true, false);
      await probe(problems, tenant, 'POST', '/_tasks/_cancel?actions=*', undefined, undefined, true, false);
      await probe(problems, tenant, 'GET', `/.tasks/_doc/${id}`, undefined, undefined, false, false);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('an alias named within the tenant\'s pattern over another\'s index: no new API reaches that index through it, by name or by the tenant\'s own wildcard', async () => {
      const problems: string[] = [];
      const evil = `${OWN}-evil`;
      expect((await call(gw.url, 'POST', '/_aliases', { body: { actions: [{ add: { index: FOREIGN, alias: evil } }] } })).status).to.equal(200);
      try {
        const leaks = /tenant-b(?!oth)|foreign13|tenant-a-evil/;
        const check = async (method: string, path: string, body?: unknown) => {
          upstream?.clear();
          const r = await call(gw.url, method, path, { auth: tenant, body });
          const named = path.includes(evil);
          // refused (naming what the request wrote), or answered without the other index
          if (r.status < 400 ? leaks.test(r.text.replaceAll(`"${OWN}"`, '')) && !(named && !/tenant-b|foreign13/.test(r.text)) : /tenant-b(?!oth)|foreign13/.test(r.text)) problems.push(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
          forwardedLeaks(`${method} ${path}`, problems);
        };
        for (const target of [evil, `${OWN}*`, `${OWN}-*`]) {
          await check('POST', `/_plugins/_ism/add/${target}`, { policy_id: 'p13' });
          await check('POST', `/_plugins/_ism/remove/${target}`);
          await check('GET', `/_plugins/_ism/explain/${target}`);
          for (const suffix of ['', '?expand_wildcards=all']) {
            await check('GET', `/_cluster/health/${target}${suffix}${suffix ? '&' : '?'}level=indices`);
            await check('GET', `/${target}/_field_caps${suffix}${suffix ? '&' : '?'}fields=*`);
            await check('GET', `/${target}/_validate/query${suffix}${suffix ? '&' : '?'}q=f:zz&explain=true`);
            await check('GET', `/${target}/_stats${suffix}${suffix ? '&' : '?'}level=shards`);
            await check('POST', `/${target}/_refresh${suffix}`);
            await check('GET', `/${target}/_search${suffix}${suffix ? '&' : '?'}q=foreign13`);
            await check('GET', `/${target}/_count${suffix}${suffix ? '&' : '?'}q=foreign13`);
          }
        }
      } finally {
        await call(gw.url, 'DELETE', `/${FOREIGN}/_alias/${evil}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('the cache hit path: a kept answer (and its remembered plan) is served to no principal another answer is due — field rules, max_size, narrowing, compat media type', async () => {
      const problems: string[] = [];
      const body = { query: { match_all: {} }, size: 6 };
      const bodies: Array<[string, string, unknown?, Record<string, string>?]> = [
        ['POST', `/${OWN}/_search`, body],
        ['GET', `/${OWN}/_search`],
        ['GET', `/${OWN}/_search?size=6`],
        ['POST', `/${OWN}/_search`, body, { 'content-type': COMPAT, accept: COMPAT }],
        ['GET', '/_search?size=6'],
        ['POST', '/_search', body],
        ['GET', `/${OWN}*/_search?size=6`],
        ['GET', `/${OWN}/_mapping`],
        ['GET', `/${OWN}/_field_caps?fields=*`],
        ['POST', '/_msearch', ndjson([{ index: OWN }, body]), NDJSON],
      ];
      for (const [m, p, b, h] of bodies) {
        // each principal in turn, twice round: the second round's are cache hits, each principal's own
        for (let round = 0; round < 2; round++) {
          for (const [who, auth] of [['admin', undefined], ['ruled', ruled], ['bounded', bounded], ['tenant', tenant], ['read-only pair', readOnly]] as const) {
            const r = await call(gw.url, m, p, { auth, body: b, headers: h });
            const label = `${who} ${m} ${p} round ${round}`;
            if (r.status >= 400) {
              if (who !== 'read-only pair' && who !== 'bounded' && !(who === 'ruled' && p.includes('_field_caps'))) problems.push(`${label}: ${r.status} ${r.text.slice(0, 200)}`);
              continue;
            }
            if (who !== 'admin' && /foreign13|tenant-b|tenant-c|\.gateway-/.test(r.text)) problems.push(`${label}: another tenant's: ${r.text.slice(0, 200)}`);
            if (who === 'ruled' && /hiddenvalue13|"hid"/.test(r.text)) problems.push(`${label}: hidden field: ${r.text.slice(0, 200)}`);
            const hits = (r.json?.hits?.hits ?? r.json?.responses?.[0]?.hits?.hits) as unknown[] | undefined;
            if (who === 'bounded' && hits && hits.length > 3) problems.push(`${label}: ${hits.length} hits past max_size 3`);
            if (who === 'admin' && hits && p.includes(OWN) && !r.text.includes('hiddenvalue13')) problems.push(`${label}: the admin's answer lost the field`);
          }
        }
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('the cache hit path, generated: whoever asks, in whatever order, each answer is the one the engine gives that principal uncached', async () => {
      const principals = { admin: undefined, tenant, ruled, bounded, readOnly, other } as Record<string, string | undefined>;
      const searches: unknown[] = [
        { query: { match_all: {} }, size: 6 }, { size: 6, sort: [{ f: 'desc' }] }, { size: 0, aggs: { t: { terms: { field: 'f' } } } },
        { size: 2, _source: true }, { query: { term: { f: 'x1' } } }, {},
      ];
      const requests = fc.oneof(
        fc.tuple(fc.constantFrom(`/${OWN}`, '', `/${OWN}*`, '/tenant-*', '/_all', `/${FOREIGN}`), fc.constantFrom('_search', '_count'), fc.constantFrom(...searches)).map(([target, endpoint, body]) =>
          ({ method: 'POST', path: `${target}/${endpoint}`, body: endpoint === '_count' ? { query: (body as { query?: unknown }).query ?? { match_all: {} } } : body, headers: undefined as Record<string, string> | undefined })),
        fc.tuple(fc.constantFrom(`/${OWN}`, '', '/tenant-*'), fc.constantFrom('size=6', 'q=f:x1', 'size=3&sort=f:asc', '')).map(([target, qs]) =>
          ({ method: 'GET', path: `${target}/_search${qs ? `?${qs}` : ''}`, body: undefined as unknown, headers: undefined as Record<string, string> | undefined })),
        fc.constantFrom(...searches).map((body) => ({ method: 'POST', path: '/_msearch', body: ndjson([{ index: OWN }, body]) as unknown, headers: NDJSON as Record<string, string> | undefined })),
      );
      /** The principal's uncached answer to the same question: a search with `request_cache=false` (`_count` and `_msearch` take no such parameter). */
      const uncachedOf = async (auth: string | undefined, method: string, path: string, body: unknown): Promise<{ status: number; value: unknown }> => {
        const uncached = (p: string) => `${p}${p.includes('?') ? '&' : '?'}request_cache=false`;
        if (path.endsWith('/_count')) {
          const r = await call(gw.url, 'POST', uncached(path.replace(/_count$/, '_search')), { auth, body: { ...(body as object), size: 0, track_total_hits: true } });
          return { status: r.status, value: r.status === 200 ? { count: r.json.hits.total.value, _shards: r.json._shards } : undefined };
        }
        if (path === '/_msearch') {
          const [header, search] = (body as string).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
          const r = await call(gw.url, 'POST', uncached(`/${header.index as string}/_search`), { auth, body: search });
          return { status: r.status, value: r.status === 200 ? { responses: [{ ...withoutTook(r.text) as object, status: 200 }] } : undefined };
        }
        const r = await call(gw.url, method, uncached(path), { auth, body });
        return { status: r.status, value: r.status === 200 ? withoutTook(r.text) : undefined };
      };
      const withoutTook = (text: string): unknown => {
        const value = JSON.parse(text) as Record<string, unknown>;
        delete value.took;
        for (const line of (value.responses as Array<Record<string, unknown>> | undefined) ?? []) delete line.took;
        return value;
      };
      // the tests before change these indices (aliases, refreshes, a close): for CACHE_QUIET_MS after a
      // change (1.5 s on the HTTP backend) no answer of theirs is kept, and a property run that fast
      // would meet no hit; it starts once answers of both tenants' indices are kept again
      for (const target of [`/${OWN}`, '/tenant-*']) {
        await within(15_000, async () => {
          await call(gw.url, 'GET', `${target}/_search?size=1`);
          return (await call(gw.url, 'GET', `${target}/_search?size=1`)).headers['x-request-cache'] === 'true';
        }, () => `an answer of ${target} kept again`);
      }
      let hits = 0;
      await fc.assert(fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...Object.keys(principals)), requests), { minLength: 2, maxLength: 8 }),
        async (sequence) => {
          for (const [who, { method, path, body, headers }] of sequence) {
            const auth = principals[who];
            // twice: the second may be a hit of its own or of another principal's answer
            for (let i = 0; i < 2; i++) {
              const answered = await call(gw.url, method, path, { auth, body, headers });
              if (answered.headers['x-request-cache'] === 'true') hits++;
              const fresh = await uncachedOf(auth, method, path, body);
              const label = `${who} ${method} ${path} ${typeof body === 'string' ? body : JSON.stringify(body ?? '')}`;
              expect(answered.status, `${label}: ${answered.text.slice(0, 300)} / uncached ${JSON.stringify(fresh).slice(0, 300)}`).to.equal(fresh.status);
              if (answered.status === 200) expect(withoutTook(answered.text), `${label} (hit: ${answered.headers['x-request-cache']})`).to.deep.equal(fresh.value);
            }
          }
        },
      ), { numRuns: 25 });
      // the property was put to cache hits (not only to misses)
      expect(hits).to.be.greaterThan(20);
    });
  });
}
