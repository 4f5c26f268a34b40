import { Pool } from 'undici';
import type { HttpCall } from './api-spec.js';

/** What came back for one call: the raw text and, when it is JSON, the parsed body. */
export interface EsResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body's bytes (a binary answer: CBOR, Smile). */
  raw: Buffer;
  /** The parsed JSON body; the text itself when the body is not JSON or is plain text; undefined when empty (and not plain text). */
  body: unknown;
}

/**
 * A keep-alive connection pool to the server under test. Credentials in the URL's userinfo
 * become a Basic authorization header unless a call sets its own.
 */
export class EsClient {
  private readonly pool: Pool;
  private readonly prefix: string;
  private readonly authorization?: string;

  /**
   * `compatibleWith` (7): every call asks for Elasticsearch 8's REST API compatibility with that
   * version, as Elasticsearch's own compatibility runner of the earlier version's suites does:
   * `Accept` and a JSON `Content-Type` in the `vnd.elasticsearch` form.
   */
  constructor(url: string | URL, private readonly compatibleWith?: number) {
    const parsed = new URL(url);
    this.pool = new Pool(parsed.origin, { connections: 8, keepAliveTimeout: 30_000 });
    this.prefix = parsed.pathname.replace(/\/+$/, '');
    if (parsed.username || parsed.password) {
      const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
      this.authorization = 'Basic ' + Buffer.from(credentials).toString('base64');
    }
  }

  async send(call: HttpCall, signal?: AbortSignal): Promise<EsResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    if (this.authorization && headers.authorization === undefined) headers.authorization = this.authorization;
    if (this.compatibleWith !== undefined) asCompatible(headers, this.compatibleWith);
    const res = await this.pool.request({
      method: call.method as 'GET',
      path: this.prefix + call.url,
      headers,
      body: call.body,
      signal,
    });
    const raw = Buffer.from(await res.body.arrayBuffer());
    const text = raw.toString('utf8');
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: res.statusCode, headers: responseHeaders, text, raw, body: parseBody(text, responseHeaders['content-type']) };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** `application/json` → `application/vnd.elasticsearch+json;compatible-with=N` (and x-ndjson alike), in `Accept` and `Content-Type`. */
function asCompatible(headers: Record<string, string>, version: number): void {
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower !== 'accept' && lower !== 'content-type') continue;
    const kind = /^application\/(json|x-ndjson)\b/i.exec(headers[name])?.[1];
    if (kind) headers[name] = `application/vnd.elasticsearch+${kind.toLowerCase()};compatible-with=${version}`;
  }
}

/**
 * A response body as the suites' runner reads it: a plain-text one (a _cat table) stays text, even
 * when it reads as JSON (`2\n`, `_cat/count?h=count`) or is empty (a _cat of nothing is `""`).
 */
function parseBody(text: string, contentType: string | undefined): unknown {
  if (contentType?.startsWith('text/plain')) return text;
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
