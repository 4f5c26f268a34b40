import { request } from 'undici';
import { adminAuth } from './http.js';

/**
 * Splits concatenated JSON (objects written back to back, with whitespace heartbeats between
 * them) into values, as a client of the historic stream format must.
 */
export class ConcatenatedJsonParser {
  private buf = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private start = -1;

  push(text: string): unknown[] {
    const out: unknown[] = [];
    const base = this.buf.length;
    this.buf += text;
    for (let i = base; i < this.buf.length; i++) {
      const c = this.buf[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') {
        if (this.depth++ === 0) this.start = i;
      } else if (c === '}' || c === ']') {
        if (--this.depth === 0) out.push(JSON.parse(this.buf.slice(this.start, i + 1)));
      }
    }
    if (this.depth === 0) this.buf = '';
    else {
      this.buf = this.buf.slice(this.start);
      this.start = 0;
    }
    return out;
  }
}

export interface OpenStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  messages: any[];
  raw: () => string;
  ended: Promise<void>;
  /** Resolves with the messages once `predicate` holds (checked on every message). */
  until(predicate: (messages: any[]) => boolean, timeoutMs?: number): Promise<any[]>;
  close(): void;
}

export interface StreamOptions {
  method?: string;
  body?: unknown;
  accept?: string;
  auth?: string | null;
  headers?: Record<string, string>;
}

/** Opens a stream and collects its messages; SSE and NDJSON are parsed by their own rules. */
export async function openStream(base: string, path: string, options: StreamOptions = {}): Promise<OpenStream> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? adminAuth() : options.auth;
  if (auth) headers.authorization = auth;
  if (options.accept) headers.accept = options.accept;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const abort = new AbortController();
  const res = await request(base + path, { method: (options.method ?? 'GET') as 'GET', headers, body, signal: abort.signal });
  const messages: any[] = [];
  let raw = '';
  const waiters = new Set<() => void>();
  const parser = new ConcatenatedJsonParser();
  let sseBuf = '';
  const onText = (text: string) => {
    raw += text;
    const accept = options.accept ?? '';
    if (accept.includes('text/event-stream')) {
      sseBuf += text;
      let idx;
      while ((idx = sseBuf.indexOf('\n\n')) >= 0) {
        const block = sseBuf.slice(0, idx);
        sseBuf = sseBuf.slice(idx + 2);
        const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
        const id = block.split('\n').find((l) => l.startsWith('id: '))?.slice(4);
        const event = block.split('\n').find((l) => l.startsWith('event: '))?.slice(7);
        if (data) messages.push({ sse: { id, event }, data: JSON.parse(data) });
      }
    } else {
      messages.push(...parser.push(text));
    }
    for (const w of [...waiters]) w();
  };
  const ended = new Promise<void>((resolve) => {
    res.body.on('data', (c: Buffer) => onText(c.toString('utf8')));
    res.body.on('end', () => {
      for (const w of [...waiters]) w();
      resolve();
    });
    res.body.on('error', () => resolve());
  });
  let closed = false;
  ended.then(() => (closed = true));
  return {
    status: res.statusCode,
    headers: res.headers,
    messages,
    raw: () => raw,
    ended,
    until(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (predicate(messages)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(messages);
          } else if (closed) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`stream ended before the condition held; messages: ${JSON.stringify(messages).slice(0, 2000)}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`condition not met in ${timeoutMs} ms; messages: ${JSON.stringify(messages).slice(0, 2000)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      abort.abort();
      res.body.destroy();
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
