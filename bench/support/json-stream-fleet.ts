import { ConcatenatedJsonParser } from '../../spec/support/stream-client.js';
import { StreamFleet } from './stream-fleet.js';

/**
 * Many search or declarative streams (`POST …?stream=true` with a body) held open over real
 * HTTP, one socket each, each message parsed (concatenated JSON) and handed over with the time it
 * was received (performance.now(), taken first thing in the socket's data handler).
 *
 * Streams of the same target (path and body) receive the same pushes: a payload whose bytes equal
 * the last one a stream of that target parsed whole (from a message boundary to a message
 * boundary) is handed over as those messages, compared byte for byte instead of parsed again. At
 * 5,000 streams over 100 dashboards, parsing every push cost the bench a whole core (its event loop
 * late by 600 ms at p99), and the bench measured itself; a payload that differs, or starts or ends
 * inside a message, is parsed.
 */
export interface JsonFleetOptions {
  origin: string;
  authorization: string;
  /** Every message after a stream's first one (its initial answer); `stream` is its target's position. */
  onMessage(stream: number, message: Record<string, unknown>, receivedAt: number): void;
}

export interface JsonStreamTarget {
  path: string;
  body: unknown;
}

export class JsonStreamFleet extends StreamFleet<number> {
  constructor(private readonly options: JsonFleetOptions) {
    super(options.origin, options.authorization);
  }

  /** Opens the streams, `concurrency` at a time; resolves once each has its first message or failed. */
  async openAll(targets: JsonStreamTarget[], concurrency: number): Promise<void> {
    /** Per target: the last payload a stream of it parsed whole, and its messages (read-only to `onMessage`). */
    const parsed = new Map<string, { bytes: Buffer; messages: unknown[] }>();
    await StreamFleet.each(targets, concurrency, (target, stream) => {
      const parser = new ConcatenatedJsonParser();
      const body = JSON.stringify(target.body);
      const key = `${target.path}\n${body}`;
      let first = true;
      const messagesOf = (chunk: Buffer): unknown[] => {
        if (!parser.idle) return parser.push(chunk.toString('utf8'));
        const last = parsed.get(key);
        if (last?.bytes.equals(chunk)) return last.messages;
        const messages = parser.push(chunk.toString('utf8'));
        // a copy: `chunk` is the fleet's shared read buffer
        if (parser.idle) parsed.set(key, { bytes: Buffer.from(chunk), messages });
        return messages;
      };
      return this.openOne(stream, { method: 'POST', path: target.path, body }, (chunk, receivedAt) => {
        for (const message of messagesOf(chunk)) {
          if (first) first = false;
          else this.options.onMessage(stream, message as Record<string, unknown>, receivedAt);
        }
        return !first;
      });
    });
  }

  protected opened(): void {}
  protected closed(): void {}
}
