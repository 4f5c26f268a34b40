import { Transform, type TransformCallback } from 'node:stream';

/**
 * Elasticsearch 8 documents and hits carry no `_type`; the gateway's answers do (`"_doc"` in the
 * index-addressed style), as Elasticsearch 7 and the service's own API show them. This inserts it
 * after `_index` in a streamed JSON answer without parsing it: the byte sequence
 * `"_index":"…","_id"` only occurs as structure (quotes inside JSON strings are escaped).
 */
const PATTERN = /("_index":"(?:[^"\\]|\\.){1,255}",)(?="_id")/g;
const OPENING = '{"_index":"';
/** The end of a chunk that may still become `{"_index":"…","_id"` once the next chunk arrives. */
const UNFINISHED = /^\{"_index":"(?:[^"\\]|\\.){0,255}\\?(?:"(?:,(?:"(?:_(?:i(?:d)?)?)?)?)?)?$/;

function mayBecomeMatch(tail: string): boolean {
  return tail.length <= OPENING.length ? OPENING.startsWith(tail) : UNFINISHED.test(tail);
}

export class DocTypeInjection extends Transform {
  private tail = '';

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const text = this.tail + chunk.toString('utf8');
    // hold back only what may be the start of a match cut by the chunk boundary
    const last = text.lastIndexOf('{');
    const hold = last >= 0 && mayBecomeMatch(text.slice(last)) ? last : text.length;
    this.tail = text.slice(hold);
    done(null, text.slice(0, hold).replace(PATTERN, '$1"_type":"_doc",'));
  }

  override _flush(done: TransformCallback): void {
    done(null, this.tail.replace(PATTERN, '$1"_type":"_doc",'));
  }
}

/** The same insertion on an answer read whole. */
export function injectDocType(text: string): string {
  return text.replace(PATTERN, '$1"_type":"_doc",');
}
