/**
 * OpenSearch's geospatial plugin's GeoJSON upload (`_plugins/geospatial/geojson/_upload`): the
 * Features of `data` (each a Feature, or a FeatureCollection's) become documents of `index`, as
 * the plugin's feature processor makes them — the Feature's `type` dropped, its `properties` as
 * the document's own fields, its `geometry` under `field` (mapped as `type` when the upload creates
 * the index), its `id` the document's id. POST creates the index (an existing one: 400
 * resource_already_exists_exception); PUT also adds to an existing one. `_upload/stats` counts the
 * uploads this node ran (UploadStats): requests, then per upload its documents, successes,
 * failures and duration.
 */
import { EsError } from '../../../../errors/index.js';
import type { Indices, JsonObject, PreparedWrite } from '../../indices/index.js';
import { isMap } from '../../ingest/index.js';
import { requestBody } from '../body.js';
import { generateId, UrlParams, validateId, writeParams } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

interface UploadMetric { id: string; type: string; upload: number; success: number; failed: number; duration: number }

/** Each engine's uploads (by its indices), since it started. */
const STATS = new WeakMap<Indices, { requests: number; metrics: UploadMetric[] }>();

function statsOf(ctx: EngineContext): { requests: number; metrics: UploadMetric[] } {
  let stats = STATS.get(ctx.indices);
  if (!stats) STATS.set(ctx.indices, (stats = { requests: 0, metrics: [] }));
  return stats;
}

function requiredText(body: JsonObject, name: string): string {
  const v = body[name];
  if (typeof v !== 'string' || !v.trim()) throw new EsError(400, 'illegal_argument_exception', `field [ ${name} ] cannot be empty`);
  return v;
}

/** The Features of one `data` item (GeospatialParser.getFeatures): a Feature, or a FeatureCollection's features; anything else none. */
function featuresOf(item: unknown): JsonObject[] {
  if (!isMap(item)) return [];
  if (item.type === 'Feature') return [item as JsonObject];
  if (item.type === 'FeatureCollection' && Array.isArray(item.features)) return item.features.filter((f): f is JsonObject => isMap(f) && f.type === 'Feature');
  return [];
}

/** The document a Feature becomes (FeatureProcessor). */
function documentOf(feature: JsonObject, field: string): JsonObject {
  const { type: _type, properties, geometry, ...rest } = feature;
  if (!isMap(geometry)) throw new EsError(400, 'illegal_argument_exception', 'geometry cannot be null');
  return { ...rest, ...(isMap(properties) ? properties : {}), [field]: geometry };
}

async function upload(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const started = Date.now();
  const stats = statsOf(ctx);
  stats.requests++;
  const body = requestBody(req);
  if (!isMap(body)) throw new EsError(400, 'illegal_argument_exception', 'input cannot be null');
  const index = requiredText(body, 'index');
  const field = requiredText(body, 'field');
  const type = requiredText(body, 'type');
  if (body.data === undefined || body.data === null) throw new EsError(400, 'illegal_argument_exception', 'field [ data ] cannot be empty');
  if (!Array.isArray(body.data)) throw new EsError(400, 'illegal_argument_exception', `${JSON.stringify(body.data)} is not an instance of List`);
  const features = body.data.flatMap(featuresOf);
  // an existing index (or alias) is written as the caller may write it (checked before it is told to exist)
  let handle = ctx.indices.get(index) || ctx.indices.aliasTargets(index).length ? ctx.indices.writeTarget(index).handle : undefined;
  if (handle && req.method === 'POST') throw new EsError(400, 'resource_already_exists_exception', `index [${index}/${handle.uuid}] already exists`, { index, index_uuid: handle.uuid });
  if (!features.length) throw new EsError(500, 'illegal_state_exception', 'No valid features are available to index');
  handle ??= await ctx.indices.create(index, { mappings: { properties: { [field]: { type } } } });
  const prepared: PreparedWrite[] = [];
  const failures: JsonObject[] = [];
  for (const feature of features) {
    const id = typeof feature.id === 'string' || typeof feature.id === 'number' ? String(feature.id) : generateId();
    try {
      validateId(id);
      const source = documentOf(feature, field);
      prepared.push(handle.indexDocument(id, source, JSON.stringify(source), writeParams(UrlParams.NONE)));
    } catch (err) {
      const e = err instanceof EsError ? err : new EsError(400, 'mapper_parsing_exception', String(err));
      failures.push({ id, status: e.status, message: `[${index}/${handle.uuid}][${id}] ${e.type}: ${e.reason}` });
    }
  }
  await ctx.indices.commit(prepared);
  const took = Date.now() - started;
  stats.metrics.push({ id: generateId(), type: 'geojson', upload: features.length, success: prepared.length, failed: failures.length, duration: took });
  const answer: JsonObject = { took, errors: failures.length > 0, total: features.length, success: prepared.length, failure: failures.length };
  return { status: 200, body: failures.length ? { ...answer, failures } : answer };
}

/** UploadStatsResponse: the totals over the uploads, and each upload's figures. */
function uploadStats(_req: RestRequest, ctx: EngineContext): RestResponse {
  const stats = statsOf(ctx);
  const sum = (key: 'upload' | 'success' | 'failed' | 'duration') => stats.metrics.reduce((n, m) => n + m[key], 0);
  return {
    status: 200,
    body: {
      total: { request_count: stats.requests, upload: sum('upload'), success: sum('success'), failed: sum('failed'), duration: sum('duration') },
      metrics: stats.metrics.map((m) => ({ ...m })),
    },
  };
}

export const geojsonRoutes: Route[] = [
  { id: 'opensearch.geospatial_geojson_upload', handler: upload },
  { id: 'opensearch.geospatial_upload_stats', handler: uploadStats },
];
