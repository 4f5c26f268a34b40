import type { Middleware } from 'koa';
import type { Principal } from '../auth/index.js';
import { readJson, type Backend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { readJsonBody } from '../request/index.js';
import { IndexMappings } from './field-catalog.js';
import { shapeDeclarativeResponse, type MsearchResponse } from './shape-response.js';
import { translateDeclarative, validateDeclarative } from './validate.js';

const ROUTE = /^\/(?:([^/]+)\/)?_declarative(\/validate)?\/?$/;

/**
 * The declarative query API. Requests arrive authenticated and authorized (every index the body
 * and the path name is the credential's):
 *
 *   POST /_declarative, /{index}/_declarative            → {<id>: engine response, …, settings: {took}}
 *   POST /_declarative/validate, /{index}/_declarative/validate → the `_msearch` it would send
 */
export function declarativeRoutes(backend: Backend, maxContentLength: number, mappings = new IndexMappings(backend)): Middleware {
  return async (ctx, next) => {
    const m = ROUTE.exec(ctx.path);
    if (!m) return next();
    if (ctx.method !== 'POST') {
      throw new EsError(405, 'method_not_allowed', `Incorrect HTTP method for uri [${ctx.path}] and method [${ctx.method}], allowed: [POST]`, {}, { Allow: 'POST' });
    }
    const defaultIndex = m[1] === undefined ? undefined : decodeURIComponent(m[1]);
    const body = await readJsonBody(ctx, maxContentLength);
    const validated = await validateDeclarative(body, ctx.state.principal as Principal, mappings.get, { defaultIndex });
    const msearch = translateDeclarative(validated);
    if (m[2]) {
      ctx.body = { method: 'POST', path: '/_msearch', body: msearch.lines, ndjson: msearch.ndjson };
      return;
    }
    const res = await backend.request({
      method: 'POST',
      path: '/_msearch',
      querystring: '',
      headers: { 'content-type': 'application/x-ndjson' },
      body: msearch.ndjson,
    });
    const reply = await readJson<MsearchResponse & { error?: { type?: string; reason?: string } }>(res);
    if (res.status !== 200 || !reply || reply.error) {
      throw new EsError(res.status >= 400 ? res.status : 500, reply?.error?.type ?? 'exception', reply?.error?.reason ?? 'the engine refused the search');
    }
    ctx.body = shapeDeclarativeResponse(msearch.plan, reply);
  };
}
