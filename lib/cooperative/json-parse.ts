import { randomBytes } from 'node:crypto';
import { TimeSlice } from './index.js';
import { keepPieces } from './long-strings.js';
import { PieceText, type ReadableText } from './piece-text.js';

/** A string literal at least this long (in characters of JSON text) is decoded apart from the rest. */
export const LONG_LITERAL_CHARS = 64 * 1024;
/** A long literal is decoded this many characters at a time. */
const PIECE_CHARS = 512 * 1024;
/** Literals looked at between two looks at the clock. */
const SCAN_TICK = 1024;

interface Literal {
  /** Index of the opening quote. */
  start: number;
  /** Index just past the closing quote. */
  end: number;
}

/**
 * `JSON.parse(text)` for a large text, without holding the event loop for the time it takes to
 * decode its long string literals (a 20 MB search text is one native parse of ~40 ms otherwise).
 *
 * Contract: the value is exactly JSON.parse's (the same duplicate-key, `__proto__` and number
 * semantics, because JSON.parse does all the decoding): the text's string values of
 * LONG_LITERAL_CHARS or more are cut out and replaced by placeholders, the rest (the skeleton) is
 * parsed natively in one call, each long literal is decoded by JSON.parse a piece at a time (never
 * inside an escape sequence), and the placeholders are replaced by the decoded strings. A text
 * with no long literal is parsed by one JSON.parse call. A text JSON.parse refuses throws
 * JSON.parse's SyntaxError (parsed once more in one piece, for the message): the caller words it.
 */
export async function parseJsonCooperatively(text: ReadableText): Promise<unknown> {
  const slice = new TimeSlice();
  const literals = await longValueLiterals(text, slice);
  if (!literals.length) return JSON.parse(String(text));
  const nonce = `\u0000gw-${randomBytes(9).toString('base64')}:`;
  const parts: string[] = [];
  let at = 0;
  literals.forEach((lit, k) => {
    parts.push(text.slice(at, lit.start), JSON.stringify(nonce + k));
    at = lit.end;
  });
  parts.push(text.slice(at));
  let skeleton: unknown;
  try {
    skeleton = JSON.parse(parts.join(''));
  } catch {
    return JSON.parse(String(text)); // throws JSON.parse's own error for the text as sent
  }
  const decoded: Array<{ value: string; pieces?: PieceText }> = [];
  for (const lit of literals) {
    const parts = await decodeLiteral(text, lit, slice);
    if (parts.length === 1) decoded.push({ value: parts[0] });
    else {
      // the value is the parts concatenated (a rope, not read here); readers that need only
      // part of it read the parts (long-strings.ts) and never copy all of it flat
      const pieces = new PieceText(parts);
      decoded.push({ value: String(pieces), pieces });
    }
    await slice.pause();
  }
  const placed = (s: string, holder?: object, key?: string | number) => {
    if (!s.startsWith(nonce)) return s;
    const literal = decoded[Number(s.slice(nonce.length))];
    if (holder !== undefined && key !== undefined && literal.pieces) keepPieces(holder, key, literal.value, literal.pieces);
    return literal.value;
  };
  return typeof skeleton === 'string' ? placed(skeleton) : replacePlaceholders(skeleton, nonce, placed, slice);
}

/** Number of backslashes immediately before `i`. */
function backslashesBefore(text: ReadableText, i: number): number {
  let n = 0;
  while (i - n - 1 >= 0 && text.charCodeAt(i - n - 1) === 92) n++;
  return n;
}

/**
 * The long string literals of the text in value positions (not keys), in order. Outside string
 * literals a valid JSON text has no quote, so the literals are found by their quotes alone; in a
 * text that is not valid JSON whatever is found only makes the skeleton parse fail.
 */
async function longValueLiterals(text: ReadableText, slice: TimeSlice): Promise<Literal[]> {
  const found: Literal[] = [];
  let i = text.indexOf('"');
  let seen = 0;
  while (i !== -1) {
    let close = text.indexOf('"', i + 1);
    while (close !== -1 && backslashesBefore(text, close) % 2 === 1) close = text.indexOf('"', close + 1);
    if (close === -1) break;
    const end = close + 1;
    if (end - i >= LONG_LITERAL_CHARS && !isKey(text, end)) found.push({ start: i, end });
    i = text.indexOf('"', end);
    if (++seen % SCAN_TICK === 0) await slice.pause();
  }
  return found;
}

/** Is the literal ending at `end` a member name (followed by `:` after JSON's blanks)? */
function isKey(text: ReadableText, end: number): boolean {
  let j = end;
  for (let c = text.charCodeAt(j); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++j));
  return text.charCodeAt(j) === 58;
}

/** Where a piece may end at or before `cut` without splitting an escape sequence (`\n`, `\uXXXX`). */
function safeCut(text: ReadableText, cut: number): number {
  for (let k = 1; k <= 5; k++) {
    const i = cut - k;
    if (text.charCodeAt(i) !== 92 || backslashesBefore(text, i) % 2 === 1) continue;
    const length = text.charCodeAt(i + 1) === 117 ? 6 : 2; // \uXXXX or a one-letter escape
    if (i + length > cut) return i;
    break;
  }
  return cut;
}

/**
 * A run of what JSON.parse takes as it stands in a string literal: no escape, no control character.
 * A piece is verbatim when the run spans all of it; read this way (sticky, greedy) the scan is ~2×
 * faster than a search for the first character that is not (1.2 → 0.56 ms a megabyte here).
 */
const VERBATIM_RUN = /[^\\\u0000-\u001f]*/y;

function verbatim(s: string): boolean {
  VERBATIM_RUN.lastIndex = 0;
  VERBATIM_RUN.test(s);
  return VERBATIM_RUN.lastIndex === s.length;
}

/**
 * One long literal's string, as the parts it is made of. Without escapes or control characters it
 * is the text between the quotes, as it stands (slices of the text or of its pieces: no copy);
 * otherwise it is decoded by JSON.parse a piece at a time (a surrogate pair cut in two joins up
 * again when the parts are concatenated).
 */
async function decodeLiteral(text: ReadableText, lit: Literal, slice: TimeSlice): Promise<string[]> {
  const last = lit.end - 1;
  let isVerbatim = true;
  for (let at = lit.start + 1; at < last && isVerbatim; at += PIECE_CHARS) {
    // tested piece by piece: a slice across two pieces is a rope, which the test would first copy flat
    const cut = Math.min(at + PIECE_CHARS, last);
    isVerbatim = (text instanceof PieceText ? text.parts(at, cut) : [text.slice(at, cut)]).every(verbatim);
    await slice.pause();
  }
  if (isVerbatim) return text instanceof PieceText ? text.parts(lit.start + 1, last) : [text.slice(lit.start + 1, last)];
  const pieces: string[] = [];
  for (let at = lit.start + 1; at < last; ) {
    const cut = at + PIECE_CHARS >= last ? last : safeCut(text, at + PIECE_CHARS);
    pieces.push(JSON.parse(`"${text.slice(at, cut)}"`) as string);
    at = cut;
    await slice.pause();
  }
  return pieces;
}

/** The skeleton with its placeholders replaced, walked without recursion. */
async function replacePlaceholders(root: unknown, nonce: string, placed: (s: string, holder: object, key: string | number) => string, slice: TimeSlice): Promise<unknown> {
  const stack: unknown[] = [root];
  let visited = 0;
  while (stack.length) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v = node[i];
        if (typeof v === 'string') {
          if (v.startsWith(nonce)) node[i] = placed(v, node, i);
        } else if (v !== null && typeof v === 'object') stack.push(v);
      }
    } else {
      const obj = node as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const v = obj[key];
        if (typeof v === 'string') {
          // an own `__proto__` member stays an own member: defined, never assigned
          if (v.startsWith(nonce)) Object.defineProperty(obj, key, { value: placed(v, obj, key), writable: true, enumerable: true, configurable: true });
        } else if (v !== null && typeof v === 'object') stack.push(v);
      }
    }
    if (++visited % SCAN_TICK === 0) await slice.pause();
  }
  return root;
}
