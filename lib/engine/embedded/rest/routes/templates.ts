import { requireBody } from '../body.js';
import { booleanParam, integerParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

const ACK: RestResponse = { status: 200, body: { acknowledged: true } };

async function putIndexTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.indices.templates.putIndexTemplate(req.pathParams.name, requireBody(req), booleanParam(req.params, 'create', false));
  return ACK;
}

function getIndexTemplates(req: RestRequest, ctx: EngineContext): RestResponse {
  const templates = ctx.indices.templates.indexTemplates(req.pathParams.name);
  if (req.method === 'HEAD') return { status: templates.length ? 200 : 404 };
  return { status: 200, body: { index_templates: templates } };
}

async function deleteIndexTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.indices.templates.deleteIndexTemplate(req.pathParams.name);
  return ACK;
}

async function putComponentTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.indices.templates.putComponentTemplate(req.pathParams.name, requireBody(req), booleanParam(req.params, 'create', false));
  return ACK;
}

function getComponentTemplates(req: RestRequest, ctx: EngineContext): RestResponse {
  const templates = ctx.indices.templates.componentTemplates(req.pathParams.name);
  if (req.method === 'HEAD') return { status: templates.length ? 200 : 404 };
  return { status: 200, body: { component_templates: templates } };
}

async function deleteComponentTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.indices.templates.deleteComponentTemplate(req.pathParams.name);
  return ACK;
}

async function putLegacyTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.indices.templates.putLegacyTemplate(req.pathParams.name, requireBody(req), booleanParam(req.params, 'create', false), integerParam(req.params, 'order'));
  return ACK;
}

/** GET /_template/{name}: ES answers a name that matches nothing with 404 and an empty object. */
function getLegacyTemplates(req: RestRequest, ctx: EngineContext): RestResponse {
  const name = req.pathParams.name;
  const templates = ctx.indices.templates.legacyTemplates(name, booleanParam(req.params, 'flat_settings', false));
  const found = Object.keys(templates).length > 0 || name === undefined || name.includes('*');
  if (req.method === 'HEAD') return { status: Object.keys(templates).length ? 200 : 404 };
  return { status: found ? 200 : 404, body: templates };
}

async function deleteLegacyTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.indices.templates.deleteLegacyTemplate(req.pathParams.name);
  return ACK;
}

/** `POST _index_template/_simulate[/{name}]` and `POST _index_template/_simulate_index/{index}`. */
function simulateTemplate(req: RestRequest, ctx: EngineContext): RestResponse {
  const templates = ctx.indices.templates;
  if (req.path.startsWith('/_index_template/_simulate_index/')) return { status: 200, body: templates.simulateIndex(req.pathParams.name) };
  const body = req.body.trim() ? requireBody(req) : undefined;
  return { status: 200, body: templates.simulateTemplate(req.pathParams.name, body) };
}

export const templateRoutes: Route[] = [
  { id: 'indices.simulate_template', handler: simulateTemplate },
  { id: 'indices.put_index_template', handler: putIndexTemplate },
  { id: 'indices.get_index_template', handler: getIndexTemplates },
  { id: 'indices.delete_index_template', handler: deleteIndexTemplate },
  { id: 'cluster.put_component_template', handler: putComponentTemplate },
  { id: 'cluster.get_component_template', handler: getComponentTemplates },
  { id: 'cluster.delete_component_template', handler: deleteComponentTemplate },
  { id: 'indices.put_template', handler: putLegacyTemplate },
  { id: 'indices.get_template', handler: getLegacyTemplates },
  { id: 'indices.delete_template', handler: deleteLegacyTemplate },
];
