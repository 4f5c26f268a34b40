import type { Readable } from 'node:stream';
import { jsonPieces } from '../cooperative/index.js';
import { redactJsonText } from './redact.js';

/** A body as a log keeps it: its first bytes as text, secrets redacted, and whether it was cut. */
export interface CapturedBody {
  text: string;
  truncated: boolean;
}

/**
 * The first `max` bytes of a request body that flows past, seen without taking part: the step
 * that reads the body (the classifier, a route, the thin path's pipe to the engine) reads it as it
 * would have. The tap listens to `data`, which every way of reading emits; the stream is paused
 * first, so that its listener does not start the flow before that step is ready to read.
 */
export class BodyTap {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private seen = 0;
  private readonly onData = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.seen += buf.length;
    if (this.kept >= this.max) return;
    const part = buf.length > this.max - this.kept ? buf.subarray(0, this.max - this.kept) : buf;
    this.chunks.push(Buffer.from(part)); // a copy: the reader may reuse its buffer
    this.kept += part.length;
  };

  constructor(private readonly source: Readable, private readonly max: number) {
    if (source.readableFlowing === null) source.pause();
    source.on('data', this.onData);
  }

  /** What was seen; the tap stops listening. `connectors`: see redactJsonText. */
  take(connectors = false): CapturedBody {
    this.source.off('data', this.onData);
    return captured(Buffer.concat(this.chunks, this.kept), this.max, this.seen, connectors);
  }
}

/**
 * A body held whole (a Buffer, a string, a value a route answered with) as a log keeps it; a
 * stream is `[stream]` (it went to the client as it was read), a compressed body `[gzip]`.
 * `connectors`: the body is one of an API that carries ML Commons connectors (see redactJsonText).
 */
export function captureBody(body: unknown, max: number, contentEncoding?: string, connectors = false): CapturedBody | undefined {
  if (body === undefined || body === null) return undefined;
  if (contentEncoding && contentEncoding !== 'identity') return { text: `[${contentEncoding}]`, truncated: false };
  if (Buffer.isBuffer(body)) return captured(body.length > max ? body.subarray(0, max) : body, max, body.length, connectors);
  if (typeof body === 'string') {
    // a string of at most max/4 characters is at most max bytes: no need to encode it to know
    if (body.length * 4 <= max) return { text: redactJsonText(body, connectors), truncated: false };
    // its first max bytes are within its first max characters: only those are encoded (a 20 MB
    // answer was encoded whole to keep 100 KB of it); more characters than max are more bytes
    const bytes = Buffer.from(body.length > max ? body.slice(0, max) : body);
    return captured(bytes.length > max ? bytes.subarray(0, max) : bytes, max, Math.max(body.length, bytes.length), connectors);
  }
  if (typeof (body as Readable).pipe === 'function') return { text: '[stream]', truncated: false };
  try {
    // written only as far as the log keeps it: a value answered whole is not made one string first
    let text: string | undefined;
    for (const piece of jsonPieces(body)) {
      text = (text ?? '') + piece;
      if (text.length > max) break;
    }
    return text === undefined ? undefined : captureBody(text, max, undefined, connectors);
  } catch {
    return undefined;
  }
}

/** The first bytes of a body (at most `max`, of `size`) → text, a character the cut split dropped. */
function captured(bytes: Buffer, max: number, size: number, connectors: boolean): CapturedBody {
  const truncated = size > max;
  let text = bytes.toString('utf8');
  if (truncated && text.endsWith('\ufffd')) text = text.slice(0, -1);
  return { text: redactJsonText(text, connectors), truncated };
}
