import net from 'node:net';

/** What a fleet does with one open stream's bytes: `true` once it has its first message (the stream counts as open). */
export type ChunkHandler = (chunk: Buffer, receivedAt: number) => boolean;

export interface FleetRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * Many streams held open over real HTTP/1.1 by the bench process, one socket each: the opening,
 * the failures and the closing every fleet shares. A stream counts as open from its first message
 * until it ends; why streams failed to open or ended early is counted in `failures`.
 *
 * Each stream is a bare `net.Socket` reading into a buffer the fleet shares (`onread`), with the
 * request written by hand and the chunked body decoded here, not `http.request`: with 10,000
 * streams pushed in the same instant the clients' own parsing (`IncomingMessage`, its events) cost
 * more CPU than the server under test, and the benchmark measured its clients. The receive time is
 * taken first thing in the read callback; a chunk handler must use the bytes before it returns.
 */
export abstract class StreamFleet<Key> {
  private readonly sockets = new Map<net.Socket, Key>();
  private readonly readBuffer = Buffer.alloc(256 * 1024);
  /** Why streams failed to open (or ended early), with counts. */
  readonly failures = new Map<string, number>();
  private readonly url: URL;

  constructor(origin: string, private readonly authorization: string) {
    this.url = new URL(origin);
  }

  get open(): number {
    return this.sockets.size;
  }

  /** Destroys every stream's socket. */
  closeAll(): void {
    for (const [socket, key] of this.sockets) {
      this.sockets.delete(socket);
      this.closed(key);
      socket.destroy();
    }
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
      const forget = () => {
        if (!this.sockets.has(socket)) return false;
        this.sockets.delete(socket);
        this.closed(key);
        return true;
      };
      const socket = net.connect({
        host: this.url.hostname, port: Number(this.url.port), noDelay: true,
        // reads land in one buffer all the fleet's sockets share, handled at once: no allocation
        // and no stream events per read
        onread: { buffer: this.readBuffer, callback: (n: number, buffer: Uint8Array) => {
          received(Buffer.from(buffer.buffer, buffer.byteOffset, n));
          return true; // keep reading
        } },
      });
      const body = request.body !== undefined ? Buffer.from(request.body) : undefined;
      socket.write(
        `${request.method} ${request.path} HTTP/1.1\r\nhost: ${this.url.host}\r\nauthorization: ${this.authorization}\r\nconnection: close\r\n` +
          (body ? `content-type: application/json\r\ncontent-length: ${body.length}\r\n` : '') + '\r\n',
      );
      if (body) socket.write(body);
      socket.setTimeout(60_000, () => socket.destroy(new Error('timed out waiting for the initial message')));
      let head: Buffer | undefined = Buffer.alloc(0);
      const body$ = new ChunkedBody();
      const deliver = (payload: Buffer, receivedAt: number) => {
        if (payload.length && onChunk(payload, receivedAt) && !settled) {
          socket.setTimeout(0);
          this.sockets.set(socket, key);
          this.opened(key);
          settle(true);
        }
      };
      const received = (data: Buffer) => {
        const receivedAt = performance.now();
        if (head !== undefined) {
          head = Buffer.concat([head, data]); // a copy: `data` is the shared read buffer
          const end = head.indexOf(HEAD_END);
          if (end < 0) return;
          const text = head.subarray(0, end).toString('latin1');
          const rest = head.subarray(end + 4);
          head = undefined;
          const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1]);
          if (status !== 200) {
            socket.destroy();
            return settle(false, `status ${status}`);
          }
          body$.chunked = /\r\ntransfer-encoding:\s*chunked/i.test(text);
          data = rest;
        }
        for (const payload of body$.push(data)) deliver(payload, receivedAt);
      };
      socket.on('error', (err: NodeJS.ErrnoException) => {
        const wasOpen = forget(); // false once closeAll() let it go
        if (!settled) settle(false, `open failed: ${err.code ?? err.message}`);
        else if (wasOpen) this.fail(`stream ended: ${err.code ?? err.message}`);
      });
      socket.on('close', () => {
        if (forget()) this.fail('stream ended by the server');
        settle(false);
      });
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

/** A response body's payload bytes: chunked transfer coding decoded, or the bytes as they come. */
class ChunkedBody {
  chunked = false;
  /** Payload bytes still due in the current chunk; -1 while reading a size line, -2 while reading the CRLF after a chunk. */
  private due = -1;
  private line = '';

  push(data: Buffer): Buffer[] {
    if (!this.chunked) return [data];
    const out: Buffer[] = [];
    let at = 0;
    while (at < data.length) {
      if (this.due > 0) {
        const take = Math.min(this.due, data.length - at);
        out.push(data.subarray(at, at + take));
        at += take;
        this.due -= take;
        if (this.due === 0) this.due = -2;
      } else {
        // a size line, or the CRLF that ends a chunk
        const nl = data.indexOf(10, at);
        if (nl < 0) {
          this.line += data.toString('latin1', at);
          break;
        }
        const line = (this.line + data.toString('latin1', at, nl)).trim();
        this.line = '';
        at = nl + 1;
        if (this.due === -2) this.due = -1;
        else this.due = line ? parseInt(line, 16) || -1 : -1;
      }
    }
    return out;
  }
}
