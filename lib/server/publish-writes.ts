import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { BulkCapture, bulkChanges, changeOf, type ChangePublisher, type DocumentOp, type NewChange, type WriteAck } from '../changes/index.js';
import { callJson, readJson, type Backend, type EngineResponse } from '../engine/index.js';
import { applyFilterPath } from '../engine/embedded/rest/filter-path.js';
import { bodyStream, bufferBody } from './request-body.js';
import { targetIndices } from './target-indices.js';

/**
 * Index-addressed writes, forwarded to the engine and turned into change events once the engine
 * has acknowledged them. The client gets the engine's answer unchanged (members the gateway asked
 * for itself are removed). A failed publish is logged, never turned into a failed write: the
 * engine has already applied it.
 */
export function publishWrites(backend: Backend, publisher: ChangePublisher, maxContentLength: number): Middleware {
  const router = new Router();
  const isIndex = (name: string | undefined) => !!name && !name.startsWith('_');
  const publish = (changes: Array<NewChange | undefined>) => publisher.publish(changes);

  /**
   * The engine must answer in full (ids, versions, sources) for the events to be built, so the
   * presentation parameters are applied here, after the events, rather than by the engine.
   */
  const engineQuery = (querystring: string): string => {
    const params = new URLSearchParams(querystring);
    params.delete('filter_path');
    params.delete('pretty');
    return params.toString();
  };

  const forward = async (ctx: Context, body: Buffer | NodeJS.ReadableStream | undefined, querystring = ctx.querystring): Promise<EngineResponse> =>
    backend.request({ method: ctx.method, path: ctx.path, querystring: engineQuery(querystring), headers: ctx.headers, body: body as Buffer | undefined });

  const reply = (ctx: Context, res: EngineResponse, body: unknown) => {
    ctx.status = res.status;
    for (const [name, value] of Object.entries(res.headers)) {
      if (name !== 'content-length' && name !== 'x-elastic-product') ctx.set(name, value);
    }
    const params = new URLSearchParams(ctx.querystring);
    const filterPath = params.get('filter_path');
    const shown = filterPath ? (applyFilterPath(body, filterPath) ?? {}) : body;
    const pretty = params.has('pretty') && params.get('pretty') !== 'false';
    ctx.type = 'application/json';
    ctx.body = pretty ? JSON.stringify(shown, null, 2) + '\n' : JSON.stringify(shown ?? {});
  };

  const bufferedBody = (ctx: Context): Promise<Buffer | undefined> => bufferBody(ctx, maxContentLength);

  const parse = (buf: Buffer | undefined): unknown => {
    if (!buf) return undefined;
    try {
      return JSON.parse(buf.toString('utf8'));
    } catch {
      return undefined; // the engine will refuse it with its own error
    }
  };

  /** A single-document write whose source is the request body. */
  const documentWrite = (op: DocumentOp) => async (ctx: Context, next: () => Promise<unknown>) => {
    if (!isIndex(ctx.params.index)) return next();
    const body = await bufferedBody(ctx);
    const res = await forward(ctx, body);
    const answer = await readJson<WriteAck>(res);
    if (res.status < 300 && answer) await publish([changeOf(answer, op, parse(body), ctx.params.index)]);
    reply(ctx, res, answer);
  };

  router.put('/:index/_doc/:id', documentWrite('index'));
  router.post('/:index/_doc/:id', documentWrite('index'));
  router.post('/:index/_doc', documentWrite('index'));
  router.put('/:index/_create/:id', documentWrite('create'));
  router.post('/:index/_create/:id', documentWrite('create'));

  router.delete('/:index/_doc/:id', async (ctx, next) => {
    if (!isIndex(ctx.params.index)) return next();
    const res = await forward(ctx, undefined);
    const answer = await readJson<WriteAck>(res);
    if (res.status < 300 && answer) await publish([changeOf(answer, 'delete', undefined, ctx.params.index)]);
    reply(ctx, res, answer);
  });

  router.post('/:index/_update/:id', async (ctx, next) => {
    if (!isIndex(ctx.params.index)) return next();
    const body = await bufferedBody(ctx);
    const params = new URLSearchParams(ctx.querystring);
    const choosesSource = ['_source', '_source_includes', '_source_excludes'].some((p) => params.has(p));
    if (!choosesSource) params.set('_source', 'true');
    const res = await forward(ctx, body, params.toString());
    const answer = await readJson<WriteAck & { get?: { _source?: unknown } }>(res);
    if (res.status < 300 && answer) {
      let source = answer.get?._source;
      if (choosesSource) {
        // the client filtered the returned source: read the full document for the event
        const full = await callJson<{ _source?: unknown; _version?: number }>(backend, 'GET', `/${encodeURIComponent(String(answer._index))}/_doc/${encodeURIComponent(String(answer._id))}`);
        source = full.body?._source;
      } else {
        delete answer.get;
      }
      await publish([changeOf(answer, 'update', source, ctx.params.index)]);
    }
    reply(ctx, res, answer);
  });

  const bulk = async (ctx: Context, next: () => Promise<unknown>) => {
    if (ctx.params.index !== undefined && !isIndex(ctx.params.index)) return next();
    const params = new URLSearchParams(ctx.querystring);
    const filtered = params.has('_source_includes') || params.has('_source_excludes') || (params.has('_source') && params.get('_source') !== 'true');
    const capture = new BulkCapture(filtered ? 'filtered' : params.get('_source') === 'true' ? true : undefined);
    const body = bodyStream(ctx, maxContentLength)?.pipe(capture);
    const headers = { ...ctx.headers };
    delete headers['content-length']; // update actions may grow by `"_source":true`
    const res = await backend.request({ method: ctx.method, path: ctx.path, querystring: engineQuery(ctx.querystring), headers, body });
    const answer = await readJson<{ items?: Array<Record<string, WriteAck>> }>(res);
    if (res.status < 300 && answer?.items) {
      const needsRead: number[] = [];
      const changes = bulkChanges(capture, answer, needsRead);
      for (const i of needsRead) {
        // the client filtered an update's returned source: the event needs the whole document
        const entry = answer.items[i];
        const ack = entry[Object.keys(entry)[0]];
        const full = await callJson<{ _source?: unknown }>(backend, 'GET', `/${encodeURIComponent(String(ack._index))}/_doc/${encodeURIComponent(String(ack._id))}`);
        changes.push(changeOf(ack, 'update', full.body?._source) as NewChange);
      }
      await publish(changes);
    }
    reply(ctx, res, answer);
  };
  router.post('/_bulk', bulk);
  router.put('/_bulk', bulk);
  router.post('/:index/_bulk', bulk);
  router.put('/:index/_bulk', bulk);

  /**
   * By-query operations run in the engine as they are (its semantics, its answer); their changes
   * are found by comparing the matching documents' `_seq_no` before and after.
   */
  const byQuery = (op: 'delete' | 'update') => async (ctx: Context, next: () => Promise<unknown>) => {
    const expr = ctx.params.index;
    if (!isIndex(expr)) return next();
    const params = new URLSearchParams(ctx.querystring);
    if (params.get('wait_for_completion') === 'false') return next(); // a background task: no events (documented)
    const body = await bufferedBody(ctx);
    const parsed = parse(body) as { query?: unknown } | undefined;
    const before = await matchingSeqNos(backend, expr, parsed?.query, params.get('q'));
    const res = await forward(ctx, body);
    const answer = await readJson<Record<string, unknown>>(res);
    if (res.status < 300 && before.size) await publish(await changesSince(backend, before, op));
    reply(ctx, res, answer);
  };
  router.post('/:index/_delete_by_query', byQuery('delete'));
  router.post('/:index/_update_by_query', byQuery('update'));

  /** Index delete and close end the streams on those indices. */
  const indexEvent = (op: 'delete' | 'close') => async (ctx: Context, next: () => Promise<unknown>) => {
    const expr = ctx.params.index;
    if (!isIndex(expr) && expr !== '_all') return next();
    const names = await targetIndices(ctx, backend, expr);
    await next();
    if (ctx.status < 300) await publish(names.map((index) => ({ kind: 'index' as const, index, op })));
  };
  router.delete('/:index', indexEvent('delete'));
  router.post('/:index/_close', indexEvent('close'));

  return router.routes() as unknown as Middleware;
}

interface Seen {
  index: string;
  id: string;
  seqNo: number;
}

/** The documents a by-query operation is about to touch, with their `_seq_no` now. */
async function matchingSeqNos(backend: Backend, expr: string, query: unknown, q: string | null): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  const qs = new URLSearchParams({ scroll: '1m' });
  if (q !== null) qs.set('q', q);
  let page = await callJson<ScrollPage>(backend, 'POST', `/${expr}/_search`, {
    ...(q === null ? { query: query ?? { match_all: {} } } : {}), size: 1000, _source: false, seq_no_primary_term: true, sort: ['_doc'],
  }, qs.toString());
  while (page.status === 200 && page.body.hits?.hits?.length) {
    for (const h of page.body.hits.hits) seen.set(`${h._index}\u0000${h._id}`, { index: h._index, id: h._id, seqNo: h._seq_no ?? -1 });
    if (!page.body._scroll_id) break;
    page = await callJson<ScrollPage>(backend, 'POST', '/_search/scroll', { scroll: '1m', scroll_id: page.body._scroll_id });
  }
  if (page.body?._scroll_id) await callJson(backend, 'DELETE', '/_search/scroll', { scroll_id: page.body._scroll_id });
  return seen;
}

interface ScrollPage {
  _scroll_id?: string;
  hits?: { hits?: Array<{ _index: string; _id: string; _seq_no?: number }> };
}

/** What became of those documents: deleted, or rewritten (a newer `_seq_no`). */
async function changesSince(backend: Backend, before: Map<string, Seen>, op: 'delete' | 'update'): Promise<NewChange[]> {
  const changes: NewChange[] = [];
  const all = [...before.values()];
  for (let i = 0; i < all.length; i += 1000) {
    const batch = all.slice(i, i + 1000);
    const res = await callJson<{ docs?: Array<WriteAck & { found?: boolean; _source?: unknown }> }>(
      backend, 'POST', '/_mget', { docs: batch.map((d) => ({ _index: d.index, _id: d.id })) },
    );
    (res.body?.docs ?? []).forEach((doc, k) => {
      const was = batch[k];
      if (!doc.found) {
        const change = changeOf({ _index: was.index, _id: was.id, _version: doc._version ?? 0, _seq_no: was.seqNo + 1, _primary_term: 1, result: 'deleted' }, 'delete', undefined);
        if (change) changes.push(change);
      } else if (op === 'update' && Number(doc._seq_no) > was.seqNo) {
        const change = changeOf({ ...doc, result: 'updated' }, 'update', doc._source);
        if (change) changes.push(change);
      }
    });
  }
  return changes;
}
