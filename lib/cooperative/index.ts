/**
 * Long work over one request's items (query loops, a `_bulk`'s lines and change events) gives
 * other requests a turn: this is how long one stretch of it may hold the event loop.
 */
export const SLICE_MS = 10;

/**
 * How long the next stretch of a piece of work may hold the event loop (ms). Works that run side
 * by side and may all take their stretch in the same turn of the loop (background tasks) share
 * SLICE_MS between them: each one's stretch is its share, so a turn still holds the loop about
 * SLICE_MS, however many run.
 */
export type SliceLength = () => number;

/** A whole slice: work that runs alone in its turn (a request's own work). */
export const WHOLE_SLICE: SliceLength = () => SLICE_MS;

/**
 * One turn of the event loop: whatever I/O and timers are ready run before the caller resumes.
 * Two immediates: called from an I/O callback (the poll phase), one immediate runs in the same
 * loop iteration's check phase, before any other socket is read; the second comes after a poll.
 */
export function eventLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * The stretch of the current turn of the loop that TimeSlices share: every slice that resumes in
 * the same check phase (many works paused at once: a dozen background tasks publishing their
 * changes) takes from one SLICE_MS, not one each; it is forgotten at the next phase.
 */
let sharedTurn: { end: number } | undefined;

function turnBudgetEnd(now: number): number {
  if (!sharedTurn) {
    const turn = { end: now + SLICE_MS };
    sharedTurn = turn;
    setImmediate(() => {
      if (sharedTurn === turn) sharedTurn = undefined;
    });
  }
  return sharedTurn.end;
}

/**
 * For a loop that can await: it calls `pause()` between items, and once the slice is used up the
 * event loop gets a turn before the loop goes on. A promise chain alone would never let other
 * requests in. Slices that resume in the same turn share its SLICE_MS: a slice that finds it used
 * up by the others waits for the next turn.
 */
export class TimeSlice {
  private end = performance.now() + SLICE_MS;

  async pause(): Promise<void> {
    if (performance.now() < this.end) return;
    for (;;) {
      await eventLoopTurn();
      const now = performance.now();
      this.end = Math.min(now + SLICE_MS, turnBudgetEnd(now));
      if (now < this.end) return;
    }
  }
}

/**
 * For a stream transform: its callback is called at once while the slice lasts, and after an event
 * loop turn once it is used up. A readable that had many chunks buffered (an engine's answer that
 * arrived faster than the client reads it) hands them to its pipe in one synchronous loop; a
 * transform that always answered at once would scan all of them — megabytes — in one piece.
 */
export class TransformSlice {
  private end = 0;

  /** Calls `done` now, or after a turn when this stretch of the stream's work has used its slice. */
  done(done: () => void): void {
    const now = performance.now();
    if (this.end === 0) this.end = now + SLICE_MS;
    if (now < this.end) return done();
    setImmediate(() => {
      this.end = performance.now() + SLICE_MS;
      done();
    });
  }
}

export { jsonPieces, jsonStream, jsonTextPieces, stringifyCooperatively } from './json.js';
export { parseJsonCooperatively, LONG_LITERAL_CHARS } from './json-parse.js';
export { encodedPieces, PieceText, type ReadableText } from './piece-text.js';
export { keepPieces, piecesOf } from './long-strings.js';
export { parseItemsAnswer } from './items-answer.js';
export { threadCpuMs, WALL_FACTOR } from './thread-clock.js';
export { ChunkedTextDecoder, DECODE_BATCH_BYTES } from './text-decoder.js';
