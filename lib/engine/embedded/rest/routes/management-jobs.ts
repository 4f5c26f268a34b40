/**
 * The index-management plugin's rollup jobs (`_plugins/_rollup/jobs`) and transform jobs
 * (`_plugins/_transform`) over the engine's kept jobs (ManagementJobs): put (created once, or
 * updated at `if_seq_no`/`if_primary_term`), read, listed (transforms), deleted, started and
 * stopped (their `enabled` flag), explained as before a first run; a transform previewed from its
 * source. No job runs here: no rollup or transform target index is written.
 */
import { EsError } from '../../../../errors/index.js';
import { isMap, type JsonMap } from '../../ingest/index.js';
import type { JobKind, StoredJob } from '../../index-state-management/index.js';
import { requestBody } from '../body.js';
import { UrlParams } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { intParam } from './index-state-management.js';
import { executeSearch } from './search.js';

/** The plugin's config index, which its answers name. */
const CONFIG_INDEX = '.opendistro-ism-config';

const jobDocument = (j: StoredJob): Record<string, unknown> => ({ _id: j.id, _version: j.version, _seq_no: j.seqNo, _primary_term: j.primaryTerm, [j.kind]: j.job });

function putJob(kind: JobKind) {
  return async (req: RestRequest, ctx: EngineContext): Promise<RestResponse> => {
    const cond = { ifSeqNo: intParam(req, 'if_seq_no'), ifPrimaryTerm: intParam(req, 'if_primary_term') };
    const { stored, created } = await ctx.jobs.put(kind, req.pathParams.id, requestBody(req), cond);
    return { status: created ? 201 : 200, body: jobDocument(stored) };
  };
}

function getJob(kind: JobKind) {
  return (req: RestRequest, ctx: EngineContext): RestResponse => ({ status: 200, body: jobDocument(ctx.jobs.require(kind, req.pathParams.id)) });
}

function enableJob(kind: JobKind, enabled: boolean) {
  return async (req: RestRequest, ctx: EngineContext): Promise<RestResponse> => {
    await ctx.jobs.enable(kind, req.pathParams.id, enabled);
    return { status: 200, body: { acknowledged: true } };
  };
}

/** Before its first run a job has no metadata: the plugin explains it so. */
function explainJob(kind: JobKind) {
  return (req: RestRequest, ctx: EngineContext): RestResponse => {
    const ids = req.pathParams.id.split(',');
    for (const id of ids) ctx.jobs.require(kind, id);
    return { status: 200, body: Object.fromEntries(ids.map((id) => [id, { metadata_id: null, [`${kind}_metadata`]: null }])) };
  };
}

/** A rollup's DELETE answers the config document's deletion; a transform's, a bulk response of it. */
function deleteJob(kind: JobKind) {
  return async (req: RestRequest, ctx: EngineContext): Promise<RestResponse> => {
    const gone = await ctx.jobs.delete(kind, req.pathParams.id);
    const doc = { _index: CONFIG_INDEX, _id: req.pathParams.id, _version: gone?.version ?? 1, result: gone ? 'deleted' : 'not_found', forced_refresh: true, _shards: { total: 1, successful: 1, failed: 0 }, _seq_no: gone?.seqNo ?? -2, _primary_term: gone ? 1 : 0 };
    if (kind === 'rollup') return { status: gone ? 200 : 404, body: doc };
    const { forced_refresh: _r, ...item } = doc;
    void _r;
    return { status: 200, body: { took: 0, errors: !gone, items: [{ delete: { ...item, status: gone ? 200 : 404 } }] } };
  };
}

function listTransforms(_req: RestRequest, ctx: EngineContext): RestResponse {
  const all = ctx.jobs.all('transform');
  return { status: 200, body: { total_transforms: all.length, transforms: all.map((j) => ({ _id: j.id, _seq_no: j.seqNo, _primary_term: j.primaryTerm, transform: j.job })) } };
}

/** The most documents a preview answers (the plugin's preview page). */
const PREVIEW_SIZE = 10;

/** A transform group as a composite source under its target field: terms, histogram or date_histogram. */
function compositeSource(group: unknown): [string, JsonMap] {
  const [type, spec] = isMap(group) ? Object.entries(group)[0] ?? [] : [];
  if (!['terms', 'histogram', 'date_histogram'].includes(type as string) || !isMap(spec) || typeof spec.source_field !== 'string') {
    throw new EsError(400, 'illegal_argument_exception', `Invalid group [${JSON.stringify(group)}]: terms, histogram or date_histogram with a source_field`);
  }
  const { source_field: field, target_field: target, timezone, ...options } = spec;
  const source: JsonMap = { field, ...options, ...(timezone === undefined ? {} : { time_zone: timezone }) };
  return [typeof target === 'string' ? target : field, { [type as string]: source }];
}

/**
 * A transform's preview: its groups as a composite aggregation over the source index (its
 * `data_selection_query` selecting), its aggregations under each bucket; each bucket one document
 * of the target (the group values under their target fields, each aggregation's value, the count).
 */
async function previewTransform(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const transform = requestBody(req)?.transform;
  if (!isMap(transform) || typeof transform.source_index !== 'string' || !Array.isArray(transform.groups) || !transform.groups.length) {
    throw new EsError(400, 'illegal_argument_exception', 'A transform needs a source_index and at least one group');
  }
  const sources = transform.groups.map((g) => Object.fromEntries([compositeSource(g)]));
  const aggregations = isMap(transform.aggregations) ? transform.aggregations : {};
  const body = { size: 0, query: transform.data_selection_query ?? { match_all: {} }, aggs: { groups: { composite: { size: PREVIEW_SIZE, sources }, aggs: aggregations } } };
  const result = await executeSearch(ctx, transform.source_index, UrlParams.NONE, body, req.started);
  const buckets = ((result.aggregations as JsonMap).groups as JsonMap).buckets as JsonMap[];
  const documents = buckets.map((b) => {
    const doc: JsonMap = { ...(b.key as JsonMap), 'transform._doc_count': b.doc_count, _doc_count: b.doc_count };
    for (const name of Object.keys(aggregations)) {
      const agg = b[name];
      doc[name] = isMap(agg) && 'value' in agg ? agg.value : agg;
    }
    return doc;
  });
  return { status: 200, body: { documents } };
}

export const managementJobRoutes: Route[] = [
  { id: 'opensearch.rollup_put', handler: putJob('rollup') },
  { id: 'opensearch.rollup_get', handler: getJob('rollup') },
  { id: 'opensearch.rollup_delete', handler: deleteJob('rollup') },
  { id: 'opensearch.rollup_start', handler: enableJob('rollup', true) },
  { id: 'opensearch.rollup_stop', handler: enableJob('rollup', false) },
  { id: 'opensearch.rollup_explain', handler: explainJob('rollup') },
  { id: 'opensearch.transform_put', handler: putJob('transform') },
  { id: 'opensearch.transform_get', handler: getJob('transform') },
  { id: 'opensearch.transform_list', handler: listTransforms },
  { id: 'opensearch.transform_delete', handler: deleteJob('transform') },
  { id: 'opensearch.transform_start', handler: enableJob('transform', true) },
  { id: 'opensearch.transform_stop', handler: enableJob('transform', false) },
  { id: 'opensearch.transform_explain', handler: explainJob('transform') },
  { id: 'opensearch.transform_preview', handler: previewTransform },
];
