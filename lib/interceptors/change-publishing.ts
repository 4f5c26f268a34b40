import { bulkChanges, captureBulk, changeOf, type ChangePublisher, type DocumentOp, type NewChange, type WriteAck } from '../changes/index.js';
import { readRawRequest } from '../auth/classify/index.js';
import { callJson, readBody, readBulkItems, type EngineRequest, type EngineResponse, type JsonReply } from '../engine/index.js';
import { eventLoopTurn, parseItemsAnswer, TimeSlice } from '../cooperative/index.js';
import { jsonBody } from '../engine/index.js';
import type { Dispatch, Interceptor } from '../engine/index.js';
import { applyFilterPath } from '../engine/embedded/rest/index.js';
import { narrowRequest, queryString, withParam, type Classification } from '../request/index.js';

/** What a successful write through the engine publishes, told from the request's classification. */
type Write =
  | { kind: 'document'; op: DocumentOp; index: string }
  | { kind: 'update'; index: string }
  | { kind: 'bulk' }
  | { kind: 'by-query'; op: 'delete' | 'update'; index: string; background: boolean }
  | { kind: 'reindex'; background: boolean }
  | { kind: 'index'; op: 'delete' | 'close'; index: string }
  | { kind: 'mapping'; index: string };

const isName = (s: string | undefined): s is string => !!s && !s.startsWith('_');

function writeOf(info: Classification, params: ReadonlyMap<string, string>): Write | undefined {
  if (info.family !== 'engine') return undefined;
  const [index, endpoint] = info.segments;
  if (info.segments.length > 3) return undefined; // `/{index}/_doc/{id}` at most: anything longer is another API
  switch (info.action) {
    case 'indices:data/write/index':
      if (!isName(index) || (endpoint !== '_doc' && endpoint !== '_create')) return undefined;
      return { kind: 'document', op: endpoint === '_create' ? 'create' : 'index', index };
    case 'indices:data/write/delete':
      return isName(index) && endpoint === '_doc' && info.id !== undefined ? { kind: 'document', op: 'delete', index } : undefined;
    case 'indices:data/write/update':
      return isName(index) && endpoint === '_update' ? { kind: 'update', index } : undefined;
    case 'indices:data/write/bulk':
      return index === '_bulk' || isName(index) ? { kind: 'bulk' } : undefined;
    case 'indices:data/write/delete/byquery':
    case 'indices:data/write/update/byquery':
      if (!isName(index) || info.segments.length !== 2) return undefined;
      return { kind: 'by-query', op: info.action.includes('delete') ? 'delete' : 'update', index, background: inBackground(params) };
    case 'indices:data/write/reindex':
      return index === '_reindex' && info.segments.length === 1 ? { kind: 'reindex', background: inBackground(params) } : undefined;
    case 'indices:admin/delete':
      return info.segments.length === 1 && (isName(index) || index === '_all') ? { kind: 'index', op: 'delete', index } : undefined;
    case 'indices:admin/create':
      return info.segments.length === 1 && isName(index) ? { kind: 'mapping', index } : undefined;
    case 'indices:admin/mapping/put':
      return isName(index) || index === '_mapping' ? { kind: 'mapping', index: isName(index) ? index : '_all' } : undefined;
    case 'indices:admin/close':
      return (isName(index) || index === '_all') && endpoint === '_close' ? { kind: 'index', op: 'close', index } : undefined;
    default:
      return undefined;
  }
}

type Json = Record<string, unknown>;

/** `wait_for_completion=false`: the engine answers with a task id and does the work afterwards. */
const inBackground = (params: ReadonlyMap<string, string>): boolean => params.get('wait_for_completion') === 'false';

/**
 * Every successful write that reaches the engine through the user-facing Backend — REST,
 * `_bulk`, by-query operations, app-style documents, pipeline stages — publishes its change
 * events once the engine has acknowledged it; index deletes and closes publish index events
 * (which end streams and trigger this node's clean-ups, see ChangePublisher).
 *
 * The engine is asked to answer in full (ids, versions, sources: `filter_path` and `pretty` are
 * held back, updates return their source) and the client gets the answer it asked for. A failed
 * publish is logged, never a failed write: the engine has applied it.
 */
export function changePublishing(publisher: ChangePublisher): Interceptor {
  return (next: Dispatch): Dispatch => (req) => {
    let write: Write | undefined;
    try {
      // read here when the Backend was composed without the edge's `requestValue`
      if (!req.request) req = { ...req, request: readRawRequest(req.method, req.path, req.querystring ?? '', textBody(req)) };
      write = writeOf(req.request!.info, req.request!.params);
    } catch (err) {
      return Promise.reject(err);
    }
    // a read goes on as it is, without a promise of this interceptor's own
    return write ? publishing(next, publisher, req, write) : next(req);
  };
}

/** A write: forwarded, and its changes published once the engine has acknowledged it. */
function publishing(next: Dispatch, publisher: ChangePublisher, req: EngineRequest, write: Write): Promise<EngineResponse> {
  const calls = new EngineCalls(next);
  switch (write.kind) {
    // marked in flight while the engine applies them and their changes go out (see ChangeBus.inFlight)
    case 'document':
      return publisher.inFlight(write.index, () => documentWrite(calls, publisher, req, write));
    case 'update':
      return publisher.inFlight(write.index, () => update(calls, publisher, req, write.index));
    case 'bulk': {
      const [index] = req.request?.info.segments ?? [];
      return isName(index) ? publisher.inFlight(index, () => bulk(calls, publisher, req)) : bulk(calls, publisher, req);
    }
    case 'by-query':
      return write.background ? byQuery(calls, publisher, req, write) : publisher.inFlight(write.index, () => byQuery(calls, publisher, req, write));
    case 'reindex':
      return reindex(calls, publisher, req, write.background);
    case 'index':
      return indexEvent(calls, publisher, req, write);
    case 'mapping':
      return mappingChange(calls, publisher, req, write.index);
  }
}

/** The request's decoded parameters (its value's: every request through the Backend has one by now). */
const paramsOf = (req: EngineRequest): ReadonlyMap<string, string> => req.request?.params ?? NO_PARAMS;
const NO_PARAMS: ReadonlyMap<string, string> = new Map();

function textBody(req: EngineRequest): string | Buffer | undefined {
  return typeof req.body === 'string' || Buffer.isBuffer(req.body) ? req.body : undefined;
}

async function bodyText(req: EngineRequest): Promise<string | undefined> {
  if (req.body === undefined) return undefined;
  if (typeof req.body === 'string') return req.body;
  return (await readBody(req.body)).toString('utf8');
}

const parse = (text: string | undefined): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // the engine refuses it with its own error
  }
};

/** A document text of at least this many characters is parsed for its event in an event-loop turn of its own. */
const LARGE_SOURCE_CHARS = 64 * 1024;

/**
 * `parse` for a written document's source: a large one (a document of 10,000 fields, one native
 * parse of a few ms, tens on a loaded machine) gets a turn of its own, apart from the engine's
 * commit whose answer it follows in the same turn otherwise.
 */
async function parseApart(text: string | undefined): Promise<unknown> {
  if (text && text.length >= LARGE_SOURCE_CHARS) await eventLoopTurn();
  return parse(text);
}

/** The engine below this interceptor, for the request and the reads the events need. */
class EngineCalls {
  constructor(readonly next: Dispatch) {}

  /** The request with the presentation parameters held back: the events need the full answer. */
  async forward(req: EngineRequest, body: string | undefined, asked: ReadonlyMap<string, string> = paramsOf(req)): Promise<{ res: EngineResponse; answer: unknown }> {
    const params = new Map(asked);
    params.delete('filter_path');
    params.delete('pretty');
    const headers = { ...req.headers };
    delete headers['content-length'];
    const request = req.request && narrowRequest(req.request, { params });
    const res = await this.next({ ...req, request, querystring: request?.querystring ?? queryString(params), headers, body });
    // an engine in this process hands over its answer as a value: nothing to parse
    if (res.value !== undefined) return { res, answer: res.value };
    const buf = await readBody(res.body);
    // a large `_bulk`'s answer (tens of MB) is parsed a slice at a time
    const answer = buf.length ? await parseItemsAnswer(buf.toString('utf8')).catch(() => undefined) : undefined;
    return { res, answer: answer ?? undefined };
  }

  json<T>(method: string, path: string, body?: unknown, querystring = ''): Promise<JsonReply<T>> {
    return callJson<T>({ request: this.next }, method, path, body, querystring);
  }

  /** A document's full source; `routing` as it was written (an index may require one). */
  async source(index: string, id: string, routing?: string): Promise<unknown> {
    const full = await this.json<{ _source?: unknown }>('GET', `/${encodeURIComponent(index)}/_doc/${encodeURIComponent(id)}`, undefined, queryString({ routing }));
    return full.body?._source;
  }
}

/** The engine's answer as the client asked for it (`filter_path`, `pretty` applied here). */
function reply(req: EngineRequest, res: EngineResponse, answer: unknown): EngineResponse {
  const params = paramsOf(req);
  const filterPath = params.get('filter_path');
  const shown = filterPath ? (applyFilterPath(answer, filterPath) ?? {}) : answer;
  const pretty = params.has('pretty') && params.get('pretty') !== 'false';
  const headers: Record<string, string | string[]> = { ...res.headers, 'content-type': 'application/json' };
  delete headers['content-length'];
  return { status: res.status, headers, body: req.method === 'HEAD' ? Buffer.alloc(0) : jsonBody(shown ?? {}, pretty), value: shown };
}

async function documentWrite(calls: EngineCalls, publisher: ChangePublisher, req: EngineRequest, write: { op: DocumentOp; index: string }): Promise<EngineResponse> {
  const body = write.op === 'delete' ? undefined : await bodyText(req);
  const { res, answer } = await calls.forward(req, body);
  if (res.status < 300 && answer) await publisher.publish([changeOf(answer as WriteAck, write.op, await parseApart(body), write.index)]);
  return reply(req, res, answer);
}

async function update(calls: EngineCalls, publisher: ChangePublisher, req: EngineRequest, index: string): Promise<EngineResponse> {
  const body = await bodyText(req);
  const asked = paramsOf(req);
  // the body's `_source` (ES's UpdateRequest field) chooses too, over the URL's
  const choosesSource = ['_source', '_source_includes', '_source_excludes'].some((p) => asked.has(p)) || bodyChoosesSource(await parseApart(body));
  const { res, answer: engineAnswer } = await calls.forward(req, body, choosesSource ? asked : withParam(asked, '_source', 'true'));
  // a copy: the engine's own answer (a value it may share) is not changed here
  const answer = typeof engineAnswer === 'object' && engineAnswer !== null ? { ...engineAnswer } : engineAnswer;
  const ack = answer as (WriteAck & { get?: { _source?: unknown } }) | undefined;
  if (res.status < 300 && ack) {
    let source = ack.get?._source;
    // the client filtered the returned source: read the full document for the event
    if (choosesSource) source = await calls.source(String(ack._index), String(ack._id), asked.get('routing'));
    else delete ack.get;
    await publisher.publish([changeOf(ack, 'update', source, index)]);
  }
  return reply(req, res, answer);
}

function bodyChoosesSource(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && (body as Record<string, unknown>)._source !== undefined;
}

async function bulk(calls: EngineCalls, publisher: ChangePublisher, req: EngineRequest): Promise<EngineResponse> {
  const params = paramsOf(req);
  const filtered = params.has('_source_includes') || params.has('_source_excludes') || (params.has('_source') && params.get('_source') !== 'true');
  const text = await bodyText(req);
  if (text === undefined) return calls.next(req); // the engine answers a bulk without a body
  // update actions may grow by `"_source":true`: the captured body is what goes on
  const capture = await captureBulk(text, filtered ? 'filtered' : params.get('_source') === 'true' ? true : undefined, readBulkItems(req), params.get('routing'));
  const { res, answer } = await calls.forward(req, capture.body);
  const acked = answer as { items?: Array<Record<string, WriteAck>> } | undefined;
  if (res.status < 300 && acked?.items) {
    const needsRead: number[] = [];
    const changes = await bulkChanges(capture, acked, needsRead);
    for (const i of needsRead) {
      // the client filtered an update's returned source: the event needs the whole document
      const entry = acked.items[i];
      const ack = entry[Object.keys(entry)[0]];
      changes.push(changeOf(ack, 'update', await calls.source(String(ack._index), String(ack._id), capture.items[i].routing)) as NewChange);
    }
    await publisher.publish(changes);
  }
  return reply(req, res, answer);
}

/**
 * By-query operations run in the engine as they are (its semantics, its answer); their changes
 * are found by comparing the matching documents' `_seq_no` before and after. In the background
 * (`wait_for_completion=false`) "after" is when the engine's task has finished (see afterTask).
 */
async function byQuery(calls: EngineCalls, publisher: ChangePublisher, req: EngineRequest, write: { op: 'delete' | 'update'; index: string; background: boolean }): Promise<EngineResponse> {
  const body = await bodyText(req);
  const parsed = parse(body) as { query?: unknown } | undefined;
  const before = await matchingSeqNos(calls, write.index, parsed?.query, paramsOf(req).get('q') ?? null);
  const { res, answer } = await calls.forward(req, body);
  if (res.status < 300 && before.size) {
    const publish = async () => publisher.publish(await changesSince(calls, before, write.op));
    if (write.background) afterTask(calls, answer, publish, publisher);
    else await publish();
  }
  return reply(req, res, answer);
}

/**
 * `_reindex`: the source documents it will copy are looked up first, and their ids in the
 * destination compared before and after (created, rewritten or, by a script's `ctx.op = 'delete'`,
 * deleted). A script that sends a document to another id or index is not followed (documented).
 */
async function reindex(calls: EngineCalls, publisher: ChangePublisher, req: EngineRequest, background: boolean): Promise<EngineResponse> {
  const body = await bodyText(req);
  const parsed = parse(body) as { source?: { index?: unknown; query?: unknown; remote?: unknown }; dest?: { index?: unknown } } | undefined;
  const sourceIndex = parsed?.source?.index;
  const sourceExpr = typeof sourceIndex === 'string' ? sourceIndex : Array.isArray(sourceIndex) ? sourceIndex.join(',') : undefined;
  const dest = parsed?.dest?.index;
  if (!sourceExpr || typeof dest !== 'string' || parsed?.source?.remote !== undefined) return calls.next({ ...req, body });
  const sources = await matchingSeqNos(calls, sourceExpr, parsed?.source?.query, null);
  const before = await destinationSeqNos(calls, dest, [...new Set([...sources.values()].map((s) => s.id))]);
  const { res, answer } = await calls.forward(req, body);
  if (res.status < 300 && before.size) {
    const publish = async () => publisher.publish(await changesSince(calls, before, 'index'));
    if (background) afterTask(calls, answer, publish, publisher);
    else await publish();
  }
  return reply(req, res, answer);
}

/** How long one wait on the engine's task lasts before it is asked again. */
const TASK_WAIT = '5m';

/**
 * A background operation's changes are published once the engine's task has finished: its
 * completion is awaited through the task API (`GET _tasks/{id}?wait_for_completion=true`, on
 * either engine), then `publish` runs. A task that cannot be followed is logged.
 */
function afterTask(calls: EngineCalls, answer: unknown, publish: () => Promise<void>, publisher: ChangePublisher): void {
  const task = (answer as { task?: unknown } | undefined)?.task;
  if (typeof task !== 'string') return;
  const follow = async (): Promise<void> => {
    for (;;) {
      const res = await calls.json<{ completed?: boolean; error?: { type?: string } }>('GET', `/_tasks/${encodeURIComponent(task)}`, undefined, `wait_for_completion=true&timeout=${TASK_WAIT}`);
      if (res.status === 200 && res.body?.completed) return publish();
      if (res.status === 200 || res.body?.error?.type === 'elasticsearch_timeout_exception' || res.body?.error?.type === 'timeout_exception') continue;
      throw new Error(`task ${task} could not be followed (status ${res.status})`);
    }
  };
  follow().catch((err: unknown) => publisher.logFailure(`changes of background task ${task} not published: ${(err as Error).message}`));
}

/** The destination documents a reindex may write, with their `_seq_no` now (-1: missing). */
async function destinationSeqNos(calls: EngineCalls, dest: string, ids: string[]): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  for (let i = 0; i < ids.length; i += LOOKUP_BATCH) {
    if (i > 0) await eventLoopTurn();
    const batch = ids.slice(i, i + LOOKUP_BATCH);
    const res = await calls.json<{ docs?: Array<{ _index?: string; found?: boolean; _seq_no?: number }> }>('POST', '/_mget', { docs: batch.map((id) => ({ _index: dest, _id: id })) }, '_source=false');
    batch.forEach((id, k) => {
      const doc = res.body?.docs?.[k];
      seen.set(`${dest}\u0000${id}`, { index: doc?._index ?? dest, id, seqNo: doc?.found ? Number(doc._seq_no) : -1 });
    });
  }
  return seen;
}

/** Index delete and close: the concrete indices the expression stood for, then their index events. */
/** An index created or a mapping put: every node's caches of mappings are told once the engine has acknowledged it. */
async function mappingChange(calls: EngineCalls, publisher: ChangePublisher, req: EngineRequest, index: string): Promise<EngineResponse> {
  const res = await calls.next(req);
  if (res.status < 300) await publisher.announceMapping(index);
  return res;
}

async function indexEvent(calls: EngineCalls, publisher: ChangePublisher, req: EngineRequest, write: { op: 'delete' | 'close'; index: string }): Promise<EngineResponse> {
  const names = await concreteIndices(calls, write.index);
  const res = await calls.next(req);
  if (res.status < 300) {
    const buf = await readBody(res.body);
    await publisher.publish(names.map((index) => ({ kind: 'index' as const, index, op: write.op })));
    return { ...res, body: buf };
  }
  return res;
}

async function concreteIndices(calls: EngineCalls, expr: string): Promise<string[]> {
  const pattern = /[*,]/.test(expr) || expr === '_all';
  const path = `/${expr.split(',').map(encodeURIComponent).join(',')}/_settings`;
  const res = await calls.json<Json>('GET', path, undefined, `filter_path=*.settings.index.uuid${pattern ? '&expand_wildcards=all' : ''}`);
  if (res.status === 200 && res.body) return Object.keys(res.body);
  return pattern ? [] : [expr];
}

/**
 * Documents one look-up (`_mget`, a scroll page) asks for, and the event loop gets a turn between
 * two: on the embedded engine a call is a promise chain, and a by-query operation's 20,000
 * documents looked up in one chain held everyone else for seconds.
 */
const LOOKUP_BATCH = 100;

interface Seen {
  index: string;
  id: string;
  seqNo: number;
  /** The document's routing, for the lookups after (an index may require one). */
  routing?: string;
}

interface ScrollPage {
  _scroll_id?: string;
  hits?: { hits?: Array<{ _index: string; _id: string; _seq_no?: number; _routing?: string }> };
}

/** The documents a by-query operation is about to touch, with their `_seq_no` now. */
async function matchingSeqNos(calls: EngineCalls, expr: string, query: unknown, q: string | null): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  const qs = queryString({ scroll: '1m', q: q ?? undefined });
  const path = `/${expr.split(',').map(encodeURIComponent).join(',')}/_search`;
  let page = await calls.json<ScrollPage>('POST', path, {
    ...(q === null ? { query: query ?? { match_all: {} } } : {}), size: LOOKUP_BATCH, _source: false, seq_no_primary_term: true, sort: ['_doc'],
  }, qs);
  while (page.status === 200 && page.body.hits?.hits?.length) {
    for (const h of page.body.hits.hits) seen.set(`${h._index}\u0000${h._id}`, { index: h._index, id: h._id, seqNo: h._seq_no ?? -1, routing: h._routing });
    if (!page.body._scroll_id) break;
    await eventLoopTurn();
    page = await calls.json<ScrollPage>('POST', '/_search/scroll', { scroll: '1m', scroll_id: page.body._scroll_id });
  }
  if (page.body?._scroll_id) await calls.json('DELETE', '/_search/scroll', { scroll_id: page.body._scroll_id });
  return seen;
}

/** What became of those documents: deleted, or rewritten (a newer `_seq_no`). */
async function changesSince(calls: EngineCalls, before: Map<string, Seen>, op: 'delete' | 'update' | 'index'): Promise<NewChange[]> {
  const changes: NewChange[] = [];
  const all = [...before.values()];
  // a slice of the turn shared with the others: a dozen background tasks that finish together
  // look their documents up side by side, and a turn each would hold the loop a dozen batches long
  const slice = new TimeSlice();
  for (let i = 0; i < all.length; i += LOOKUP_BATCH) {
    await slice.pause();
    const batch = all.slice(i, i + LOOKUP_BATCH);
    const res = await calls.json<{ docs?: Array<WriteAck & { found?: boolean; _source?: unknown }> }>(
      'POST', '/_mget', { docs: batch.map((d) => ({ _index: d.index, _id: d.id, ...(d.routing === undefined ? {} : { routing: d.routing }) })) },
    );
    (res.body?.docs ?? []).forEach((doc, k) => {
      const was = batch[k];
      if (!doc.found) {
        if (was.seqNo < 0) return; // missing before and after: nothing happened to it
        const change = changeOf({ _index: was.index, _id: was.id, _version: doc._version ?? 0, _seq_no: was.seqNo + 1, _primary_term: 1, result: 'deleted' }, 'delete', undefined);
        if (change) changes.push(change);
      } else if (op !== 'delete' && Number(doc._seq_no) > was.seqNo) {
        const change = op === 'index'
          ? changeOf({ ...doc, result: was.seqNo < 0 ? 'created' : 'updated' }, 'index', doc._source)
          : changeOf({ ...doc, result: 'updated' }, 'update', doc._source);
        if (change) changes.push(change);
      }
    });
  }
  return changes;
}
