/** Which requests get a record (LOGS_ALL_PER_SECOND, LOGS_SAMPLE_EVERY, LOGS_SLOW_MS). */
export interface LogSamplingOptions {
  /** The sampled requests (fast, successful reads) are all recorded up to this many in each second. */
  allPerSecond: number;
  /** Past that, one in this many of the sampled requests (fast, successful reads) is recorded; 1 = every one. */
  sampleEvery: number;
  /** A request that took at least this long (ms) is always recorded. */
  slowMs: number;
}

/** What the rule reads of a request once it is over. */
export interface FinishedRequest {
  status: number;
  /** Milliseconds from its arrival to the end of its response. */
  tookMs: number;
  /** The classification's operation (`read`, `write`, `delete`, …). */
  operation: string;
  /** A live stream (recorded when it ends). */
  stream: boolean;
}

/**
 * The request logs' sampling rule. A record costs the request's node its building and serializing
 * and the engine one more indexed document (on the embedded engine: on the event loop that serves
 * the requests), which a busy node cannot pay for every request. So:
 *
 * - always recorded: every error (status 400 and above), every slow request (`slowMs`), every
 *   request that is not a read (writes, deletes, index and cluster changes), every live stream;
 * - the rest (fast, successful reads and searches) are all recorded up to `allPerSecond` of them
 *   in each second, and past that one in `sampleEvery` (counted, not random: the 1st, the n+1st…).
 *
 * A quiet node records every request; what a busy one leaves out is counted (`sampledOut`), and
 * each record says how many requests it stands for (`weigh`: its `weight`), so that what counts
 * requests from the records (a sum of weights) still counts every one.
 */
export class LogSampling {
  private second = -1;
  /** Reads seen in the current second. */
  private readsThisSecond = 0;
  /** Reads seen past the budget, since start. */
  private passed = 0;
  /** Requests the rule left unrecorded since start. */
  sampledOut = 0;

  constructor(private readonly options: LogSamplingOptions) {}

  /** Whether the request gets a record; `now`: performance.now() at its end. */
  keeps(request: FinishedRequest, now: number): boolean {
    return this.weigh(request, now) > 0;
  }

  /**
   * How many requests the request's record stands for: 0 when it gets none, 1 when it is kept for
   * itself (what the rule always keeps, and the reads within the second's budget), `sampleEvery`
   * when it is the one kept of `sampleEvery` reads past the budget (itself and those left out after
   * it). Summed over records, the weights count every request, at most `sampleEvery - 1` too many
   * (the last sample's share not seen yet). `now`: performance.now() at its end.
   */
  weigh(request: FinishedRequest, now: number): number {
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.second = second;
      this.readsThisSecond = 0;
    }
    if (request.status >= 400 || request.tookMs >= this.options.slowMs || request.operation !== 'read' || request.stream) return 1;
    if (this.readsThisSecond++ < this.options.allPerSecond) return 1;
    if (this.passed++ % this.options.sampleEvery === 0) return this.options.sampleEvery;
    this.sampledOut++;
    return 0;
  }
}
