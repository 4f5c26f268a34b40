/**
 * What a stream's client holds, built from the messages it received as a client of the protocol
 * must: the first message (or the one after a `_reset`) is the whole state, each later one a
 * change of it. A view that equals a fresh read at the end lost nothing and applied nothing twice.
 */
export class StreamView {
  /** Documents shown, by id (search streams) — or the one document (`_doc` key) of a document stream. */
  readonly docs = new Map<string, unknown>();
  /** The aggregations last shown (aggregation streams). */
  aggregations: unknown;
  /** `_reset` messages received: each one announced a discontinuity. */
  resets = 0;
  /** Changes applied (not counting initial states). */
  changes = 0;
  /** Whether the next message must be a whole state (start, or after a reset). */
  private awaitingState = true;

  constructor(readonly kind: 'document' | 'search', private readonly streamOnly = false) {
    if (streamOnly) this.awaitingState = false;
  }

  apply(data: any): void {
    if (data === undefined || data === null) return;
    if (data._reset === true) {
      this.resets++;
      this.docs.clear();
      this.awaitingState = !this.streamOnly;
      return;
    }
    if (data.error !== undefined || data._stream_end === true) return;
    if (this.awaitingState) {
      this.awaitingState = false;
      this.setState(data);
      return;
    }
    if (data.aggregations !== undefined && data._id === undefined) {
      this.aggregations = data.aggregations;
      return;
    }
    this.changes++;
    const key = this.kind === 'document' ? '_doc' : String(data._id);
    if (data._deleted === true) this.docs.delete(key);
    else this.docs.set(key, data._source);
  }

  private setState(data: any): void {
    this.docs.clear();
    if (this.kind === 'document') {
      if (data.found === true) this.docs.set('_doc', data._source);
      return;
    }
    for (const hit of data.hits?.hits ?? []) this.docs.set(String(hit._id), hit._source);
    if (data.aggregations !== undefined) this.aggregations = data.aggregations;
  }

  /** The documents as a plain object, sorted by id (for deep equality with a fresh read). */
  snapshot(): Record<string, unknown> {
    return Object.fromEntries([...this.docs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

/** The hits of a search answer as `StreamView.snapshot` shows them. */
export function hitsSnapshot(answer: any): Record<string, unknown> {
  const hits: Array<{ _id: string; _source: unknown }> = answer.hits?.hits ?? [];
  return Object.fromEntries(hits.map((h) => [String(h._id), h._source] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
