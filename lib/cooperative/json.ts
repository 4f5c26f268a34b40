import { Readable } from 'node:stream';
import { eventLoopTurn, SLICE_MS, TimeSlice } from './index.js';
import { piecesOf } from './long-strings.js';
import type { ReadableText } from './piece-text.js';

/**
 * `JSON.stringify` of a very large value (a 50 MB `_bulk` answer, a 20 MB string) holds the event
 * loop for hundreds of milliseconds. These write the same text in pieces, each a bounded amount of
 * work, so the caller can give the event loop a turn between them.
 *
 * Contract: the pieces of `jsonPieces(value, indent)` concatenate to exactly
 * `JSON.stringify(value, null, indent)`: the same key order, `toJSON` called once per value with
 * its key, `undefined`, functions and symbols skipped as members and written `null` as elements,
 * non-finite numbers as `null`, lone surrogates escaped, a BigInt throws a TypeError. Where they differ:
 * - A top-level value JSON.stringify leaves `undefined` (undefined, a function, a symbol) yields no
 *   piece (`stringifyCooperatively` answers `''`).
 * - A cycle throws a TypeError, though not JSON.stringify's exact message when the cycle runs through
 *   a container written piece by piece.
 * - Nesting deeper than the stack would make JSON.stringify throw a RangeError may succeed.
 * - Getters (and proxies) inside the value may be read twice: once to weigh it, once to write it.
 * - What a nested `toJSON` returns is not weighed: a `toJSON` below the top of a small value that
 *   returns a huge one is written by one JSON.stringify call.
 */

/**
 * How much work one native JSON.stringify call may do, in units of about one value or 8
 * characters of string (about a millisecond). A value that weighs more is large: written member by
 * member (a container) or in chunks (a string); runs of smaller members are written together, by
 * one call. Runs this big also keep the text out of the young generation's copying.
 */
const WORK_BUDGET = 32 * 1024;
/** Characters of a large string escaped at a time. */
const STRING_CHUNK = 256 * 1024;
/** Text collected before a piece is handed out (a piece also ends once WORK_BUDGET is spent). */
const PIECE_CHARS = 64 * 1024;
/**
 * How deep a run of pretty-printed members is wrapped to be written at its indentation; the
 * wrapping costs the square of the depth, so deeper runs are indented line by line instead.
 */
const MAX_WRAPPING = 32;
/** How deep weighing a value goes (the stack is not unbounded); a deeper value is written piece by piece. */
const MAX_WEIGHED_DEPTH = 1000;
/** Text long enough that `stringifyCooperatively` joins its pieces after a turn of the event loop. */
const JOIN_ALONE_CHARS = 1024 * 1024;
/** Bytes a `jsonStream` pushes at a time. */
const STREAM_CHUNK_BYTES = 64 * 1024;

/**
 * What is left of `budget` once `value` is paid for; zero or less means `value` is large. Stops as
 * soon as it runs out, and counts a value nested deeper than MAX_WEIGHED_DEPTH (or a cycle) as large.
 */
function remainingAfter(value: unknown, budget: number, depth = 0): number {
  if (typeof value === 'string') return budget - 1 - (value.length >>> 3);
  if (typeof value !== 'object' || value === null || hasToJSON(value)) return budget - 1;
  if (depth === MAX_WEIGHED_DEPTH) return 0;
  budget -= 1;
  if (Array.isArray(value)) {
    if (value.length >= budget) return budget - value.length;
    for (let i = 0; i < value.length && budget > 0; i++) budget = remainingAfter(value[i], budget, depth + 1);
    return budget;
  }
  // for…in also counts inherited enumerable members, which JSON.stringify skips: a weight may only be high.
  for (const key in value) {
    budget = remainingAfter((value as Record<string, unknown>)[key], budget - 1 - (key.length >>> 3), depth + 1);
    if (budget <= 0) break;
  }
  return budget;
}

function hasToJSON(value: unknown): value is { toJSON(key: string): unknown } {
  return ((typeof value === 'object' && value !== null) || typeof value === 'bigint') && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** A value JSON.stringify leaves out of an object (and writes `null` in an array). */
function isUnwritable(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** JSON.stringify's gap for a numeric `space`. */
function gapFor(indent: number | undefined): string {
  const width = indent === undefined ? 0 : Math.min(10, Math.trunc(indent));
  return width >= 1 ? ' '.repeat(width) : '';
}

/** The text being written, and the work spent since the last piece was handed out. */
class JsonText {
  text = '';
  work = 0;
  readonly pretty: boolean;

  constructor(readonly gap: string) {
    this.pretty = gap !== '';
  }

  get pieceReady(): boolean {
    return this.text.length >= PIECE_CHARS || this.work >= WORK_BUDGET;
  }

  takePiece(): string {
    const piece = this.text;
    this.text = '';
    this.work = 0;
    return piece;
  }

  /** A small value (one without a `toJSON` of its own), by one native call. */
  whole(value: unknown): string {
    return JSON.stringify(value, null, this.gap);
  }

  /**
   * The members of a small array or object as JSON.stringify writes them, without the brackets and
   * the line break and indentation before the first one, for a container whose own line is
   * indented by `indentation`.
   */
  members(container: object, indentation: string): string {
    if (!this.pretty) return JSON.stringify(container, null, '').slice(1, -1);
    const depth = indentation.length / this.gap.length;
    if (depth > MAX_WRAPPING) {
      // Strings hold no raw line break (JSON escapes it): every '\n' starts a line to indent.
      const text = JSON.stringify(container, null, this.gap);
      return text.slice(2 + this.gap.length, -2).split('\n').join('\n' + indentation);
    }
    // JSON.stringify cannot start at an indentation: the container goes as deep into arrays of one
    // element as its line is indented, and what those arrays write around it is cut off (cheaper
    // than indenting each line of the text again).
    let wrapped: unknown = container;
    for (let level = 0; level < depth; level++) wrapped = [wrapped];
    const text = JSON.stringify(wrapped, null, this.gap);
    // Wrapping level k (from 0, outermost) writes '[\n' and k + 1 gaps before the container and
    // '\n', k gaps and ']' after it; the container's first member is indented one gap deeper than it.
    const gap = this.gap.length;
    const before = 2 * depth + (gap * depth * (depth + 1)) / 2 + 2 + indentation.length + gap;
    const after = 2 * depth + (gap * depth * (depth - 1)) / 2 + 2 + indentation.length;
    return text.slice(before, text.length - after);
  }
}

/** One large value being written: each step writes a bounded stretch of it. */
interface Frame {
  /** The container being written, to tell a cycle; undefined for a string. */
  readonly container?: object;
  /** Writes the next stretch; answers a member's frame to write first, `more`, or `done` once the value is closed. */
  step(out: JsonText): Frame | 'more' | 'done';
}

/**
 * A large string, escaped a chunk at a time, never between the halves of a surrogate pair. A
 * string a cooperative parse kept as its pieces (long-strings.ts) is read from them: its first
 * slice would copy the whole rope into one flat string (20 MB in one piece, for a search text
 * forwarded to the HTTP backend).
 */
class StringFrame implements Frame {
  private next = 0;

  constructor(private readonly value: ReadableText) {}

  step(out: JsonText): 'more' | 'done' {
    const { value } = this;
    let end = Math.min(this.next + STRING_CHUNK, value.length);
    const high = value.charCodeAt(end - 1);
    if (end < value.length && high >= 0xd800 && high <= 0xdbff) end -= 1;
    const escaped = JSON.stringify(value.slice(this.next, end));
    out.text += (this.next === 0 ? '"' : '') + escaped.slice(1, end === value.length ? escaped.length : -1);
    out.work += (end - this.next) >>> 3;
    this.next = end;
    return end === value.length ? 'done' : 'more';
  }
}

/** What both containers share: brackets, separators, and the run of small members written by one call. */
abstract class ContainerFrame implements Frame {
  protected next = 0;
  protected runWeight = 0;
  private wroteMember = false;

  constructor(
    readonly container: object,
    private readonly size: number,
    protected readonly indentation: string,
    private readonly brackets: '[]' | '{}',
  ) {}

  /** Takes the next member: into the run when it is small; a large one is written up to its value, and answers its frame. */
  protected abstract nextMember(out: JsonText): Frame | undefined;

  /** Writes the run of small members collected so far, if any. */
  protected abstract flushRun(out: JsonText): void;

  step(out: JsonText): Frame | 'more' | 'done' {
    while (this.next < this.size) {
      const member = this.nextMember(out);
      if (member !== undefined) return member;
      if (out.pieceReady) return 'more';
    }
    this.flushRun(out);
    if (!this.wroteMember) out.text += this.brackets;
    else out.text += (out.pretty ? '\n' + this.indentation : '') + this.brackets[1];
    return 'done';
  }

  /** Opens the container or separates from the member before, and indents the next line. */
  protected beforeMember(out: JsonText): void {
    out.text += (this.wroteMember ? ',' : this.brackets[0]) + (out.pretty ? '\n' + this.indentation + out.gap : '');
    this.wroteMember = true;
  }

  /** Makes room in the run for a small member of `weight`, writing the run first if it would grow too heavy. */
  protected makeRoom(out: JsonText, weight: number): void {
    out.work += weight;
    if (this.runWeight + weight > WORK_BUDGET) this.flushRun(out);
    this.runWeight += weight;
  }

  /** A large member (already written up to where its value starts): its own frame. */
  protected memberFrame(out: JsonText, value: unknown, pieces?: ReadableText): Frame {
    out.work += WORK_BUDGET;
    return frameFor(value, this.indentation + out.gap, pieces);
  }
}

class ArrayFrame extends ContainerFrame {
  private run: unknown[] = [];

  constructor(private readonly items: readonly unknown[], indentation: string) {
    super(items, items.length, indentation, '[]');
  }

  protected nextMember(out: JsonText): Frame | undefined {
    const index = this.next++;
    let value = this.items[index];
    if (hasToJSON(value)) value = value.toJSON(String(index));
    if (!hasToJSON(value)) {
      const left = remainingAfter(value, WORK_BUDGET);
      if (left > 0) {
        this.makeRoom(out, WORK_BUDGET - left);
        this.run.push(value); // undefined, functions and symbols come out as null, as they should
        return undefined;
      }
    }
    this.flushRun(out);
    this.beforeMember(out);
    return this.memberFrame(out, value, typeof value === 'string' ? piecesOf(this.items, index) : undefined);
  }

  protected flushRun(out: JsonText): void {
    if (this.run.length === 0) return;
    this.beforeMember(out);
    out.text += out.members(this.run, this.indentation);
    this.run = [];
    this.runWeight = 0;
  }
}

class ObjectFrame extends ContainerFrame {
  private run: Record<string, unknown> = {};
  private runLength = 0;

  constructor(
    private readonly holder: object,
    private readonly keys: readonly string[],
    indentation: string,
  ) {
    super(holder, keys.length, indentation, '{}');
  }

  protected nextMember(out: JsonText): Frame | undefined {
    const key = this.keys[this.next++];
    let value = (this.holder as Record<string, unknown>)[key];
    if (hasToJSON(value)) value = value.toJSON(key);
    if (isUnwritable(value)) {
      out.work += 1;
      return undefined;
    }
    if (!hasToJSON(value)) {
      const keyWeight = 1 + (key.length >>> 3);
      const left = remainingAfter(value, WORK_BUDGET - keyWeight);
      if (left > 0) {
        this.makeRoom(out, WORK_BUDGET - left);
        // '__proto__' assigned would set the run's prototype instead of adding a member.
        if (key === '__proto__') Object.defineProperty(this.run, key, { value, enumerable: true, writable: true, configurable: true });
        else this.run[key] = value;
        this.runLength++;
        return undefined;
      }
    }
    this.flushRun(out);
    this.beforeMember(out);
    out.text += JSON.stringify(key) + (out.pretty ? ': ' : ':');
    return this.memberFrame(out, value, typeof value === 'string' ? piecesOf(this.holder, key) : undefined);
  }

  protected flushRun(out: JsonText): void {
    if (this.runLength === 0) return;
    this.beforeMember(out);
    out.text += out.members(this.run, this.indentation);
    this.run = {};
    this.runLength = 0;
    this.runWeight = 0;
  }
}

/**
 * The frame that writes `value`, a resolved value that is large or still has a `toJSON` of its own
 * (which JSON.stringify would not call a second time), its line indented by `indentation`.
 */
function frameFor(value: unknown, indentation: string, pieces?: ReadableText): Frame {
  if (typeof value === 'string') return new StringFrame(pieces ?? value);
  if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  if (value instanceof String) return new StringFrame(String(value));
  if (Array.isArray(value)) return new ArrayFrame(value, indentation);
  return new ObjectFrame(value as object, Object.keys(value as object), indentation);
}

/**
 * The text of `JSON.stringify(value, null, indent)` in successive pieces, each a bounded amount of
 * work (see the contract above). A small value is one piece, written by one JSON.stringify call;
 * only large containers are walked, and large strings escaped in chunks. A piece is empty only
 * when its stretch of work wrote nothing (members JSON.stringify skips).
 */
export function* jsonPieces(value: unknown, indent?: number): Generator<string, void, void> {
  const out = new JsonText(gapFor(indent));
  const top = hasToJSON(value) ? value.toJSON('') : value;
  if (isUnwritable(top)) return;
  if (!hasToJSON(top) && remainingAfter(top, WORK_BUDGET) > 0) {
    yield out.whole(top);
    return;
  }
  const stack: Frame[] = [];
  /** The containers on the stack: meeting one again inside itself is a cycle. */
  const open = new Set<object>();
  const enter = (frame: Frame) => {
    if (frame.container !== undefined) {
      if (open.has(frame.container)) throw new TypeError('Converting circular structure to JSON');
      open.add(frame.container);
    }
    stack.push(frame);
  };
  enter(frameFor(top, ''));
  while (stack.length > 0) {
    const next = stack[stack.length - 1].step(out);
    if (next === 'done') {
      const closed = stack.pop()!;
      if (closed.container !== undefined) open.delete(closed.container);
    } else if (next !== 'more') enter(next);
    if (out.pieceReady) yield out.takePiece();
  }
  if (out.text !== '') yield out.takePiece();
}

/** `JSON.stringify(value, null, indent)`, giving the event loop a turn whenever a time slice is used up. `''` where JSON.stringify answers undefined. */
export async function stringifyCooperatively(value: unknown, indent?: number): Promise<string> {
  const pieces = await jsonTextPieces(value, indent);
  if (pieces.length <= 1) return pieces[0] ?? '';
  // Joining is one copy of the whole text (about half a millisecond a megabyte) that cannot be cut
  // up: a long one gets a turn of its own rather than the end of a slice.
  if (pieces.reduce((n, p) => n + p.length, 0) > JOIN_ALONE_CHARS) await eventLoopTurn();
  return pieces.join('');
}

/**
 * The text of `JSON.stringify(value, null, indent)` as its pieces (none empty; none when
 * JSON.stringify answers undefined), written a time slice at a time and never joined: a reader that
 * goes through them in turn (a body sent a piece at a time) needs no copy of the whole text.
 */
export async function jsonTextPieces(value: unknown, indent?: number): Promise<string[]> {
  const slice = new TimeSlice();
  const pieces: string[] = [];
  for (const piece of jsonPieces(value, indent)) {
    if (piece !== '') pieces.push(piece);
    await slice.pause();
  }
  return pieces;
}

/**
 * `JSON.stringify(value, null, indent)` as a stream of UTF-8 Buffers of about 64 KB, written as
 * it is read: nothing before the first read, nothing more while the reader is behind or once the
 * stream is destroyed, and a turn for the event loop whenever a time slice is used up. A value
 * JSON.stringify cannot write (a BigInt, a cycle) destroys the stream with its error.
 */
export function jsonStream(value: unknown, indent?: number): Readable {
  return new JsonReadable(jsonPieces(value, indent));
}

class JsonReadable extends Readable {
  /** Encoded text not pushed yet. */
  private unsent = Buffer.alloc(0);
  /** When the current time slice ends (0: none started yet, the first read starts one). */
  private sliceEnd = 0;

  constructor(private readonly pieces: Generator<string, void, void>) {
    super({ highWaterMark: STREAM_CHUNK_BYTES });
  }

  override _read(): void {
    if (this.sliceEnd === 0) this.sliceEnd = performance.now() + SLICE_MS;
    if (performance.now() < this.sliceEnd) this.pushChunk();
    else this.pushChunkAfterTurn();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    try {
      this.pieces.return();
    } catch {
      // Destroyed from inside the generator (a toJSON): it cannot be closed now, and will not be resumed.
    }
    callback(error);
  }

  private pushChunkAfterTurn(): void {
    setImmediate(() => {
      if (this.destroyed) return;
      this.sliceEnd = performance.now() + SLICE_MS;
      this.pushChunk();
    });
  }

  private pushChunk(): void {
    let chunk: Buffer | null | undefined;
    try {
      chunk = this.nextChunk();
    } catch (error) {
      this.destroy(error as Error);
      return;
    }
    if (chunk === undefined) this.pushChunkAfterTurn();
    else this.push(chunk);
  }

  /** The next bytes to push; null once all are pushed; undefined if the slice ran out before any text came. */
  private nextChunk(): Buffer | null | undefined {
    if (this.unsent.length === 0) {
      let text = '';
      while (text.length < STREAM_CHUNK_BYTES) {
        const piece = this.pieces.next();
        if (piece.done) break;
        text += piece.value;
        if (performance.now() >= this.sliceEnd) {
          if (text === '') return undefined;
          break;
        }
      }
      if (text === '') return null;
      this.unsent = Buffer.from(text, 'utf8');
    }
    const chunk = this.unsent.subarray(0, STREAM_CHUNK_BYTES);
    this.unsent = this.unsent.subarray(chunk.length);
    return chunk;
  }
}
