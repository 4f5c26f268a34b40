import type { IncomingMessage } from 'node:http';
import type { Context, Middleware } from 'koa';
import { BackgroundRecords, type BatchWriterStats } from '../analytics/index.js';
import type { Principal } from '../auth/index.js';
import { callJson, type Backend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { hasBody } from '../request/index.js';
import type { GatewayState } from '../auth/index.js';
import { BodyTap, captureBody, type CapturedBody } from './body-capture.js';
import { endedStatus } from './request-arrival.js';
import { engineError, logSearch, parseLogQuery, scopeClause, visibleTo } from './log-queries.js';
import { CONSOLE_BACKGROUND, CONSOLE_BACKGROUND_HEADER, kindOf, LOGS_INDEX, LOGS_INDEX_BODY, MAX_LOGGED_INDICES, type LogRecord } from './log-record.js';
import { LogSampling, type LogSamplingOptions } from './log-sampling.js';
import { recordId } from './record-id.js';
import { redactQuerystring } from './redact.js';
import type { EndedClassification, EndedRequest, RequestArrival, RequestEnd } from './request-arrival.js';

export interface RequestLogOptions {
  /** Keep request and response bodies (LOGS_BODIES). */
  bodies: boolean;
  /** Bytes of each body kept at most (LOGS_BODY_MAX). */
  bodyMaxBytes: number;
  /** Records older than this many days are purged, daily (LOGS_RETENTION_DAYS). */
  retentionDays: number;
  /** Records waiting to be written at most: more are dropped and counted (default 10,000). */
  maxQueued?: number;
  /** Records are written at least this often, ms (LOGS_FLUSH_MS, default 1000). */
  flushMs?: number;
  /** Which requests get a record (`LogSampling`); absent: every request. */
  sampling?: LogSamplingOptions;
  log?: (line: string) => void;
}

/** The writer's counts, and the requests the sampling rule left unrecorded. */
export interface RequestLogStats extends BatchWriterStats {
  sampled_out: number;
}

/** Records per `_bulk`: the embedded engine indexes a batch on the event loop, 200 records in a few ms. */
const MAX_BATCH = 200;
/** A declarative body read again (to tell a suggestion from a search) only up to this size. */
const MAX_KIND_BODY = 256 * 1024;

type LogContext = Context & { state: GatewayState };

/**
 * Request logs: one record per request (`LogRecord`) in LOGS_INDEX, written in the background in
 * `_bulk` batches through the Backend (a BatchWriter: a full queue drops and counts) and read back
 * by `GET /_logs`, `GET /{index}/_logs`, `GET /_logs/search` and `GET /_log/{id}`.
 *
 * - A request is recorded once its response is over (a live stream: when it ends): logging never
 *   delays nor fails it. Requests to the logs API itself are not recorded, nor requests refused
 *   before they were classified (authentication, the system-index guard, an unreadable body).
 * - A busy node samples its fast, successful reads (`sampling`, `log-sampling.ts`): every error,
 *   slow request, write and stream is recorded, what is left out is counted, and each record
 *   carries the `weight` of the requests it stands for.
 * - Never recorded: headers (Authorization, cookies), secret-looking query parameters' values, and
 *   in bodies the values of members named like secrets (`redact.ts`), at any depth.
 * - A scoped credential reads only the records whose every index lies within its patterns.
 */
export class RequestLog extends BackgroundRecords<LogRecord> {
  private readonly log: (line: string) => void;
  private readonly sampling: LogSampling | undefined;
  /** LOGS_BODIES: the body taps of requests whose record is not made yet. */
  private readonly taps = new WeakMap<IncomingMessage, BodyTap>();

  constructor(private readonly backend: Backend, private readonly options: RequestLogOptions) {
    super(backend, {
      index: LOGS_INDEX, indexBody: LOGS_INDEX_BODY, maxQueued: options.maxQueued ?? 10_000, maxBatch: MAX_BATCH, flushMs: options.flushMs ?? 1_000,
      retentionDays: options.retentionDays, log: options.log,
    });
    this.log = options.log ?? (() => {});
    this.sampling = options.sampling && new LogSampling(options.sampling);
  }

  /** The writer's counts, and the requests the sampling rule left unrecorded. */
  override stats(): RequestLogStats {
    return { ...super.stats(), sampled_out: this.sampling?.sampledOut ?? 0 };
  }

  /**
   * The request's record, queued once its response is over (a `RequestEnd`, run by the request
   * context's one `close` listener, timed from the request's arrival there). It reads the request's
   * classification and principal then.
   */
  readonly end: RequestEnd = (ctx, arrival) => this.record(ctx, arrival);

  /**
   * With LOGS_BODIES: a tap on each request body the steps after it will read (placed before the
   * first of them); absent otherwise, so that a request pays nothing for it.
   */
  bodyTaps(): Middleware<GatewayState> | undefined {
    const { bodies, bodyMaxBytes } = this.options;
    if (!bodies) return undefined;
    return (ctx, next) => {
      if (ctx.state.body === undefined && hasBody(ctx)) this.taps.set(ctx.req, new BodyTap(ctx.req, bodyMaxBytes));
      ctx.state.answerRead = true; // the answer's body is recorded too
      return next();
    };
  }

  /** The logs API (category `logs`). */
  routes(): Middleware<GatewayState> {
    return async (ctx) => {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
        throw new EsError(405, 'method_not_allowed', `Incorrect HTTP method for uri [${ctx.path}] and method [${ctx.method}], allowed: [GET]`, {}, { Allow: 'GET' });
      }
      const info = ctx.state.request;
      const [head, ...rest] = info.segments;
      if (head === '_log' && rest.length === 1) return this.one(ctx, rest[0]);
      // `/_logs[/search]` or `/{index}/_logs[/search]`
      const indexed = head !== '_logs' && head !== '_log';
      const tail = indexed ? rest.slice(1) : rest;
      if ((indexed && rest[0] !== '_logs') || head === '_log' || tail.length > 1 || (tail.length === 1 && tail[0] !== 'search')) {
        throw new EsError(400, 'illegal_argument_exception', `no handler found for uri [${ctx.path}] and method [${ctx.method}]`);
      }
      const query = { ...parseLogQuery(ctx.querystring, tail[0] === 'search'), indices: indexed ? info.indices : undefined };
      const principal = ctx.state.principal;
      const scope = principal.role === 'admin' ? undefined : await scopeClause(this.backend, principal);
      const res = await callJson<{ hits?: { total?: { value: number }; hits?: Array<{ _source: LogRecord }> }; aggregations?: { requests?: { value?: number } } }>(
        this.backend, 'POST', `/${LOGS_INDEX}/_search`, logSearch(query, scope, principal.username), 'ignore_unavailable=true',
      );
      if (res.status >= 300 && res.status !== 404) throw engineError(res.status, res.body);
      ctx.body = {
        total: res.body?.hits?.total?.value ?? 0,
        requests: Math.round(res.body?.aggregations?.requests?.value ?? 0),
        from: query.from,
        size: query.size,
        logs: (res.body?.hits?.hits ?? []).map((h) => view(h._source, principal)),
      };
    };
  }


  /** `GET /_log/{id}`: a record the caller may not see is as missing as one that does not exist. */
  private async one(ctx: LogContext, id: string): Promise<void> {
    const res = await callJson<{ found?: boolean; _source?: LogRecord }>(this.backend, 'GET', `/${LOGS_INDEX}/_doc/${encodeURIComponent(id)}`);
    const record = res.status === 200 && res.body?.found ? res.body._source : undefined;
    if (res.status >= 300 && res.status !== 404) throw engineError(res.status, res.body);
    if (!record || !visibleTo(ctx.state.principal, record)) throw new EsError(404, 'resource_not_found_exception', `request log [${id}] not found`);
    ctx.body = { _id: id, found: true, log: view(record, ctx.state.principal) };
  }

  /** The request's record, queued; whatever goes wrong here is logged, never the request's concern. */
  private record(ctx: EndedRequest, arrival: RequestArrival): void {
    const tap = this.options.bodies ? this.taps.get(ctx.req) : undefined;
    try {
      const info: EndedClassification | undefined = ctx.state.request;
      if (!info || info.category === 'logs') return void tap?.take();
      const ended = performance.now();
      const took = Math.round(ended - arrival.started);
      const status = endedStatus(ctx.res);
      const weight = this.sampling ? this.sampling.weigh({ status, tookMs: took, operation: info.operation, stream: info.category === 'streams' }, ended) : 1;
      if (weight === 0) return void tap?.take();
      const principal: Principal | undefined = ctx.state.principal;
      const record: LogRecord = {
        // time-ordered: a batch's ids follow each other in the store's key order (`recordId`)
        id: recordId(),
        time: arrival.time,
        time_us: Math.round((performance.timeOrigin + arrival.started) * 1000),
        method: arrival.method,
        path: arrival.path,
        querystring: redactQuerystring(arrival.querystring),
        category: info.category,
        operation: info.operation,
        action: info.action,
        indices: info.indices.length > MAX_LOGGED_INDICES ? info.indices.slice(0, MAX_LOGGED_INDICES) : info.indices,
        index_count: info.indices.length,
        all_indices: info.allIndices,
        status,
        took,
        user: principal?.username ?? '',
        ip: arrival.ip,
        kind: kindOf(info, info.category === 'declarative' ? declarativeBody(ctx.state.body) : undefined),
        weight,
      };
      if (info.category === 'streams') record.stream = true;
      if (ctx.req.headers[CONSOLE_BACKGROUND_HEADER] === CONSOLE_BACKGROUND) record.background = true;
      if (this.options.bodies) this.addBodies(ctx, tap, record);
      this.writer.add(record, record.id);
    } catch (err) {
      this.log(`request logs: ${ctx.method} ${arrival.path} not recorded: ${(err as Error).message}`);
    }
  }

  private addBodies(ctx: EndedRequest, tap: BodyTap | undefined, record: LogRecord): void {
    const max = this.options.bodyMaxBytes;
    const put = (which: 'request' | 'response', body: CapturedBody | undefined) => {
      if (!body) return;
      record[`${which}_body`] = body.text;
      if (body.truncated) record[`${which}_truncated`] = true;
    };
    // the Flow Framework's templates (and ML Commons' own APIs) carry connectors, whose `credential` holds secrets
    const connectors = /^cluster:admin\/opensearch\/(flow_framework|ml)\//.test(record.action);
    const sent = tap ? tap.take(connectors) : captureBody(ctx.state.body, max, undefined, connectors);
    const encoding = ctx.req.headers['content-encoding'];
    put('request', sent && encoding && encoding !== 'identity' ? { text: `[${encoding}]`, truncated: false } : sent);
    if (record.stream) put('response', { text: '[stream]', truncated: false });
    else if (ctx.method !== 'HEAD') put('response', captureBody(ctx.body, max, responseEncoding(ctx), connectors));
  }
}

/**
 * A record as the API shows it: with an ISO `timestamp`, without the sort key. A reader with field
 * rules gets no bodies and no query strings: they hold whole documents and searched values, the
 * fields its rules hide among them.
 */
function view(record: LogRecord, reader: Principal): Omit<LogRecord, 'time_us'> & { timestamp: string } {
  const { time_us: _order, ...shown } = record;
  const { include_fields: include, exclude_fields: exclude } = reader.credential;
  if (reader.role !== 'admin' && (include?.length || exclude?.length)) {
    delete shown.request_body;
    delete shown.response_body;
    // a query string may name a hidden field's value (`q=secret:…`): such a reader gets none
    if (shown.querystring) shown.querystring = '[hidden by the credential\'s field rules]';
  }
  return { ...shown, timestamp: new Date(record.time).toISOString() };
}

/** A declarative body as a value, to tell a suggestion from a search (only one the classifier read, small enough). */
/** The response's Content-Encoding, if any. */
function responseEncoding(ctx: EndedRequest): string | undefined {
  const value = ctx.res.getHeader('content-encoding');
  return value === undefined || value === '' ? undefined : String(value);
}

function declarativeBody(body: Buffer | string | null | undefined): unknown {
  if (body === null || body === undefined || body.length > MAX_KIND_BODY) return undefined;
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (!text.includes('suggestion')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
