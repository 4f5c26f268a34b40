import { EsError } from '../../../errors/index.js';
import { isSystemIndex } from '../../index-patterns.js';
import { resolveDateMathName, type JsonObject } from '../indices/index.js';
import { pipelineUsers } from '../ingest/index.js';
import type { EngineContext } from '../rest/types.js';

/**
 * The Flow Framework's workflow steps (WorkflowResources): what each takes and gives (the Get
 * Workflow Steps API), and, for the steps this engine can run, how it runs and undoes them. Steps
 * run as the caller: the index a `create_index` names is created through the caller's view of the
 * indices, which checks the caller's rights there. Steps of plugins this engine does not have
 * (ML Commons: connectors, models, agents, tools) are known, so templates naming them are kept,
 * and fail when provisioned.
 */
export interface StepType {
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly required_plugins: readonly string[];
  /** The kind of resource the step creates (`resources_created[].resource_type`), when it creates one. */
  readonly resource?: string;
}

const ML = ['opensearch-ml'];
const ml = (inputs: string[], outputs: string[], resource?: string): StepType => ({ inputs, outputs, required_plugins: ML, ...(resource ? { resource } : {}) });

export const STEP_TYPES: Readonly<Record<string, StepType>> = {
  noop: { inputs: [], outputs: [], required_plugins: [] },
  create_index: { inputs: ['index_name', 'configurations'], outputs: ['index_name'], required_plugins: [], resource: 'index_name' },
  create_ingest_pipeline: { inputs: ['pipeline_id', 'configurations'], outputs: ['pipeline_id'], required_plugins: [], resource: 'pipeline_id' },
  create_search_pipeline: { inputs: ['pipeline_id', 'configurations'], outputs: ['pipeline_id'], required_plugins: [], resource: 'pipeline_id' },
  reindex: { inputs: ['source_index', 'destination_index'], outputs: ['reindex'], required_plugins: [] },
  create_connector: ml(['name', 'description', 'version', 'protocol', 'parameters', 'credential', 'actions'], ['connector_id'], 'connector_id'),
  delete_connector: ml(['connector_id'], ['connector_id']),
  register_model_group: ml(['name'], ['model_group_id', 'model_group_status'], 'model_group_id'),
  register_remote_model: ml(['name', 'connector_id'], ['model_id', 'register_model_status'], 'model_id'),
  register_local_custom_model: ml(['name', 'version', 'model_format', 'function_name', 'model_content_hash_value', 'url', 'model_type', 'embedding_dimension', 'framework_type'], ['model_id', 'register_model_status'], 'model_id'),
  register_local_sparse_encoding_model: ml(['name', 'version', 'model_format'], ['model_id', 'register_model_status'], 'model_id'),
  register_local_pretrained_model: ml(['name', 'version', 'model_format'], ['model_id', 'register_model_status'], 'model_id'),
  deploy_model: ml(['model_id'], ['model_id'], 'model_id'),
  undeploy_model: ml(['model_id'], ['success']),
  delete_model: ml(['model_id'], ['model_id']),
  register_agent: ml(['name', 'type', 'llm', 'tools', 'parameters', 'memory', 'created_time', 'last_updated_time', 'app_type'], ['agent_id'], 'agent_id'),
  delete_agent: ml(['agent_id'], ['agent_id']),
  create_tool: ml(['type'], ['tools']),
};

/** What a step gave (its outputs) and the resource it created, if any. */
export interface StepOutcome {
  outputs: Record<string, unknown>;
  resource?: { type: string; id: string };
}

/** A node's `configurations`: an object, or the JSON text of one (as templates write them). */
function configurations(inputs: JsonObject, node: string): JsonObject {
  const c = inputs.configurations;
  if (c === undefined) return {};
  if (typeof c === 'string') {
    try {
      const parsed: unknown = JSON.parse(c);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as JsonObject;
    } catch { /* refused below */ }
    throw new EsError(400, 'flow_framework_exception', `Failed to parse the configurations of workflow step [${node}]`);
  }
  if (c && typeof c === 'object' && !Array.isArray(c)) return c as JsonObject;
  throw new EsError(400, 'flow_framework_exception', `Failed to parse the configurations of workflow step [${node}]`);
}

function required(inputs: JsonObject, key: string, node: string): string {
  const v = inputs[key];
  if (typeof v === 'string' && v) return v;
  if (typeof v === 'number') return String(v);
  throw new EsError(400, 'flow_framework_exception', `Missing required inputs [${key}] in workflow [provision] node [${node}]`);
}

/** A system index is kept by the API that owns it: no step creates one, whoever provisions (the admin too), as no request names one. */
function refuseSystemIndex(name: string): void {
  if (isSystemIndex(name)) throw new EsError(403, 'security_exception', `action [indices:admin/create] is unauthorized: index [${name}] is a system index, reachable only through the APIs that keep it`);
}

/** Runs one node of a workflow as the caller (`ctx`: the caller's view of the engine). */
export async function runStep(type: string, node: string, inputs: JsonObject, ctx: EngineContext): Promise<StepOutcome> {
  const step = STEP_TYPES[type];
  if (step && step.required_plugins.length) {
    throw new EsError(400, 'flow_framework_exception', `Workflow step [${node}] of type [${type}] needs the plugins ${JSON.stringify(step.required_plugins)}, which this engine does not have`);
  }
  switch (type) {
    case 'noop':
      return { outputs: {} };
    case 'create_index': {
      // the name checked is the one created: date math resolved first (`<.plugins-flow-framework-confi{now{'g'}}>` is a system index's name)
      const name = resolveDateMathName(required(inputs, 'index_name', node));
      refuseSystemIndex(name);
      const handle = await ctx.indices.create(name, configurations(inputs, node));
      return { outputs: { index_name: handle.name }, resource: { type: 'index_name', id: handle.name } };
    }
    case 'create_ingest_pipeline': {
      const id = required(inputs, 'pipeline_id', node);
      const body = configurations(inputs, node);
      await ctx.ingestPipelines.put(id, body, undefined, JSON.stringify(body));
      return { outputs: { pipeline_id: id }, resource: { type: 'pipeline_id', id } };
    }
    case 'create_search_pipeline': {
      const id = required(inputs, 'pipeline_id', node);
      await ctx.searchPipelines.put(id, configurations(inputs, node));
      return { outputs: { pipeline_id: id }, resource: { type: 'pipeline_id', id } };
    }
    default:
      throw new EsError(400, 'flow_framework_exception', `Workflow step [${node}] of type [${type}] is not available on this engine`);
  }
}

/** Removes what a step created (deprovision), as the caller. */
export async function undoStep(type: string, resourceId: string, ctx: EngineContext): Promise<void> {
  switch (type) {
    case 'create_index': {
      if (isSystemIndex(resourceId)) refuseSystemIndex(resourceId);
      if (ctx.indices.get(resourceId)) await ctx.indices.delete(ctx.indices.resolve(resourceId));
      return;
    }
    case 'create_ingest_pipeline':
      if (ctx.ingestPipelines.definitions(resourceId).some(([id]) => id === resourceId)) await ctx.ingestPipelines.delete(resourceId, (id) => pipelineUsers(ctx.indices, id));
      return;
    case 'create_search_pipeline':
      if (ctx.searchPipelines.definitions(resourceId).some(([id]) => id === resourceId)) await ctx.searchPipelines.delete(resourceId);
      return;
    default:
      throw new EsError(400, 'flow_framework_exception', `Workflow step of type [${type}] cannot be deprovisioned on this engine`);
  }
}

/** The steps whose resources a deprovision removes only when `allow_delete` names them (data would be lost). */
export const DELETE_NEEDS_ALLOWING: ReadonlySet<string> = new Set(['create_index', 'create_ingest_pipeline', 'create_search_pipeline']);
