/**
 * OpenSearch's Index State Management plugin APIs (`_plugins/_ism`), in the plugin's shapes, over
 * the engine's stored policies and managed indices (index-state-management/): policies are put,
 * read and deleted as the plugin does (conditional updates by sequence number and primary term);
 * add, remove and change_policy record which policy manages which index; explain tells it. No
 * ISM job runs here, so a managed index is never initialised into a state: retry finds none
 * failed, and explain answers as the plugin does before its job's first run.
 */
import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import type { ManagedIndex, StoredPolicy } from '../../index-state-management/index.js';
import { isMap } from '../../ingest/index.js';
import { requestBody, requireBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

/** The config index the plugin keeps its policies in (named in its delete answer). */
const CONFIG_INDEX = '.opendistro-ism-config';
const POLICY_SETTING = 'index.plugins.index_state_management.policy_id';
const LEGACY_POLICY_SETTING = 'index.opendistro.index_state_management.policy_id';

interface FailedIndex {
  index_name: string;
  index_uuid: string;
  reason: string;
}

const policyNotFound = (): EsError => new EsError(404, 'status_exception', 'Policy not found');

export function intParam(req: RestRequest, name: string): number | undefined {
  const raw = req.params.get(name);
  if (raw === null || raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new EsError(400, 'illegal_argument_exception', `Failed to parse [${name}] value [${raw}] as a number`);
  return n;
}

async function putPolicy(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const id = req.pathParams.policy_id ?? req.params.get('policyID') ?? undefined;
  if (!id) throw new EsError(400, 'illegal_argument_exception', 'Missing policy ID');
  const { stored, created } = await ctx.ism.put(id, requireBody(req), { ifSeqNo: intParam(req, 'if_seq_no'), ifPrimaryTerm: intParam(req, 'if_primary_term') });
  return {
    status: created ? 201 : 200,
    headers: { location: `/_plugins/_ism/policies/${id}` },
    body: { _id: id, _version: stored.version, _primary_term: stored.primaryTerm, _seq_no: stored.seqNo, policy: { policy: stored.policy } },
  };
}

const policyDocument = (p: StoredPolicy): Record<string, unknown> => ({ _id: p.id, _version: p.version, _seq_no: p.seqNo, _primary_term: p.primaryTerm, policy: p.policy });

function getPolicies(req: RestRequest, ctx: EngineContext): RestResponse {
  const id = req.pathParams.policy_id;
  if (id !== undefined) {
    const p = ctx.ism.get(id);
    if (!p) throw policyNotFound();
    return { status: 200, body: policyDocument(p) };
  }
  const from = intParam(req, 'from') ?? 0;
  const size = intParam(req, 'size') ?? 20;
  const query = (req.params.get('queryString') ?? '*').trim();
  const matching = ctx.ism.all().filter((p) => query === '*' || query === '' || p.id.includes(query.replace(/\*/g, '')));
  if (req.params.get('sortOrder') === 'desc') matching.reverse();
  return {
    status: 200,
    body: { policies: matching.slice(from, from + size).map(({ id: _id, seqNo, primaryTerm, policy }) => ({ _id, _seq_no: seqNo, _primary_term: primaryTerm, policy })), total_policies: matching.length },
  };
}

async function deletePolicy(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const id = req.pathParams.policy_id;
  const deleted = await ctx.ism.delete(id);
  return {
    status: deleted ? 200 : 404,
    body: {
      _index: CONFIG_INDEX, _id: id, _version: deleted?.version ?? 1, result: deleted ? 'deleted' : 'not_found', forced_refresh: true,
      _shards: { total: 2, successful: 1, failed: 0 }, _seq_no: deleted?.seqNo ?? -2, _primary_term: deleted?.primaryTerm ?? 0,
    },
  };
}

/** The indices a managed-index request is on: its path's, else its `index` parameter's (a request naming none is refused, as the plugin's). */
function targetIndices(req: RestRequest, ctx: EngineContext): IndexHandle[] {
  const expression = req.pathParams.index ?? req.params.get('index') ?? undefined;
  if (!expression) throw new EsError(400, 'illegal_argument_exception', 'Missing indices');
  return ctx.indices.resolve(expression, { expandWildcards: req.params.get('expand_wildcards') ?? undefined });
}

const outcome = (updated: number, failed: FailedIndex[]): RestResponse => ({
  status: 200,
  body: { updated_indices: updated, failures: failed.length > 0, failed_indices: failed },
});

function requiredPolicyId(req: RestRequest, ctx: EngineContext): string {
  const body = requireBody(req);
  const id = body.policy_id;
  if (typeof id !== 'string' || !id) throw new EsError(400, 'illegal_argument_exception', 'Missing policy_id');
  if (!ctx.ism.get(id)) throw new EsError(404, 'status_exception', `Could not find policy=${id}`);
  return id;
}

async function addPolicy(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const policyId = requiredPolicyId(req, ctx);
  const failed: FailedIndex[] = [];
  const added: ManagedIndex[] = [];
  for (const h of targetIndices(req, ctx)) {
    if (ctx.ism.managedIndex(h.uuid)) failed.push({ index_name: h.name, index_uuid: h.uuid, reason: 'This index already has a policy, use the update policy API to update index policies' });
    else added.push({ index: h.name, indexUuid: h.uuid, policyId, enabled: true });
  }
  await ctx.ism.manage(added);
  return outcome(added.length, failed);
}

async function removePolicy(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const failed: FailedIndex[] = [];
  const removed: string[] = [];
  for (const h of targetIndices(req, ctx)) {
    if (ctx.ism.managedIndex(h.uuid)) removed.push(h.uuid);
    else failed.push({ index_name: h.name, index_uuid: h.uuid, reason: 'This index does not have a policy to remove' });
  }
  await ctx.ism.unmanage(removed);
  return outcome(removed.length, failed);
}

/** change_policy: the index is managed by the new policy from now (with no job to wait for, at once); `state`/`include` are read, not kept. */
async function changePolicy(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const policyId = requiredPolicyId(req, ctx);
  const body = requireBody(req);
  if (body.state !== undefined && typeof body.state !== 'string') throw new EsError(400, 'illegal_argument_exception', '[state] must be a string');
  if (body.include !== undefined && !Array.isArray(body.include)) throw new EsError(400, 'illegal_argument_exception', '[include] must be an array');
  const failed: FailedIndex[] = [];
  const changed: ManagedIndex[] = [];
  for (const h of targetIndices(req, ctx)) {
    const current = ctx.ism.managedIndex(h.uuid);
    if (current) changed.push({ ...current, index: h.name, policyId });
    else failed.push({ index_name: h.name, index_uuid: h.uuid, reason: 'This index is not being managed.' });
  }
  await ctx.ism.manage(changed);
  return outcome(changed.length, failed);
}

/** retry: only a failed managed index is retried, and none fails here (no job runs its actions). */
function retry(req: RestRequest, ctx: EngineContext): RestResponse {
  const failed = targetIndices(req, ctx).map((h) => ({
    index_name: h.name,
    index_uuid: h.uuid,
    reason: ctx.ism.managedIndex(h.uuid) ? 'This index is not in failed state.' : 'This index is not being managed.',
  }));
  return outcome(0, failed);
}

function explainEntry(h: IndexHandle, m: ManagedIndex | undefined): Record<string, unknown> {
  if (!m) return { [POLICY_SETTING]: null, [LEGACY_POLICY_SETTING]: null, enabled: null };
  return { [POLICY_SETTING]: m.policyId, [LEGACY_POLICY_SETTING]: m.policyId, index: h.name, index_uuid: h.uuid, policy_id: m.policyId, enabled: m.enabled };
}

/** explain: each index named (managed or not), or every managed index; `filter.policy_id` of a POST body narrows the latter. */
function explain(req: RestRequest, ctx: EngineContext): RestResponse {
  const named = req.pathParams.index ?? req.params.get('index') ?? undefined;
  const filter = requestBody(req)?.filter;
  const policyFilter = isMap(filter) && typeof filter.policy_id === 'string' ? filter.policy_id : undefined;
  const body: Record<string, unknown> = {};
  let managed = 0;
  if (named) {
    for (const h of ctx.indices.resolve(named, { expandWildcards: req.params.get('expand_wildcards') ?? undefined })) {
      const m = ctx.ism.managedIndex(h.uuid);
      const shown = m && (!policyFilter || m.policyId === policyFilter) ? m : undefined;
      if (shown) managed++;
      body[h.name] = explainEntry(h, shown);
    }
  } else {
    const live = new Map(ctx.indices.all().map((h) => [h.uuid, h]));
    for (const m of ctx.ism.managedIndices((uuid) => live.has(uuid))) {
      if (policyFilter && m.policyId !== policyFilter) continue;
      managed++;
      body[m.index] = explainEntry(live.get(m.indexUuid)!, m);
    }
  }
  return { status: 200, body: { ...body, total_managed_indices: managed } };
}

export const ismRoutes: Route[] = [
  { id: 'opensearch.ism_put_policy', handler: putPolicy },
  { id: 'opensearch.ism_get_policies', handler: getPolicies },
  { id: 'opensearch.ism_delete_policy', handler: deletePolicy },
  { id: 'opensearch.ism_add_policy', handler: addPolicy },
  { id: 'opensearch.ism_remove_policy', handler: removePolicy },
  { id: 'opensearch.ism_change_policy', handler: changePolicy },
  { id: 'opensearch.ism_retry', handler: retry },
  { id: 'opensearch.ism_explain', handler: explain },
];
