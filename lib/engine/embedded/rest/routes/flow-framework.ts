/**
 * OpenSearch's Flow Framework plugin (`_plugins/_flow_framework/workflow`): workflow templates
 * created (from a body, or from one of the plugin's use cases), read, updated, searched and
 * deleted; provisioned (each node of the template's `provision` workflow run in order, as the
 * caller) and deprovisioned (what provisioning created removed). As the plugin does, templates
 * are documents of `.plugins-flow-framework-templates` and each workflow's state a document of
 * `.plugins-flow-framework-state`: system indices, reached through this API only. Provisioning
 * runs before the answer (the plugin's `wait_for_completion_timeout`, without a timeout): the
 * status then says COMPLETED, or FAILED with the error (a step of a plugin this engine lacks, such
 * as ML Commons' connectors and models, fails there).
 */
import { EsError } from '../../../../errors/index.js';
import type { JsonObject } from '../../indices/index.js';
import { isMap } from '../../ingest/index.js';
import { pluginContext } from './plugin-context.js';
import { DELETE_NEEDS_ALLOWING, runStep, STEP_TYPES, undoStep } from '../../flow-framework/steps.js';
import { useCase, useCaseTemplate } from '../../flow-framework/use-cases.js';
import { fillPlaceholders } from '../../flow-framework/placeholders.js';
import { requestBody } from '../body.js';
import { booleanParam, generateId, UrlParams, validateId, writeParams } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { executeSearch } from './search.js';

/**
 * The plugin's indices (CommonValue): templates, workflow states, and its configuration (there, its
 * encryption key of the templates' connector credentials; here, those credentials themselves).
 */
export const TEMPLATES_INDEX = '.plugins-flow-framework-templates';
export const STATE_INDEX = '.plugins-flow-framework-state';
export const CONFIG_INDEX = '.plugins-flow-framework-config';

const HIDDEN = { number_of_shards: 1, auto_expand_replicas: '0-1', hidden: true };
const OFF = { type: 'object', enabled: false };
const INDEX_BODIES: Record<string, JsonObject> = {
  [CONFIG_INDEX]: { settings: { index: HIDDEN }, mappings: { dynamic: 'false', properties: { credentials: OFF } } },
  [TEMPLATES_INDEX]: {
    settings: { index: HIDDEN },
    mappings: {
      dynamic: 'false',
      properties: {
        name: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
        description: { type: 'text' }, use_case: { type: 'keyword' },
        version: { properties: { template: { type: 'text' }, compatibility: { type: 'text' } } },
        workflows: OFF, ui_metadata: OFF, user: OFF,
        created_time: { type: 'date', format: 'strict_date_time||epoch_millis' },
        last_updated_time: { type: 'date', format: 'strict_date_time||epoch_millis' },
        last_provisioned_time: { type: 'date', format: 'strict_date_time||epoch_millis' },
      },
    },
  },
  [STATE_INDEX]: {
    settings: { index: HIDDEN },
    mappings: {
      dynamic: 'false',
      properties: {
        workflow_id: { type: 'keyword' }, state: { type: 'keyword' }, provisioning_progress: { type: 'keyword' }, error: { type: 'text' },
        provision_start_time: { type: 'date', format: 'strict_date_time||epoch_millis' },
        provision_end_time: { type: 'date', format: 'strict_date_time||epoch_millis' },
        resources_created: { type: 'nested', properties: { workflow_step_name: { type: 'keyword' }, workflow_step_id: { type: 'keyword' }, resource_type: { type: 'keyword' }, resource_id: { type: 'keyword' } } },
        user_outputs: OFF, user: OFF,
      },
    },
  },
};

const fail = (status: number, reason: string) => new EsError(status, 'flow_framework_exception', reason);
const templateMissing = (id: string) => fail(404, `Failed to retrieve template (${id}) from global context.`);

async function ensureIndex(ctx: EngineContext, name: string): Promise<void> {
  if (!ctx.indices.get(name)) await ctx.indices.commit([], ctx.indices.createInMemory(name, INDEX_BODIES[name], false).writes);
}

async function store(ctx: EngineContext, index: string, id: string, source: JsonObject): Promise<void> {
  await ensureIndex(ctx, index);
  const { handle, writes } = ctx.indices.writeTarget(index);
  if (writes.length) await ctx.indices.commit([], writes);
  await ctx.indices.commit([handle.indexDocument(id, source, JSON.stringify(source), writeParams(UrlParams.NONE))]);
}

function load(ctx: EngineContext, index: string, id: string): JsonObject | undefined {
  return ctx.indices.get(index)?.get(id)?.source;
}

/**
 * A template's connector credentials (`credential` of a node's user_inputs) are kept apart from it,
 * in the plugin's configuration index, which no API reads: the plugin encrypts them and answers
 * templates without them (its get removes them, its search excludes
 * `workflows.provision.nodes.user_inputs.credential`), so that no holder of `manage` reads another's
 * secrets — by a get, a search's `_source`, its scripts or its queries. Provisioning puts them back.
 */
const credentialsId = (id: string) => `template-credentials-${id}`;

async function storeTemplate(ctx: EngineContext, id: string, template: JsonObject): Promise<void> {
  const credentials: Record<string, Record<string, JsonObject[string]>> = {};
  const workflowsOf = isMap(template.workflows) ? template.workflows : {};
  const visibleWorkflows = Object.fromEntries(Object.entries(workflowsOf).map(([name, workflow]) => {
    if (!isMap(workflow) || !Array.isArray(workflow.nodes)) return [name, workflow];
    const nodes = workflow.nodes.map((node) => {
      if (!isMap(node) || !isMap(node.user_inputs) || !Object.hasOwn(node.user_inputs, 'credential') || typeof node.id !== 'string') return node;
      const { credential, ...inputs } = node.user_inputs;
      (credentials[name] ??= {})[node.id] = credential;
      return { ...node, user_inputs: inputs };
    });
    return [name, { ...workflow, nodes }];
  }));
  const visible = template.workflows === undefined ? template : { ...template, workflows: visibleWorkflows as JsonObject };
  await store(ctx, TEMPLATES_INDEX, id, visible);
  if (Object.keys(credentials).length) await store(ctx, CONFIG_INDEX, credentialsId(id), { credentials: credentials as JsonObject });
  else await forget(ctx, CONFIG_INDEX, credentialsId(id));
}

/** A template as stored, its connector credentials put back (for provisioning alone). */
function loadTemplateWithCredentials(ctx: EngineContext, id: string): JsonObject | undefined {
  const template = load(ctx, TEMPLATES_INDEX, id);
  const credentials = load(ctx, CONFIG_INDEX, credentialsId(id))?.credentials;
  if (!template || !isMap(credentials) || !isMap(template.workflows)) return template;
  const workflows = Object.fromEntries(Object.entries(template.workflows).map(([name, workflow]) => {
    const kept = credentials[name];
    if (!isMap(kept) || !isMap(workflow) || !Array.isArray(workflow.nodes)) return [name, workflow];
    const nodes = workflow.nodes.map((node) => (isMap(node) && typeof node.id === 'string' && Object.hasOwn(kept, node.id)
      ? { ...node, user_inputs: { ...(isMap(node.user_inputs) ? node.user_inputs : {}), credential: kept[node.id] } }
      : node));
    return [name, { ...workflow, nodes }];
  }));
  return { ...template, workflows: workflows as JsonObject };
}

async function forget(ctx: EngineContext, index: string, id: string): Promise<void> {
  const handle = ctx.indices.get(index);
  if (handle?.get(id)) await ctx.indices.commit([handle.delete(id, writeParams(UrlParams.NONE))]);
}

/**
 * The plugin's `plugins.flow_framework.max_workflow_steps` (its default): the nodes a workflow may
 * have, checked before its graph is read (the ordering below looks at every node per node placed).
 */
const MAX_WORKFLOW_STEPS = 50;

interface Node { id: string; type: string; previous_node_inputs: Record<string, string>; user_inputs: JsonObject }

/** A workflow's nodes in an order that runs each after those it depends on (its edges' sources and previous_node_inputs). */
function orderedNodes(workflow: JsonObject, name: string, checkTypes: boolean): Node[] {
  const rawNodes = workflow.nodes ?? [];
  if (!Array.isArray(rawNodes)) throw fail(400, `The nodes of workflow [${name}] must be a list`);
  if (rawNodes.length > MAX_WORKFLOW_STEPS) {
    throw fail(400, `Workflow ${name} has ${rawNodes.length} nodes, which exceeds the maximum of ${MAX_WORKFLOW_STEPS} (plugins.flow_framework.max_workflow_steps, fixed on this engine).`);
  }
  const nodes: Node[] = rawNodes.map((n) => {
    if (!isMap(n) || typeof n.id !== 'string' || !n.id || typeof n.type !== 'string' || !n.type) throw fail(400, `Each node of workflow [${name}] requires an id and a type`);
    const previous = n.previous_node_inputs ?? {};
    if (!isMap(previous) || Object.values(previous).some((v) => typeof v !== 'string')) throw fail(400, `The previous_node_inputs of node [${n.id}] must map node ids to input names`);
    if (n.user_inputs !== undefined && !isMap(n.user_inputs)) throw fail(400, `The user_inputs of node [${n.id}] must be an object`);
    if (checkTypes && !Object.hasOwn(STEP_TYPES, n.type)) throw fail(400, `Invalid workflow step type [${n.type}] in node [${n.id}]`);
    return { id: n.id, type: n.type, previous_node_inputs: previous as Record<string, string>, user_inputs: (n.user_inputs ?? {}) as JsonObject };
  });
  const byId = new Map<string, Node>();
  for (const n of nodes) {
    if (byId.has(n.id)) throw fail(400, `Duplicate node id ${n.id}.`);
    byId.set(n.id, n);
  }
  const before = new Map(nodes.map((n) => [n.id, new Set(Object.keys(n.previous_node_inputs))]));
  const edges = workflow.edges ?? [];
  if (!Array.isArray(edges)) throw fail(400, `The edges of workflow [${name}] must be a list`);
  for (const e of edges) {
    if (!isMap(e) || typeof e.source !== 'string' || typeof e.dest !== 'string') throw fail(400, `Each edge of workflow [${name}] requires a source and a dest`);
    if (!byId.has(e.source)) throw fail(400, `Edge source ${e.source} does not correspond to a node.`);
    if (!byId.has(e.dest)) throw fail(400, `Edge destination ${e.dest} does not correspond to a node.`);
    before.get(e.dest)!.add(e.source);
  }
  for (const [id, sources] of before) for (const s of sources) if (!byId.has(s)) throw fail(400, `Node [${id}] takes an input from node [${s}], which workflow [${name}] does not have`);
  const ordered: Node[] = [];
  const done = new Set<string>();
  // the first node (as listed) whose inputs are all there, each time: the template's order where its graph allows
  while (ordered.length < nodes.length) {
    const next = nodes.find((n) => !done.has(n.id) && [...before.get(n.id)!].every((s) => done.has(s)));
    if (!next) throw fail(400, 'Cycle detected in the workflow graph.');
    done.add(next.id);
    ordered.push(next);
  }
  return ordered;
}

/** The template fields `update_fields=true` may change alone (Template.UPDATE_FIELD_ALLOWLIST). */
const UPDATABLE_FIELDS = new Set(['name', 'description', 'use_case', 'version', 'ui_metadata']);
const TEMPLATE_FIELDS = new Set([...UPDATABLE_FIELDS, 'workflows']);

/** A template as a create or a whole update gives it, validated (`validation=all`: node types too). */
function parseTemplate(body: unknown, checkTypes: boolean): JsonObject {
  if (!isMap(body)) throw fail(400, 'IOException: template content invalid for specified Content-Type.');
  if (typeof body.name !== 'string' || !body.name) throw fail(400, 'A template object requires a name.');
  for (const [key, value] of Object.entries(body)) {
    if (!TEMPLATE_FIELDS.has(key)) continue;
    if ((key === 'description' || key === 'use_case') && typeof value !== 'string') throw fail(400, `The template's [${key}] must be a string`);
    if ((key === 'version' || key === 'workflows' || key === 'ui_metadata') && !isMap(value)) throw fail(400, `The template's [${key}] must be an object`);
  }
  for (const [name, workflow] of Object.entries((body.workflows ?? {}) as JsonObject)) {
    if (!isMap(workflow)) throw fail(400, `Workflow [${name}] must be an object`);
    orderedNodes(workflow, name, checkTypes);
  }
  return Object.fromEntries(Object.entries(body).filter(([k]) => TEMPLATE_FIELDS.has(k))) as JsonObject;
}

/** The values a use case's create body gives: strings as they are, anything else as its JSON. */
function useCaseValues(body: unknown): Record<string, string> {
  if (body === undefined) return {};
  if (!isMap(body)) throw fail(400, 'failure parsing request body when a use case is given, make sure to provide a map with values that are either Strings, Arrays, or Map of Strings to Strings');
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

function templateOfUseCase(name: string, body: unknown): JsonObject {
  const u = useCase(name);
  if (!u) throw fail(400, `Unable to find substitution ready file for use case: ${name}`);
  const given = useCaseValues(body);
  const missing = u.required.filter((k) => !Object.hasOwn(given, k));
  if (missing.length) throw fail(400, `Missing the following required parameters for use case [${name}] : [${missing.join(', ')}]`);
  return useCaseTemplate(u, given);
}

interface Resource { workflow_step_name: string; workflow_step_id: string; resource_type: string; resource_id: string }

const notStarted = (id: string): JsonObject => ({ workflow_id: id, state: 'NOT_STARTED', provisioning_progress: 'NOT_STARTED', resources_created: [] });

/** `${{key}}` in a node's inputs: a provision parameter, or `node.output` of a node run before. */
function substitute(value: unknown, params: Record<string, string>, outputs: Map<string, Record<string, unknown>>): unknown {
  return fillPlaceholders(value, (key) => {
    if (Object.hasOwn(params, key)) return params[key];
    const dot = key.indexOf('.');
    const out = dot > 0 ? outputs.get(key.slice(0, dot))?.[key.slice(dot + 1)] : undefined;
    return out === undefined ? undefined : String(out);
  });
}

/**
 * Runs the template's `provision` workflow as the caller, its state kept as it goes: PROVISIONING,
 * then COMPLETED, or FAILED at the first node that fails (with the resources created before it).
 * `done`: nodes already provisioned (a reprovision runs only the others).
 */
async function runProvisioning(plugin: EngineContext, caller: EngineContext, id: string, template: JsonObject, params: Record<string, string>, state: JsonObject): Promise<void> {
  const workflow = (template.workflows as JsonObject | undefined)?.provision;
  if (!isMap(workflow)) throw fail(400, `Provisioning failed: the template ${id} has no [provision] workflow.`);
  const nodes = orderedNodes(workflow, 'provision', false);
  const resources = [...((state.resources_created ?? []) as unknown as Resource[])];
  const done = new Set(resources.map((r) => r.workflow_step_id));
  const outputs = new Map<string, Record<string, unknown>>(resources.map((r) => [r.workflow_step_id, { [r.resource_type]: r.resource_id }]));
  const started = Date.now();
  await store(plugin, STATE_INDEX, id, { ...state, state: 'PROVISIONING', provisioning_progress: 'IN_PROGRESS', provision_start_time: started, resources_created: resources as unknown as JsonObject[] });
  let error: string | undefined;
  for (const node of nodes) {
    if (done.has(node.id)) continue;
    const inputs = substitute(node.user_inputs, params, outputs) as JsonObject;
    for (const [from, key] of Object.entries(node.previous_node_inputs)) {
      const value = outputs.get(from)?.[key];
      if (value !== undefined) inputs[key] = value as JsonObject[string];
    }
    try {
      const outcome = await runStep(node.type, node.id, inputs, caller);
      outputs.set(node.id, outcome.outputs);
      if (outcome.resource) resources.push({ workflow_step_name: node.type, workflow_step_id: node.id, resource_type: outcome.resource.type, resource_id: outcome.resource.id });
    } catch (err) {
      const reason = err instanceof EsError ? err.reason : String(err);
      error = `${node.id} failed: ${reason}`;
      break;
    }
  }
  const end = Date.now();
  await store(plugin, STATE_INDEX, id, {
    ...state, state: error ? 'FAILED' : 'COMPLETED', provisioning_progress: error ? 'FAILED' : 'DONE', provision_start_time: started, provision_end_time: end,
    resources_created: resources as unknown as JsonObject[], ...(error ? { error } : {}),
  });
  await storeTemplate(plugin, id, { ...template, last_provisioned_time: end });
}

/** A provision's parameters: the body's members, strings only (the plugin's; the URL takes none of its own here). */
function provisionParams(req: RestRequest): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(requestBody(req) ?? {})) {
    if (typeof value !== 'string') throw fail(400, 'Request body fields must have string values');
    params[key] = value;
  }
  return params;
}

/** The workflows each engine is provisioning now (by its own indices): one provisioning of a workflow at a time. */
const RUNNING = new WeakMap<object, Set<string>>();

function provisioning(plugin: EngineContext): Set<string> {
  let ids = RUNNING.get(plugin.indices);
  if (!ids) RUNNING.set(plugin.indices, (ids = new Set()));
  return ids;
}

/** Runs `work` as the one provisioning of workflow `id` (its state read after the claim, so two requests never both start it). */
async function exclusively(plugin: EngineContext, id: string, work: (state: JsonObject) => Promise<void>): Promise<void> {
  const running = provisioning(plugin);
  if (running.has(id)) throw fail(400, `The workflow provisioning state is PROVISIONING: ${id}. Wait for provisioning to end.`);
  running.add(id);
  try {
    await work(load(plugin, STATE_INDEX, id) ?? notStarted(id));
  } finally {
    running.delete(id);
  }
}

async function provisionStored(plugin: EngineContext, caller: EngineContext, id: string, params: Record<string, string>): Promise<void> {
  const template = loadTemplateWithCredentials(plugin, id);
  if (!template) throw templateMissing(id);
  await exclusively(plugin, id, async (state) => {
    if (state.state !== 'NOT_STARTED') throw fail(400, `The workflow provisioning state is ${String(state.state)} and can not be provisioned unless its state is NOT_STARTED: ${id}. Deprovision the workflow to reset the state.`);
    await runProvisioning(plugin, caller, id, template, params, state);
  });
}

async function createOrUpdate(req: RestRequest, plugin: EngineContext, caller: EngineContext): Promise<RestResponse> {
  const id = req.pathParams.workflow_id;
  const provision = booleanParam(req.params, 'provision', false);
  const reprovision = booleanParam(req.params, 'reprovision', false);
  const updateFields = booleanParam(req.params, 'update_fields', false);
  const useCaseName = req.params.get('use_case');
  if (provision && updateFields) throw fail(400, 'You can not use both the provision and update_fields parameters in the same request.');
  if (reprovision && id === undefined) throw fail(400, 'You can not use the reprovision parameter to create a new template.');
  if (reprovision && useCaseName !== null) throw fail(400, 'You cannot use the reprovision and use_case parameters in the same request.');
  if (reprovision && updateFields) throw fail(400, 'You can not use both the reprovision and update_fields parameters in the same request.');
  if (reprovision && provision) throw fail(400, 'You can not use both the provision and reprovision parameters in the same request.');
  const validation = (req.params.get('validation') ?? 'all').split(',').map((s) => s.trim());
  if (validation.some((v) => v !== 'all' && v !== 'none')) throw fail(400, `Invalid validation [${validation.join(',')}]: use all or none`);
  const body = requestBody(req);
  const now = Date.now();

  if (id === undefined) {
    const template = useCaseName !== null ? templateOfUseCase(useCaseName, body) : parseTemplate(body, validation.includes('all'));
    const workflowId = generateId();
    await storeTemplate(plugin, workflowId, { ...template, created_time: now, last_updated_time: now });
    await store(plugin, STATE_INDEX, workflowId, notStarted(workflowId));
    if (provision) await provisionStored(plugin, caller, workflowId, {});
    return { status: 201, body: { workflow_id: workflowId } };
  }

  validateId(id);
  const current = load(plugin, TEMPLATES_INDEX, id);
  if (!current) throw templateMissing(id);
  const state = load(plugin, STATE_INDEX, id) ?? notStarted(id);
  if (updateFields) {
    if (!isMap(body)) throw fail(400, 'IOException: template content invalid for specified Content-Type.');
    const notUpdatable = Object.keys(body).find((k) => !UPDATABLE_FIELDS.has(k));
    if (notUpdatable) throw fail(400, `You can not update the field [${notUpdatable}] without updating the whole template.`);
    const updated = parseTemplate({ ...current, ...body }, false);
    // the workflows are not among the fields: the stored credentials stay as they are
    await store(plugin, TEMPLATES_INDEX, id, { ...current, ...updated, last_updated_time: now });
    return { status: 201, body: { workflow_id: id } };
  }
  const template = useCaseName !== null ? templateOfUseCase(useCaseName, body) : parseTemplate(body, validation.includes('all'));
  if (reprovision) {
    // the nodes the template adds are provisioned; those provisioned already are kept as they are
    await exclusively(plugin, id, async (latest) => {
      if (latest.state !== 'COMPLETED') throw fail(400, `The template can not be reprovisioned unless its provisioning state is COMPLETED: ${id}.`);
      const kept = { ...template, created_time: current.created_time ?? now, last_updated_time: now };
      await storeTemplate(plugin, id, kept);
      await runProvisioning(plugin, caller, id, kept, {}, latest);
    });
    return { status: 201, body: { workflow_id: id } };
  }
  if (state.state !== 'NOT_STARTED') throw fail(400, `The template can not be updated unless its provisioning state is NOT_STARTED: ${id}. Deprovision the workflow to reset the state.`);
  await storeTemplate(plugin, id, { ...template, created_time: current.created_time ?? now, last_updated_time: now });
  if (provision) await provisionStored(plugin, caller, id, {});
  return { status: 201, body: { workflow_id: id } };
}

function getWorkflow(req: RestRequest, plugin: EngineContext): RestResponse {
  const template = load(plugin, TEMPLATES_INDEX, req.pathParams.workflow_id);
  if (!template) throw templateMissing(req.pathParams.workflow_id);
  return { status: 200, body: template };
}

async function deleteWorkflow(req: RestRequest, plugin: EngineContext): Promise<RestResponse> {
  const id = req.pathParams.workflow_id;
  validateId(id);
  await ensureIndex(plugin, TEMPLATES_INDEX);
  const { handle, writes } = plugin.indices.writeTarget(TEMPLATES_INDEX);
  if (writes.length) await plugin.indices.commit([], writes);
  const deleted = handle.delete(id, writeParams(UrlParams.NONE));
  await plugin.indices.commit([deleted]);
  await forget(plugin, CONFIG_INDEX, credentialsId(id));
  const state = plugin.indices.get(STATE_INDEX);
  // clear_status: the state goes too, unless provisioning is running (its resources are left as they are)
  if (booleanParam(req.params, 'clear_status', false) && state?.get(id) && load(plugin, STATE_INDEX, id)?.state !== 'PROVISIONING') {
    await plugin.indices.commit([state.delete(id, writeParams(UrlParams.NONE))]);
  }
  return { status: 200, body: deleted.body };
}

async function provision(req: RestRequest, plugin: EngineContext, caller: EngineContext): Promise<RestResponse> {
  const id = req.pathParams.workflow_id;
  await provisionStored(plugin, caller, id, provisionParams(req));
  return { status: 200, body: { workflow_id: id } };
}

async function deprovision(req: RestRequest, plugin: EngineContext, caller: EngineContext): Promise<RestResponse> {
  const id = req.pathParams.workflow_id;
  if (!load(plugin, TEMPLATES_INDEX, id)) throw templateMissing(id);
  const state = load(plugin, STATE_INDEX, id) ?? notStarted(id);
  if (state.state === 'PROVISIONING' || provisioning(plugin).has(id)) throw fail(400, `The workflow ${id} is provisioning: it can be deprovisioned once provisioning ends.`);
  const allowed = new Set((req.params.get('allow_delete') ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  const remaining: Resource[] = [];
  const needAllowing: string[] = [];
  const failed: string[] = [];
  for (const r of [...((state.resources_created ?? []) as unknown as Resource[])].reverse()) {
    if (DELETE_NEEDS_ALLOWING.has(r.workflow_step_name) && !allowed.has(r.resource_id)) {
      needAllowing.push(`${r.resource_type} ${r.resource_id}`);
      remaining.unshift(r);
      continue;
    }
    try {
      await undoStep(r.workflow_step_name, r.resource_id, caller);
    } catch (err) {
      failed.push(`${r.resource_type} ${r.resource_id}: ${err instanceof EsError ? err.reason : String(err)}`);
      remaining.unshift(r);
    }
  }
  if (!remaining.length) {
    await store(plugin, STATE_INDEX, id, notStarted(id));
    return { status: 200, body: { workflow_id: id } };
  }
  await store(plugin, STATE_INDEX, id, { ...state, state: 'COMPLETED', provisioning_progress: 'DONE', resources_created: remaining as unknown as JsonObject[] });
  if (failed.length) throw fail(500, `Failed to deprovision some resources: [${failed.join(', ')}].`);
  throw fail(403, `These resources require the allow_delete parameter to deprovision: [${needAllowing.join(', ')}].`);
}

function status(req: RestRequest, plugin: EngineContext): RestResponse {
  const id = req.pathParams.workflow_id;
  const state = load(plugin, STATE_INDEX, id);
  if (!state) throw fail(404, `Fail to find workflow status of ${id}`);
  if (booleanParam(req.params, 'all', false)) return { status: 200, body: state };
  return { status: 200, body: { workflow_id: state.workflow_id ?? id, state: state.state, resources_created: state.resources_created ?? [] } };
}

function steps(req: RestRequest): RestResponse {
  const wanted = (req.params.get('workflow_step') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = wanted.filter((s) => !Object.hasOwn(STEP_TYPES, s));
  if (unknown.length) throw fail(400, `Invalid workflow steps: [${unknown.join(', ')}]. Valid steps: [${Object.keys(STEP_TYPES).join(', ')}]`);
  const names = wanted.length ? wanted : Object.keys(STEP_TYPES);
  return { status: 200, body: Object.fromEntries(names.map((n) => [n, { ...STEP_TYPES[n] }])) };
}

async function search(req: RestRequest, plugin: EngineContext, index: string): Promise<RestResponse> {
  await ensureIndex(plugin, index);
  return { status: 200, body: await executeSearch(plugin, index, UrlParams.NONE, requestBody(req), req.started) };
}

function workflows(req: RestRequest, caller: EngineContext): Promise<RestResponse> | RestResponse {
  const plugin = pluginContext(caller);
  switch (req.method) {
    case 'POST':
    case 'PUT':
      return createOrUpdate(req, plugin, caller);
    case 'DELETE':
      return deleteWorkflow(req, plugin);
    default:
      return getWorkflow(req, plugin);
  }
}

export const flowFrameworkRoutes: Route[] = [
  { id: 'opensearch.flow_framework_workflows', handler: workflows },
  { id: 'opensearch.flow_framework_provision', handler: (req, ctx) => provision(req, pluginContext(ctx), ctx) },
  { id: 'opensearch.flow_framework_deprovision', handler: (req, ctx) => deprovision(req, pluginContext(ctx), ctx) },
  { id: 'opensearch.flow_framework_status', handler: (req, ctx) => status(req, pluginContext(ctx)) },
  { id: 'opensearch.flow_framework_steps', handler: (req) => steps(req) },
  { id: 'opensearch.flow_framework_search', handler: (req, ctx) => search(req, pluginContext(ctx), TEMPLATES_INDEX) },
  { id: 'opensearch.flow_framework_search_state', handler: (req, ctx) => search(req, pluginContext(ctx), STATE_INDEX) },
];
