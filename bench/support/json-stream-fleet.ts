import { ConcatenatedJsonParser } from '../../spec/support/stream-client.js';
import { StreamFleet } from './stream-fleet.js';

/**
 * Many search or declarative streams (`POST …?stream=true` with a body) held open over real
 * HTTP, one socket each, each message parsed (concatenated JSON) and handed over with the time it
 * was received (performance.now(), taken first thing in the socket's data handler).
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
    await StreamFleet.each(targets, concurrency, (target, stream) => {
      const parser = new ConcatenatedJsonParser();
      let first = true;
      return this.openOne(stream, { method: 'POST', path: target.path, body: JSON.stringify(target.body) }, (chunk, receivedAt) => {
        for (const message of parser.push(chunk.toString('utf8'))) {
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
