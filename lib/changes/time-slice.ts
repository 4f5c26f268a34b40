/** How long a loop over one request's items may hold the event loop before others get a turn. */
const SLICE_MS = 10;

/**
 * A long loop over a request's items (a `_bulk`'s change events) calls `pause()` between items:
 * once the slice is used up, the event loop gets a turn (`setImmediate`) before the loop goes on,
 * so that other requests keep moving. A promise chain alone would never let them.
 */
export class TimeSlice {
  private end = performance.now() + SLICE_MS;

  async pause(): Promise<void> {
    if (performance.now() < this.end) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.end = performance.now() + SLICE_MS;
  }
}
