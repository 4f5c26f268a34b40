import type { Context, Middleware } from 'koa';
import type { AppCredentials, Principal } from '../auth/index.js';
import type { Backend, InterceptedBackend } from '../engine/index.js';
import { bufferBody, byRoute, readJsonBody, type Classification, type GatewayRequest, type RouteHandler } from '../request/index.js';
import { AppRegistry, relay } from './app-registry.js';
import { callJson } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import type { TypedDocuments, Reply } from './typed-documents.js';

/** What the request path knows of the caller (lib/server's GatewayState, read here without importing the server). */
interface GatewayCaller {
  principal?: Principal;
  request?: Classification;
}

/** The request's query parameters, as the edge decoded them (lib/server/state.ts). */
const paramsOf = (ctx: Context): ReadonlyMap<string, string> => (ctx.state as { gatewayRequest: GatewayRequest }).gatewayRequest.params;


/**
 * The app-addressed style and the apps registry:
 *   PUT|DELETE /_apps/{app}, GET /_apps,
 *   /{app}/{type}[/{id}[/_update]], /{app}/{type}/_search|_count.
 * Anything else falls through (next) to the proxy path.
 */
export function appRoutes(engine: Backend, backend: InterceptedBackend, typed: TypedDocuments, appCredentials: AppCredentials, maxContentLength: number): Middleware {
  const registry = new AppRegistry(engine);
  const body = (ctx: Context) => readJsonBody(ctx, maxContentLength);
  const bodyText = async (ctx: Context) => (await bufferBody(ctx, maxContentLength))?.toString('utf8') ?? '';
  const send = (ctx: Context, reply: Reply) => {
    ctx.status = reply.status;
    ctx.body = reply.body; // koa writes no body for HEAD, but keeps its length
  };
  /** A route of the app-addressed style: the table gives `app` and `type` as names, never API words. */
  const typedRoute = (handler: (ctx: Context, app: string, type: string, id: string) => Promise<Reply>): RouteHandler =>
    async (ctx, { app, type, id }) => send(ctx, await handler(ctx, app, type, id));
  const search = (endpoint: '_search' | '_count') => typedRoute(async (ctx, app, type) => typed.search(app, type, endpoint, await body(ctx), paramsOf(ctx)));
  const index = typedRoute(async (ctx, app, type, id) => typed.index(app, type, id, await body(ctx), paramsOf(ctx)));

  return byRoute({
    'apps.list': async (ctx) => {
      const apps = await registry.list();
      ctx.body = { apps: apps.map((a) => ({ app: a.app, created_at: a.created_at })) };
    },
    'apps.create': async (ctx, { app }) => {
      // a leading dot is how system indices are named: not an app's name
      if (app.startsWith('.')) throw new EsError(400, 'invalid_index_name_exception', `Invalid index name [${app}], an app's name must not start with '.'`, { 'index_uuid': '_na_', index: app });
      // a scoped caller gets a pair only within its own rights (the admin's is unrestricted)
      const principal = (ctx.state as GatewayCaller).principal;
      const grantor = principal && principal.role !== 'admin' ? { credential: principal.credential, action: (ctx.state as GatewayCaller).request?.action ?? 'cluster:admin/gateway/apps/put' } : undefined;
      const { indexCreated } = await registry.create(app);
      const pair = await appCredentials.createAppPair(app, {}, grantor);
      ctx.body = {
        acknowledged: true, app, index: app, index_created: indexCreated,
        // shown once: only the hash is kept
        credentials: { read_write: { username: pair.credential.username, password: pair.password } },
      };
    },
    'apps.delete': async (ctx, { app }) => {
      if (!(await registry.get(app))) throw new EsError(404, 'resource_not_found_exception', `app [${app}] does not exist`);
      // through the user-facing Backend: the index event ends the app's streams and runs the clean-ups
      const deleted = await callJson<{ error?: { type: string; reason: string } }>(backend, 'DELETE', `/${encodeURIComponent(app)}`);
      if (deleted.status >= 300 && deleted.status !== 404) throw relay(deleted.status, deleted.body);
      await registry.forget(app);
      await appCredentials.deleteAll(app);
      typed.forgetIndices([app]);
      ctx.body = { acknowledged: true };
    },
    'typed.search': search('_search'),
    'typed.count': search('_count'),
    'typed.bulk': typedRoute(async (ctx, app, type) => typed.bulk(app, type, await bodyText(ctx), paramsOf(ctx))),
    'typed.update': typedRoute(async (ctx, app, type, id) => typed.update(app, type, id, await body(ctx), paramsOf(ctx))),
    'typed.index_new': typedRoute(async (ctx, app, type) => typed.index(app, type, undefined, await body(ctx), paramsOf(ctx))),
    'typed.get': typedRoute((ctx, app, type, id) => typed.get(app, type, id, paramsOf(ctx))),
    'typed.index': index,
    'typed.delete': typedRoute((ctx, app, type, id) => typed.delete(app, type, id, paramsOf(ctx))),
  });
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
export function registeredAppGreeting(engine: Backend): Middleware<{ gatewayRequest: GatewayRequest }> {
  const registry = new AppRegistry(engine);
  // dispatched on the route `indices.get` (`GET /{index}`, a name: the server's `namesAnIndex` leaves `_all` out)
  return async (ctx, next) => {
    const { pathParams, info } = ctx.state.gatewayRequest;
    const app = pathParams.index;
    if (ctx.method !== 'GET' || ctx.querystring !== '' || isElasticsearchClient(ctx)) return next();
    // the app as the caller wrote it: a pattern authorization narrowed to one index greets nobody
    if (app === undefined || app !== info.segments[0] || app.includes(',') || app.includes('*') || !(await registry.get(app))) return next();
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
