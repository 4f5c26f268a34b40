import { setTimeout as delay } from 'node:timers/promises';
import { errorBody, toEsError } from '../errors/index.js';

/**
 * A live analytics answer (`stream=true`): the JSON text of the first answer at once, then the
 * answer again each time it changes, recomputed every `intervalMs`.
 *
 * Contract:
 * - The first text is yielded as soon as it is computed; a later one only when it differs from
 *   the last one yielded.
 * - The next computation starts `intervalMs` after the previous answer was taken by the consumer
 *   (or found unchanged): a slow consumer slows the computing down, nothing queues up.
 * - It ends when `signal` aborts (a computation under way is not yielded) or when the consumer
 *   stops iterating.
 * - A failed computation yields one ES-shaped error body (`{error, status}`) and ends.
 */
export async function* liveAnswers(compute: () => Promise<object>, intervalMs: number, signal: AbortSignal): AsyncGenerator<string, void, undefined> {
  let last: string | undefined;
  while (!signal.aborted) {
    let text: string;
    try {
      text = JSON.stringify(await compute());
    } catch (err) {
      if (!signal.aborted) yield JSON.stringify(errorBody(toEsError(err)));
      return;
    }
    if (signal.aborted) return;
    if (text !== last) {
      last = text;
      yield text;
    }
    try {
      await delay(intervalMs, undefined, { signal });
    } catch {
      return; // aborted
    }
  }
}
