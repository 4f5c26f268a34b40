import { randomBytes } from 'node:crypto';
import { EsError } from '../errors/index.js';

/**
 * A position names one event in one index's change history: `<epoch>-<offset>`.
 *
 * - `offset` is the event's number in the index's history, 16 decimal digits zero-padded. Within
 *   one epoch, offsets are contiguous (each event is the previous one + 1), so plain string
 *   comparison orders positions, and a consumer can tell when it missed an event.
 * - `epoch` (lowercase letters and digits) names one life of the history: a memory bus draws a
 *   new one when it starts, the Redis bus when it finds no history for the index (first use, or
 *   Redis lost its data). A position from another epoch is unknown: resuming from it is refused
 *   with the same error as a position older than the retained history, never a silent gap.
 *
 * Offset 0 (`<epoch>-0000000000000000`) is "before the first event" — the position of an index
 * nothing has been published to yet (see `ChangeBus.head`).
 */
export interface Position {
  epoch: string;
  offset: number;
}

const OFFSET_DIGITS = 16;
const POSITION = /^([a-z0-9]{1,32})-(\d{16})$/;

export function newEpoch(): string {
  return randomBytes(6).readUIntBE(0, 6).toString(36);
}

export function formatPosition(epoch: string, offset: number): string {
  return `${epoch}-${String(offset).padStart(OFFSET_DIGITS, '0')}`;
}

/** Parses a position a client sent back (`?since=`, `Last-Event-ID`); a malformed one is a 400. */
export function parsePosition(position: string, index: string): Position {
  const m = POSITION.exec(position);
  if (!m) {
    throw new EsError(
      400,
      'illegal_argument_exception',
      `invalid change position [${position}] for index [${index}]; expected the id of an event of a stream on that index`,
    );
  }
  return { epoch: m[1], offset: Number(m[2]) };
}

/** Orders two positions of the same index and epoch (negative, zero, positive). */
export function comparePositions(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The one error for "the history cannot bridge this gap": a resume position older than the
 * retained history or from another life of it, or a node's live delivery that lost events it
 * cannot recover (Redis lost its data, a write's change could not be published). Streams answer
 * it with a `_reset` message and a fresh read of the state; other consumers (caches) drop what
 * they hold. A class of its own so that they can tell it from any other failure.
 */
export class HistoryGone extends EsError {
  constructor(index: string, reason: string) {
    super(400, 'illegal_argument_exception', reason);
  }
}

export function isHistoryGone(err: unknown): err is HistoryGone {
  return err instanceof HistoryGone;
}

/** The one error for "cannot resume from here": the client must read the current state again. */
export function historyGone(index: string, position: string, why: 'older' | 'unknown' | 'discontinued'): HistoryGone {
  const reason =
    why === 'older'
      ? `position [${position}] is older than the retained history of index [${index}]; read the current state again`
      : why === 'unknown'
        ? `position [${position}] is unknown to the change history of index [${index}] (the history was reset); read the current state again`
        : `changes of index [${index}] after position [${position}] may have been lost (Redis lost its data, or a node could not publish a write's change); read the current state again`;
  return new HistoryGone(index, reason);
}

/**
 * Decides what `history(index, since)` may return, given what the history holds: offsets
 * `first..top` of `epoch` (first = top + 1 when empty). Throws `historyGone` when events after
 * `since` are no longer (or never were) in this history.
 */
export function checkResumable(index: string, since: string, held: { epoch: string; first: number; top: number }): Position {
  const p = parsePosition(since, index);
  if (p.epoch !== held.epoch || p.offset > held.top) throw historyGone(index, since, 'unknown');
  if (p.offset < held.first - 1) throw historyGone(index, since, 'older');
  return p;
}
