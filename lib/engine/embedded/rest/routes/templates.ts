import { requireBody } from '../body.js';
import { booleanParam, integerParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

const ACK: RestResponse = { status: 200, body: { acknowledged: true } };

/**
 * A request with rights changes or removes only templates whose indices it may write: every index
 * pattern the named templates apply to as they stand (a component template's, those of the index
 * templates composed of it) must lie within its rights, as the gateway requires of the patterns a
 * template it puts names. Else one tenant's template would overwrite or remove another's, and with
 * it the settings, mappings and aliases of the other's next indices. The refusal names the template.
 */
function requireOwnTemplates(req: RestRequest, ctx: EngineContext, kind: 'index' | 'component' | 'legacy', action: string): void {
  const { access } = ctx;
  if (!access) return;
  const name = req.pathParams.name;
  if (ctx.indices.templates.patternsOf(kind, name).some((pattern) => !access.allowsPattern(pattern, 'write'))) throw access.refusal(action, [name]);
}

async function putIndexTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  requireOwnTemplates(req, ctx, 'index', 'indices:admin/index_template/put');
  await ctx.indices.templates.putIndexTemplate(req.pathParams.name, requireBody(req), booleanParam(req.params, 'create', false));
  return ACK;
}

function getIndexTemplates(req: RestRequest, ctx: EngineContext): RestResponse {
  const templates = ctx.indices.templates.indexTemplates(req.pathParams.name);
  if (req.method === 'HEAD') return { status: templates.length ? 200 : 404 };
  return { status: 200, body: { index_templates: templates } };
}

async function deleteIndexTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  requireOwnTemplates(req, ctx, 'index', 'indices:admin/index_template/delete');
  await ctx.indices.templates.deleteIndexTemplate(req.pathParams.name);
  return ACK;
}

async function putComponentTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  requireOwnTemplates(req, ctx, 'component', 'cluster:admin/component_template/put');
  await ctx.indices.templates.putComponentTemplate(req.pathParams.name, requireBody(req), booleanParam(req.params, 'create', false));
  return ACK;
}

function getComponentTemplates(req: RestRequest, ctx: EngineContext): RestResponse {
  const templates = ctx.indices.templates.componentTemplates(req.pathParams.name);
  if (req.method === 'HEAD') return { status: templates.length ? 200 : 404 };
  return { status: 200, body: { component_templates: templates } };
}

async function deleteComponentTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  requireOwnTemplates(req, ctx, 'component', 'cluster:admin/component_template/delete');
  await ctx.indices.templates.deleteComponentTemplate(req.pathParams.name);
  return ACK;
}

async function putLegacyTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  requireOwnTemplates(req, ctx, 'legacy', 'indices:admin/template/put');
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
  requireOwnTemplates(req, ctx, 'legacy', 'indices:admin/template/delete');
  await ctx.indices.templates.deleteLegacyTemplate(req.pathParams.name);
  return ACK;
}

/** `POST _index_template/_simulate[/{name}]` and `POST _index_template/_simulate_index/{index}`. */
function simulateTemplate(req: RestRequest, ctx: EngineContext): RestResponse {
  const templates = ctx.indices.templates;
  const body = req.body.trim() ? requireBody(req) : undefined;
  if (req.path.startsWith('/_index_template/_simulate_index/')) return { status: 200, body: templates.simulateIndex(req.pathParams.name, body) };
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
