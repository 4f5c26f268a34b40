import type { Readable } from 'node:stream';
import type { Backend, EngineResponse } from './backend.js';
import type { GatewayRequest } from '../request/index.js';

export interface JsonReply<T = unknown> {
  status: number;
  body: T;
}

export async function readBody(body: Readable | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export async function readJson<T = unknown>(res: EngineResponse): Promise<T> {
  const buf = await readBody(res.body);
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
  const res = await backend.request({
    method,
    path,
    querystring,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await readJson<T>(res) };
}

/**
 * A JSON call for a request whose value the caller holds already (authorized, or narrowed from an
 * authorized one: a stream's reads): the wire request is serialized from it and the Backend's edge
 * reads nothing again. Its body is the value's.
 */
export async function callRequest<T = unknown>(backend: Pick<Backend, 'request'>, request: GatewayRequest): Promise<JsonReply<T>> {
  const res = await backend.request({
    method: request.method,
    path: request.path,
    querystring: request.querystring,
    headers: request.body === undefined ? {} : { 'content-type': 'application/json' },
    body: request.body,
    request,
  });
  return { status: res.status, body: await readJson<T>(res) };
}
