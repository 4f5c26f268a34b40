import { expect } from 'chai';
import { BACKENDS } from '../../../support/backends.js';
import { basic, call } from '../../../support/http.js';
import type { TestGateway } from '../../../support/servers.js';

/**
 * OpenSearch's Flow Framework plugin (`_plugins/_flow_framework/workflow`): workflow templates kept
 * in its system indices, created (from a body or a use case), read, searched, updated, provisioned
 * (the engine's own steps run as the caller; ML Commons' steps fail the workflow), deprovisioned and
 * deleted; cluster admin actions (`manage`).
 */
const WF = '/_plugins/_flow_framework/workflow';

for (const backend of BACKENDS) {
  describe(`OpenSearch Flow Framework workflows (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => ({ gateway: gw, stop } = await backend.start()));
    after(() => stop());

    /** A template creating an ingest pipeline, an index using it by default, and a search pipeline. */
    const indexTemplate = (index: string, name = 'ff index') => ({
      name, description: 'an index and its pipelines', use_case: 'CUSTOM', version: { template: '1.0.0', compatibility: ['2.12.0'] },
      workflows: {
        provision: {
          nodes: [
            { id: 'pipeline', type: 'create_ingest_pipeline', user_inputs: { pipeline_id: `${index}-ingest`, configurations: { processors: [{ set: { field: 'tagged', value: '${{tag}}' } }] } } },
            {
              id: 'index', type: 'create_index', previous_node_inputs: { pipeline: 'pipeline_id' },
              user_inputs: { index_name: index, configurations: JSON.stringify({ settings: { default_pipeline: '${{pipeline.pipeline_id}}' }, mappings: { properties: { title: { type: 'text' } } } }) },
            },
            { id: 'search_pipeline', type: 'create_search_pipeline', user_inputs: { pipeline_id: `${index}-search`, configurations: { request_processors: [{ filter_query: { query: { match_all: {} } } }] } } },
          ],
        },
      },
    });
    const statusOf = async (id: string, all = false) => (await call(gw.url, 'GET', `${WF}/${id}/_status${all ? '?all=true' : ''}`)).json;

    it('creates, reads, searches, updates and deletes a template; its state starts NOT_STARTED', async () => {
      const created = await call(gw.url, 'POST', WF, { body: indexTemplate('ff-one', 'flow alpha') });
      expect(created.status, created.text).to.equal(201);
      const id = created.json.workflow_id as string;
      const got = await call(gw.url, 'GET', `${WF}/${id}`);
      expect(got.status, got.text).to.equal(200);
      expect(got.json).to.include({ name: 'flow alpha', use_case: 'CUSTOM' });
      expect(got.json.workflows.provision.nodes).to.have.length(3);
      expect(await statusOf(id)).to.deep.equal({ workflow_id: id, state: 'NOT_STARTED', resources_created: [] });

      const found = await call(gw.url, 'POST', `${WF}/_search`, { body: { query: { match: { name: 'alpha' } } } });
      expect(found.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([id]);
      expect(found.json.hits.hits[0]._index).to.equal('.plugins-flow-framework-templates');
      const states = await call(gw.url, 'GET', `${WF}/state/_search`, { body: { query: { term: { workflow_id: id } } } });
      expect(states.json.hits.hits.map((h: { _index: string; _source: { state: string } }) => [h._index, h._source.state])).to.deep.equal([['.plugins-flow-framework-state', 'NOT_STARTED']]);

      const renamed = await call(gw.url, 'PUT', `${WF}/${id}?update_fields=true`, { body: { name: 'flow beta', description: 'renamed' } });
      expect([renamed.status, renamed.json]).to.deep.equal([201, { workflow_id: id }]);
      const after = (await call(gw.url, 'GET', `${WF}/${id}`)).json;
      expect(after).to.include({ name: 'flow beta', description: 'renamed' });
      expect(after.workflows).to.deep.equal(got.json.workflows);
      const whole = await call(gw.url, 'PUT', `${WF}/${id}`, { body: { ...indexTemplate('ff-one'), name: 'flow gamma' } });
      expect(whole.status, whole.text).to.equal(201);
      expect((await call(gw.url, 'GET', `${WF}/${id}`)).json.name).to.equal('flow gamma');

      const deleted = await call(gw.url, 'DELETE', `${WF}/${id}?clear_status=true`);
      expect([deleted.status, deleted.json.result, deleted.json._index]).to.deep.equal([200, 'deleted', '.plugins-flow-framework-templates']);
      expect((await call(gw.url, 'GET', `${WF}/${id}`)).status).to.equal(404);
      expect((await call(gw.url, 'GET', `${WF}/${id}/_status`)).status).to.equal(404);
      const again = await call(gw.url, 'DELETE', `${WF}/${id}`);
      expect([again.status, again.json.result]).to.deep.equal([200, 'not_found']);
    });

    it('refuses what the plugin refuses, with its messages', async () => {
      const id = (await call(gw.url, 'POST', WF, { body: indexTemplate('ff-two') })).json.workflow_id as string;
      const refusals: Array<[string, string, unknown, number, RegExp]> = [
        ['POST', WF, { description: 'no name' }, 400, /requires a name/],
        ['POST', WF, { name: 'x', workflows: { provision: { nodes: [{ id: 'a', type: 'no_such_step' }] } } }, 400, /Invalid workflow step type \[no_such_step\]/],
        ['POST', WF, { name: 'x', workflows: { provision: { nodes: [{ id: 'a', type: 'noop' }, { id: 'a', type: 'noop' }] } } }, 400, /Duplicate node id a/],
        ['POST', WF, { name: 'x', workflows: { provision: { nodes: [{ id: 'a', type: 'noop' }, { id: 'b', type: 'noop' }], edges: [{ source: 'a', dest: 'b' }, { source: 'b', dest: 'a' }] } } }, 400, /Cycle/],
        ['POST', `${WF}?reprovision=true`, { name: 'x' }, 400, /can not use the reprovision parameter to create a new template/],
        ['POST', `${WF}?reprovision=true&use_case=semantic_search`, { name: 'x' }, 400, /reprovision/],
        ['POST', `${WF}?use_case=no_such_case`, {}, 400, /use case: no_such_case/],
        ['POST', `${WF}?use_case=semantic_search`, {}, 400, /Missing the following required parameters for use case \[semantic_search\] : \[create_ingest_pipeline.model_id\]/],
        ['PUT', `${WF}/${id}?provision=true&update_fields=true`, { name: 'x' }, 400, /both the provision and update_fields/],
        ['PUT', `${WF}/${id}?reprovision=true&update_fields=true`, { name: 'x' }, 400, /reprovision and update_fields/],
        ['PUT', `${WF}/${id}?update_fields=true`, { workflows: { name: 'x' } }, 400, /can not update the field \[workflows\] without updating the whole template/],
        ['PUT', `${WF}/nope`, { name: 'x' }, 404, /Failed to retrieve template \(nope\)/],
        ['GET', `${WF}/nope`, undefined, 404, /Failed to retrieve template/],
        ['POST', `${WF}/nope/_provision`, undefined, 404, /Failed to retrieve template/],
        ['POST', `${WF}/nope/_deprovision`, undefined, 404, /Failed to retrieve template/],
        ['GET', `${WF}/nope/_status`, undefined, 404, /Fail to find workflow status of nope/],
        ['GET', `${WF}/_steps?workflow_step=create_index,nope`, undefined, 400, /nope/],
        ['POST', `${WF}/${id}/_provision`, { tag: 1 }, 400, /string values/],
      ];
      for (const [method, path, body, status, reason] of refusals) {
        const r = await call(gw.url, method, path, { body });
        expect([r.status, r.json?.error?.type], `${method} ${path}: ${r.text}`).to.deep.equal([status, 'flow_framework_exception']);
        expect(r.json.error.reason, `${method} ${path}`).to.match(reason);
      }
      const unchecked = await call(gw.url, 'POST', `${WF}?validation=none`, { body: { name: 'x', workflows: { provision: { nodes: [{ id: 'a', type: 'no_such_step' }] } } } });
      expect(unchecked.status, unchecked.text).to.equal(201);
      const steps = await call(gw.url, 'GET', `${WF}/_steps?workflow_step=create_index,create_connector`);
      expect(steps.json).to.deep.equal({
        create_index: { inputs: ['index_name', 'configurations'], outputs: ['index_name'], required_plugins: [], resource: 'index_name' },
        create_connector: { inputs: ['name', 'description', 'version', 'protocol', 'parameters', 'credential', 'actions'], outputs: ['connector_id'], required_plugins: ['opensearch-ml'], resource: 'connector_id' },
      });
    });

    it('provisions the steps as given, in order, and deprovisions what it created once allow_delete names it', async () => {
      const id = (await call(gw.url, 'POST', WF, { body: indexTemplate('ff-three') })).json.workflow_id as string;
      const provisioned = await call(gw.url, 'POST', `${WF}/${id}/_provision`, { body: { tag: 'from-flow' } });
      expect([provisioned.status, provisioned.json], provisioned.text).to.deep.equal([200, { workflow_id: id }]);
      const status = await statusOf(id, true);
      expect(status, JSON.stringify(status)).to.include({ state: 'COMPLETED', provisioning_progress: 'DONE' });
      expect(status.resources_created).to.deep.equal([
        { workflow_step_name: 'create_ingest_pipeline', workflow_step_id: 'pipeline', resource_type: 'pipeline_id', resource_id: 'ff-three-ingest' },
        { workflow_step_name: 'create_index', workflow_step_id: 'index', resource_type: 'index_name', resource_id: 'ff-three' },
        { workflow_step_name: 'create_search_pipeline', workflow_step_id: 'search_pipeline', resource_type: 'pipeline_id', resource_id: 'ff-three-search' },
      ]);
      // the index writes through the pipeline provisioning made, with the provision's parameter
      await call(gw.url, 'PUT', '/ff-three/_doc/1?refresh=true', { body: { title: 'hello' } });
      expect((await call(gw.url, 'GET', '/ff-three/_doc/1')).json._source).to.deep.equal({ title: 'hello', tagged: 'from-flow' });
      expect((await call(gw.url, 'GET', '/_search/pipeline/ff-three-search')).status).to.equal(200);

      const twice = await call(gw.url, 'POST', `${WF}/${id}/_provision`);
      expect([twice.status, twice.json.error.reason]).to.deep.equal([400, `The workflow provisioning state is COMPLETED and can not be provisioned unless its state is NOT_STARTED: ${id}. Deprovision the workflow to reset the state.`]);
      const update = await call(gw.url, 'PUT', `${WF}/${id}`, { body: indexTemplate('ff-three') });
      expect(update.status).to.equal(400);

      const kept = await call(gw.url, 'POST', `${WF}/${id}/_deprovision?allow_delete=ff-three,ff-three-search`);
      expect([kept.status, kept.json.error.reason]).to.deep.equal([403, 'These resources require the allow_delete parameter to deprovision: [pipeline_id ff-three-ingest].']);
      expect((await call(gw.url, 'GET', '/ff-three')).status).to.equal(404);
      expect((await call(gw.url, 'GET', '/_search/pipeline/ff-three-search')).status).to.equal(404);
      expect((await statusOf(id)).resources_created.map((r: { resource_id: string }) => r.resource_id)).to.deep.equal(['ff-three-ingest']);
      const done = await call(gw.url, 'POST', `${WF}/${id}/_deprovision?allow_delete=ff-three-ingest`);
      expect([done.status, done.json], done.text).to.deep.equal([200, { workflow_id: id }]);
      expect((await call(gw.url, 'GET', '/_ingest/pipeline/ff-three-ingest')).status).to.equal(404);
      expect(await statusOf(id)).to.deep.equal({ workflow_id: id, state: 'NOT_STARTED', resources_created: [] });
      await call(gw.url, 'DELETE', `${WF}/${id}?clear_status=true`);
    });

    it('reprovisions a provisioned workflow: the nodes the template adds run, those provisioned are kept', async () => {
      const base = indexTemplate('ff-re');
      const nodes = base.workflows.provision.nodes;
      const id = (await call(gw.url, 'POST', `${WF}?provision=true`, { body: { ...base, workflows: { provision: { nodes: nodes.slice(0, 1) } } } })).json.workflow_id as string;
      expect((await statusOf(id)).resources_created.map((r: { resource_id: string }) => r.resource_id)).to.deep.equal(['ff-re-ingest']);
      const early = await call(gw.url, 'POST', WF, { body: indexTemplate('ff-re2') });
      const refused = await call(gw.url, 'PUT', `${WF}/${early.json.workflow_id}?reprovision=true`, { body: indexTemplate('ff-re2') });
      expect([refused.status, refused.json.error.reason]).to.deep.equal([400, `The template can not be reprovisioned unless its provisioning state is COMPLETED: ${early.json.workflow_id}.`]);
      const again = await call(gw.url, 'PUT', `${WF}/${id}?reprovision=true`, { body: base });
      expect([again.status, again.json], again.text).to.deep.equal([201, { workflow_id: id }]);
      const status = await statusOf(id);
      expect([status.state, status.resources_created.map((r: { resource_id: string }) => r.resource_id)]).to.deep.equal(['COMPLETED', ['ff-re-ingest', 'ff-re', 'ff-re-search']]);
      expect((await call(gw.url, 'GET', '/ff-re')).json['ff-re'].settings.index.default_pipeline).to.equal('ff-re-ingest');
      expect((await call(gw.url, 'GET', `${WF}/${id}`)).json.workflows.provision.nodes).to.have.length(3);
      expect((await call(gw.url, 'POST', `${WF}/${id}/_deprovision?allow_delete=ff-re,ff-re-ingest,ff-re-search`)).status).to.equal(200);
      for (const w of [id, early.json.workflow_id]) await call(gw.url, 'DELETE', `${WF}/${w}?clear_status=true`);
    });

    it('fails a workflow whose steps need ML Commons: FAILED with the error, the steps before it kept', async () => {
      const created = await call(gw.url, 'POST', `${WF}?use_case=semantic_search_with_cohere_embedding_query_enricher&provision=true`, { body: { 'create_connector.credential.key': 'k', 'create_index.name': 'ff-ml' } });
      expect(created.status, created.text).to.equal(201);
      const id = created.json.workflow_id as string;
      const template = (await call(gw.url, 'GET', `${WF}/${id}`)).json;
      expect(template.workflows.provision.nodes.map((n: { type: string }) => n.type)).to.deep.equal(['create_connector', 'register_remote_model', 'deploy_model', 'create_ingest_pipeline', 'create_index', 'create_search_pipeline']);
      expect(template.workflows.provision.nodes[4].user_inputs.index_name).to.equal('ff-ml');
      const status = await statusOf(id, true);
      expect(status).to.include({ state: 'FAILED', provisioning_progress: 'FAILED' });
      expect(status.error).to.match(/create_connector failed: .*opensearch-ml/);
      expect((await call(gw.url, 'GET', '/ff-ml')).status).to.equal(404);
      const reset = await call(gw.url, 'POST', `${WF}/${id}/_deprovision`);
      expect(reset.status, reset.text).to.equal(200);
      expect((await statusOf(id)).state).to.equal('NOT_STARTED');
      await call(gw.url, 'DELETE', `${WF}/${id}?clear_status=true`);
    });

    it('provisioning acts on indices no request names: a credential managing the cluster needs every index for it; no step creates a system index', async () => {
      const credential = async (indices: string[]) => {
        const made = await call(gw.url, 'POST', '/_credentials', { body: { indices, categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'], cluster_privileges: ['manage'] } });
        expect(made.status, made.text).to.equal(201);
        return { auth: basic(made.json.credential.username, made.json.password) };
      };
      const creating = (index: string) => ({ name: 'as caller', workflows: { provision: { nodes: [{ id: 'index', type: 'create_index', user_inputs: { index_name: index } }] } } });
      const scoped = await credential(['ffown-*']);
      const id = (await call(gw.url, 'POST', WF, { ...scoped, body: creating('ffother-x') })).json.workflow_id as string;
      expect(id).to.be.a('string');
      for (const [method, path] of [['POST', `${WF}?provision=true`], ['PUT', `${WF}/${id}?reprovision=true`], ['POST', `${WF}/${id}/_provision`], ['POST', `${WF}/${id}/_deprovision`]] as const) {
        const r = await call(gw.url, method, path, { ...scoped, body: path.endsWith('_deprovision') ? undefined : creating('ffother-x') });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(403);
      }
      expect((await call(gw.url, 'GET', '/ffother-x')).status).to.equal(404);
      expect((await call(gw.url, 'GET', `${WF}/${id}/_status`, scoped)).json.state).to.equal('NOT_STARTED');

      const everywhere = await credential(['*']);
      const provisioned = (await call(gw.url, 'POST', `${WF}/${id}/_provision`, everywhere));
      expect(provisioned.status, provisioned.text).to.equal(200);
      expect((await call(gw.url, 'GET', `${WF}/${id}/_status`, everywhere)).json.state).to.equal('COMPLETED');
      expect((await call(gw.url, 'GET', '/ffother-x')).status).to.equal(200);
      expect((await call(gw.url, 'POST', `${WF}/${id}/_deprovision?allow_delete=ffother-x`, everywhere)).status).to.equal(200);
      expect((await call(gw.url, 'GET', '/ffother-x')).status).to.equal(404);

      for (const [caller, system] of [[everywhere, '.gateway-planted'], [{}, '.plugins-flow-framework-config']] as const) {
        const planted = (await call(gw.url, 'POST', `${WF}?provision=true`, { ...caller, body: creating(system) })).json.workflow_id as string;
        const status = (await call(gw.url, 'GET', `${WF}/${planted}/_status?all=true`)).json;
        expect([status.state, status.error], JSON.stringify(status)).to.deep.equal(['FAILED', `index failed: action [indices:admin/create] is unauthorized: index [${system}] is a system index, reachable only through the APIs that keep it`]);
        await call(gw.url, 'DELETE', `${WF}/${planted}?clear_status=true`);
      }
      await call(gw.url, 'DELETE', `${WF}/${id}?clear_status=true`);
    });

    it('refuses a scoped credential without manage, naming the action; the plugin\'s indices are refused to plain REST, the admin included', async () => {
      const id = (await call(gw.url, 'POST', WF, { body: indexTemplate('ff-four') })).json.workflow_id as string;
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['own-*'], categories: ['cluster', 'indices', 'docs', 'search'], ops: ['read', 'write', 'delete'] } });
      const tenant = { auth: basic(made.json.credential.username, made.json.password) };
      const routes: Array<[string, string, string]> = [
        ['POST', WF, 'workflow/create'], ['GET', `${WF}/${id}`, 'workflow/get'], ['PUT', `${WF}/${id}`, 'workflow/create'], ['DELETE', `${WF}/${id}`, 'workflow/delete'],
        ['POST', `${WF}/${id}/_provision`, 'workflow/provision'], ['POST', `${WF}/${id}/_deprovision`, 'workflow/deprovision'], ['GET', `${WF}/${id}/_status`, 'workflow_state/get'],
        ['GET', `${WF}/_steps`, 'workflow_step/get'], ['POST', `${WF}/_search`, 'workflow/search'], ['POST', `${WF}/state/_search`, 'workflow_state/search'],
      ];
      for (const [method, path, action] of routes) {
        const r = await call(gw.url, method, path, { ...tenant, body: path === WF || method === 'PUT' ? indexTemplate('own-x') : method === 'POST' && !path.endsWith('_deprovision') ? {} : undefined });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(403);
        expect(r.json.error.reason, path).to.include(`cluster:admin/opensearch/flow_framework/${action}`);
      }
      for (const index of ['.plugins-flow-framework-templates', '.plugins-flow-framework-state', '.plugins-flow-framework-config']) {
        for (const [method, path] of [['GET', `/${index}/_search`], ['GET', `/${index}/_doc/${id}`], ['DELETE', `/${index}`], ['POST', `/${index}/_doc`]] as const) {
          const r = await call(gw.url, method, path, { body: method === 'POST' ? { name: 'planted' } : undefined });
          expect(r.status, `${method} ${path}: ${r.text}`).to.be.within(400, 404);
          expect(r.text).to.not.include('ff-four');
        }
      }
      expect((await call(gw.url, 'GET', `${WF}/${id}`)).status).to.equal(200);
      await call(gw.url, 'DELETE', `${WF}/${id}?clear_status=true`);
    });
  });
}
