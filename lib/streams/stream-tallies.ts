export type StreamKind = 'document' | 'search' | 'declarative';
/** How a stream reaches its client: an HTTP framing, or a WebSocket subscription. */
export type StreamTransport = 'json' | 'ndjson' | 'sse' | 'websocket';

/** One kind of stream over one transport, on this node. */
export interface StreamTally {
  kind: StreamKind;
  transport: StreamTransport;
  /** Open now. */
  open: number;
  /** Messages handed to the transport since start (initial and final messages included). */
  pushed: number;
  /** Streams ended since start because their client left too many bytes unread. */
  dropped: number;
}

/** Counts of a node's streams by kind and transport: what metrics read, never the request path. */
export class StreamTallies {
  private readonly tallies = new Map<string, StreamTally>();

  of(kind: StreamKind, transport: StreamTransport): StreamTally {
    const key = `${kind}/${transport}`;
    let tally = this.tallies.get(key);
    if (!tally) this.tallies.set(key, (tally = { kind, transport, open: 0, pushed: 0, dropped: 0 }));
    return tally;
  }

  stats(): StreamTally[] {
    return [...this.tallies.values()].map((t) => ({ ...t }));
  }
}
