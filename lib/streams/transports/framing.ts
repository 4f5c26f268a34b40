/**
 * How stream messages become bytes. A framing only knows messages and heartbeats; it knows
 * nothing about documents, searches or HTTP.
 */
export interface StreamMessage {
  /** The object sent to the client. */
  data: unknown;
  /** A resume token (the change's position), sent as the SSE `id:` line. */
  id?: string;
  /** SSE event name; the default "message" when absent. */
  event?: string;
  /** The first message of a stream (the read response or search result) rather than a change. */
  initial?: boolean;
  /**
   * The live marker: the stream now sees every change (its subscription is active, its initial
   * state sent). No data; SSE writes a `:live` comment, a WebSocket a `{channel, live: true}`
   * frame, concatenated JSON and NDJSON nothing (their response headers are sent only then).
   */
  live?: true;
  /**
   * What the message was last encoded as, kept on the message itself: the streams of one
   * document share each change's message object, so a change is serialized and framed once
   * however many streams send it (`frameBytes`, `chunkBytes`, `messageJson`).
   */
  encoded?: EncodedMessage;
}

/** A message's bytes in one framing (and as one HTTP/1.1 chunk), and its data as JSON. */
export interface EncodedMessage {
  framing?: Framing;
  bytes?: Buffer;
  /** `bytes` as a chunk of the chunked transfer coding: size line, bytes, CRLF. */
  chunk?: Buffer;
  json?: string;
  /** A WebSocket change frame up to its channel (lib/streams/websocket.ts). */
  wsHead?: Buffer;
}

export interface Framing {
  /** What the framing is called in the node's stream counts. */
  readonly name: 'json' | 'ndjson' | 'sse';
  readonly contentType: string;
  /** Bytes sent right after the headers, if any. */
  readonly preamble: string;
  frame(message: StreamMessage): string;
  readonly heartbeat: string;
}

/** Raw JSON objects one after another, no delimiter — the service's historic format. */
export const concatenatedJson: Framing = {
  name: 'json',
  contentType: 'application/json; charset=UTF-8',
  preamble: '',
  frame: (m) => (m.live ? '' : messageJson(m)),
  heartbeat: ' ',
};

/** One JSON object per line. */
export const ndjson: Framing = {
  name: 'ndjson',
  contentType: 'application/x-ndjson; charset=UTF-8',
  preamble: '',
  frame: (m) => (m.live ? '' : messageJson(m) + '\n'),
  heartbeat: '\n',
};

/** Server-sent events, each change with an `id:` usable as Last-Event-ID. */
export const sse: Framing = {
  name: 'sse',
  contentType: 'text/event-stream; charset=UTF-8',
  preamble: ':ok\n\n',
  frame: (m) =>
    m.live ? ':live\n\n' :
    (m.event ? `event: ${m.event}\n` : '') + (m.id !== undefined ? `id: ${m.id}\n` : '') + `data: ${messageJson(m)}\n\n`,
  heartbeat: ':heartbeat\n\n',
};

/** The framing an `Accept` header asks for; concatenated JSON unless SSE or NDJSON is named. */
export function framingFor(accept: string | undefined): Framing {
  const a = (accept ?? '').toLowerCase();
  if (a.includes('text/event-stream')) return sse;
  if (a.includes('application/x-ndjson')) return ndjson;
  return concatenatedJson;
}

/**
 * A message's data as JSON text, serialized once however many WebSocket subscriptions send the
 * same message object (the streams of one document share each change's message).
 */
export function messageJson(message: StreamMessage): string {
  const encoded = (message.encoded ??= {});
  return (encoded.json ??= JSON.stringify(message.data));
}

/**
 * A message's bytes in a framing; undefined when the framing writes nothing for it. Encoded once
 * however many streams send the same message object: the streams of one document share each
 * change's message, a burst of changes is thousands of writes of a few distinct messages.
 */
export function frameBytes(framing: Framing, message: StreamMessage): Buffer | undefined {
  if (message.encoded !== undefined && message.encoded.framing === framing) return message.encoded.bytes;
  const text = framing.frame(message);
  const bytes = text ? Buffer.from(text) : undefined;
  const encoded = message.encoded; // the framing may have kept the data's JSON there
  if (encoded === undefined) message.encoded = { framing, bytes };
  else {
    encoded.framing = framing;
    encoded.bytes = bytes;
    encoded.chunk = undefined;
  }
  return bytes;
}

const CRLF = Buffer.from('\r\n');

/**
 * A message's bytes in a framing as one chunk of HTTP/1.1's chunked transfer coding (size line,
 * bytes, CRLF), built once per message: a stream writes it to its socket in one write.
 */
export function chunkBytes(framing: Framing, message: StreamMessage): Buffer | undefined {
  const bytes = frameBytes(framing, message);
  if (bytes === undefined) return undefined;
  const encoded = message.encoded!;
  return (encoded.chunk ??= Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`, 'latin1'), bytes, CRLF]));
}
