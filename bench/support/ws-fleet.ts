import { once } from 'node:events';
import WebSocket from 'ws';

/**
 * Many document streams multiplexed over a few WebSockets (the appbase frame protocol: one
 * subscription per frame id, many per connection), as a dashboard holding many live values over
 * one connection does. Each subscription follows one document; the benchmark's documents carry a
 * `seq` that grows with every write, so a change is recognised by its `"seq":N`.
 */
export interface WsFleetOptions {
  /** The gateway's origin (http://…); the fleet connects to ws://…/{index}. */
  origin: string;
  authorization: string;
  index: string;
  /** Called once per subscription and `seq` (> the initial one), with the receive time (performance.now()). */
  onChange(doc: number, seq: number, receivedAt: number): void;
}

const CHANNEL = /"channel":"s(\d+)"/;
const SEQ = /"seq":(\d+)/;

export class WsDocFleet {
  private readonly sockets: WebSocket[] = [];
  /** The document of each subscription, by its number. */
  private readonly docOf: number[] = [];
  private readonly lastSeq: number[] = [];
  /** Subscriptions live (their live marker received). */
  live = 0;
  /** Error frames received, by message. */
  readonly failures = new Map<string, number>();

  constructor(private readonly options: WsFleetOptions) {}

  /**
   * Opens `connections` WebSockets and `subscriptions` document subscriptions spread over them
   * (subscription i follows document i % docs); resolves once every subscription is live or failed.
   */
  async open(connections: number, subscriptions: number, docs: number, concurrency: number): Promise<void> {
    const perConnection = Math.ceil(subscriptions / connections);
    let next = 0;
    const worker = async () => {
      while (next < connections) {
        const c = next++;
        const first = c * perConnection;
        const last = Math.min(subscriptions, first + perConnection);
        if (first < last) await this.connect(first, last, docs);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, connections) }, worker));
  }

  private async connect(first: number, last: number, docs: number): Promise<void> {
    const ws = new WebSocket(`${this.options.origin.replace(/^http/, 'ws')}/${this.options.index}`, { perMessageDeflate: false });
    this.sockets.push(ws);
    await once(ws, 'open');
    let pending = last - first;
    let allLive: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (allLive = resolve));
    ws.on('message', (raw: Buffer) => {
      const receivedAt = performance.now();
      const text = raw.toString('latin1');
      const channel = CHANNEL.exec(text);
      if (!channel) {
        if (text.includes('"error"')) {
          const reason = /"reason":"([^"]*)"/.exec(text)?.[1] ?? text.slice(0, 80);
          this.failures.set(reason, (this.failures.get(reason) ?? 0) + 1);
          if (--pending === 0) allLive();
        }
        return;
      }
      const s = Number(channel[1]);
      if (text.includes('"live":true')) {
        this.live++;
        if (--pending === 0) allLive();
        return;
      }
      const seq = SEQ.exec(text);
      if (!seq) return;
      const value = Number(seq[1]);
      if (value <= this.lastSeq[s]) return;
      // the first value seen is the initial read; later ones are changes
      if (this.lastSeq[s] >= 0) this.options.onChange(this.docOf[s], value, receivedAt);
      this.lastSeq[s] = value;
    });
    for (let s = first; s < last; s++) {
      this.docOf[s] = s % docs;
      this.lastSeq[s] = -1;
      ws.send(JSON.stringify({ id: `s${s}`, path: `${this.options.index}/_doc/d${s % docs}`, method: 'GET', authorization: this.options.authorization }));
    }
    await done;
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
    this.sockets.length = 0;
  }
}
