import http from 'node:http';
import { ConcatenatedJsonParser } from '../../spec/support/stream-client.js';

/**
 * Many search or declarative streams (`POST …?stream=true` with a body) held open over real
 * HTTP, one socket each, each message parsed (concatenated JSON) and handed over with the time it
 * was received (performance.now(), taken first thing in the socket's data handler).
 */
export interface JsonFleetOptions {
  origin: string;
  authorization: string;
  /** Every message after a stream's first one (its initial answer). */
  onMessage(stream: number, message: Record<string, unknown>, receivedAt: number): void;
}

export interface JsonStreamTarget {
  path: string;
  body: unknown;
}

export class JsonStreamFleet {
  private readonly agent = new http.Agent({ keepAlive: false, maxSockets: 20_000, maxTotalSockets: 20_000 });
  private readonly requests = new Set<http.ClientRequest>();
  /** Why streams failed to open (or ended early), with counts. */
  readonly failures = new Map<string, number>();
  private readonly url: URL;
  private count = 0;

  constructor(private readonly options: JsonFleetOptions) {
    this.url = new URL(options.origin);
  }

  get open(): number {
    return this.requests.size;
  }

  /** Opens the streams, `concurrency` at a time; resolves with their numbers once each has its first message (or failed: -1). */
  async openAll(targets: JsonStreamTarget[], concurrency: number): Promise<number[]> {
    const numbers = new Array<number>(targets.length).fill(-1);
    let next = 0;
    const worker = async () => {
      while (next < targets.length) {
        const i = next++;
        numbers[i] = await this.openOne(targets[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
    return numbers;
  }

  closeAll(): void {
    for (const req of this.requests) req.destroy();
    this.requests.clear();
    this.agent.destroy();
  }

  private fail(reason: string): void {
    this.failures.set(reason, (this.failures.get(reason) ?? 0) + 1);
  }

  private openOne(target: JsonStreamTarget): Promise<number> {
    const stream = this.count++;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (ok: boolean, reason?: string) => {
        if (reason) this.fail(reason);
        if (settled) return;
        settled = true;
        resolve(ok ? stream : -1);
      };
      const body = JSON.stringify(target.body);
      const req = http.request({
        host: this.url.hostname,
        port: this.url.port,
        path: target.path,
        method: 'POST',
        agent: this.agent,
        headers: { authorization: this.options.authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      req.setTimeout(60_000, () => req.destroy(new Error('timed out waiting for the initial message')));
      req.on('error', (err: NodeJS.ErrnoException) => {
        const wasOpen = this.requests.delete(req);
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
        this.requests.add(req);
        const parser = new ConcatenatedJsonParser();
        let first = true;
        res.on('data', (chunk: Buffer) => {
          const receivedAt = performance.now();
          for (const message of parser.push(chunk.toString('utf8'))) {
            if (first) {
              first = false;
              settle(true);
            } else this.options.onMessage(stream, message as Record<string, unknown>, receivedAt);
          }
        });
        res.on('end', () => {
          if (this.requests.delete(req)) this.fail('stream ended by the server');
          settle(false);
        });
        res.on('error', () => undefined);
      });
      req.end(body);
    });
  }
}
