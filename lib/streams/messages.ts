import type { ChangeEvent, DocumentChange } from '../changes/index.js';
import { errorBody, toEsError, EsError } from '../errors/index.js';
import type { StreamMessage } from './transports/index.js';

/** The live marker (StreamMessage.live): every change from now on reaches the stream. One object, sent by every stream. */
export const LIVE: StreamMessage = { data: undefined, live: true };

/** `{_type,_id,_source}` for a document that is (still) there. */
export function changedMessage(change: DocumentChange, type: string, source: unknown, updated?: boolean): StreamMessage {
  const data: Record<string, unknown> = { _type: type, _id: change.id, _source: source };
  if (updated) data._updated = true;
  return { data, id: change.position };
}

/** `{_type,_id,_deleted:true}` for a document that is gone (or left a search). */
export function deletedMessage(change: DocumentChange, type: string): StreamMessage {
  return { data: { _type: type, _id: change.id, _deleted: true }, id: change.position };
}

/** The final message of a stream whose index was deleted or closed. */
export function indexEndedMessage(event: ChangeEvent): StreamMessage {
  const err =
    event.kind === 'index' && event.op === 'close'
      ? new EsError(400, 'index_closed_exception', `index [${event.index}] was closed; the stream ends`, { index: event.index })
      : new EsError(404, 'index_not_found_exception', `index [${event.index}] was deleted; the stream ends`, { index: event.index });
  return { data: errorBody(err), id: event.position, event: 'error' };
}

/** The final message of a stream that failed (history gone, bus down…). */
export function errorMessage(err: unknown): StreamMessage {
  return { data: errorBody(toEsError(err)), event: 'error' };
}

/**
 * A discontinuity (`historyGone`): the changes after the client's position can no longer be
 * replayed, or some may have been lost on their way. The client drops what it holds; the stream
 * then sends the current state again (unless it streams changes only) and goes on live from it.
 * Its id is empty: until that state, the client has no position worth resuming from — an SSE
 * client (a browser's EventSource too) then reconnects without Last-Event-ID, i.e. afresh.
 */
export function resetMessage(err: Error): StreamMessage {
  return { data: { _reset: true, reason: err.message }, event: 'reset', id: '' };
}

export function overflowMessage(): StreamMessage {
  return {
    data: errorBody(new EsError(429, 'stream_buffer_overflow_exception', 'the client reads the stream too slowly: its buffer is full and the stream ends; reconnect with the last event id to resume')),
    event: 'error',
  };
}

export function timeLimitMessage(maxMs: number): StreamMessage {
  return { data: { _stream_end: true, reason: `the stream reached its maximum duration of ${maxMs} ms; reconnect to continue` }, event: 'end' };
}

/** The final message of every open stream when its gateway node shuts down. */
export function shutdownMessage(): StreamMessage {
  return { data: { _stream_end: true, reason: 'the gateway is shutting down; reconnect to continue' }, event: 'end' };
}

/** The final message of a stream whose credential changed or was deleted: it reconnects, and is authorized again. */
export function credentialChangedMessage(): StreamMessage {
  return { data: { _stream_end: true, reason: 'the credential that opened the stream changed or was deleted; reconnect to continue' }, event: 'end' };
}
