import { pino, type Logger } from 'pino';
import { redactQuerystring, type RequestEnd } from '../logs/index.js';

/** An X-Opaque-Id is logged up to this many characters. */
const MAX_OPAQUE_ID = 256;

/**
 * One access line per request, once its response is over (a live stream: when it ends), at `info`:
 *
 *     {"level":"info","time":"…","log":"access","request_id":"…","method":"GET","path":"/books/_search",
 *      "query":"q=tolkien","status":200,"took":1.8,"family":"engine","category":"search","user":"admin",
 *      "opaque_id":"…","ip":"127.0.0.1","msg":"GET /books/_search 200"}
 *
 * Built field by field: no header but X-Opaque-Id, no body, the query string with the values of
 * secret-looking parameters redacted (`lib/logs/redact.ts`), never the URL as sent (it may carry
 * userinfo). `family`, `category` and `user` are absent when the request was refused before it was
 * classified or authenticated; `aborted` says the client went away before the whole answer was written.
 */
export class AccessLog {
  private readonly lines: Logger;
  private readonly write: (line: AccessLine) => void;

  constructor(logger: Logger) {
    this.lines = logger.child({ log: 'access' });
    this.write = lineWriter(this.lines);
  }

  /** The request's line, once its response is over (a `RequestEnd`). */
  readonly end: RequestEnd = (ctx, arrival) => {
    const info = ctx.state.request;
    const { method, path, querystring, opaqueId } = arrival;
    this.write({
      request_id: arrival.requestId,
      method,
      path,
      query: querystring ? redactQuerystring(querystring) : undefined,
      status: ctx.res.statusCode,
      took: Math.round((performance.now() - arrival.started) * 10) / 10,
      family: info?.family,
      category: info?.category,
      user: ctx.state.principal?.username,
      opaque_id: opaqueId ? opaqueId.slice(0, MAX_OPAQUE_ID) : undefined,
      ip: arrival.ip,
      aborted: ctx.res.writableFinished ? undefined : true,
    });
  };
}

interface AccessLine {
  request_id: string;
  method: string;
  path: string;
  query?: string;
  status: number;
  took: number;
  family?: string;
  category?: string;
  user?: string;
  opaque_id?: string;
  ip: string;
  aborted?: true;
}

const { lsCacheSym, timeSym, chindingsSym, streamSym, mixinSym, hooksSym, formattersSym, needsMetadataGsym } = pino.symbols;
/** Not in pino's types (it is in its `symbols`). */
const msgPrefixSym = (pino.symbols as unknown as Record<string, symbol>).msgPrefixSym;
const INFO = 30;

/**
 * How a line is written. The line pino would write, built here field by field with the logger's
 * own level label, time and bindings, and handed to its destination: a tenth of a busy gateway's
 * request went into pino's generic serialization of the line's object (its loop over members,
 * serializers and stringifiers), none of which the access line uses. A logger with anything that
 * would change the line (a mixin, hooks, a message prefix, a log formatter, a destination that
 * wants metadata) gets the line through pino itself.
 */
function lineWriter(lines: Logger): (line: AccessLine) => void {
  const own = lines as unknown as Record<symbol, unknown>;
  const stream = own[streamSym] as { write(text: string): void; [key: symbol]: unknown };
  const formatters = own[formattersSym] as { log?: unknown };
  const hooks = own[hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined;
  const plain = !own[mixinSym] && !hooks?.logMethod && !hooks?.streamWrite && !own[msgPrefixSym] && !formatters?.log && stream?.[needsMetadataGsym] !== true;
  if (!plain) return (line) => lines.info(line, `${line.method} ${line.path} ${line.status}`);
  const levelPrefix = (own[lsCacheSym] as Record<number, string>)[INFO];
  const time = own[timeSym] as () => string;
  const bindings = own[chindingsSym] as string;
  return (line) => {
    // pino's level check, as `lines.info` makes it (the level may change while the gateway runs)
    if (lines.levelVal > INFO) return;
    let text = `${levelPrefix}${time()}${bindings},"request_id":${JSON.stringify(line.request_id)},"method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)}`;
    if (line.query !== undefined) text += `,"query":${JSON.stringify(line.query)}`;
    text += `,"status":${line.status},"took":${line.took}`;
    if (line.family !== undefined) text += `,"family":${JSON.stringify(line.family)}`;
    if (line.category !== undefined) text += `,"category":${JSON.stringify(line.category)}`;
    if (line.user !== undefined) text += `,"user":${JSON.stringify(line.user)}`;
    if (line.opaque_id !== undefined) text += `,"opaque_id":${JSON.stringify(line.opaque_id)}`;
    text += `,"ip":${JSON.stringify(line.ip)}`;
    if (line.aborted) text += ',"aborted":true';
    stream.write(`${text},"msg":${JSON.stringify(`${line.method} ${line.path} ${line.status}`)}}\n`);
  };
}
