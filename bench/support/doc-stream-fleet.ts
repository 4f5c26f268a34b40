import { StreamFleet } from './stream-fleet.js';

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

export class DocStreamFleet extends StreamFleet<number> {
  /** Open streams per document. */
  readonly openByDoc = new Map<number, number>();

  constructor(private readonly options: FleetOptions) {
    super(options.origin, options.authorization);
  }

  /** Opens the streams, `concurrency` at a time; resolves with how many opened once each has its initial message or failed. */
  async openAll(targets: StreamTarget[], concurrency: number): Promise<number> {
    let opened = 0;
    await StreamFleet.each(targets, concurrency, async (target) => {
      let lastSeq = -1;
      let tail = '';
      const ok = await this.openOne(target.doc, { method: 'GET', path: target.path }, (chunk, receivedAt) => {
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
        return lastSeq >= 0;
      });
      if (ok) opened++;
    });
    return opened;
  }

  protected opened(doc: number): void {
    this.openByDoc.set(doc, (this.openByDoc.get(doc) ?? 0) + 1);
  }

  protected closed(doc: number): void {
    this.openByDoc.set(doc, (this.openByDoc.get(doc) ?? 1) - 1);
  }
}
