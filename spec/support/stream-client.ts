import { request } from 'undici';
import { adminAuth } from './http.js';
import { within } from './within.js';

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

  /** Between messages: nothing of a message pending (the next byte starts a new one). */
  get idle(): boolean {
    return this.buf === '';
  }

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
  /**
   * Resolves once the stream is live: a write made after it resolves reaches the stream. The
   * server emits its live marker once the stream's first state (current state or replay) and the
   * changes held meanwhile are out, and sends the response head with the stream's first message.
   * - SSE: on the `:live` comment. Exact.
   * - Concatenated JSON and NDJSON write nothing for the marker. With `stream=true` (no `since`,
   *   no Last-Event-ID): on the first message, the current state, which the server emits in one
   *   turn with the held changes and the marker. Otherwise on the response head: sent with the
   *   marker itself for `streamonly=true` (exact), or with the first replayed change of a resume —
   *   exact for a document stream, not for a search stream, which awaits between replayed
   *   changes (use SSE there).
   * Rejects when the answer is not a 200, or the stream ends before it is live.
   */
  live: Promise<void>;
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
  const isSse = (options.accept ?? '').includes('text/event-stream');
  const params = new URLSearchParams(path.split('?')[1] ?? '');
  const isTrue = (v: string | null) => v !== null && v !== 'false';
  const beginsWithState = !(isTrue(params.get('streamonly')) && !isTrue(params.get('stream')))
    && !params.get('since') && !Object.keys(headers).some((h) => h.toLowerCase() === 'last-event-id');
  let markLive!: () => void;
  let notLive!: (err: Error) => void;
  const live = new Promise<void>((resolve, reject) => {
    markLive = resolve;
    notLive = reject;
  });
  live.catch(() => {}); // a test that never waits for it is not failed by its rejection
  if (res.statusCode !== 200) notLive(new Error(`the stream answered ${res.statusCode}, not 200: it never goes live`));
  else if (!isSse && !beginsWithState) markLive();
  const onText = (text: string) => {
    raw += text;
    if (isSse) {
      sseBuf += text;
      let idx;
      while ((idx = sseBuf.indexOf('\n\n')) >= 0) {
        const block = sseBuf.slice(0, idx);
        sseBuf = sseBuf.slice(idx + 2);
        const lines = block.split('\n');
        if (lines.includes(':live')) markLive();
        const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
        const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
        const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
        if (data) messages.push({ sse: { id, event }, data: JSON.parse(data) });
      }
    } else {
      messages.push(...parser.push(text));
      if (messages.length > 0) markLive(); // settled already when the answer is not a 200
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
  ended.then(() => {
    closed = true;
    notLive(new Error(`the stream ended before it was live; it sent: ${raw.slice(0, 2000)}`));
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    messages,
    raw: () => raw,
    ended,
    live,
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

/**
 * Waits until `check` passes: an assertion that throws while what it expects has not happened yet
 * (a counter the node moves at a time of its own, like open streams after a client goes away).
 * Past `timeoutMs` it fails with the assertion's own message.
 */
export async function eventually(check: () => unknown, timeoutMs = 5000): Promise<void> {
  let failure: unknown;
  const passes = async () => {
    try {
      await check();
      return true;
    } catch (err) {
      failure = err;
      return false;
    }
  };
  await within(timeoutMs, passes).catch(() => {
    if (failure instanceof Error) failure.message = `still failing after ${timeoutMs} ms: ${failure.message}`;
    throw failure;
  });
}
