import { EsError } from '../../../../errors/index.js';
import { requireBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import type { ParamReader } from '../params.js';

const ACK: RestResponse = { status: 200, body: { acknowledged: true } };

/** A put's answer: 201 when it created the resource, 200 when it replaced it. */
function putResult(result: 'created' | 'updated'): RestResponse {
  return { status: result === 'created' ? 201 : 200, body: { result } };
}

/** `from` / `size` of GET _query_rules, as Elasticsearch's PageParams reads and refuses them. */
function pageParam(params: ParamReader, name: 'from' | 'size', dflt: number): number {
  const v = params.get(name);
  if (v === null) return dflt;
  const n = /^[+-]?\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n > 2147483647 || n < -2147483648) {
    throw new EsError(400, 'illegal_argument_exception', `Failed to parse int parameter [${name}] with value [${v}]`);
  }
  if (n < 0) throw new EsError(400, 'illegal_argument_exception', `Parameter [${name}] cannot be < 0`);
  return n;
}

async function putRuleset(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  return putResult(await ctx.queryRules.putRuleset(req.pathParams.ruleset_id, requireBody(req)));
}

function getRuleset(req: RestRequest, ctx: EngineContext): RestResponse {
  return { status: 200, body: ctx.queryRules.getRuleset(req.pathParams.ruleset_id) };
}

async function deleteRuleset(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.queryRules.deleteRuleset(req.pathParams.ruleset_id);
  return ACK;
}

function listRulesets(req: RestRequest, ctx: EngineContext): RestResponse {
  const from = pageParam(req.params, 'from', 0);
  const size = pageParam(req.params, 'size', 100);
  return { status: 200, body: ctx.queryRules.list(from, size) };
}

async function putRule(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  return putResult(await ctx.queryRules.putRule(req.pathParams.ruleset_id, req.pathParams.rule_id, requireBody(req)));
}

function getRule(req: RestRequest, ctx: EngineContext): RestResponse {
  return { status: 200, body: ctx.queryRules.getRule(req.pathParams.ruleset_id, req.pathParams.rule_id) };
}

async function deleteRule(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.queryRules.deleteRule(req.pathParams.ruleset_id, req.pathParams.rule_id);
  return ACK;
}

function testRuleset(req: RestRequest, ctx: EngineContext): RestResponse {
  return { status: 200, body: ctx.queryRules.test(req.pathParams.ruleset_id, requireBody(req)) };
}

/** The query rules API (Elasticsearch 8.15): rulesets, their single rules, and a test of match criteria. */
export const queryRulesRoutes: Route[] = [
  { id: 'query_rules.list_rulesets', handler: listRulesets },
  { id: 'query_rules.put_ruleset', handler: putRuleset },
  { id: 'query_rules.get_ruleset', handler: getRuleset },
  { id: 'query_rules.delete_ruleset', handler: deleteRuleset },
  { id: 'query_rules.put_rule', handler: putRule },
  { id: 'query_rules.get_rule', handler: getRule },
  { id: 'query_rules.delete_rule', handler: deleteRule },
  { id: 'query_rules.test', handler: testRuleset },
];
