import { Readable, Transform } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { Context } from 'koa';
import { ChunkedTextDecoder, encodedPieces, eventLoopTurn, PieceText, TimeSlice } from '../cooperative/index.js';
import { errors, EsError } from '../errors/index.js';
import { parseJsonWithin } from '../ndjson/index.js';
import type { IncomingMessage } from 'node:http';
import type { Reservation } from '../breakers/index.js';
import type { TextPieces } from './request-info.js';

/** Each request's in-flight reservation (network.breaker.inflight_requests): its body's bytes are added as they are read. */
const inFlight = new WeakMap<IncomingMessage, Reservation>();

/** Counts what is read of `req`'s body against `reservation` (which trips with a 429 when the breaker would). */
export function holdBodyIn(req: IncomingMessage, reservation: Reservation): void {
  inFlight.set(req, reservation);
}

/** The rest of `req`'s body is read only to be dropped: all of it at the node's pace (Reservation.paceAll). */
export function paceRestOfBody(req: IncomingMessage): void {
  inFlight.get(req)?.paceAll();
}

export function hasBody(ctx: Context): boolean {
  // read off Node's parsed headers: asked by several steps of every request
  const headers = ctx.req.headers;
  const len = headers['content-length'];
  return (len !== undefined && len !== '' && len !== '0') || (headers['transfer-encoding'] ?? '') !== '';
}

/** Refuses a declared length over the limit before reading a byte. */
export function checkDeclaredLength(ctx: Context, limit: number): void {
  const len = Number(ctx.req.headers['content-length'] || 0);
  if (len > limit) throw errors.contentTooLong(limit);
}

/**
 * The request body as a stream that fails with 413 once more than `limit` bytes have flowed. Not
 * paced (BodyPace): its bytes pass through to the engine, never decoded or parsed here.
 */
export function limitedBody(req: Readable, limit: number): Readable {
  let seen = 0;
  const held = inFlight.get(req as IncomingMessage);
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) return done(errors.contentTooLong(limit));
      try {
        held?.add(chunk.length);
      } catch (err) {
        return done(err as Error);
      }
      done(null, chunk);
    },
  });
  req.on('error', (err) => counter.destroy(err));
  return req.pipe(counter);
}

/** Bytes of an already-buffered body handed out at a time (`bodyChunks`, `limitedChunks`). */
const BUFFERED_CHUNK_BYTES = 64 * 1024;

/**
 * The request's chunks as they arrive, failing with 413 once more than `limit` bytes have come.
 * A body already buffered by the socket is iterated through microtasks only, so the loop yields
 * to the event loop a time slice at a time: reading (and decoding) a 20 MB body that had all
 * arrived held it for ~50 ms in one piece. A stream's iterator hands out everything it has
 * buffered as one chunk: that is handed on 64 KB at a time, or a reader that parses each chunk
 * (a multipart form) would take all of it in one synchronous stretch.
 */
async function* limitedChunks(ctx: Context, limit: number): AsyncGenerator<Buffer> {
  let size = 0;
  const slice = new TimeSlice();
  const held = inFlight.get(ctx.req);
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw errors.contentTooLong(limit);
    // past its first megabyte, a body is read at the node's pace (BodyPace): its client waits
    const wait = held?.read(chunk.length, ctx.req) ?? 0;
    if (wait > 0) await delay(wait);
    for (let at = 0; at < chunk.length; at += BUFFERED_CHUNK_BYTES) {
      yield at === 0 && chunk.length <= BUFFERED_CHUNK_BYTES ? chunk : chunk.subarray(at, at + BUFFERED_CHUNK_BYTES);
      // only what is buffered already can hold the loop: with nothing more at hand, the next chunk
      // comes with a later read of the socket anyway (no pause, and its promise, for each chunk of
      // a body that trickles in: 12,000 slow clients each sent a byte every 2 s)
      if (at + BUFFERED_CHUNK_BYTES < chunk.length || ctx.req.readableLength > 0) await slice.pause();
    }
  }
}

/** Each chunk of the body as it comes, counted and limited: a small body in one piece (`smallBody`), any other through `readChunks`. */
async function eachChunk(ctx: Context, limit: number, take: (chunk: Buffer) => void): Promise<void> {
  const small = smallBody(ctx, limit);
  if (small) return take(await small);
  await readChunks(ctx.req, limit, take);
}

const prematureClose = () => Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });

/**
 * `limitedChunks` for a reader that takes each chunk as it comes (`eachChunk`): counted, limited,
 * paced and handed on 64 KB at a time as it does, but with its four listeners added once and one promise per wait for more. Under 12,000 clients
 * each sending a byte of its body every 2 s, a chunk through the stream's async iterator and two
 * generators (a promise and a result object at each step) was ~4% of the gateway's CPU, and more of
 * its garbage.
 */
async function readChunks(req: IncomingMessage, limit: number, take: (chunk: Buffer) => void): Promise<void> {
  const held = inFlight.get(req);
  const slice = new TimeSlice();
  let size = 0;
  let ended = req.readableEnded;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const more = () => {
    const woken = wake;
    wake = undefined;
    woken?.();
  };
  const onEnd = () => {
    ended = true;
    more();
  };
  const onError = (err: unknown) => {
    failure ??= err;
    more();
  };
  const onClose = () => {
    if (!ended) failure ??= prematureClose();
    more();
  };
  req.on('readable', more);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
  try {
    for (;;) {
      if (failure !== undefined) throw failure;
      const chunk = req.destroyed ? null : (req.read() as Buffer | null);
      if (chunk === null) {
        if (ended) return;
        if (req.destroyed && failure === undefined) throw prematureClose();
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      size += chunk.length;
      if (size > limit) throw errors.contentTooLong(limit);
      // past its first megabyte, a body is read at the node's pace (BodyPace): its client waits
      const wait = held?.read(chunk.length, req) ?? 0;
      if (wait > 0) await delay(wait);
      for (let at = 0; at < chunk.length; at += BUFFERED_CHUNK_BYTES) {
        take(at === 0 && chunk.length <= BUFFERED_CHUNK_BYTES ? chunk : chunk.subarray(at, at + BUFFERED_CHUNK_BYTES));
        if (at + BUFFERED_CHUNK_BYTES < chunk.length || req.readableLength > 0) await slice.pause();
      }
    }
  } finally {
    req.off('readable', more);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('close', onClose);
  }
}

/**
 * A body declared at most BUFFERED_CHUNK_BYTES long, read with `data` and `end` listeners and
 * counted and limited as `limitedChunks` does (after a failure the rest is read and dropped, and
 * the error answered): its async iterator cost ~5 µs of a search cache hit, and a body this small
 * never holds the loop. Undefined for any other body (chunked, larger), which the iterator reads.
 */
function smallBody(ctx: Context, limit: number): Promise<Buffer> | undefined {
  const req = ctx.req;
  const len = Number(req.headers['content-length']);
  if (!(len > 0 && len <= BUFFERED_CHUNK_BYTES) || req.headers['transfer-encoding'] !== undefined || req.readableFlowing) return undefined;
  return new Promise((resolve, reject) => new SmallBody(req, limit, resolve, reject));
}

/** What `smallBody` reads with: the body's chunks, its count and its four listeners. */
class SmallBody {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;
  private readonly held: Reservation | undefined;

  constructor(private readonly req: IncomingMessage, private readonly limit: number, private readonly resolve: (body: Buffer) => void, private readonly reject: (err: unknown) => void) {
    this.held = inFlight.get(req);
    req.on('data', this.data);
    req.once('end', this.end);
    req.once('error', this.fail);
    req.once('close', this.closed);
    // a stream paused before (the request log's body tap pauses it) flows as its iterator would read it
    req.resume();
  }

  private readonly data = (chunk: Buffer): void => {
    if (this.settled) return;
    this.size += chunk.length;
    try {
      if (this.size > this.limit) throw errors.contentTooLong(this.limit);
      this.held?.add(chunk.length);
    } catch (err) {
      return this.fail(err);
    }
    this.chunks.push(chunk);
  };

  private readonly end = (): void => {
    if (this.settled) return;
    this.settled = true;
    this.detach();
    const { chunks } = this;
    this.resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, this.size));
  };

  private readonly fail = (err: unknown): void => {
    if (this.settled) return;
    this.settled = true;
    this.reject(err);
  };

  /**
   * Read to its end: its chunks and close are no longer listened to (after a failure, `data` stays
   * to drop the rest; `error` stays, settled, so that a late error is never one without a listener).
   */
  private detach(): void {
    this.req.off('data', this.data);
    this.req.off('close', this.closed);
  }

  /** Closed before its end (the client went away): what an async iterator over it throws. */
  private readonly closed = (): void => {
    if (!this.req.readableEnded) this.fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
  };
}

/**
 * The request body is read once. A middleware that needs to look at it (authorization reading the
 * indices of a `_bulk`) buffers it with `bufferBody`; everything downstream then reads that
 * buffer through `bodyStream`/`bufferBody` instead of the consumed socket.
 */
export async function bufferBody(ctx: Context, limit: number): Promise<Buffer | undefined> {
  const read = ctx.state.body as Buffer | string | null | undefined;
  // a body the classifier rebuilt is kept as text until a step wants its bytes
  if (typeof read === 'string') return (ctx.state.body = Buffer.from(read));
  if (read !== undefined) return read === null ? undefined : read;
  checkDeclaredLength(ctx, limit);
  if (!hasBody(ctx)) {
    ctx.state.body = null;
    return undefined;
  }
  const chunks: Buffer[] = [];
  await eachChunk(ctx, limit, (chunk) => chunks.push(chunk));
  const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  ctx.state.body = body;
  return body;
}

/**
 * The body as text, for a step that reads it as text (the classifier): decoded piece by piece as it
 * arrives (a multi-byte character split between chunks is kept whole), so that a body of tens of
 * megabytes is never copied and decoded in one piece. The text is what later steps read (their
 * bytes, when one wants them, are made from it then). Undefined when there is no body.
 */
export async function bufferText(ctx: Context, limit: number): Promise<string | undefined> {
  return (await bufferTextPieces(ctx, limit))?.text;
}

/**
 * `bufferText`, with the pieces the text was decoded in (`PieceText`: a reader that need not make
 * it one string). The text is their concatenation, which V8 keeps as a rope: it is copied into one
 * flat string (~0.1 s for 20 MB, in one piece) only if something reads it whole.
 */
export async function bufferTextPieces(ctx: Context, limit: number): Promise<{ text: string; pieces: PieceText } | undefined> {
  const read = ctx.state.body as Buffer | string | null | undefined;
  if (typeof read === 'string') return { text: read, pieces: new PieceText([read]) };
  if (read !== undefined) return read === null ? undefined : textOf([read.toString('utf8')]);
  checkDeclaredLength(ctx, limit);
  if (!hasBody(ctx)) {
    ctx.state.body = null;
    return undefined;
  }
  // decoded a megabyte at a time (ChunkedTextDecoder): never copied and decoded in one piece, and no
  // tens of 64 KB strings in the young generation
  const decoder = new ChunkedTextDecoder();
  await eachChunk(ctx, limit, (chunk) => decoder.write(chunk));
  const parts = decoder.pieces();
  const decoded = textOf(parts);
  ctx.state.body = decoded.text;
  decodedPieces.set(ctx.req, { text: decoded.text, parts });
  return decoded;
}

/**
 * Makes `written.text` the body from here on, kept with the pieces it was written in: forwarded
 * (bodyStream), they are encoded one at a time, as a decoded body's are.
 */
export function keepTextBody(ctx: Context, written: TextPieces): void {
  ctx.state.body = written.text;
  decodedPieces.set(ctx.req, { text: written.text, parts: written.pieces });
}

/**
 * The pieces a body's text was decoded in (bufferTextPieces), while that text is the body: forwarded,
 * they are encoded one at a time. `Buffer.from` of the whole text first copies the rope into one flat
 * string, then encodes all of it, both in one piece (a 20 MB search body forwarded to the engine).
 */
const decodedPieces = new WeakMap<IncomingMessage, { text: string; parts: readonly string[] }>();

function textOf(parts: string[]): { text: string; pieces: PieceText } {
  const pieces = new PieceText(parts);
  return { text: pieces.toString(), pieces };
}

/**
 * The body's chunks for a reader that parses them one at a time (a multipart form): the live
 * request limited to `limit`, or the buffered body in 64 KB pieces, a time slice at a time either
 * way. Piped, a body that had arrived whole (2 MB over loopback: libuv reads it in one go) went
 * through the parser in one synchronous stretch. Undefined when there is no body.
 */
export function bodyChunks(ctx: Context, limit: number): AsyncIterable<Buffer> | undefined {
  const read = ctx.state.body as Buffer | string | null | undefined;
  if (read !== undefined) return read === null ? undefined : piecesOf(typeof read === 'string' ? Buffer.from(read) : read);
  checkDeclaredLength(ctx, limit);
  return hasBody(ctx) ? limitedChunks(ctx, limit) : undefined;
}

async function* piecesOf(body: Buffer): AsyncGenerator<Buffer> {
  const slice = new TimeSlice();
  for (let at = 0; at < body.length; at += BUFFERED_CHUNK_BYTES) {
    yield body.subarray(at, at + BUFFERED_CHUNK_BYTES);
    await slice.pause();
  }
}

/** The body as a stream (the buffered one, or the live request limited to `limit`), or undefined. */
export function bodyStream(ctx: Context, limit: number): Readable | undefined {
  const read = ctx.state.body as Buffer | string | null | undefined;
  if (typeof read === 'string') {
    // the text as it was decoded (the same string object as a rule, which compares at once), a piece
    // at a time as the stream is read
    const decoded = decodedPieces.get(ctx.req);
    if (decoded?.text === read && decoded.parts.length > 1) return encodedPieces(decoded.parts);
  }
  if (read !== undefined) return read === null ? undefined : Readable.from([typeof read === 'string' ? Buffer.from(read) : read]);
  checkDeclaredLength(ctx, limit);
  return hasBody(ctx) ? limitedBody(ctx.req, limit) : undefined;
}

/**
 * Why a body is not JSON, without the body's text: V8's message quotes it (`Unexpected token 'l',
 * "leaky-pass" is not valid JSON`, `…"password":leaky-pas"… is not valid JSON`), and a body may be
 * a password (the account API's, a credential's); the answer, and the request logs that keep it,
 * would carry it. The position, where V8 gives one, is kept.
 */
export function jsonSyntaxReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/ is not valid JSON$/.test(message)) return 'Unexpected token in JSON';
  return message.replace(/^(Unexpected token) .*? in JSON/, '$1 in JSON');
}

/** Reads and parses a JSON body for the gateway's own routes; undefined when there is none. */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  const buf = await bufferBody(ctx, limit);
  if (!buf) return undefined;
  // a large body's parse, and what its caller does with the value (a credential's 100,000 index
  // patterns validated), each run in a turn of their own: after the classifier's reading of the
  // same body, they held the event loop in one piece (~0.1 s)
  const large = buf.length > LARGE_JSON_BYTES;
  if (large) await eventLoopTurn();
  const text = buf.toString('utf8');
  if (text.trim() === '') return undefined;
  // nested deeper than Elasticsearch's parser allows: refused before anything recursive reads it
  const value = parseJsonWithin(
    text,
    (reason) => new EsError(400, 'x_content_parse_exception', reason),
    (err) => errors.parse(`request body is not valid JSON: ${jsonSyntaxReason(err)}`),
  );
  if (large) await eventLoopTurn();
  return value;
}

/** A JSON body this large is parsed in an event-loop turn of its own (readJsonBody). */
const LARGE_JSON_BYTES = 1024 * 1024;

export async function readJsonObject(ctx: Context, limit: number): Promise<Record<string, unknown> | undefined> {
  const body = await readJsonBody(ctx, limit);
  if (body === undefined) return undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.parse('request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
