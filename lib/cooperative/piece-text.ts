import { Readable } from 'node:stream';

/**
 * What a reader of a large text reads of it: a string has all of it, and so does `PieceText`, a
 * text kept as the pieces it was decoded in.
 */
export interface ReadableText {
  readonly length: number;
  charCodeAt(index: number): number;
  indexOf(search: string, from?: number): number;
  slice(start: number, end?: number): string;
}

/**
 * A large text as the pieces it arrived in (a request body decoded a megabyte at a time), read
 * without ever making it one flat string: V8 copies the whole of a concatenated string the first
 * time anything reads it (a 50 MB `_bulk` body: a quarter of a second, in one piece). `slice`
 * concatenates slices of the pieces.
 *
 * Contract: reads exactly as `pieces.join('')` would, for non-negative positions; `indexOf` looks
 * for one character.
 */
export class PieceText implements ReadableText {
  readonly length: number;
  /** Where each piece starts in the text. */
  private readonly starts: number[] = [];
  /** The piece read last (reads are mostly in order). */
  private at = 0;

  constructor(private readonly pieces: readonly string[]) {
    let length = 0;
    for (const p of pieces) {
      this.starts.push(length);
      length += p.length;
    }
    this.length = length;
  }

  /** The piece holding `index` (0 ≤ index < length). */
  private pieceOf(index: number): number {
    let k = this.at;
    while (k > 0 && this.starts[k] > index) k--;
    while (k < this.pieces.length - 1 && this.starts[k + 1] <= index) k++;
    this.at = k;
    return k;
  }

  charCodeAt(index: number): number {
    if (!(index >= 0 && index < this.length)) return NaN;
    const k = this.pieceOf(index);
    return this.pieces[k].charCodeAt(index - this.starts[k]);
  }

  indexOf(search: string, from = 0): number {
    if (search.length !== 1) throw new RangeError('PieceText.indexOf looks for one character');
    if (from >= this.length) return -1;
    for (let k = this.pieceOf(Math.max(0, from)); k < this.pieces.length; k++) {
      const found = this.pieces[k].indexOf(search, Math.max(0, from - this.starts[k]));
      if (found !== -1) return this.starts[k] + found;
    }
    return -1;
  }

  slice(start: number, end = this.length): string {
    start = Math.max(0, Math.min(start, this.length));
    end = Math.max(start, Math.min(end, this.length));
    let out = '';
    for (let k = start < end ? this.pieceOf(start) : this.pieces.length; k < this.pieces.length && this.starts[k] < end; k++) {
      const s = this.starts[k];
      out += this.pieces[k].slice(Math.max(0, start - s), end - s);
    }
    return out;
  }

  /** The slices of the pieces that make `slice(start, end)`, in order (slices of flat strings: no copy). */
  parts(start: number, end = this.length): string[] {
    start = Math.max(0, Math.min(start, this.length));
    end = Math.max(start, Math.min(end, this.length));
    const out: string[] = [];
    for (let k = start < end ? this.pieceOf(start) : this.pieces.length; k < this.pieces.length && this.starts[k] < end; k++) {
      const s = this.starts[k];
      out.push(this.pieces[k].slice(Math.max(0, start - s), end - s));
    }
    return out;
  }

  /** The whole text: the pieces concatenated, which V8 keeps as a rope until something reads it. */
  toString(): string {
    let out = '';
    for (const p of this.pieces) out += p;
    return out;
  }
}

/** Text encoded for sending is gathered into chunks of about this many characters. */
const SEND_CHUNK_CHARS = 64 * 1024;

/**
 * Text given as its pieces, as a stream of UTF-8 Buffers made a piece at a time as it is read:
 * never the whole text encoded at once, which would first copy it flat (a 20 MB search body, in
 * one piece of the event loop). Pieces shorter than SEND_CHUNK_CHARS are gathered into one chunk.
 * A surrogate pair cut between two pieces is encoded whole only if the pieces are gathered, so the
 * pieces must not cut one (decoded and written pieces never do).
 */
export function encodedPieces(pieces: readonly string[]): Readable {
  return Readable.from(encodeEach(pieces), { objectMode: false });
}

function* encodeEach(pieces: readonly string[]): Generator<Buffer> {
  let gathered: string[] = [];
  let chars = 0;
  for (const piece of pieces) {
    gathered.push(piece);
    chars += piece.length;
    if (chars < SEND_CHUNK_CHARS) continue;
    yield Buffer.from(gathered.length === 1 ? gathered[0] : gathered.join(''));
    gathered = [];
    chars = 0;
  }
  if (chars > 0) yield Buffer.from(gathered.join(''));
}
