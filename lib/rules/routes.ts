import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Principal } from '../auth/index.js';
import { patternsCoverPattern } from '../auth/classify/index.js';
import { EsError } from '../errors/index.js';
import { readJsonBody } from '../request/index.js';
import type { GatewayState } from '../auth/index.js';
import { parseRule, ruleView, type QueryRule } from './rule.js';
import { checkCompiles } from './rule-set.js';
import { actionFields, checkNoHiddenFields, settingsFields } from './hidden-fields.js';
import type { RuleStore } from './rule-store.js';
import { checkRelevancy, DEFAULT_RELEVANCY, type RelevancyStore } from './relevancy.js';

/** Rules (and relevancy documents) are held in memory by every node: their number and size are bounded. */
export const MAX_RULES = 10_000;
export const MAX_RULE_BYTES = 100 * 1024;

const tooLarge = (what: string, bytes: number) =>
  new EsError(400, 'illegal_argument_exception', `${what} is ${bytes} bytes of JSON, above the limit of ${MAX_RULE_BYTES}`);

/** A rule body read within the size a stored rule may have. */
async function readRuleBody(ctx: Parameters<Middleware<GatewayState>>[0], maxContentLength: number, what = 'the rule'): Promise<unknown> {
  const body = await readJsonBody(ctx, Math.min(maxContentLength, MAX_RULE_BYTES * 4));
  const bytes = Buffer.byteLength(JSON.stringify(body ?? null));
  if (bytes > MAX_RULE_BYTES) throw tooLarge(what, bytes);
  return body;
}

const methodNotAllowed = (path: string, method: string, allowed: string[]) =>
  new EsError(405, 'method_not_allowed', `Incorrect HTTP method for uri [${path}] and method [${method}], allowed: [${allowed.join(', ')}]`, {}, { Allow: allowed.join(',') });

const notFound = (id: string) => new EsError(404, 'resource_not_found_exception', `rule [${id}] not found`);

const notYours = (what: string, principal: Principal) =>
  new EsError(403, 'security_exception', `action [cluster:admin/gateway/rules] on rule [${what}] is unauthorized for user [${principal.username}]`);

/** The admin manages every rule; a scoped credential the ones it stored. */
const mayManage = (principal: Principal, rule: QueryRule) => principal.role === 'admin' || rule.owner?.username === principal.username;

/**
 * A scoped credential's rule: its index patterns must lie within the credential's own (absent:
 * exactly the credential's), and it applies within them only (`owner`).
 */
function owned(rule: QueryRule, principal: Principal): QueryRule {
  if (principal.role === 'admin') return rule;
  const own = principal.credential.indices;
  for (const pattern of rule.trigger.indices ?? []) {
    if (!patternsCoverPattern(own, pattern)) {
      throw new EsError(403, 'security_exception', `action [cluster:admin/gateway/rules/write] is unauthorized for user [${principal.username}] on indices [${pattern}]`);
    }
  }
  checkNoHiddenFields(principal, ruleFields(rule), 'cluster:admin/gateway/rules/write');
  return { ...rule, owner: { username: principal.username, indices: [...own] } };
}

/** The fields a rule makes a search read: its filters' and its search settings'. */
function ruleFields(rule: QueryRule): string[] {
  return rule.actions.flatMap(actionFields);
}

/**
 * The query rules API (category `rules`): `POST /_rule`, `PUT|GET|DELETE /_rule/{id}`,
 * `GET /_rules` (evaluation order), `PUT /_rules/_order` (`{"ids": [...]}`).
 */
export function ruleRoutes(rules: RuleStore, maxContentLength: number): Middleware<GatewayState> {
  return async (ctx) => {
    const info = ctx.state.request;
    const principal = ctx.state.principal;
    const [head, id, extra] = info.segments;
    if (extra !== undefined || (head === '_rules' && id !== undefined && id !== '_order')) {
      throw new EsError(400, 'illegal_argument_exception', `no handler found for uri [${ctx.path}] and method [${ctx.method}]`);
    }
    if (head === '_rules') {
      if (id === '_order') {
        if (ctx.method !== 'PUT' && ctx.method !== 'POST') throw methodNotAllowed(ctx.path, ctx.method, ['PUT', 'POST']);
        const body = (await readJsonBody(ctx, maxContentLength)) as { ids?: unknown } | undefined;
        const ids = body?.ids;
        if (!Array.isArray(ids) || !ids.every((x) => typeof x === 'string') || new Set(ids).size !== ids.length) {
          throw new EsError(400, 'illegal_argument_exception', '[ids] must be a list of distinct rule ids');
        }
        for (const rid of ids as string[]) {
          const rule = rules.get(rid);
          if (!rule) throw notFound(rid);
          if (!mayManage(principal, rule)) throw notYours(rid, principal);
        }
        const ordered = await rules.reorder(ids as string[]);
        ctx.body = { acknowledged: true, rules: ordered.filter((r) => mayManage(principal, r)).map((r) => r.id) };
        return;
      }
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw methodNotAllowed(ctx.path, ctx.method, ['GET']);
      ctx.body = { rules: rules.list().filter((r) => mayManage(principal, r)).map((r) => ({ ...ruleView(r), usage: rules.usageOf(r.id) })) };
      return;
    }
    if (id === undefined) {
      if (ctx.method !== 'POST') throw methodNotAllowed(ctx.path, ctx.method, ['POST']);
      const body = await readRuleBody(ctx, maxContentLength);
      const given = (body as { id?: unknown } | undefined)?.id;
      const ruleId = typeof given === 'string' ? given : randomUUID();
      if (rules.get(ruleId)) throw new EsError(409, 'resource_already_exists_exception', `rule [${ruleId}] already exists; PUT /_rule/${ruleId} replaces it`);
      if (rules.size >= MAX_RULES) throw new EsError(400, 'illegal_argument_exception', `a gateway holds at most ${MAX_RULES} rules`);
      const rule = owned(parseRule(body, ruleId), principal);
      checkCompiles(rule);
      await rules.put(rule);
      ctx.status = 201;
      ctx.body = { _id: ruleId, result: 'created', rule: ruleView(rule) };
      return;
    }
    const existing = rules.get(id);
    if (existing && !mayManage(principal, existing)) throw notYours(id, principal);
    switch (ctx.method) {
      case 'GET':
      case 'HEAD':
        if (!existing) throw notFound(id);
        ctx.body = { _id: id, found: true, rule: { ...ruleView(existing), usage: rules.usageOf(id) } };
        return;
      case 'PUT':
      case 'POST': {
        if (id.startsWith('.')) throw new EsError(400, 'illegal_argument_exception', `rule id [${id}] must not start with [.]`);
        if (!existing && rules.size >= MAX_RULES) throw new EsError(400, 'illegal_argument_exception', `a gateway holds at most ${MAX_RULES} rules`);
        const rule = owned(parseRule(await readRuleBody(ctx, maxContentLength), id), principal);
        if (principal.role === 'admin' && existing?.owner) rule.owner = existing.owner;
        checkCompiles(rule);
        const created = await rules.put(rule);
        ctx.status = created ? 201 : 200;
        ctx.body = { _id: id, result: created ? 'created' : 'updated', rule: ruleView(rule) };
        return;
      }
      case 'DELETE':
        if (!existing || !(await rules.delete(id))) throw notFound(id);
        ctx.body = { _id: id, result: 'deleted' };
        return;
      default:
        throw methodNotAllowed(ctx.path, ctx.method, ['GET', 'PUT', 'DELETE']);
    }
  };
}

/**
 * The search relevancy API (category `searchrelevancy`): `GET|PUT|DELETE /_searchrelevancy/{index}`
 * and `/_searchrelevancy/_default` (that one is changed by the admin only: it applies to every
 * tenant's indices).
 */
export function relevancyRoutes(relevancy: RelevancyStore, maxContentLength: number): Middleware<GatewayState> {
  return async (ctx) => {
    const [, index, extra] = ctx.state.request.segments;
    const principal = ctx.state.principal;
    if (index === undefined || extra !== undefined) {
      throw new EsError(400, 'illegal_argument_exception', `no handler found for uri [${ctx.path}] and method [${ctx.method}]`);
    }
    if (index === DEFAULT_RELEVANCY && ctx.method !== 'GET' && ctx.method !== 'HEAD' && principal.role !== 'admin') {
      throw new EsError(403, 'security_exception', `action [cluster:admin/gateway/searchrelevancy/write] on [${DEFAULT_RELEVANCY}] is unauthorized for user [${principal.username}]`);
    }
    const missing = () => new EsError(404, 'resource_not_found_exception', `no search relevancy settings for [${index}]`);
    switch (ctx.method) {
      case 'GET':
      case 'HEAD': {
        const settings = relevancy.get(index);
        if (!settings) throw missing();
        ctx.body = { _id: index, found: true, settings };
        return;
      }
      case 'PUT':
      case 'POST': {
        const body = await readRuleBody(ctx, maxContentLength, 'the search relevancy document');
        checkRelevancy(body);
        checkNoHiddenFields(principal, Object.values(body).flatMap((settings) => (settings ? settingsFields(settings) : [])), 'indices:admin/gateway/searchrelevancy/put');
        const created = await relevancy.put(index, body);
        ctx.status = created ? 201 : 200;
        ctx.body = { _id: index, result: created ? 'created' : 'updated', settings: body };
        return;
      }
      case 'DELETE':
        if (!(await relevancy.delete(index))) throw missing();
        ctx.body = { _id: index, result: 'deleted' };
        return;
      default:
        throw methodNotAllowed(ctx.path, ctx.method, ['GET', 'PUT', 'DELETE']);
    }
  };
}
