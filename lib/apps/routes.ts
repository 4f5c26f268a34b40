import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { AppCredentials, Principal } from '../auth/index.js';
import type { Backend, InterceptedBackend } from '../engine/index.js';
import { bufferBody, readJsonBody, type Classification, type GatewayRequest } from '../request/index.js';
import { AppRegistry, relay } from './app-registry.js';
import { callJson } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import type { TypedDocuments, Reply } from './typed-documents.js';

/** What the request path knows of the caller (lib/server's GatewayState, read here without importing the server). */
interface GatewayCaller {
  principal?: Principal;
  request?: Classification;
}

/** A path segment that is an index/app or type name rather than an Elasticsearch API word. */
/** The request's query parameters, as the edge decoded them (lib/server/state.ts). */
const paramsOf = (ctx: Context): ReadonlyMap<string, string> => (ctx.state as { gatewayRequest: GatewayRequest }).gatewayRequest.params;

const isName = (segment: string | undefined): segment is string => !!segment && !segment.startsWith('_');

/**
 * The app-addressed style and the apps registry:
 *   PUT|DELETE /_apps/{app}, GET /_apps,
 *   /{app}/{type}[/{id}[/_update]], /{app}/{type}/_search|_count.
 * Anything else falls through (next) to the proxy path.
 */
export function appRoutes(engine: Backend, backend: InterceptedBackend, typed: TypedDocuments, appCredentials: AppCredentials, maxContentLength: number): Middleware {
  const registry = new AppRegistry(engine);
  const router = new Router();
  const body = (ctx: Context) => readJsonBody(ctx, maxContentLength);
  const bodyText = async (ctx: Context) => (await bufferBody(ctx, maxContentLength))?.toString('utf8') ?? '';
  const send = (ctx: Context, reply: Reply) => {
    ctx.status = reply.status;
    ctx.body = reply.body; // koa writes no body for HEAD, but keeps its length
  };

  router.get('/_apps', async (ctx) => {
    const apps = await registry.list();
    ctx.body = { apps: apps.map((a) => ({ app: a.app, created_at: a.created_at })) };
  });
  router.put('/_apps/:app', async (ctx) => {
    // a leading dot is how system indices are named: not an app's name
    if (ctx.params.app.startsWith('.')) throw new EsError(400, 'invalid_index_name_exception', `Invalid index name [${ctx.params.app}], an app's name must not start with '.'`, { 'index_uuid': '_na_', index: ctx.params.app });
    // a scoped caller gets a pair only within its own rights (the admin's is unrestricted)
    const principal = (ctx.state as GatewayCaller).principal;
    const grantor = principal && principal.role !== 'admin' ? { credential: principal.credential, action: (ctx.state as GatewayCaller).request?.action ?? 'cluster:admin/gateway/apps/put' } : undefined;
    const { indexCreated } = await registry.create(ctx.params.app);
    const pair = await appCredentials.createAppPair(ctx.params.app, {}, grantor);
    ctx.body = {
      acknowledged: true, app: ctx.params.app, index: ctx.params.app, index_created: indexCreated,
      // shown once: only the hash is kept
      credentials: { read_write: { username: pair.credential.username, password: pair.password } },
    };
  });
  router.delete('/_apps/:app', async (ctx) => {
    const { app } = ctx.params;
    if (!(await registry.get(app))) throw new EsError(404, 'resource_not_found_exception', `app [${app}] does not exist`);
    // through the user-facing Backend: the index event ends the app's streams and runs the clean-ups
    const deleted = await callJson<{ error?: { type: string; reason: string } }>(backend, 'DELETE', `/${encodeURIComponent(app)}`);
    if (deleted.status >= 300 && deleted.status !== 404) throw relay(deleted.status, deleted.body);
    await registry.forget(app);
    await appCredentials.deleteAll(app);
    typed.forgetIndices([app]);
    ctx.body = { acknowledged: true };
  });


  const typedRoute = (handler: (ctx: Context, app: string, type: string) => Promise<Reply>) =>
    async (ctx: Context, next: Next) => {
      const { app, type, id } = ctx.params as Record<string, string>;
      // `/{app}/{type}/_x` is an endpoint, as the classifier reads it (`_mget`…), never a document
      // id: what the classifier authorized as a read must not run here as a write
      if (!isName(app) || !isName(type) || (id !== undefined && id.startsWith('_'))) return next();
      send(ctx, await handler(ctx, app, type));
    };

  for (const endpoint of ['_search', '_count'] as const) {
    router.get(`/:app/:type/${endpoint}`, typedRoute(async (ctx, app, type) => typed.search(app, type, endpoint, await body(ctx), paramsOf(ctx))));
    router.post(`/:app/:type/${endpoint}`, typedRoute(async (ctx, app, type) => typed.search(app, type, endpoint, await body(ctx), paramsOf(ctx))));
  }
  router.post('/:app/:type/_bulk', typedRoute(async (ctx, app, type) => typed.bulk(app, type, await bodyText(ctx), paramsOf(ctx))));
  router.put('/:app/:type/_bulk', typedRoute(async (ctx, app, type) => typed.bulk(app, type, await bodyText(ctx), paramsOf(ctx))));
  router.post('/:app/:type/:id/_update', typedRoute(async (ctx, app, type) =>
    typed.update(app, type, ctx.params.id, await body(ctx), paramsOf(ctx))));
  router.post('/:app/:type', typedRoute(async (ctx, app, type) => typed.index(app, type, undefined, await body(ctx), paramsOf(ctx))));
  router.get('/:app/:type/:id', typedRoute((ctx, app, type) => typed.get(app, type, ctx.params.id, paramsOf(ctx))));
  router.head('/:app/:type/:id', typedRoute((ctx, app, type) => typed.get(app, type, ctx.params.id, paramsOf(ctx))));
  router.put('/:app/:type/:id', typedRoute(async (ctx, app, type) => typed.index(app, type, ctx.params.id, await body(ctx), paramsOf(ctx))));
  router.post('/:app/:type/:id', typedRoute(async (ctx, app, type) => typed.index(app, type, ctx.params.id, await body(ctx), paramsOf(ctx))));
  router.delete('/:app/:type/:id', typedRoute((ctx, app, type) => typed.delete(app, type, ctx.params.id, paramsOf(ctx))));

  return router.routes() as unknown as Middleware;
}

/**
 * `GET /{app}` is two things: the service's greeting (`{status, message}`, what a person or a
 * plain HTTP check reaching the app sees) and Elasticsearch's get-index API (what every client's
 * `indices.get` asks for). A registered app is greeted only when the request is a bare
 * `GET /{app}` — no query parameter at all — from a client that does not say it is an
 * Elasticsearch client; any other index read goes on to the engine. Elasticsearch clients say so:
 * the official ones send `X-Elastic-Client-Meta` and/or an `application/vnd.elasticsearch+json`
 * Accept (the compatibility media type), and name themselves in their User-Agent
 * (`elasticsearch-js/…`, `elasticsearch-py/…`, `opensearch-…`). A plain client that wants the
 * index gives any parameter (`GET /{app}?pretty`, `?flat_settings=true`).
 */
export function registeredAppGreeting(engine: Backend): Middleware<{ request: Classification }> {
  const registry = new AppRegistry(engine);
  return async (ctx, next) => {
    const app = ctx.state.request.segments[0];
    if (ctx.method !== 'GET' || ctx.querystring !== '' || isElasticsearchClient(ctx)) return next();
    if (!isName(app) || app.includes(',') || app.includes('*') || !(await registry.get(app))) return next();
    ctx.body = { status: 200, message: `You have reached /${app}/ and are all set to make API requests` };
  };
}

const ES_MEDIA_TYPE = /vnd\.elasticsearch\+/i;
const ES_CLIENT_AGENT = /^(elasticsearch|opensearch)[-_/]|\belastic-transport\b/i;

/** Does the request come from an Elasticsearch client (which means Elasticsearch's APIs)? */
function isElasticsearchClient(ctx: Pick<Context, 'get'>): boolean {
  return ctx.get('x-elastic-client-meta') !== ''
    || ES_MEDIA_TYPE.test(ctx.get('accept'))
    || ES_MEDIA_TYPE.test(ctx.get('content-type'))
    || ES_CLIENT_AGENT.test(ctx.get('user-agent'));
}
