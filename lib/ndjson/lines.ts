/**
 * Newline-delimited JSON as Elasticsearch reads it: lines end at `\n` only, and the blanks around
 * a line are JSON's own whitespace (space, tab, carriage return) — nothing else. `String.trim()`
 * and `\s` also strip no-break spaces, line separators, BOMs…: a reader that used them would see
 * lines another reader refuses, and the access check and the engine would disagree about what a
 * body asks. Every NDJSON reader of the project goes through these two functions.
 */

import type { ReadableText } from '../cooperative/index.js';

const isJsonBlank = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d;

/** `text[from, to)` without the JSON whitespace around it. */
export function trimJsonBlanks(text: ReadableText, from = 0, to = text.length): string {
  while (from < to && isJsonBlank(text.charCodeAt(from))) from++;
  while (to > from && isJsonBlank(text.charCodeAt(to - 1))) to--;
  return text.slice(from, to);
}

/**
 * Walks the lines of `text`, each up to (not including) its `\n`; a last line without a
 * terminating `\n` counts too. Allocates nothing per line but what the caller takes.
 */
export class LineCursor {
  /** 1-based number of the current line. */
  number = 0;
  /** Bounds of the current line in the text, before trimming. */
  from = 0;
  to = 0;
  private pos = 0;

  /** `text`: a string, or a large body as the pieces it was decoded in (`PieceText`). */
  constructor(readonly text: ReadableText) {}

  /** Moves to the next line; false at the end. */
  next(): boolean {
    if (this.pos >= this.text.length) return false;
    let end = this.text.indexOf('\n', this.pos);
    if (end < 0) end = this.text.length;
    this.number++;
    this.from = this.pos;
    this.to = end;
    this.pos = end + 1;
    return true;
  }

  /** The current line without the JSON blanks around it. */
  trimmed(): string {
    return trimJsonBlanks(this.text, this.from, this.to);
  }

  /** The current line as it is. */
  raw(): string {
    return this.text.slice(this.from, this.to);
  }
}
