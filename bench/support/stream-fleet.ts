import http from 'node:http';

/** What a fleet does with one open stream's bytes: `true` once it has its first message (the stream counts as open). */
export type ChunkHandler = (chunk: Buffer, receivedAt: number) => boolean;

export interface FleetRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/**
 * Many streams held open over real HTTP by the bench process, one socket each (no keep-alive, no
 * pooling): the opening, the failures and the closing every fleet shares. A stream counts as
 * open from its first message until it ends; why streams failed to open or ended early is
 * counted in `failures`.
 */
export abstract class StreamFleet<Key> {
  private readonly agent = new http.Agent({ keepAlive: false, maxSockets: 20_000, maxTotalSockets: 20_000 });
  private readonly requests = new Map<http.ClientRequest, Key>();
  /** Why streams failed to open (or ended early), with counts. */
  readonly failures = new Map<string, number>();
  private readonly url: URL;

  constructor(origin: string, private readonly authorization: string) {
    this.url = new URL(origin);
  }

  get open(): number {
    return this.requests.size;
  }

  /** Destroys every stream's socket. */
  closeAll(): void {
    for (const [req, key] of this.requests) {
      this.requests.delete(req);
      this.closed(key);
      req.destroy();
    }
    this.agent.destroy();
  }

  /** A stream of `key` is open (it had its first message). */
  protected abstract opened(key: Key): void;
  /** A stream of `key` is no longer open. */
  protected abstract closed(key: Key): void;

  protected fail(reason: string): void {
    this.failures.set(reason, (this.failures.get(reason) ?? 0) + 1);
  }

  /** Opens one stream; resolves true once `onChunk` says it has its first message, false when it failed first. */
  protected openOne(key: Key, request: FleetRequest, onChunk: ChunkHandler): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (ok: boolean, reason?: string) => {
        if (reason) this.fail(reason);
        if (settled) return;
        settled = true;
        resolve(ok);
      };
      const forget = (req: http.ClientRequest) => {
        if (!this.requests.has(req)) return false;
        this.requests.delete(req);
        this.closed(key);
        return true;
      };
      const headers: http.OutgoingHttpHeaders = { authorization: this.authorization };
      if (request.body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(request.body) });
      const req = http.request({ host: this.url.hostname, port: this.url.port, path: request.path, method: request.method, agent: this.agent, headers });
      req.setTimeout(60_000, () => req.destroy(new Error('timed out waiting for the initial message')));
      req.on('error', (err: NodeJS.ErrnoException) => {
        const wasOpen = forget(req); // false once closeAll() let it go
        if (!settled) settle(false, `open failed: ${err.code ?? err.message}`);
        else if (wasOpen) this.fail(`stream ended: ${err.code ?? err.message}`);
      });
      req.on('response', (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          req.destroy();
          settle(false, `status ${res.statusCode}`);
          return;
        }
        req.setTimeout(0);
        res.on('data', (chunk: Buffer) => {
          const receivedAt = performance.now();
          if (onChunk(chunk, receivedAt) && !settled) {
            this.requests.set(req, key);
            this.opened(key);
            settle(true);
          }
        });
        res.on('end', () => {
          if (forget(req)) this.fail('stream ended by the server');
          settle(false);
        });
        res.on('error', () => undefined);
      });
      req.end(request.body);
    });
  }

  /** Runs `open` over `items`, `concurrency` at a time. */
  protected static async each<T>(items: T[], concurrency: number, open: (item: T, i: number) => Promise<unknown>): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const i = next++;
        await open(items[i], i);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  }
}
