/**
 * OpenSearch's Learning to Rank plugin APIs (`/_ltr`, `/_plugins/_ltr/stats`) over the engine's
 * kept feature stores (LtrStores): stores made, listed, told and dropped; features, feature sets
 * and models put (PUT creates, POST replaces; a model is never replaced), read, listed by name
 * prefix and deleted, in the plugin's index and get answers; `_addfeatures` (from the body, or the
 * store's features whose names match `{query}`) and `_createmodel` from a feature set. No model
 * runs here, so the caches stay empty and their stats at zero.
 */
import { EsError } from '../../../../errors/index.js';
import { isMap, type JsonMap } from '../../ingest/index.js';
import { DEFAULT_STORE, ELEMENT_TYPES, elementId, storeIndex, type ElementType, type StoredElement } from '../../learning-to-rank/index.js';
import { requestBody } from '../body.js';
import { booleanParam, integerParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { nodesResponse } from './nodes.js';

const MODEL_TYPES = new Set(['model/linear', 'model/xgboost+json', 'model/ranklib']);

function storeOf(req: RestRequest): string {
  return req.pathParams.store ?? DEFAULT_STORE;
}

/** The element type the matched route names (`/_ltr[/{store}]/_feature|_featureset|_model…`): a literal of the route table's pattern, not of the request's path. */
const ELEMENT_IN_PATTERN = /\/_(featureset|feature|model)(?:\/|$)/;

function typeOf(req: RestRequest): ElementType {
  const type = ELEMENT_IN_PATTERN.exec(req.pattern ?? '')?.[1] as ElementType | undefined;
  if (type === undefined || !ELEMENT_TYPES.includes(type)) throw new EsError(500, 'illegal_state_exception', `no element type in the route [${req.pattern}]`);
  return type;
}

function invalid(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

/** A feature as the plugin parses it (StoredFeature): `params` a list (one name alone is one), a template, its language. */
function parseFeature(value: unknown, name: string | undefined): JsonMap {
  if (!isMap(value)) throw invalid('Expected a feature object');
  const featureName = name ?? value.name;
  if (typeof featureName !== 'string' || featureName === '') throw invalid('Field [name] is mandatory');
  if (value.template === undefined) throw invalid(`Field [template] is mandatory in feature [${featureName}]`);
  const params = value.params === undefined ? [] : Array.isArray(value.params) ? value.params : [value.params];
  if (!params.every((p) => typeof p === 'string')) throw invalid(`Field [params] of feature [${featureName}] must be a list of names`);
  return { name: featureName, params, template_language: typeof value.template_language === 'string' ? value.template_language : 'mustache', template: value.template };
}

function parseFeatures(value: unknown): JsonMap[] {
  if (!Array.isArray(value)) throw invalid('Field [features] must be a list of features');
  const features = value.map((f) => parseFeature(f, undefined));
  const seen = new Set<string>();
  for (const f of features) {
    if (seen.has(f.name as string)) throw invalid(`Feature [${String(f.name)}] defined twice in this set: feature names must be unique in a set.`);
    seen.add(f.name as string);
  }
  return features;
}

function parseFeatureSet(value: unknown, name: string): JsonMap {
  if (!isMap(value)) throw invalid('Expected a featureset object');
  return { name, features: parseFeatures(value.features ?? []) };
}

function parseModelDefinition(value: unknown): JsonMap {
  if (!isMap(value) || typeof value.type !== 'string') throw invalid('Field [model.type] is mandatory');
  if (!MODEL_TYPES.has(value.type)) throw invalid(`Unknown model type [${value.type}]`);
  if (value.definition === undefined) throw invalid('Field [model.definition] is mandatory');
  return { type: value.type, definition: value.definition };
}

function parseModel(value: unknown, name: string): JsonMap {
  if (!isMap(value)) throw invalid('Expected a model object');
  const set = value.feature_set;
  if (!isMap(set)) throw invalid('Field [feature_set] is mandatory');
  return { name, feature_set: parseFeatureSet(set, typeof set.name === 'string' ? set.name : name), model: parseModelDefinition(value.model) };
}

function parseElement(type: ElementType, body: JsonMap | undefined, name: string): JsonMap {
  const value = body?.[type];
  if (value === undefined) throw invalid(`Element of type [${type}] is mandatory.`);
  return type === 'feature' ? parseFeature(value, name) : type === 'featureset' ? parseFeatureSet(value, name) : parseModel(value, name);
}

const SHARDS = { total: 1, successful: 1, failed: 0 };

/** An IndexResponse (or DeleteResponse) of the store's document, refreshed as the plugin writes. */
function writeAnswer(e: StoredElement, result: 'created' | 'updated' | 'deleted'): JsonMap {
  return { _index: storeIndex(e.store), _id: elementId(e.type, e.name), _version: e.version, result, forced_refresh: true, _shards: SHARDS, _seq_no: e.seqNo, _primary_term: 1 };
}

function hit(e: StoredElement): JsonMap {
  return { _index: storeIndex(e.store), _id: elementId(e.type, e.name), _score: 1, _source: e.source };
}

// Stores ------------------------------------------------------------------------------------------

async function putStore(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const store = storeOf(req);
  await ctx.ltr.create(store);
  return { status: 200, body: { acknowledged: true, shards_acknowledged: true, index: storeIndex(store) } };
}

async function deleteStore(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.ltr.drop(storeOf(req));
  return { status: 200, body: { acknowledged: true } };
}

function getStores(req: RestRequest, ctx: EngineContext): RestResponse {
  if (req.pathParams.store !== undefined) {
    const exists = ctx.ltr.exists(req.pathParams.store);
    return { status: exists ? 200 : 404, body: { exists } };
  }
  const stores = Object.fromEntries(ctx.ltr.storeNames().map((s) => [s, { store: s, index: storeIndex(s), version: 2, counts: ctx.ltr.counts(s) }]));
  return { status: 200, body: { stores } };
}

// Elements ----------------------------------------------------------------------------------------

function listElements(req: RestRequest, ctx: EngineContext): RestResponse {
  const all = ctx.ltr.list(storeOf(req), typeOf(req), req.params.get('prefix') ?? undefined);
  const from = integerParam(req.params, 'from') ?? 0;
  const size = integerParam(req.params, 'size') ?? 20;
  const page = all.slice(from, from + size);
  return {
    status: 200,
    body: {
      took: 0, timed_out: false, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: { total: { value: all.length, relation: 'eq' }, max_score: page.length ? 1 : null, hits: page.map(hit) },
    },
  };
}

function getElement(req: RestRequest, ctx: EngineContext): RestResponse {
  const store = storeOf(req);
  const type = typeOf(req);
  const e = ctx.ltr.get(store, type, req.pathParams.name);
  if (!e) return { status: 404, body: { _index: storeIndex(store), _id: elementId(type, req.pathParams.name), found: false } };
  return { status: 200, body: { _index: storeIndex(store), _id: elementId(type, e.name), _version: e.version, _seq_no: e.seqNo, _primary_term: 1, found: true, _source: e.source } };
}

/** PUT creates (a conflict when it exists), POST replaces; a model, once made, is never replaced. */
async function putElement(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const type = typeOf(req);
  const create = req.method === 'PUT';
  if (!create && type === 'model') throw invalid('Element of type [model] are not updatable, please create a new one instead.');
  const element = parseElement(type, requestBody(req), req.pathParams.name);
  const { stored, created } = await ctx.ltr.put(storeOf(req), type, req.pathParams.name, element, create);
  return { status: created ? 201 : 200, body: writeAnswer(stored, created ? 'created' : 'updated') };
}

async function deleteElement(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const store = storeOf(req);
  const type = typeOf(req);
  const gone = await ctx.ltr.delete(store, type, req.pathParams.name);
  if (!gone) {
    return { status: 404, body: { _index: storeIndex(store), _id: elementId(type, req.pathParams.name), _version: 1, result: 'not_found', _shards: SHARDS, _seq_no: -2, _primary_term: 0 } };
  }
  return { status: 200, body: writeAnswer(gone, 'deleted') };
}

/** A wildcard name query (`*`, `?`), as the plugin's `_addfeatures/{query}` matches feature names. */
function nameMatcher(query: string): (name: string) => boolean {
  const re = new RegExp(`^${query.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return (name) => re.test(name);
}

/** Adds features to a set (made when missing): the body's, or the store's features whose names match `{query}`; `merge` replaces same-named ones. */
async function addFeatures(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const store = storeOf(req);
  const name = req.pathParams.name;
  const query = req.pathParams.query;
  const body = requestBody(req);
  if (query !== undefined && body?.features !== undefined) throw invalid('features must be provided as a query for the feature store or in the body, not both');
  let added: JsonMap[];
  if (query !== undefined) {
    const matches = nameMatcher(query);
    added = ctx.ltr.list(store, 'feature', undefined).filter((f) => matches(f.name)).map((f) => f.source.feature as JsonMap);
    if (!added.length) throw invalid(`The feature query [${query}] returned no features`);
  } else {
    if (body === undefined || body.features === undefined) throw invalid('features must be provided as a query for the feature store or in the body');
    added = parseFeatures(body.features);
  }
  const merge = booleanParam(req.params, 'merge', false);
  const current = ctx.ltr.get(store, 'featureset', name);
  const existing = ((current?.source.featureset as JsonMap | undefined)?.features as JsonMap[] | undefined) ?? [];
  const addedNames = new Set(added.map((f) => f.name));
  const kept = merge ? existing.filter((f) => !addedNames.has(f.name)) : existing;
  const features = [...kept, ...added];
  parseFeatures(features);
  const { stored, created } = await ctx.ltr.put(store, 'featureset', name, { name, features }, false);
  return { status: created ? 201 : 200, body: writeAnswer(stored, created ? 'created' : 'updated') };
}

/** A model from a stored feature set (its features copied in): made once. */
async function createModel(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const store = storeOf(req);
  const set = ctx.ltr.get(store, 'featureset', req.pathParams.name);
  if (!set) throw new EsError(404, 'resource_not_found_exception', `Unknown featureset [${req.pathParams.name}]`);
  const spec = requestBody(req)?.model;
  if (!isMap(spec) || typeof spec.name !== 'string' || spec.name === '') throw invalid('Field [model.name] is mandatory');
  if (ctx.ltr.get(store, 'model', spec.name)) throw new EsError(405, 'status_exception', 'Element of type [model] are not updatable, please create a new one instead.');
  const model = { name: spec.name, feature_set: set.source.featureset as JsonMap, model: parseModelDefinition(spec.model) };
  const { stored } = await ctx.ltr.put(store, 'model', spec.name, model, true);
  return { status: 201, body: writeAnswer(stored, 'created') };
}

// Caches and stats --------------------------------------------------------------------------------

const EMPTY_CACHE = { ram: 0, count: 0 };

function cacheStats(_req: RestRequest, ctx: EngineContext): Promise<RestResponse> | RestResponse {
  const stats = { total: EMPTY_CACHE, features: EMPTY_CACHE, featuresets: EMPTY_CACHE, models: EMPTY_CACHE };
  const answer = nodesResponse(ctx, [], () => ({ name: ctx.nodeName, hostname: ctx.node.host, stats }));
  const withAll = (r: RestResponse): RestResponse => {
    const { nodes, ...header } = r.body as Record<string, unknown>;
    return { ...r, body: { ...header, all: stats, stores: {}, nodes } };
  };
  return answer instanceof Promise ? answer.then(withAll) : withAll(answer);
}

function clearCache(req: RestRequest, ctx: EngineContext): RestResponse {
  ctx.ltr.require(storeOf(req));
  return { status: 200, body: { acknowledged: true } };
}

const CACHE_COUNTS = { eviction_count: 0, miss_count: 0, hit_count: 0, entry_count: 0, memory_usage_in_bytes: 0 };
const NODE_STATS: Record<string, unknown> = {
  cache: { feature: CACHE_COUNTS, featureset: CACHE_COUNTS, model: CACHE_COUNTS },
  request_total_count: 0,
  request_error_count: 0,
};

function ltrStats(req: RestRequest, ctx: EngineContext): Promise<RestResponse> | RestResponse {
  const cluster: Record<string, unknown> = {
    status: 'green',
    stores: Object.fromEntries(ctx.ltr.storeNames().map((s) => {
      const c = ctx.ltr.counts(s);
      return [storeIndex(s), { model_count: c.model, featureset_count: c.featureset, feature_count: c.feature, status: 'green' }];
    })),
  };
  const asked = (req.pathParams.stat ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = asked.filter((s) => !Object.hasOwn(NODE_STATS, s) && !Object.hasOwn(cluster, s));
  if (unknown.length) throw invalid(`request [${req.path}] contains unrecognized stats: [${unknown.join(', ')}]`);
  const pick = (stats: Record<string, unknown>) => (asked.length ? Object.fromEntries(Object.entries(stats).filter(([k]) => asked.includes(k))) : stats);
  const nodeIds = (req.pathParams.node_id ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const answer = nodesResponse(ctx, nodeIds, () => pick(NODE_STATS) as never);
  const withCluster = (r: RestResponse): RestResponse => {
    const { nodes, ...header } = r.body as Record<string, unknown>;
    return { ...r, body: { ...header, ...pick(cluster), nodes } };
  };
  return answer instanceof Promise ? answer.then(withCluster) : withCluster(answer);
}

export const learningToRankRoutes: Route[] = [
  { id: 'opensearch.ltr_put_store', handler: putStore },
  { id: 'opensearch.ltr_get_stores', handler: getStores },
  { id: 'opensearch.ltr_delete_store', handler: deleteStore },
  { id: 'opensearch.ltr_list_elements', handler: listElements },
  { id: 'opensearch.ltr_get_element', handler: getElement },
  { id: 'opensearch.ltr_put_element', handler: putElement },
  { id: 'opensearch.ltr_delete_element', handler: deleteElement },
  { id: 'opensearch.ltr_add_features', handler: addFeatures },
  { id: 'opensearch.ltr_create_model', handler: createModel },
  { id: 'opensearch.ltr_cache_stats', handler: cacheStats },
  { id: 'opensearch.ltr_clear_cache', handler: clearCache },
  { id: 'opensearch.ltr_stats', handler: ltrStats },
];
