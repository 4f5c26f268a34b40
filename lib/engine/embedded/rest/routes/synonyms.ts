/**
 * The synonyms management API (`/_synonyms`, ES 8.10+) and `_reload_search_analyzers`.
 *
 * Every change to a set answers, beside its result, the reload of the search analyzers that read
 * the set over all open indices (ES's `reload_analyzers_details`): the next search on those
 * indices uses the new rules.
 */
import { EsError } from '../../../../errors/index.js';
import { reloadSearchAnalyzers, synonymRuleSyntaxError, type IndexHandle, type UpdateResult } from '../../indices/index.js';
import { jsonErrorReason } from '../body.js';
import { booleanParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { resolveIndices } from './resolve.js';

/** ES's bound on `from + size` of the synonyms listings. */
const MAX_RESULTS = 10_000;
/** ES's bound on a rule's stored id (`{set}|{rule}`), a document id in ES. */
const MAX_ID_BYTES = 512;

/** ES wraps every failure to read a synonyms body in this error, quoting the body. */
function unparsable(body: string, cause: string): EsError {
  return new EsError(400, 'illegal_argument_exception', `Failed to parse: ${body}`, { caused_by: { type: 'x_content_parse_exception', reason: cause } });
}

function jsonBody(req: RestRequest): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(req.body);
  } catch (err) {
    throw unparsable(req.body, jsonErrorReason(err, req.body));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw unparsable(req.body, 'Malformed content, must start with an object');
  return value as Record<string, unknown>;
}

function onlyFields(req: RestRequest, parser: string, obj: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(obj).find((k) => !allowed.includes(k));
  if (unknown !== undefined) throw unparsable(req.body, `[${parser}] unknown field [${unknown}]`);
}

/** `{"synonyms_set": [{"id"?: string, "synonyms": string}]}` */
function setRules(req: RestRequest): Array<{ id?: string; synonyms: string }> {
  const body = jsonBody(req);
  onlyFields(req, 'synonyms_set', body, ['synonyms_set']);
  if (body.synonyms_set === undefined) throw unparsable(req.body, 'Required [synonyms_set]');
  if (!Array.isArray(body.synonyms_set)) throw unparsable(req.body, '[synonyms_set] failed to parse field [synonyms_set]');
  return body.synonyms_set.map((rule: unknown) => {
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) throw unparsable(req.body, '[synonyms_set] failed to parse field [synonyms_set]');
    const r = rule as Record<string, unknown>;
    onlyFields(req, 'synonym_rule', r, ['id', 'synonyms']);
    if (r.id !== undefined && r.id !== null && typeof r.id !== 'string') throw unparsable(req.body, '[synonym_rule] failed to parse field [id]');
    if (r.synonyms === undefined) throw unparsable(req.body, 'Required [synonyms]');
    if (typeof r.synonyms !== 'string') throw unparsable(req.body, '[synonym_rule] failed to parse field [synonyms]');
    return typeof r.id === 'string' ? { id: r.id, synonyms: r.synonyms } : { synonyms: r.synonyms };
  });
}

/** `{"synonyms": string}` */
function ruleSynonyms(req: RestRequest): string {
  const body = jsonBody(req);
  onlyFields(req, 'synonyms', body, ['synonyms']);
  if (body.synonyms === undefined) throw unparsable(req.body, 'Required [synonyms]');
  if (typeof body.synonyms !== 'string') throw unparsable(req.body, '[synonyms] failed to parse field [synonyms]');
  return body.synonyms;
}

/** ES's request validation: every problem of the request in one action_request_validation_exception. */
function validateRules(set: string, rules: ReadonlyArray<{ id?: string; synonyms: string }>): void {
  const problems: string[] = [];
  for (const rule of rules) {
    const internalId = `${set}|${rule.id ?? ''}`;
    const bytes = Buffer.byteLength(internalId);
    if (rule.id !== undefined && bytes > MAX_ID_BYTES) problems.push(`id [${internalId}] is too long, must be no longer than ${MAX_ID_BYTES} bytes but was: ${bytes}`);
    const error = synonymRuleSyntaxError(rule.synonyms);
    if (error !== undefined) problems.push(error);
  }
  if (problems.length) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`);
  }
}

function intParam(req: RestRequest, name: string, fallback: number): number {
  const v = req.params.get(name);
  if (v === null) return fallback;
  if (!/^[-+]?\d+$/.test(v) || !Number.isSafeInteger(Number(v)) || Math.abs(Number(v)) > 2 ** 31 - 1) {
    throw new EsError(400, 'illegal_argument_exception', `Failed to parse int parameter [${name}] with value [${v}]`);
  }
  return Number(v);
}

/** `from` / `size` of the listings (0 and 10 by default), validated as ES does. */
function pageParams(req: RestRequest): { from: number; size: number } {
  const from = intParam(req, 'from', 0);
  const size = intParam(req, 'size', 10);
  const problems: string[] = [];
  if (from < 0) problems.push('[from] must be a positive integer');
  if (size < 0) problems.push('[size] must be a positive integer');
  if (from + size > MAX_RESULTS) problems.push(`Too many results to retrieve. [from] + [size] must be less than or equal to ${MAX_RESULTS}`);
  if (problems.length) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`);
  }
  return { from, size };
}

/** The answer to a change of a set: its result and the reload of every open index's analyzers on the set. */
function changeAnswer(ctx: EngineContext, set: string, result: UpdateResult | 'deleted'): RestResponse {
  const details = reloadSearchAnalyzers(ctx.indices.resolve('*'), ctx.nodeName, set);
  return { status: result === 'created' ? 201 : 200, body: { result, reload_analyzers_details: details } };
}

async function putSet(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const set = req.pathParams.set;
  const rules = setRules(req);
  validateRules(set, rules);
  return changeAnswer(ctx, set, await ctx.indices.synonyms.put(set, rules));
}

function getSet(req: RestRequest, ctx: EngineContext): RestResponse {
  const { from, size } = pageParams(req);
  const { count, rules } = ctx.indices.synonyms.page(req.pathParams.set, from, size);
  return { status: 200, body: { count, synonyms_set: rules } };
}

function listSets(req: RestRequest, ctx: EngineContext): RestResponse {
  const { from, size } = pageParams(req);
  const summaries = ctx.indices.synonyms.summaries();
  return { status: 200, body: { count: summaries.length, results: summaries.slice(from, from + size) } };
}

async function deleteSet(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const set = req.pathParams.set;
  const users = ctx.indices.synonymsSetUsers(set);
  if (users.length) {
    throw new EsError(400, 'illegal_argument_exception', `synonyms set [${set}] cannot be deleted as it is used in the following indices: ${users.join(', ')}`);
  }
  await ctx.indices.synonyms.delete(set);
  return { status: 200, body: { acknowledged: true } };
}

function getRule(req: RestRequest, ctx: EngineContext): RestResponse {
  return { status: 200, body: ctx.indices.synonyms.rule(req.pathParams.set, req.pathParams.rule) };
}

async function putRule(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const { set, rule } = req.pathParams;
  const synonyms = ruleSynonyms(req);
  validateRules(set, [{ id: rule, synonyms }]);
  return changeAnswer(ctx, set, await ctx.indices.synonyms.putRule(set, rule, synonyms));
}

async function deleteRule(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const { set, rule } = req.pathParams;
  await ctx.indices.synonyms.deleteRule(set, rule);
  return changeAnswer(ctx, set, 'deleted');
}

/** `{index}/_reload_search_analyzers`: open indices only; a closed one is an error unless `ignore_unavailable`. */
function reload(req: RestRequest, ctx: EngineContext): RestResponse {
  const ignoreUnavailable = booleanParam(req.params, 'ignore_unavailable', false);
  const handles: IndexHandle[] = [];
  for (const h of resolveIndices(req, ctx)) {
    if (h.isOpen) handles.push(h);
    else if (!ignoreUnavailable) h.ensureOpen();
  }
  return { status: 200, body: reloadSearchAnalyzers(handles, ctx.nodeName, req.params.get('resource') ?? undefined) };
}

export const synonymsRoutes: Route[] = [
  { id: 'synonyms.get_synonyms_sets', handler: listSets },
  { id: 'synonyms.put_synonym', handler: putSet },
  { id: 'synonyms.get_synonym', handler: getSet },
  { id: 'synonyms.delete_synonym', handler: deleteSet },
  { id: 'synonyms.put_synonym_rule', handler: putRule },
  { id: 'synonyms.get_synonym_rule', handler: getRule },
  { id: 'synonyms.delete_synonym_rule', handler: deleteRule },
  { id: 'indices.reload_search_analyzers', handler: reload },
];
