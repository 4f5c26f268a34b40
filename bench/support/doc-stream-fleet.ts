import http from 'node:http';

/**
 * Many document streams (`GET /{index}/_doc/{id}?stream=true`) held open over real HTTP, one
 * socket each, reporting when each stream receives a change. The benchmark's documents carry a
 * `seq` field that grows with every write, so a change is recognised by its `"seq":N` without
 * parsing the stream: the receive time is taken first thing in the socket's data handler.
 */
export interface FleetOptions {
  origin: string;
  authorization: string;
  /** Called once per stream and `seq` (> the initial one), with the receive time (performance.now()). */
  onChange(doc: number, seq: number, receivedAt: number): void;
}

export interface StreamTarget {
  path: string;
  doc: number;
}

const SEQ = /"seq":(\d+)/g;

export class DocStreamFleet {
  private readonly agent = new http.Agent({ keepAlive: false, maxSockets: 20_000, maxTotalSockets: 20_000 });
  private readonly requests = new Map<http.ClientRequest, number>();
  /** Open streams per document. */
  readonly openByDoc = new Map<number, number>();
  /** Why streams failed to open (or ended early), with counts. */
  readonly failures = new Map<string, number>();
  private readonly url: URL;

  constructor(private readonly options: FleetOptions) {
    this.url = new URL(options.origin);
  }

  get open(): number {
    return this.requests.size;
  }

  /** Opens the streams, `concurrency` at a time; resolves when each has its initial message or failed. */
  async openAll(targets: StreamTarget[], concurrency: number): Promise<number> {
    let next = 0;
    let opened = 0;
    const worker = async () => {
      while (next < targets.length) {
        const target = targets[next++];
        if (await this.openOne(target)) opened++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
    return opened;
  }

  /** Destroys every stream's socket. */
  closeAll(): void {
    for (const req of this.requests.keys()) req.destroy();
    this.requests.clear();
    this.openByDoc.clear();
    this.agent.destroy();
  }

  private forget(req: http.ClientRequest): boolean {
    const doc = this.requests.get(req);
    if (doc === undefined) return false;
    this.requests.delete(req);
    this.openByDoc.set(doc, this.openByDoc.get(doc)! - 1);
    return true;
  }

  private fail(reason: string): void {
    this.failures.set(reason, (this.failures.get(reason) ?? 0) + 1);
  }

  private openOne(target: StreamTarget): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (ok: boolean, reason?: string) => {
        if (reason) this.fail(reason);
        if (settled) return;
        settled = true;
        resolve(ok);
      };
      const req = http.request({
        host: this.url.hostname,
        port: this.url.port,
        path: target.path,
        method: 'GET',
        agent: this.agent,
        headers: { authorization: this.options.authorization },
      });
      req.setTimeout(30_000, () => req.destroy(new Error('timed out waiting for the initial message')));
      req.on('error', (err: NodeJS.ErrnoException) => {
        const wasOpen = this.forget(req); // false once closeAll() let it go
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
        this.requests.set(req, target.doc);
        this.openByDoc.set(target.doc, (this.openByDoc.get(target.doc) ?? 0) + 1);
        let lastSeq = -1;
        let tail = '';
        res.on('data', (chunk: Buffer) => {
          const receivedAt = performance.now();
          const text = tail + chunk.toString('latin1');
          SEQ.lastIndex = 0;
          for (let m = SEQ.exec(text); m; m = SEQ.exec(text)) {
            const seq = Number(m[1]);
            if (seq <= lastSeq) continue;
            // the first value seen is the initial read; later ones are changes
            if (lastSeq >= 0) this.options.onChange(target.doc, seq, receivedAt);
            lastSeq = seq;
          }
          tail = text.slice(-24);
          if (lastSeq >= 0) settle(true);
        });
        res.on('end', () => {
          if (this.forget(req)) this.fail('stream ended by the server');
          settle(false);
        });
        res.on('error', () => undefined);
      });
      req.end();
    });
  }
}
