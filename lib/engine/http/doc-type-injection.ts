import { Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { TransformSlice } from '../../cooperative/index.js';

/**
 * Elasticsearch 8 documents and hits carry no `_type`; the gateway's answers do (`"_doc"` in the
 * index-addressed style), as Elasticsearch 7 and the service's own API show them. `_type` goes in
 * right before `_id` in every object of the answer's structure whose member before `_id` is
 * `_index` (a document, an mget item, a hit, an inner or top hit) — never inside what the user
 * wrote: the subtrees of `_source`, `fields`, `highlight` and `ignored_field_values` are passed
 * through untouched, whatever they hold.
 *
 * The answer is read by a small JSON scanner (strings, nesting and member names; no values are
 * built), so a large answer streams through in the pieces it arrives in: bytes are decoded as UTF-8
 * across chunk boundaries (a character split between two chunks is kept whole), and only a member
 * name cut by a boundary is held back until the next chunk.
 */
const USER_DATA = new Set(['_source', 'fields', 'highlight', 'ignored_field_values']);
const TYPE_MEMBER = '"_type":"_doc",';

interface Container {
  object: boolean;
  /** Inside a subtree of user data: scanned for its nesting only. */
  userData: boolean;
  /** The name of the member being read (objects). */
  key?: string;
  /** The name of the member before it. */
  previous?: string;
}

export class DocTypeInserter {
  private readonly stack: Container[] = [];
  private inString = false;
  private escaped = false;
  /** Where the member name being read starts (its opening quote), in the text being scanned; -1 for other strings. */
  private keyStart = -1;
  private expectingKey = false;
  /** A member name cut by the end of the last piece: scanned again from its opening quote. */
  private carry = '';

  /** The next piece of the answer, with `_type` inserted where it belongs; may hold back a few characters. */
  write(piece: string): string {
    const text = this.carry + piece;
    this.carry = '';
    let flushed = 0;
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) {
          this.inString = false;
          if (this.keyStart >= 0) {
            const top = this.stack[this.stack.length - 1];
            const key = text.slice(this.keyStart + 1, i);
            top.previous = top.key;
            top.key = key;
            if (key === '_id' && top.previous === '_index') {
              out += text.slice(flushed, this.keyStart) + TYPE_MEMBER;
              flushed = this.keyStart;
            }
            this.keyStart = -1;
          }
        }
        continue;
      }
      switch (c) {
        case 0x22: { // "
          this.inString = true;
          const top = this.stack[this.stack.length - 1];
          this.keyStart = this.expectingKey && top && !top.userData ? i : -1;
          this.expectingKey = false;
          break;
        }
        case 0x7b: // {
        case 0x5b: { // [
          const parent = this.stack[this.stack.length - 1];
          const userData = parent !== undefined && (parent.userData || (parent.object && parent.key !== undefined && USER_DATA.has(parent.key)));
          this.stack.push({ object: c === 0x7b, userData });
          this.expectingKey = c === 0x7b;
          break;
        }
        case 0x7d: // }
        case 0x5d: // ]
          this.stack.pop();
          this.expectingKey = false;
          break;
        case 0x2c: // ,
          this.expectingKey = this.stack[this.stack.length - 1]?.object === true;
          break;
        default:
          break;
      }
    }
    if (this.inString && this.keyStart >= 0) {
      // a member name cut here: scanned again, whole, with the next piece
      out += text.slice(flushed, this.keyStart);
      this.carry = text.slice(this.keyStart);
      this.inString = false;
      this.escaped = false;
      this.keyStart = -1;
      this.expectingKey = true;
      return out;
    }
    return out === '' ? text : out + text.slice(flushed);
  }

  /** What was held back, at the end of the answer. */
  end(): string {
    const rest = this.carry;
    this.carry = '';
    return rest;
  }
}

/** The insertion on a streamed answer: bytes in, bytes out, UTF-8 kept whole across chunks. */
export class DocTypeInjection extends Transform {
  private readonly decoder = new StringDecoder('utf8');
  private readonly inserter = new DocTypeInserter();

  private readonly slice = new TransformSlice();

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const out = this.inserter.write(this.decoder.write(chunk));
    if (out.length) this.push(Buffer.from(out));
    this.slice.done(done);
  }

  override _flush(done: TransformCallback): void {
    const out = this.inserter.write(this.decoder.end()) + this.inserter.end();
    done(null, out.length ? Buffer.from(out) : undefined);
  }
}

/** The same insertion on an answer read whole. */
export function injectDocType(text: string): string {
  const inserter = new DocTypeInserter();
  return inserter.write(text) + inserter.end();
}
