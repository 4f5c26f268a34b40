import { request as undiciRequest } from 'undici';
import { ADMIN } from './servers.js';

export interface Reply<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: T;
}

export const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
export const adminAuth = () => basic(ADMIN.user, ADMIN.password);

/** A `_bulk`/`_msearch` body: one JSON line per value, newline-terminated. */
export const ndjson = (lines: unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
/** The content type of such a body. */
export const NDJSON = { 'content-type': 'application/x-ndjson' };

export interface CallOptions {
  auth?: string | null;
  headers?: Record<string, string>;
  /** Sent as is when a string or Buffer, JSON-encoded otherwise. */
  body?: unknown;
}

/** One HTTP call as a client makes it; authenticates as the test admin unless told otherwise. */
export async function call<T = any>(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? adminAuth() : options.auth;
  if (auth) headers.authorization = auth;
  let body: string | Buffer | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await undiciRequest(base + path, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  const json = jsonOrUndefined(text);
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** A credential the test admin creates (`POST /_credentials` with `body`), as the `Authorization` header that signs in with it. */
export async function credentialAuth(base: string, body: Record<string, unknown>): Promise<string> {
  const made = await call(base, 'POST', '/_credentials', { body });
  if (made.status !== 201) throw new Error(`the credential was not created: ${made.status} ${made.text}`);
  return basic(made.json.credential.username, made.json.password);
}

/** An answer's text read as JSON: undefined when it is empty or no JSON. */
export function jsonOrUndefined(text: string): any {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
