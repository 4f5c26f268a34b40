import { EsError, errors } from '../../../../errors/index.js';
import { flattenSettings, type IndexHandle } from '../../indices/index.js';
import type { PreparedWrite } from '../../indices/index-handle.js';
import { isBlocked } from '../../indices/index-blocks.js';
import type { JsonObject } from '../../indices/deep.js';
import type { StoreWrite } from '../../store/index.js';
import { requestBody } from '../body.js';
import { booleanParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { inBackground } from './background-task.js';
import { dialectWarning } from '../dialect.js';
import { timeValue } from './search-target.js';

type ResizeType = 'clone' | 'split' | 'shrink';

/** Settings that name the source index itself, never copied to the target. */
const OWN_SETTINGS = new Set([
  'index.uuid', 'index.creation_date', 'index.provided_name', 'index.version.created', 'index.number_of_shards',
  'index.number_of_routing_shards', 'index.verified_before_close', 'index.resize.source.name', 'index.resize.source.uuid',
]);

/** Documents copied per store commit. */
const COPY_BATCH = 500;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The target's shard count, checked as IndexMetadata.getRoutingFactor and the resize request check it. */
function targetShards(type: ResizeType, source: number, requested: number | undefined): number {
  if (type === 'clone') {
    if (requested !== undefined && requested !== source) {
      throw new EsError(400, 'illegal_argument_exception', `the number of target shards [${requested}] must be the same as source shards [${source}]`);
    }
    return source;
  }
  if (type === 'split') {
    if (requested === undefined) throw new EsError(400, 'illegal_argument_exception', 'index.number_of_shards is required for split operations');
    if (requested < source) throw new EsError(400, 'illegal_argument_exception', `the number of source shards [${source}] must be less that the number of target shards [${requested}]`);
    if (requested % source !== 0) throw new EsError(400, 'illegal_argument_exception', `the number of source shards [${source}] must be a factor of [${requested}]`);
    return requested;
  }
  const target = requested ?? 1;
  if (target > source) throw new EsError(400, 'illegal_argument_exception', `the number of target shards [${target}] must be less that the number of source shards [${source}]`);
  if (source % target !== 0) throw new EsError(400, 'illegal_argument_exception', `the number of source shards [${source}] must be a multiple of [${target}]`);
  return target;
}

const COPY_SETTINGS_DEPRECATED = {
  openSearch: 'parameter [copy_settings] is deprecated and will be removed in 3.0.0',
  elasticsearch: 'parameter [copy_settings] is deprecated and will be removed in 8.0.0',
};

/**
 * `PUT|POST /{index}/_clone|_split|_shrink/{target}`: a new index holding the source's documents
 * (with their versions and routing), mappings and settings (blocks included, as Elasticsearch
 * copies them — the request's settings override them, `null` clears one), plus the request's
 * aliases. The source must be write-blocked; the shard count follows each type's rules.
 * With OpenSearch's `wait_for_completion=false`, the request is checked and the target created,
 * then the copy runs as a task: the answer is its id, and `GET _tasks/{id}` the outcome.
 */
function resize(type: ResizeType) {
  return async (req: RestRequest, ctx: EngineContext): Promise<RestResponse> => {
    // OpenSearch's copy_settings, read before anything else: the settings are always copied here, as
    // copy_settings=true (or empty) asks; false is refused as RestResizeHandler refuses it
    if (!booleanParam(req.params, 'copy_settings', true)) {
      throw new EsError(400, 'illegal_argument_exception', 'parameter [copy_settings] can not be explicitly set to [false]');
    }
    // …and, named at all, it is deprecated (OpenSearch 2's RestResizeHandler; Elasticsearch 8's in its 7.x compatibility)
    const headers = req.params.has('copy_settings') ? { warning: dialectWarning(req, ctx, COPY_SETTINGS_DEPRECATED) } : undefined;
    const sourceName = req.pathParams.index;
    const targetName = req.pathParams.target;
    // the source's documents are read into the target (its creation is checked where it is created)
    ctx.access?.require([sourceName], 'read', 'indices:admin/resize');
    const source: IndexHandle | undefined = ctx.indices.get(sourceName);
    if (!source) throw errors.indexNotFound(sourceName);
    const body = requestBody(req) ?? {};
    const background = !booleanParam(req.params, 'wait_for_completion', true);
    const executionTimeout = req.params.get('task_execution_timeout');
    if (executionTimeout !== null) timeValue('task_execution_timeout', executionTimeout);
    for (const key of Object.keys(body)) {
      if (key === 'mappings') throw new EsError(400, 'illegal_argument_exception', 'mappings are not allowed when resizing indices, all mappings are copied from the source index');
      if (key !== 'settings' && key !== 'aliases') throw new EsError(400, 'parsing_exception', `[resize] unknown field [${key}]`, { line: 1, col: 1 });
    }
    // the shard count is checked first (TransportResizeAction, before the target is created and the
    // source's write block checked): a wrong count is a 400 whatever the source's state
    const requested = flattenSettings(isObject(body.settings) ? body.settings : {});
    const asked = requested['index.number_of_shards'];
    const shards = targetShards(type, Number(source.meta.settings['index.number_of_shards'] ?? '1'), asked === undefined || asked === null ? undefined : Number(asked));
    if (ctx.indices.get(targetName)) {
      const existing = ctx.indices.get(targetName)!;
      throw new EsError(400, 'resource_already_exists_exception', `index [${targetName}/${existing.uuid}] already exists`, { index_uuid: existing.uuid, index: targetName });
    }
    if (!isBlocked(source.meta.settings, 'write')) throw new EsError(500, 'illegal_state_exception', `index ${source.name} must be read-only to resize index. use "index.blocks.write=true"`);
    source.ensureOpen();

    const settings: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(source.meta.settings)) if (!OWN_SETTINGS.has(k)) settings[k] = v;
    for (const [k, v] of Object.entries(requested)) {
      if (v === null) delete settings[k];
      else settings[k] = v;
    }
    settings['index.number_of_shards'] = String(shards);
    settings['index.resize.source.name'] = source.name;
    settings['index.resize.source.uuid'] = source.uuid;
    // the copy is written before the blocks it inherits are set (they would refuse it)
    const blocks = Object.fromEntries(Object.entries(settings).filter(([k]) => k.startsWith('index.blocks.')));
    for (const k of Object.keys(blocks)) delete settings[k];
    const created = ctx.indices.createInMemory(targetName, { settings, mappings: source.meta.mappings, ...(body.aliases === undefined ? {} : { aliases: body.aliases }) } as JsonObject, false);
    const copy = async (): Promise<Record<string, unknown>> => {
      try {
        await copyDocuments(ctx, source, created.handle, created.writes);
        if (Object.keys(blocks).length) await ctx.indices.putSettings([created.handle], blocks);
      } catch (err) {
        await ctx.indices.delete([created.handle]).catch(() => undefined);
        throw err;
      }
      return { acknowledged: true, shards_acknowledged: true, index: targetName };
    };
    if (!background) return { status: 200, body: await copy(), headers };
    return { status: 200, body: { task: inBackground(ctx, 'indices:admin/resize', `resize from [${source.name}] to [${targetName}]`, copy) }, headers };
  };
}

/** The source's live documents into the target, their versions and routing kept (Elasticsearch hard-links the segments). */
async function copyDocuments(ctx: EngineContext, source: IndexHandle, target: IndexHandle, creation: StoreWrite[]): Promise<void> {
  const inverted = source.inverted!;
  const live = inverted.liveness;
  let pending: PreparedWrite[] = [];
  let extra = creation;
  const commit = async () => {
    await ctx.indices.commit(pending, extra);
    extra = [];
    pending = [];
  };
  for (let ord = 0; ord < inverted.maxOrd; ord++) {
    if (live[ord] !== 1) continue;
    const doc = source.get(inverted.idOf(ord)!);
    if (!doc) continue;
    pending.push(target.indexDocument(doc.id, doc.source, doc.sourceText ?? JSON.stringify(doc.source), { routing: doc.routing, version: doc.version, versionType: 'external' }));
    if (pending.length >= COPY_BATCH) await commit();
  }
  if (pending.length || extra.length) await commit();
}

export const resizeRoutes: Route[] = (['clone', 'split', 'shrink'] as const).map((type) => ({ id: `indices.${type}`, handler: resize(type) }));
