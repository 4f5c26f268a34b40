import { pino, type Logger } from 'pino';
import { endedStatus, redactQuerystring, type EndedRequest, type RequestArrival, type RequestEnd } from '../logs/index.js';

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
  /** The line of an ended request, written (a `RequestEnd`). */
  private readonly write: RequestEnd;

  constructor(logger: Logger) {
    this.lines = logger.child({ log: 'access' });
    this.write = lineWriter(this.lines);
  }

  /** The request's line, once its response is over (a `RequestEnd`). */
  readonly end: RequestEnd = (ctx, arrival) => this.write(ctx, arrival);
}

/** The line's members, as pino would be handed them (a logger that must write the line itself). */
function accessLine(ctx: EndedRequest, arrival: RequestArrival): AccessLine {
  const info = ctx.state.request;
  const { method, path, querystring, opaqueId } = arrival;
  return {
    request_id: arrival.requestId,
    method,
    path,
    query: querystring ? redactQuerystring(querystring) : undefined,
    status: endedStatus(ctx.res),
    took: tookOf(arrival),
    family: info?.family,
    category: info?.category,
    user: ctx.state.principal?.username,
    opaque_id: opaqueId ? opaqueId.slice(0, MAX_OPAQUE_ID) : undefined,
    ip: arrival.ip,
    aborted: ctx.res.writableFinished ? undefined : true,
  };
}

/** Milliseconds since the request came in, to a tenth. */
const tookOf = (arrival: RequestArrival): number => Math.round((performance.now() - arrival.started) * 10) / 10;

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
 * serializers and stringifiers), none of which the access line uses. The line is made straight
 * from the request and its arrival, with no object of its members in between; the members from a
 * small set of known words (the method, which Node's parser admits only as a token; the family and
 * category, the classification's own words; the client address) are quoted once per word, not
 * escaped on every line, and the message reuses the quoted path. A logger with anything that
 * would change the line (a mixin, hooks, a message prefix, a log formatter, a destination that
 * wants metadata) gets the line through pino itself.
 */
function lineWriter(lines: Logger): RequestEnd {
  const own = lines as unknown as Record<symbol, unknown>;
  const stream = own[streamSym] as { write(text: string): void; [key: symbol]: unknown };
  const formatters = own[formattersSym] as { log?: unknown };
  const hooks = own[hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined;
  const plain = !own[mixinSym] && !hooks?.logMethod && !hooks?.streamWrite && !own[msgPrefixSym] && !formatters?.log && stream?.[needsMetadataGsym] !== true;
  if (!plain) {
    return (ctx, arrival) => {
      const line = accessLine(ctx, arrival);
      lines.info(line, `${line.method} ${line.path} ${line.status}`);
    };
  }
  const levelPrefix = (own[lsCacheSym] as Record<number, string>)[INFO];
  const time = own[timeSym] as () => string;
  const bindings = own[chindingsSym] as string;
  const words = new QuotedWords();
  return (ctx, arrival) => {
    // pino's level check, as `lines.info` makes it (the level may change while the gateway runs)
    if (lines.levelVal > INFO) return;
    const info = ctx.state.request;
    const res = ctx.res;
    const status = endedStatus(res);
    const method = words.quoted(arrival.method);
    const path = JSON.stringify(arrival.path);
    // the request id needs no escaping (RequestArrival's contract)
    let text = `${levelPrefix}${time()}${bindings},"request_id":"${arrival.requestId}","method":${method},"path":${path}`;
    if (arrival.querystring) text += `,"query":${JSON.stringify(redactQuerystring(arrival.querystring))}`;
    text += `,"status":${status},"took":${tookOf(arrival)}`;
    if (info) {
      if (info.family !== undefined) text += `,"family":${words.quoted(info.family)}`;
      if (info.category !== undefined) text += `,"category":${words.quoted(info.category)}`;
    }
    const user = ctx.state.principal?.username;
    if (user !== undefined) text += `,"user":${words.quoted(user)}`;
    if (arrival.opaqueId) text += `,"opaque_id":${JSON.stringify(arrival.opaqueId.slice(0, MAX_OPAQUE_ID))}`;
    text += `,"ip":${words.quoted(arrival.ip)}`;
    if (!res.writableFinished) text += ',"aborted":true';
    // the message is `${method} ${path} ${status}`: the quoted method and path's insides, which need no more escaping
    stream.write(`${text},"msg":${method.slice(0, -1)} ${path.slice(1, -1)} ${status}"}\n`);
  };
}

/**
 * Words quoted as JSON strings, each quoted once: the few that recur on every line (methods,
 * route families and categories, usernames, client addresses). Bounded: past MAX_QUOTED_WORDS it starts over.
 */
class QuotedWords {
  private readonly known = new Map<string, string>();

  quoted(word: string): string {
    let quoted = this.known.get(word);
    if (quoted === undefined) {
      if (this.known.size >= MAX_QUOTED_WORDS) this.known.clear();
      this.known.set(word, (quoted = JSON.stringify(word)));
    }
    return quoted;
  }
}

const MAX_QUOTED_WORDS = 4_096;
