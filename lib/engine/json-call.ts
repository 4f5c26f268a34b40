import { finished, type Readable } from 'node:stream';
import { eventLoopTurn } from '../cooperative/index.js';
import type { Backend, EngineResponse } from './backend.js';
import type { GatewayRequest } from '../request/index.js';
import { holdsBigInt } from './json-body.js';

/** A body past this many characters gets an event-loop turn of its own between serializing and sending. */
const LARGE_BODY_CHARS = 1024 * 1024;

export interface JsonReply<T = unknown> {
  status: number;
  body: T;
}

/**
 * A body read whole. A stream is read with `data` listeners and `finished` (an error or a close
 * before its end rejects, as a `for await` would): half the cost of an async iterator, which every
 * proxied answer paid (~5 µs).
 */
export function readBody(body: Readable | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return Promise.resolve(body);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      size += bytes.length;
    });
    finished(body, (err) => (err ? reject(err) : resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size))));
  });
}

export async function readJson<T = unknown>(res: EngineResponse): Promise<T> {
  const buf = await readBody(res.body);
  // a large answer (a credential naming 100,000 index patterns, read back) is decoded and parsed in
  // a turn of its own, not in the one that read its last bytes (and whatever else ran there)
  if (buf.length > LARGE_BODY_CHARS) await eventLoopTurn();
  return (buf.length ? JSON.parse(buf.toString('utf8')) : undefined) as T;
}

/** A JSON call through the Backend (or any dispatch, e.g. an interceptor's `next`), for the gateway's own use. */
export async function callJson<T = unknown>(
  backend: Pick<Backend, 'request'>,
  method: string,
  path: string,
  body?: unknown,
  querystring = '',
): Promise<JsonReply<T>> {
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  // a large body (a credential naming 100,000 index patterns) is serialized in one turn and read by
  // the engine in another, not both in one piece
  if (text !== undefined && text.length > LARGE_BODY_CHARS) await eventLoopTurn();
  const res = await backend.request({
    method,
    path,
    querystring,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: text,
  });
  return { status: res.status, body: await readJson<T>(res) };
}

/**
 * A JSON call for a request whose value the caller holds already (authorized, or narrowed from an
 * authorized one: a stream's reads): the wire request is serialized from it and the Backend's edge
 * reads nothing again. Its body is the value's.
 */
export async function callRequest<T = unknown>(backend: Pick<Backend, 'request'>, request: GatewayRequest): Promise<JsonReply<T>> {
  const res = await sendRequest(backend, request);
  return { status: res.status, body: await readJson<T>(res) };
}

/** The wire request serialized from the request value: its body is the value's. */
function sendRequest(backend: Pick<Backend, 'request'>, request: GatewayRequest): Promise<EngineResponse> {
  return backend.request({
    method: request.method,
    path: request.path,
    querystring: request.querystring,
    headers: request.body === undefined ? {} : { 'content-type': 'application/json' },
    body: request.body,
    request,
  });
}

/**
 * `callRequest` for a caller that only reads a small answer (a live aggregation's state, computed
 * several times a second): the embedded engine's answer value itself when it has one, instead of
 * parsing the JSON it serialized from it — the same value, as JSON.parse(JSON.stringify(value)) is
 * for a value without BigInts (one holding them is parsed from the body, as before, which reads
 * them as numbers). The value is the engine's: read it, never change it.
 */
export async function readRequest<T = unknown>(backend: Pick<Backend, 'request'>, request: GatewayRequest): Promise<JsonReply<T>> {
  const res = await sendRequest(backend, request);
  // (the embedded engine serializes its body when it is first read: here, never)
  if (res.value !== undefined && !holdsBigInt(res.value)) return { status: res.status, body: res.value as T };
  return { status: res.status, body: await readJson<T>(res) };
}
