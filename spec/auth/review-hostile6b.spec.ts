import { expect } from 'chai';
import fc from 'fast-check';
import { fillText } from '../../lib/engine/embedded/flow-framework/placeholders.js';
import { callJson } from '../../lib/engine/index.js';
import { LOGS_INDEX } from '../../lib/logs/index.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, credentialAuth } from '../support/http.js';
import { within } from '../support/within.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Review by a hostile tenant (hostile6b) of the Flow Framework plugin and the Security plugin's
 * REST API, on both backends (the embedded engine, and the gateway in front of the standalone engine).
 *
 * 1. The Flow Framework's `_search` and `state/_search` read the plugin's own indices, but a query's
 *    lookups (terms lookup, `more_like_this` documents by id, a `pit`) name other indices: each is
 *    the caller's to read, as in any search. (Was: read as the plugin, whatever the caller's rights.)
 * 2. `PUT …/api/account` verifies `current_password`: a wrong one is a failed login, counted by the
 *    login throttle. (Was: unlimited guesses, each a scrypt.)
 * 3. A workflow has at most 50 nodes (the plugin's `max_workflow_steps`), checked before its graph
 *    is ordered, and `${{…}}` placeholders are filled in one linear scan. (Was: a 1 MB template of
 *    16,000 nodes held the event loop 15 s at creation, by any manage credential; a 240 kB string
 *    of `${{` held it 31 s when provisioned.)
 * 5. No provisioning step creates a system index, whatever the spelling of its name: date math is
 *    resolved before the name is checked. (Was: `<.plugins-flow-framework-confi{now{'g'}}>` created
 *    the plugin's configuration index, as the admin provisioned it.)
 * 6. A template's connector credentials (`credential` of a node's user_inputs) are never answered: not
 *    by a get, nor a search (its `_source`, includes or not, its scripts), as the plugin removes them
 *    from its get and excludes them from its search. (Was: any holder of `manage` read every
 *    tenant's connector secrets.)
 * 7. A body that is not JSON is refused without quoting it: V8's message quotes the text, which on
 *    the account and credentials APIs is a password. (Was: `{"current_password":leaky-pass}` answered
 *    `…"password":leaky-pass"… is not valid JSON`, and the request logs kept the answer.)
 * 4. A connector's `credential` (a Flow Framework template's, a use case's `create_connector.credential.key`
 *    parameter), `access_key` and `secret_key` are secrets the request logs redact, in the request and
 *    in the answer. (Was: stored in the logs as sent.)
 */

describe('review by a hostile tenant (hostile6b): Flow Framework placeholders', () => {
  const REGEX = /\$\{\{\s*([^}\s]+)\s*\}\}/g;
  it('are filled as the regular expression fills them, for any text and any known keys', () => {
    const text = fc.array(fc.constantFrom('$', '{', '}', ' ', '\t', 'a', 'b', '.', '${{', '}}'), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(fc.property(text, fc.subarray(['a', 'b', 'a.b', 'ab', '$', '{', '${{a', '{a']), (t, known) => {
      const valueOf = (key: string) => (known.includes(key) ? `<${key}>` : undefined);
      const expected = t.replace(REGEX, (whole, key: string) => valueOf(key) ?? whole);
      expect(fillText(t, valueOf), JSON.stringify(t)).to.equal(expected);
    }), { numRuns: 5000 });
  });
});

const FF = '/_plugins/_flow_framework/workflow';

for (const backend of BACKENDS) {
  describe(`review by a hostile tenant (hostile6b): Flow Framework and Security plugin APIs (${backend.name})`, function () {
    let gw: TestGateway, stop: () => Promise<void>;
    /** A credential on tenant-m* holding manage (it may create and search workflows). */
    let manager: string;
    this.timeout(300_000);

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      manager = await credentialAuth(gw.url, { allow_raw_dsl: true, categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'], indices: ['tenant-m*'], cluster_privileges: ['manage'] });
      expect((await call(gw.url, 'PUT', '/tenant-b6/_doc/1?refresh=true', { body: { secret: 'b-secret-value', text: 'b-secret-value' } })).status).to.equal(201);
      const made = await call(gw.url, 'POST', FF, { auth: manager, body: { name: 'b-secret-value', description: 'b-secret-value' } });
      expect(made.status, made.text).to.equal(201);
    });
    after(() => stop?.());

    for (const path of [`${FF}/_search`, `${FF}/state/_search`]) {
      it(`${path}: a query's lookups read only indices the caller may read`, async () => {
        const queries: Array<[string, Record<string, unknown>]> = [
          ['terms lookup', { query: { terms: { 'name.keyword': { index: 'tenant-b6', id: '1', path: 'secret' } } } }],
          ['terms lookup in a filter', { query: { bool: { filter: [{ terms: { workflow_id: { index: 'tenant-b6', id: '1', path: 'secret' } } }] } } }],
          ['more_like_this', { query: { more_like_this: { fields: ['name'], like: [{ _index: 'tenant-b6', _id: '1' }], min_term_freq: 1, min_doc_freq: 1 } } }],
          ['post_filter', { post_filter: { terms: { 'name.keyword': { index: 'tenant-b6', id: '1', path: 'secret' } } } }],
        ];
        for (const [what, body] of queries) {
          const r = await call(gw.url, 'POST', path, { auth: manager, body });
          expect(r.status, `${what}: ${r.text}`).to.equal(403);
          expect(r.text, what).to.not.contain('b-secret-value');
        }
        // the admin's lookups read what the admin may (the plugin's search is a search)
        const admin = await call(gw.url, 'POST', `${FF}/_search`, { body: queries[0][1] });
        expect(admin.status, admin.text).to.equal(200);
        expect(admin.json.hits.total.value, admin.text).to.be.at.least(1);
      });
    }

    it('a workflow of more than 50 nodes is refused before its graph is ordered (no request holds the event loop)', async () => {
      const chain = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `n${i}`, type: 'noop', previous_node_inputs: i + 1 < n ? { [`n${i + 1}`]: 'x' } : {} }));
      const fits = await call(gw.url, 'POST', FF, { auth: manager, body: { name: 'fits', workflows: { provision: { nodes: chain(50) } } } });
      expect(fits.status, fits.text).to.equal(201);
      for (const validation of ['all', 'none']) {
        const big = await call(gw.url, 'POST', `${FF}?validation=${validation}`, { auth: manager, body: { name: 'big', workflows: { provision: { nodes: chain(16_000) } } } });
        expect(big.status, big.text).to.equal(400);
        expect(big.json.error.reason).to.contain('16000 nodes, which exceeds the maximum of 50');
      }
    });

    it('a provisioned string of 200,000 `${{` is filled in linear time', async function () {
      this.timeout(30_000); // the quadratic fill took minutes
      const text = '${{'.repeat(200_000) + ' ${{ x }}';
      const made = await call(gw.url, 'POST', FF, { body: { name: 'long', workflows: { provision: { nodes: [{ id: 'a', type: 'noop', user_inputs: { text } }] } } } });
      expect(made.status, made.text).to.equal(201);
      const provisioned = await call(gw.url, 'POST', `${FF}/${made.json.workflow_id}/_provision`, { body: { x: 'filled' } });
      expect(provisioned.status, provisioned.text).to.equal(200);
      const state = await call(gw.url, 'GET', `${FF}/${made.json.workflow_id}/_status`);
      expect(state.json.state, state.text).to.equal('COMPLETED');
    });

    it('no provisioning creates a system index, whatever the spelling of its name (date math resolved first)', async () => {
      const names = ["<.plugins-flow-framework-confi{now{'g'}}>", "<.plugins-flow-framework-stat{now{'e'}}>", "<.gateway-{now{'credentials'}}>", '<.plugins-flow-framework-config>'];
      for (const name of names) {
        const made = await call(gw.url, 'POST', `${FF}?provision=true`, { body: { name: 'dm', workflows: { provision: { nodes: [{ id: 'a', type: 'create_index', user_inputs: { index_name: name } }] } } } });
        expect(made.status, made.text).to.equal(201);
        const state = await call(gw.url, 'GET', `${FF}/${made.json.workflow_id}/_status?all=true`);
        expect(state.json.state, `${name}: ${state.text}`).to.equal('FAILED');
        expect(state.json.error, name).to.contain('is a system index');
        expect(state.json.resources_created, name).to.deep.equal([]);
      }
    });

    it("a template's connector credentials are never answered: get, search, its _source includes, its scripts", async () => {
      const other = await credentialAuth(gw.url, { categories: ['cluster'], ops: ['read', 'write', 'delete'], indices: ['tenant-o*'], cluster_privileges: ['manage'] });
      const connector = (id: string) => ({ id, type: 'create_connector', user_inputs: { name: id, protocol: 'http', credential: { key: `sk-cred-${id}` }, parameters: { endpoint: 'e' } } });
      const made = await call(gw.url, 'POST', FF, { auth: manager, body: { name: 'creds', workflows: { provision: { nodes: [connector('c1')] }, other: { nodes: [connector('c2')] } } } });
      expect(made.status, made.text).to.equal(201);
      const id = made.json.workflow_id;
      const answers = [
        await call(gw.url, 'GET', `${FF}/${id}`, { auth: other }),
        await call(gw.url, 'GET', `${FF}/${id}`),
        await call(gw.url, 'POST', `${FF}/_search`, { auth: other, body: { query: { match_all: {} }, size: 100 } }),
        await call(gw.url, 'POST', `${FF}/_search`, { auth: other, body: { _source: { includes: ['workflows.provision.nodes.user_inputs.credential*', 'workflows.*'] }, size: 100 } }),
        await call(gw.url, 'POST', `${FF}/_search`, { auth: other, body: { size: 100, script_fields: { c: { script: { source: "params._source.workflows.provision.nodes[0].user_inputs.credential.key" } } } } }),
        await call(gw.url, 'POST', `${FF}/_search`, { auth: other, body: { size: 100, query: { bool: { filter: { script: { script: { source: "params._source.workflows.provision.nodes[0].user_inputs.credential.key.startsWith('sk-')" } } } } } } }),
      ];
      for (const a of answers) expect(a.text).not.to.contain('sk-cred-c');
      expect(answers[0].status, answers[0].text).to.equal(200);
      expect(answers[0].json.workflows.provision.nodes[0].user_inputs, answers[0].text).to.deep.equal({ name: 'c1', protocol: 'http', parameters: { endpoint: 'e' } });
      expect(answers[2].json.hits.hits.some((h: { _id: string }) => h._id === id), answers[2].text).to.equal(true);
      // an update of other fields keeps them, as a whole update replaces them; a deleted template's go with it
      expect((await call(gw.url, 'PUT', `${FF}/${id}?update_fields=true`, { auth: manager, body: { description: 'd' } })).status).to.equal(201);
      expect((await call(gw.url, 'GET', `${FF}/${id}`, { auth: other })).text).not.to.contain('sk-cred');
      expect((await call(gw.url, 'DELETE', `${FF}/${id}`, { auth: manager })).status).to.equal(200);
    });

    it('a body that is not JSON is refused without quoting it (the account and credentials APIs take passwords)', async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['tenant-x*'], categories: ['docs'], ops: ['read', 'write'] } });
      const auth = basic(made.json.credential.username, made.json.password);
      const bodies = ['{"current_password":leaky-pass-4}', 'leaky-pass-3', '{"current_password":"x","password":leaky-pass-5', '{"password":"leaky-pass-6" x}'];
      for (const body of bodies) {
        for (const [method, path, who] of [['PUT', '/_plugins/_security/api/account', auth], ['POST', '/_credentials', undefined]] as const) {
          const r = await call(gw.url, method, path, { auth: who, body, headers: { 'content-type': 'application/json' } });
          expect(r.status, r.text).to.equal(400);
          expect(r.json.error.reason, `${path} ${body}`).to.match(/^request body is not valid JSON/);
          expect(r.text, `${path} ${body}`).not.to.contain('leaky');
        }
      }
    });

    it("PUT …/api/account: a wrong current_password is a failed login (the login throttle counts it)", async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['tenant-x*'], categories: ['docs', 'search'], ops: ['read', 'write'] } });
      expect(made.status, made.text).to.equal(201);
      const { username } = made.json.credential;
      const auth = basic(username, made.json.password);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        statuses.push((await call(gw.url, 'PUT', '/_plugins/_security/api/account', { auth, body: { current_password: `guess-${i}-xxxxxxxx`, password: 'another-password-1234' } })).status);
      }
      expect(statuses.slice(0, 10)).to.deep.equal(Array(10).fill(400));
      expect(statuses.slice(10), statuses.join(',')).to.deep.equal([429, 429]);
      // the right one, once the budget is spent, changes nothing
      const right = await call(gw.url, 'PUT', '/_opendistro/_security/api/account', { auth, body: { current_password: made.json.password, password: 'another-password-1234' } });
      expect(right.status, right.text).to.equal(429);
    });
  });
}

for (const backend of BACKENDS) {
  describe(`review by a hostile tenant (hostile6b): a Flow Framework template's connector secrets in the request logs (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway, stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ LOGS_BODIES: 'true', LOGS_FLUSH_MS: '50' }));
    });
    after(() => stop?.());

    it('are never logged: the request and answer bodies keep them redacted', async () => {
      const connector = {
        id: 'c', type: 'create_connector',
        user_inputs: { name: 'c', protocol: 'aws_sigv4', credential: { key: 'sk-ff-secret-1', access_key: 'ff-secret-2', secret_key: 'ff-secret-3' }, parameters: { region: 'us-east-1' } },
      };
      const made = await call(gw.url, 'POST', FF, { body: { name: 'with-connector', workflows: { provision: { nodes: [connector] } } } });
      expect(made.status, made.text).to.equal(201);
      const read = await call(gw.url, 'GET', `${FF}/${made.json.workflow_id}`);
      expect(read.status, read.text).to.equal(200);
      const useCase = await call(gw.url, 'POST', `${FF}?use_case=openai_chat_model_deploy`, { body: { 'create_connector.credential.key': 'sk-ff-secret-4' } });
      expect(useCase.status, useCase.text).to.equal(201);
      const paths = [FF, `${FF}/${made.json.workflow_id}`];
      await within(15_000, async () => {
        const logs: Array<{ path: string }> = (await call(gw.url, 'GET', '/_logs?size=1000')).json.logs;
        return logs.filter((l) => paths.includes(l.path)).length >= 3;
      });
      const listed = await call(gw.url, 'GET', '/_logs?size=1000');
      expect(listed.text).to.contain('[redacted]');
      expect(listed.text).not.to.match(/ff-secret/);
      const stored = await callJson(gw.backend, 'POST', `/${LOGS_INDEX}/_search`, { size: 10_000, query: { match_all: {} } });
      expect(JSON.stringify(stored.body)).not.to.match(/ff-secret/);
    });
  });
}
