import type { Readable } from 'node:stream';
import { ChunkedTextDecoder, DECODE_BATCH_BYTES, PieceText, TimeSlice } from '../../../cooperative/index.js';
import { EsError, errorBody, errors, toEsError } from '../../../errors/index.js';
import { readBulkItems, type EngineRequest, type EngineResponse, type EngineRoute } from '../../backend.js';
import { requestTarget, type RequestTarget } from '../../../request/index.js';
import { UrlParams } from './params.js';
import { jsonBody } from '../../json-body.js';
import { applyFilterPath } from './filter-path.js';
import { authorizedContext } from './authorized-context.js';
import { IndexAccess, countDisagreement, hideFields } from '../access/index.js';
import { CompatibleExchange } from './compat-7.js';
import { Router, checkParams, type RouteMatch } from './router.js';
import { bulkRoutes } from './routes/bulk.js';
import { openSearchBulkStreamRoutes } from './routes/opensearch-bulk-stream.js';
import { catRoutes } from './routes/cat.js';
import { catClusterRoutes } from './routes/cat-cluster.js';
import { pluginRoutes } from './routes/plugin-apis.js';
import { observabilityRoutes } from './routes/observability.js';
import { flowFrameworkRoutes } from './routes/flow-framework.js';
import { mlModelGroupRoutes } from './routes/ml-model-groups.js';
import { geojsonRoutes } from './routes/geojson-upload.js';
import { asynchronousSearchRoutes } from './routes/asynchronous-search.js';
import { learningToRankRoutes } from './routes/learning-to-rank.js';
import { managementJobRoutes } from './routes/management-jobs.js';
import { ismRoutes } from './routes/index-state-management.js';
import { catNodeRoutes } from './routes/cat-nodes.js';
import { catShardRoutes } from './routes/cat-shards.js';
import { clusterSettingsRoutes } from './routes/cluster-settings.js';
import { clusterStateRoutes } from './routes/cluster-state.js';
import { resizeRoutes } from './routes/resize.js';
import { clusterStatsRoutes } from './routes/cluster-stats.js';
import { nodesRoutes } from './routes/nodes.js';
import { allocationExplainRoutes } from './routes/allocation-explain.js';
import { listRoutes } from './routes/list.js';
import { danglingRoutes } from './routes/dangling.js';
import { searchShardsRoutes } from './routes/search-shards.js';
import { shardLevelRoutes } from './routes/shard-level.js';
import { clusterRoutes } from './routes/cluster.js';
import { documentRoutes } from './routes/documents.js';
import { indicesRoutes } from './routes/indices.js';
import { searchRoutes } from './routes/search.js';
import { knnSearchRoutes } from './routes/knn-search.js';
import { aliasRoutes } from './routes/aliases.js';
import { analyzeRoutes } from './routes/analyze.js';
import { byQueryRoutes } from './routes/by-query.js';
import { validateExplainRoutes } from './routes/validate-explain.js';
import { fieldCapsRoutes } from './routes/field-caps.js';
import { termvectorsRoutes } from './routes/termvectors.js';
import { templateRoutes } from './routes/templates.js';
import { statsRoutes } from './routes/stats.js';
import { resolveRoutes } from './routes/resolve.js';
import { synonymsRoutes } from './routes/synonyms.js';
import { queryRulesRoutes } from './routes/query-rules.js';
import { scriptRoutes } from './routes/scripts.js';
import { searchTemplateRoutes } from './routes/search-templates.js';
import { painlessExecuteRoutes } from './routes/painless-execute.js';
import { pointInTimeRoutes } from './routes/point-in-time.js';
import { openSearchPointInTimeRoutes } from './routes/opensearch-point-in-time.js';
import { mtermvectorsRoutes } from './routes/mtermvectors.js';
import { ingestRoutes } from './routes/ingest.js';
import { searchPipelineRoutes } from './routes/search-pipelines.js';
import { backgroundWorkRoutes } from './routes/background-work.js';
import { dataStreamRoutes } from './routes/data-streams.js';
import type { EngineContext, RestRequest, RestResponse } from './types.js';

const PRODUCT_HEADER = { 'x-elastic-product': 'Elasticsearch' };
const COMPAT_JSON = 'application/vnd.elasticsearch+json;compatible-with=8';

export function createRouter(): Router {
  const groups = [
    clusterRoutes, catRoutes, catClusterRoutes, pluginRoutes, observabilityRoutes, flowFrameworkRoutes, mlModelGroupRoutes, geojsonRoutes, asynchronousSearchRoutes, learningToRankRoutes, managementJobRoutes, ismRoutes, catNodeRoutes, catShardRoutes, clusterSettingsRoutes, clusterStateRoutes, clusterStatsRoutes, resizeRoutes, nodesRoutes, allocationExplainRoutes, listRoutes, danglingRoutes, searchShardsRoutes, shardLevelRoutes,
    indicesRoutes, documentRoutes, bulkRoutes, openSearchBulkStreamRoutes, searchRoutes, knnSearchRoutes, aliasRoutes, analyzeRoutes, byQueryRoutes, validateExplainRoutes, fieldCapsRoutes,
    termvectorsRoutes, mtermvectorsRoutes, templateRoutes, statsRoutes, resolveRoutes, synonymsRoutes, queryRulesRoutes, scriptRoutes,
    searchTemplateRoutes, painlessExecuteRoutes, pointInTimeRoutes, openSearchPointInTimeRoutes, ingestRoutes, searchPipelineRoutes, backgroundWorkRoutes, dataStreamRoutes,
  ];
  return new Router(groups.flat());
}

/**
 * Reads a request body as text (UTF-8), refusing more than `limit` bytes (413). A body given as a
 * string (an in-process caller) is taken as it is, without a round trip through bytes.
 */
export async function readBodyText(body: Readable | Buffer | string | undefined, limit: number, counted = false): Promise<string> {
  if (body === undefined) return '';
  if (typeof body === 'string') {
    // A UTF-16 code unit is at most 3 UTF-8 bytes: only a long string needs its byte length counted
    // (unless the caller counted its bytes as it read them: counting makes a rope one string).
    if (body.length > limit || (!counted && body.length * 3 > limit && Buffer.byteLength(body) > limit)) throw errors.contentTooLong(limit);
    return body;
  }
  if (Buffer.isBuffer(body)) {
    if (body.length > limit) throw errors.contentTooLong(limit);
    return body.toString('utf8');
  }
  return (await readBodyPieces(body, limit)).text;
}

/**
 * A streamed body (the standalone engine's HTTP requests, the gateway's forwarded ones) decoded a
 * megabyte at a time (ChunkedTextDecoder), a time slice at a time, into the pieces a `_bulk` is read
 * from (`PieceText`) and the text they make (a rope: one string only once something reads it).
 * Decoded in one piece, a 50 MB body held the event loop for half a second (its copy, then its decoding).
 */
async function readBodyPieces(body: Readable, limit: number): Promise<{ text: string; pieces: PieceText }> {
  const decoder = new ChunkedTextDecoder();
  let size = 0;
  const slice = new TimeSlice();
  for await (const chunk of body) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limit) {
      body.destroy();
      throw errors.contentTooLong(limit);
    }
    decoder.write(buf);
    await slice.pause();
  }
  const pieces = new PieceText(decoder.pieces());
  return { text: pieces.toString(), pieces };
}

/**
 * An in-process caller may write the URL parameters into the path (`/i/_bulk?pipeline=p`), as
 * an HTTP client would: they count, before any given apart in `querystring` (a later value of a
 * name wins).
 */
function withInlineQuery(req: EngineRequest): EngineRequest {
  const q = req.path.indexOf('?');
  if (q < 0) return req;
  const inline = req.path.slice(q + 1);
  return { ...req, path: req.path.slice(0, q), querystring: req.querystring ? `${inline}&${req.querystring}` : inline };
}

function header(headers: EngineRequest['headers'], name: string): string | undefined {
  const v = headers?.[name] ?? headers?.[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * What the engine's route table makes of a request: its target decoded once (the caller's, when
 * it gave one), and the route it reaches, read as the engine reads it.
 */
export interface RouteReading extends EngineRoute {
  /** The path's segments as routed (a request compatible with 7 in its Elasticsearch 8 form). */
  segments: readonly string[];
  params: UrlParams;
  compat?: CompatibleExchange;
  match: RouteMatch;
  /** The path and query string it was read from, as given (a reading is reused for these only). */
  rawPath: string;
  rawQuery: string;
}

/** Readings made by `readRoute`: the only route an EngineRequest may hand back to be reused. */
const issued = new WeakSet<EngineRoute>();

/**
 * The request's target: the one its caller decoded, or decoded here, once. A caller's target that
 * no longer says what `path` and `querystring` say (a step changed them and kept the target) is
 * not believed.
 */
function targetOf(req: EngineRequest): RequestTarget {
  const given = req.target;
  if (given && given.path === req.path && given.querystring === (req.querystring ?? '')) return given;
  return requestTarget(req.path, req.querystring ?? '', true);
}

/**
 * The route the gateway's edge matched in the one route table (its Elasticsearch API's path
 * pattern and decoded path parameters), for the request the edge read.
 */
export interface EdgeRoute {
  readonly routePattern?: string;
  readonly pathParams: Readonly<Record<string, string>>;
}

function readRoute(router: Router, req: EngineRequest, method: string, edge?: EdgeRoute): RouteReading {
  const target = targetOf(req);
  let segments = target.segments;
  let params = UrlParams.of(target.params);
  const compat = CompatibleExchange.open(req, method, segments, params);
  if (compat) ({ segments, params } = compat);
  // the edge's match, for the request as it read it (a compatible exchange reads another path)
  const matched = !compat && edge?.routePattern !== undefined && (target as object) === edge ? router.matchPattern(method, edge.routePattern, edge.pathParams) : undefined;
  const reading: RouteReading = { method, target, segments, params, compat, match: matched ?? router.match(method, segments), rawPath: req.path, rawQuery: req.querystring ?? '' };
  issued.add(reading);
  return reading;
}

/**
 * The route `checkEngineRoute` found for this very request, when the request carries it: reused
 * as it is, unless it was not made here, or for another method, path or query string (a step
 * changed them and kept the route), or has a compatible exchange (which keeps the warnings of
 * one answer).
 */
function reusedRoute(req: EngineRequest, method: string): RouteReading | undefined {
  const route = req.route;
  if (!route || !issued.has(route) || route.method !== method) return undefined;
  const reading = route as RouteReading;
  if (reading.compat || reading.rawPath !== req.path || reading.rawQuery !== (req.querystring ?? '')) return undefined;
  return reading;
}

/** The answer to a request that reaches no route: the status and Elasticsearch's flat error body. */
function routeRefusal(reading: RouteReading, method: string, uri: string): [number, unknown, Record<string, string>?] {
  const { match, segments } = reading;
  if (match.kind === 'method_not_allowed') {
    // ES answers a known path with the wrong method with this flat body, not the usual error shape.
    return [405, { error: `Incorrect HTTP method for uri [${uri}] and method [${method}], allowed: [${match.allowed.join(', ')}]`, status: 405 }, { allow: match.allowed.join(',') }];
  }
  // Elasticsearch's answer for an API it has no handler for is this flat body (RestController's
  // handleBadRequest), not the usual error shape: a client tells "no such API" by it
  if (segments[0]?.startsWith('_')) return [400, { error: `no handler found for uri [${uri}] and method [${method}]` }];
  throw new EsError(400, 'illegal_argument_exception', `no handler found for uri [${uri}] and method [${method}]`);
}

let sharedTable: Router | undefined;

/** The engine's route table, one for the process: its handlers are the same functions whoever routes. */
function routeTable(): Router {
  return (sharedTable ??= createRouter());
}

/**
 * Checks a request against the engine's own route table as the engine will read it (the same
 * router, the same compatible-with=7 reading, the same parameter lists): a route it lacks, a
 * method the route does not take or a parameter it does not know throws the error the engine
 * answers. The gateway asks it for scoped credentials, so that what a tenant sends is a request
 * the table describes ("unknown means refused"), on every backend. `named`: the path its errors
 * name, when the request checked is one the caller's stands for (a stream's engine read).
 */
export function checkEngineRoute(req: Pick<EngineRequest, 'method' | 'path' | 'querystring' | 'headers' | 'target'>, named = req.path, edge?: EdgeRoute): EngineRoute {
  const method = req.method.toUpperCase();
  const reading = readRoute(routeTable(), req, method, edge);
  if (reading.match.kind === 'found') {
    checkParams(named, reading.params, reading.match.params);
    return reading;
  }
  const uri = req.querystring ? `${named}?${req.querystring}` : named;
  const [status, body, headers] = routeRefusal(reading, method, uri);
  throw new EsError(status, status === 405 ? 'method_not_allowed' : 'illegal_argument_exception', (body as { error: string }).error, {}, headers);
}

/**
 * The engine's REST surface: one EngineRequest in, one EngineResponse out, every failure turned
 * into Elasticsearch's error body with its status. Never rejects.
 */
export class RestHandler {
  private readonly router = routeTable();

  constructor(
    private readonly ctx: EngineContext,
    private readonly maxContentLength: number,
  ) {}

  async handle(request: EngineRequest): Promise<EngineResponse> {
    const started = performance.now();
    const req = withInlineQuery(request);
    const method = req.method.toUpperCase();
    const qs = req.querystring ?? '';
    let params = UrlParams.NONE;
    const accept = header(req.headers, 'accept') ?? '';
    const contentType = header(req.headers, 'content-type') ?? '';
    let pretty = false;
    let jsonType = /vnd\.elasticsearch\+/.test(accept) || /vnd\.elasticsearch\+/.test(contentType) ? COMPAT_JSON : 'application/json';
    const uri = qs ? `${req.path}?${qs}` : req.path;
    // the compatibility mode (`compatible-with=7`): the request in its Elasticsearch 8 form, the answer in 7's
    let compat: CompatibleExchange | undefined;
    // the request named or was shown a field its field rules hide: the gateway let it through (counted once)
    let namedHidden = false;
    const countHidden = () => {
      if (namedHidden) countDisagreement();
      namedHidden = false;
    };
    const respondJson = (status: number, body: unknown, extraHeaders: Record<string, string> = {}): EngineResponse => {
      let bytes: Buffer | Readable | undefined;
      return {
        status,
        // not `{ ...PRODUCT_HEADER, 'content-type': … }`: on Node 20's V8 a member added after a spread takes a slow path (~0.4 µs)
        headers: Object.assign({ 'x-elastic-product': PRODUCT_HEADER['x-elastic-product'], 'content-type': jsonType }, compat?.headers(), extraHeaders),
        // serialized when first read: a caller that takes the answer as its value (a live
        // aggregation's state, several times a second) never pays for its JSON
        get body() {
          return (bytes ??= method === 'HEAD' ? Buffer.alloc(0) : jsonBody(body, pretty));
        },
        value: body,
      };
    };
    try {
      const reading = reusedRoute(req, method) ?? readRoute(this.router, req, method);
      ({ compat, params } = reading);
      pretty = params.has('pretty') && params.get('pretty') !== 'false';
      if (compat) jsonType = compat.contentType;
      const { match } = reading;
      if (match.kind !== 'found') {
        await readBodyText(req.body, this.maxContentLength).catch(() => undefined);
        return respondJson(...routeRefusal(reading, method, uri));
      }
      checkParams(req.path, params, match.params);
      // a `_bulk` body the gateway read (within the same limit) comes with its items: neither is read again
      const bulkItems = readBulkItems(req);
      // a large streamed body is also kept as its pieces, which a `_bulk` is read from
      const streamed = req.body !== undefined && typeof req.body !== 'string' && !Buffer.isBuffer(req.body) ? await readBodyPieces(req.body, this.maxContentLength) : undefined;
      let body = streamed ? streamed.text : await readBodyText(req.body, this.maxContentLength, bulkItems !== undefined);
      let json = req.json;
      const typeless = compat?.body(body);
      if (typeless?.changed) {
        body = typeless.text;
        json = undefined; // a parsed copy would say what the typed body said
      }
      const restReq: RestRequest = { method, path: req.path, querystring: qs, pathParams: match.pathParams, pattern: match.pattern, params, headers: req.headers ?? {}, body, started };
      if (json !== undefined) restReq.json = json;
      if (bulkItems !== undefined && !typeless?.changed) restReq.bulk = bulkItems;
      else if (streamed && streamed.text.length > DECODE_BATCH_BYTES && !typeless?.changed) restReq.bodyPieces = streamed.pieces;
      // a request with rights acts through a context that checks them where it touches an index,
      // and reads its indices without the fields its field rules hide
      const ctx = request.access ? authorizedContext(this.ctx, request.access, method, match.endpoint, () => (namedHidden = true)) : this.ctx;
      const res: RestResponse = await match.handler(restReq, ctx);
      // a query that named a hidden field (an alias's filter the caller did not write, say) is printed by
      // a profile or an explanation: refused rather than shown (the refusal counts the disagreement)
      if (namedHidden && request.access && res.body !== undefined && showsQuery(res.body)) {
        namedHidden = false;
        throw IndexAccess.of(request.access).fieldRefusal(QUERY_SHOWING_ACTIONS[match.endpoint ?? ''] ?? 'indices:data/read/search', {
          member: 'profile', why: 'a profile or explanation would print a query reading a field the credential\'s rules hide',
        });
      }
      // field rules where the documents are read out: anything the gateway let through is hidden here, and counted
      if (request.access?.fields && res.body !== undefined && hideFields(res.body, request.access.fields)) namedHidden = true;
      countHidden();
      if (res.bytes !== undefined) {
        return { status: res.status, headers: Object.assign({ 'x-elastic-product': PRODUCT_HEADER['x-elastic-product'] }, res.headers), body: method === 'HEAD' ? Buffer.alloc(0) : res.bytes };
      }
      if (res.text !== undefined) {
        return { status: res.status, headers: Object.assign({ 'x-elastic-product': PRODUCT_HEADER['x-elastic-product'], 'content-type': 'text/plain; charset=UTF-8' }, res.headers), body: method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(res.text) };
      }
      if (res.body === undefined) {
        return { status: res.status, headers: Object.assign({ 'x-elastic-product': PRODUCT_HEADER['x-elastic-product'], 'content-type': jsonType }, compat?.headers(), res.headers), body: Buffer.alloc(0) };
      }
      const shaped = compat ? compat.answer(res.status, res.body) : res.body;
      const filterPath = params.get('filter_path');
      const out = filterPath ? applyFilterPath(shaped, filterPath) : shaped;
      return respondJson(res.status, out, res.headers);
    } catch (err) {
      countHidden();
      const e = toEsError(err);
      if (e.status >= 500) console.error('embedded engine: request failed', err);
      const filterPath = params.get('filter_path');
      const body = errorBody(e);
      return respondJson(e.status, filterPath ? applyFilterPath(body, filterPath) : body, e.headers);
    }
  }
}

/** The actions of the endpoints whose answers may print the query they ran (the refusal names them). */
const QUERY_SHOWING_ACTIONS: Record<string, string> = { _explain: 'indices:data/read/explain', _validate: 'indices:admin/validate/query', _msearch: 'indices:data/read/msearch' };

/** Does an answer print the query it ran: a profile, an explanation (of a hit, of `_explain`, of `_validate/query`)? */
function showsQuery(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  const answer = body as { profile?: unknown; explanation?: unknown; explanations?: unknown; hits?: { hits?: unknown }; responses?: unknown };
  if (answer.profile !== undefined || answer.explanation !== undefined || answer.explanations !== undefined) return true;
  if (Array.isArray(answer.hits?.hits) && answer.hits.hits.some((h) => h !== null && typeof h === 'object' && '_explanation' in h)) return true;
  return Array.isArray(answer.responses) && answer.responses.some(showsQuery);
}
