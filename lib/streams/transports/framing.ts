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
  frame: (m) => (m.live ? '' : JSON.stringify(m.data)),
  heartbeat: ' ',
};

/** One JSON object per line. */
export const ndjson: Framing = {
  name: 'ndjson',
  contentType: 'application/x-ndjson; charset=UTF-8',
  preamble: '',
  frame: (m) => (m.live ? '' : JSON.stringify(m.data) + '\n'),
  heartbeat: '\n',
};

/** Server-sent events, each change with an `id:` usable as Last-Event-ID. */
export const sse: Framing = {
  name: 'sse',
  contentType: 'text/event-stream; charset=UTF-8',
  preamble: ':ok\n\n',
  frame: (m) =>
    m.live ? ':live\n\n' :
    (m.event ? `event: ${m.event}\n` : '') + (m.id !== undefined ? `id: ${m.id}\n` : '') + `data: ${JSON.stringify(m.data)}\n\n`,
  heartbeat: ':heartbeat\n\n',
};

/** The framing an `Accept` header asks for; concatenated JSON unless SSE or NDJSON is named. */
export function framingFor(accept: string | undefined): Framing {
  const a = (accept ?? '').toLowerCase();
  if (a.includes('text/event-stream')) return sse;
  if (a.includes('application/x-ndjson')) return ndjson;
  return concatenatedJson;
}

/** Each message's data as JSON, once. */
const texts = new WeakMap<StreamMessage, string>();

/**
 * A message's data as JSON text, serialized once however many WebSocket subscriptions send the
 * same message object (the streams of one document share each change's message). HTTP framings
 * need no such cache: `frameBytes` keeps their whole frame.
 */
export function messageJson(message: StreamMessage): string {
  let text = texts.get(message);
  if (text === undefined) texts.set(message, (text = JSON.stringify(message.data)));
  return text;
}

/** The last framing each message was encoded in, and its bytes. */
const encoded = new WeakMap<StreamMessage, { framing: Framing; bytes: Buffer }>();

/**
 * A message's bytes in a framing; undefined when the framing writes nothing for it. Encoded once
 * however many streams send the same message object: the streams of one document share each
 * change's message, a burst of changes is thousands of writes of a few distinct messages.
 */
export function frameBytes(framing: Framing, message: StreamMessage): Buffer | undefined {
  const hit = encoded.get(message);
  if (hit !== undefined && hit.framing === framing) return hit.bytes;
  const text = framing.frame(message);
  if (!text) return undefined;
  const bytes = Buffer.from(text);
  encoded.set(message, { framing, bytes });
  return bytes;
}
