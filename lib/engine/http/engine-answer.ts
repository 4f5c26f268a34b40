import { Readable } from 'node:stream';
import { errors as undiciErrors, util as undiciUtil, type Dispatcher } from 'undici';

/** Answers whose declared length is at most this are collected whole: a Buffer, no stream. */
export const WHOLE_ANSWER_BYTES = 256 * 1024;

/** The engine's answer as the HTTP backend hands it on (its headers as undici parses them). */
export interface EngineAnswerHead {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The whole body (an answer of a declared length up to WHOLE_ANSWER_BYTES, or to a HEAD), else a stream of it. */
  body: Buffer | Readable;
}

/**
 * One call to the engine, as an undici dispatch handler (its documented `onConnect` … `onError`
 * interface, the one undici's own `request` implements). An answer that declares a small length
 * (nearly every one: a document, a small search) is collected into one Buffer as its chunks
 * arrive and handed on once complete — no Readable, no stream state, no `data`/`end` listeners
 * and the event-loop ticks a stream's end takes, which every proxied GET paid twice (undici's
 * body stream, then reading it whole). Any other answer (chunked, or larger) streams as undici's
 * `request` streams it: backpressure pauses the socket, and a stream destroyed before its end
 * aborts the call.
 */
export class EngineAnswer implements Dispatcher.DispatchHandler {
  private abort: ((err?: Error) => void) | undefined;
  private reason: Error | undefined;
  private removeAbortListener: (() => void) | undefined;
  /** The head and chunks of an answer collected whole; undefined once settled or when it streams. */
  private collected: { statusCode: number; headers: EngineAnswerHead['headers']; chunks: Buffer[]; size: number } | undefined;
  private stream: AnswerStream | undefined;
  private settled = false;

  constructor(
    private readonly method: string,
    /** The request's body: a stream of it is destroyed when the call fails, as undici's `request` does. */
    private requestBody: Readable | Buffer | string | null,
    private readonly resolve: (answer: EngineAnswerHead) => void,
    private readonly reject: (err: Error) => void,
    signal?: AbortSignal,
  ) {
    if (signal?.aborted) this.reason = abortReason(signal);
    else if (signal) {
      const onAbort = () => {
        this.reason = abortReason(signal);
        if (this.stream) this.stream.destroy(this.reason);
        else this.abort?.(this.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.removeAbortListener = () => signal.removeEventListener('abort', onAbort);
    }
  }

  onConnect(abort: (err?: Error) => void): void {
    if (this.reason) return abort(this.reason);
    this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true; // 1xx: the answer is still to come
    const headers = undiciUtil.parseHeaders(rawHeaders) as EngineAnswerHead['headers'];
    const length = headers['content-length'];
    if (this.method === 'HEAD' || (typeof length === 'string' && Number(length) <= WHOLE_ANSWER_BYTES)) {
      this.collected = { statusCode, headers, chunks: [], size: 0 };
      return true;
    }
    const stream = new AnswerStream(resume, this.abort!);
    this.stream = stream;
    if (this.removeAbortListener) {
      stream.once('close', this.removeAbortListener);
      this.removeAbortListener = undefined;
    }
    this.settled = true;
    this.resolve({ statusCode, headers, body: stream });
    return true;
  }

  onData(chunk: Buffer): boolean {
    const collected = this.collected;
    if (collected) {
      collected.chunks.push(chunk);
      collected.size += chunk.length;
      return true;
    }
    return this.stream!.push(chunk);
  }

  onComplete(): void {
    const collected = this.collected;
    if (!collected) return void this.stream!.push(null);
    this.collected = undefined;
    this.requestBody = null;
    this.settled = true;
    this.removeAbortListener?.();
    const { chunks, size } = collected;
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
    this.resolve({ statusCode: collected.statusCode, headers: collected.headers, body });
  }

  onError(err: Error): void {
    this.collected = undefined;
    const sent = this.requestBody;
    this.requestBody = null;
    if (sent instanceof Readable) {
      sent.on('error', () => {});
      sent.destroy(err);
    }
    this.removeAbortListener?.();
    this.removeAbortListener = undefined;
    if (!this.settled) {
      this.settled = true;
      this.reject(err);
      return;
    }
    // the answer's stream fails once what was queued before the error has been handled
    const stream = this.stream;
    if (stream) queueMicrotask(() => stream.destroy(err));
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new undiciErrors.RequestAbortedError();
}

/** A streamed answer's body: reading resumes the socket; destroyed before its end, it aborts the call. */
class AnswerStream extends Readable {
  constructor(private readonly resumeSocket: () => void, private readonly abortCall: (err?: Error) => void) {
    super({ autoDestroy: true });
  }

  override _read(): void {
    this.resumeSocket();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    const cut = err ?? (this.readableEnded ? null : new undiciErrors.RequestAbortedError());
    if (cut) this.abortCall(cut);
    // destroyed before anyone listens for its error (in the tick it was handed on): the error is
    // emitted a turn later, once its reader has had the chance to listen (as undici's own body does)
    if (cut && this.listenerCount('error') === 0) setImmediate(callback, cut);
    else callback(cut);
  }
}
