/**
 * bench:streams' second floor of the live aggregations, the minimal gateway: one Node process, the
 * embedded engine in it, and a bare node:http server (no koa, authentication, logs, change bus or
 * RxJS) doing the work any single-process gateway must do on its one event loop:
 *
 * - `POST /{index}/_search?stream=true` with a dashboard's search (the gateway's request) holds a
 *   chunked response open, its first message the current state; streams of the same search share
 *   one feed;
 * - `PUT /{index}/_doc/{id}` indexes the document and answers once the engine acknowledged it; the
 *   feeds whose search's section (`query.term['section.raw']`) is the document's are run again;
 * - a feed runs its search at most once per AGG_INTERVAL_MS, never two at once, AGG_CONCURRENCY of
 *   all feeds at once (the gateway's defaults), makes `{aggregations, hits: {total}}` JSON once and
 *   writes it as one chunk to each of its streams' sockets, as the gateway does;
 * - anything else goes to the engine as it is (the bench creates and loads the index so).
 *
 * Env: DATA_DIR, PORT. Prints `floor listening on <url>`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pLimit from 'p-limit';
import { openEmbeddedEngine } from '../../lib/engine/embedded/index.js';
import { readBody, readJson } from '../../lib/engine/index.js';
import { coalescedLoop, type CoalescedLoop } from './coalesced-loop.js';
import { AGG_CONCURRENCY, AGG_INTERVAL_MS } from './dashboard-workload.js';

interface Feed {
  streams: Set<http.ServerResponse>;
  loop: CoalescedLoop;
  /** The first state, computed once the first stream asked. */
  ready: Promise<void>;
  /** The last state pushed, as JSON. */
  text: string;
}

const engine = await openEmbeddedEngine({ dataDir: process.env.DATA_DIR! });
const limit = pLimit(AGG_CONCURRENCY);
/** Per search body. */
const feeds = new Map<string, Feed>();
/** Per section: the feeds its writes run again. */
const feedsOf = new Map<string, Feed[]>();
const CRLF = Buffer.from('\r\n');
const JSON_HEADERS = { 'content-type': 'application/json' };

const fail = (err: Error) => {
  console.error(`the minimal gateway failed: ${err.stack}`);
  process.exit(1);
};

/** The feed of the streams of `search` on `path` (`/{index}/_search`). */
function feedOf(path: string, search: string): Feed {
  const key = `${path}\n${search}`;
  let feed = feeds.get(key);
  if (feed) return feed;
  const compute = async () => {
    const res = await engine.request({ method: 'POST', path, headers: JSON_HEADERS, body: search });
    // the engine's own value where it has one, as the gateway reads a state (readRequest)
    const answer = (res.value ?? (await readJson(res))) as { aggregations?: unknown; hits?: { total?: unknown } };
    if (res.status >= 300) throw new Error(`dashboard search failed: ${res.status} ${JSON.stringify(answer)}`);
    push(feed!, JSON.stringify({ aggregations: answer.aggregations, hits: { total: answer.hits?.total } }));
  };
  // a feed that cannot compute is no floor: the process ends, and so do its streams
  const loop = coalescedLoop(() => compute().catch(fail), limit, AGG_INTERVAL_MS);
  feed = { streams: new Set(), loop, ready: limit(compute), text: '' };
  feeds.set(key, feed);
  const section = (JSON.parse(search) as { query: { term: Record<string, string> } }).query.term['section.raw'];
  feedsOf.set(section, [...(feedsOf.get(section) ?? []), feed]);
  return feed;
}

/** A state to every stream of `feed` that has not shown it: one chunk, made once, one socket write each. */
function push(feed: Feed, text: string): void {
  if (text === feed.text) return;
  feed.text = text;
  const bytes = Buffer.from(text);
  const chunk = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`, 'latin1'), bytes, CRLF]);
  for (const res of feed.streams) {
    // as lib/streams/transports/write-stream.ts: straight to the socket when nothing waits in the response's buffer
    const socket = res.socket;
    if (socket !== null && res.writableLength === socket.writableLength && !socket.destroyed) socket.write(chunk);
    else res.write(bytes);
  }
}

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const querystring = q < 0 ? '' : url.slice(q + 1);
  void readBody(req).then(async (body) => {
    if (req.method === 'POST' && querystring === 'stream=true') {
      const feed = feedOf(path, body.toString('utf8'));
      await feed.ready;
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.write(feed.text);
      feed.streams.add(res);
      res.on('close', () => feed.streams.delete(res));
      return;
    }
    const answer = await engine.request({ method: req.method!, path, querystring, headers: req.headers, body });
    if (req.method === 'PUT' && path.includes('/_doc/') && answer.status < 300) {
      const { section } = JSON.parse(body.toString('utf8')) as { section: string };
      for (const feed of feedsOf.get(section) ?? []) feed.loop.changed();
    }
    res.writeHead(answer.status, JSON_HEADERS).end(await readBody(answer.body));
  }).catch((err: Error) => {
    if (!res.headersSent) res.writeHead(500, JSON_HEADERS);
    res.end(JSON.stringify({ error: err.message }));
  });
});
server.keepAliveTimeout = 65_000;
// acknowledged writes are on disk already, and the bench removes the data directory: no snapshot to save
process.on('SIGTERM', () => process.exit(0));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`floor listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
