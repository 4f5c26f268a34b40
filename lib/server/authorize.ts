import type { Middleware } from 'koa';
import type { Authorizer } from '../auth/index.js';
import { EsError } from '../errors/index.js';
import { Readable } from 'node:stream';
import { ScrollOwners, scrollIdsOf } from '../auth/index.js';
import { readBody } from '../engine/index.js';
import { answersTable, bufferBody, bufferText, type Classification } from '../request/index.js';
import type { Credential } from '../auth/index.js';
import { FieldVisibility, fieldReadRefusal, fieldVisibilityOf, fieldRulesReadBody, hasFieldRules, visibleAliases, visibleFieldMappings, visibleMappings, type FieldRulesBody } from '../auth/index.js';
import { parseJsonText, readBulkCooperatively, readMsearch } from '../ndjson/index.js';
import type { Context } from 'koa';
import type { GatewayState } from './state.js';

const FIELD_MAPPINGS_ACTION = 'indices:admin/mappings/fields/get';
const ALIASES_GET_ACTION = 'indices:admin/aliases/get';
const SCROLL_ACTIONS = new Set(['indices:data/read/scroll', 'indices:data/read/scroll/clear']);

/**
 * Authorization of every request after authentication: the admin passes; a scoped credential is
 * checked by the Authorizer, and the request continues narrowed (index wildcards expanded to what
 * the credential may see, its field rules on `_source`). A credential with field rules is also
 * refused any request that reads a hidden field elsewhere (`withFieldRules`).
 */
export function authorize(authorizer: Authorizer, maxContentLength: number): Middleware<GatewayState> {
  const scrolls = new ScrollOwners();
  const scoped: Middleware<GatewayState> = async (ctx, next) => {
    const { principal, gatewayRequest: asked } = ctx.state;
    const info = asked.info;
    const scrolling = SCROLL_ACTIONS.has(info.action);
    const scrollBody = scrolling ? await bufferBody(ctx, maxContentLength) : undefined;
    const decision = await authorizer.authorize(principal, asked, {
      ip: ctx.request.ip || ctx.req.socket.remoteAddress || '',
      referer: ctx.get('referer') || undefined,
      headers: { accept: ctx.get('accept') || undefined, 'content-type': ctx.get('content-type') || undefined },
    });
    if (scrolling) {
      for (const id of scrollIdsOf(asked, scrollBody)) {
        if (!scrolls.owns(id, principal.username)) {
          throw new EsError(403, 'security_exception', `action [${info.action}] is unauthorized for user [${principal.username}]: the scroll was not opened by this credential`);
        }
      }
    }
    // the narrowed request is what every later step reads, and the engine gets (its URL says the same
    // for the handlers that read it)
    ctx.state.gatewayRequest = decision;
    if (decision.path !== ctx.path) ctx.path = decision.path;
    if (decision.querystring !== ctx.querystring) ctx.querystring = decision.querystring;
    const rules = fieldVisibilityOf(principal.credential);
    const derived = rules && (await authorizer.derivedFieldsFor(principal, info));
    const visibility = rules && derived ? rules.withDerived(derived) : rules;
    ctx.state.fieldVisibility = visibility;
    if (decision.params.has('scroll') || scrolling) ctx.state.answerRead = true;
    await (visibility ? withFieldRules(ctx, next, visibility, maxContentLength) : next());
    // a scroll this credential opens (or continues) is recorded as its own
    if ((decision.params.has('scroll') || scrolling) && ctx.status === 200 && ctx.body) {
      const body = ctx.body as unknown;
      const text = body instanceof Readable || Buffer.isBuffer(body) ? (await readBody(body)).toString('utf8') : typeof body === 'string' ? body : JSON.stringify(body);
      const id = scrollIdOf(text);
      if (id) scrolls.record(id, principal.username);
      ctx.body = text;
    }
  };
  // the admin passes without a promise of this step's own
  return (ctx, next) => (ctx.state.principal.role === 'admin' ? next() : scoped(ctx, next));
}

type GatewayContext = Context & { state: GatewayState };

/** The answer's own `_scroll_id` (its top-level member, never one inside a document), read from its parsed value. */
function scrollIdOf(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { _scroll_id?: unknown } | null)?._scroll_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined; // not a JSON answer: it opened no scroll
  }
}

/**
 * A credential with field rules: the request is refused when it reads a field the rules hide
 * anywhere but `_source` (lib/auth/field-rules.ts), and a mappings answer comes back without the
 * hidden fields. The gateway's check is the only one in front of a real cluster, so it stands on
 * its own; a scroll this credential opens was checked as the search that opened it.
 */
async function withFieldRules(ctx: GatewayContext, next: () => Promise<unknown>, visibility: FieldVisibility, maxContentLength: number): Promise<void> {
  const request = ctx.state.gatewayRequest;
  const { info } = request;
  const refusal = fieldReadRefusal(visibility, request, await bodyOf(ctx, info, maxContentLength));
  if (refusal) {
    throw new EsError(403, 'security_exception', `action [${info.action}] is unauthorized for user [${ctx.state.principal.username}]: ${refusal}`);
  }
  // a HEAD answer has no body: nothing to narrow
  // (a `_cat` or `_list` table holds no mappings, whatever its action: `_cat/aliases` shows no
  // filter, `_cat/cluster_manager` and `GET /_list` answer text; their text is left as it is)
  const mappings = MAPPING_ANSWERS.has(info.action) && info.operation === 'read' && ctx.method !== 'HEAD' && !answersTable(request.route);
  // the answer is read here to be narrowed: the engine is asked for it uncompressed
  if (mappings) {
    delete ctx.req.headers['accept-encoding'];
    ctx.state.answerRead = true;
  }
  await next();
  if (mappings && ctx.status === 200 && ctx.body) await narrowMappingsAnswer(ctx, visibility);
}

/** Answers that hold index mappings (or field mappings, or alias filters): their hidden fields are taken out. */
const MAPPING_ANSWERS = new Set(['indices:admin/mappings/get', 'indices:admin/get', 'cluster:monitor/state', FIELD_MAPPINGS_ACTION, ALIASES_GET_ACTION]);

/** The request's body as the decision reads it: the classifier's value, or the text forwarded (read from the socket if no step has). */
async function bodyOf(ctx: GatewayContext, info: Classification, maxContentLength: number): Promise<FieldRulesBody> {
  // the body the engine gets: the classifier's (or the authorizer's narrowed) text, else the one read from the socket
  const text = fieldRulesReadBody(info) ? (info.forward ?? await bufferText(ctx, maxContentLength)) : undefined;
  // a `_bulk` body may be tens of megabytes: read in pieces, as the classifier reads it
  const bulk = info.action === 'indices:data/write/bulk' && text ? (info.bulk !== undefined && text === info.forward ? info.bulk : await readBulkCooperatively(text)) : [];
  return {
    json: () => (info.parsed !== undefined ? info.parsed : text === undefined || text.trim() === '' ? undefined : parseJsonText(text)),
    searches: () => (text ? readMsearch(text).map((entry) => entry.body) : []),
    bulk: () => bulk,
  };
}

/** A mappings answer (or the cluster state's index metadata) without the fields the credential's rules hide. */
async function narrowMappingsAnswer(ctx: GatewayContext, visibility: FieldVisibility): Promise<void> {
  const body = ctx.body as unknown;
  let value: unknown;
  try {
    value = body instanceof Readable || Buffer.isBuffer(body) ? JSON.parse((await readBody(body)).toString('utf8'))
      : typeof body === 'string' ? JSON.parse(body) : body;
  } catch {
    throw new EsError(500, 'security_exception', 'the mappings answer could not be read to hide the fields the credential\'s rules hide');
  }
  const { action } = ctx.state.request;
  if (action === FIELD_MAPPINGS_ACTION) {
    ctx.body = visibleFieldMappings(visibility, value);
    return;
  }
  if (action === ALIASES_GET_ACTION) {
    ctx.body = visibleAliases(visibility, value);
    return;
  }
  if (action !== 'cluster:monitor/state') {
    // an index's answer holds its aliases beside its mappings
    ctx.body = visibleAliases(visibility, visibleMappings(visibility, value));
    return;
  }
  // the index metadata holds each index's mappings (in their typed form): narrowed as a mappings answer is
  const metadata = (value as { metadata?: { indices?: unknown } } | null)?.metadata;
  if (metadata && typeof metadata === 'object' && metadata.indices && typeof metadata.indices === 'object') {
    metadata.indices = visibleMappings(visibility, metadata.indices);
  }
  ctx.body = value;
}
