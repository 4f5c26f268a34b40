import v8 from 'node:v8';
import { Transform, type Readable } from 'node:stream';
import { IncomingMessage } from 'node:http';
import { holdBodyBack } from '../connections/index.js';
import { EsError } from '../errors/index.js';

/**
 * The memory limits, as Elasticsearch's circuit breakers have them: bytes (a share of the heap by
 * default, as Elasticsearch's percentages of the JVM heap).
 */
export interface BreakerLimits {
  /** network.breaker.inflight_requests.limit: request bodies being read or held (default 100% of the heap). */
  inFlightBytes: number;
  /** indices.breaker.request.limit: what one request's own work reserves (default 60% of the heap). */
  requestBytes: number;
  /** indices.breaker.total.limit: the parent, against real usage (heap and off-heap buffers) plus the new reservation (default 95%). */
  totalBytes: number;
  /**
   * HTTP_LARGE_BODY_RATE: the bytes a second the node reads of large request bodies (past
   * LARGE_BODY_BYTES each), all of them together; 0 reads them as fast as they come (BodyPace).
   */
  largeBodyBytesPerSecond: number;
}

/** A request body is large, and the rest of it read at the node's pace (HTTP_LARGE_BODY_RATE), past this many bytes. */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** What the large bodies read together may take at once ahead of the pace: this long of it (ms). */
const PACE_BURST_MS = 50;

/**
 * The pace at which the node reads large request bodies, all of them together (a token bucket).
 * Every byte of a body read into the process costs the event loop its decoding and parsing, and
 * the heap its garbage: one client sending 20 MB searches back to back kept the loop ~90% busy and
 * started a full collection every 1.6 s, and others' `GET /` p99 went from 4 to 70-85 ms. Read at
 * 100 MB/s at most, the same load left it at 29-36 ms (bench:isolation). A paced body waits in
 * the kernel's socket buffers (TCP pushes back on its client), not in memory; its reader marks it
 * held back (holdBodyBack), so the slow-body watch does not count that wait against the client.
 * Readers that wait together are served in the order they came: each is told to wait until the
 * bytes read before its own have had their time.
 */
export class BodyPace {
  private readonly bytesPerMs: number;
  private readonly burst: number;
  /** Bytes that may be read now without waiting (negative: owed by the readers waiting). */
  private credit: number;
  private at = performance.now();

  constructor(bytesPerSecond: number) {
    this.bytesPerMs = bytesPerSecond / 1000;
    this.burst = this.bytesPerMs * PACE_BURST_MS;
    this.credit = this.burst;
  }

  /** How long (ms) the reader of `bytes` more of a large body waits before it reads on: 0 within the pace. */
  wait(bytes: number): number {
    const now = performance.now();
    this.credit = Math.min(this.burst, this.credit + (now - this.at) * this.bytesPerMs) - bytes;
    this.at = now;
    return this.credit >= 0 ? 0 : -this.credit / this.bytesPerMs;
  }
}

/** The heap as V8 has it (Elasticsearch's limits are shares of the JVM heap; ours of V8's). */
export const heapLimit = (): number => v8.getHeapStatistics().heap_size_limit;

/** A byte count as Elasticsearch's ByteSizeValue prints it: `1234/1.2kb`. */
export function byteSize(bytes: number): string {
  const units: Array<[string, number]> = [['pb', 1024 ** 5], ['tb', 1024 ** 4], ['gb', 1024 ** 3], ['mb', 1024 ** 2], ['kb', 1024]];
  for (const [unit, size] of units) {
    if (bytes >= size) return `${bytes}/${format1(bytes / size)}${unit}`;
  }
  return `${bytes}/${bytes}b`;
}

function format1(n: number): string {
  const s = n.toFixed(1);
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

type BreakerName = 'request' | 'in_flight_requests';

/**
 * The node's circuit breakers: reservations are counted per breaker, and each is checked against
 * its own limit and against the parent's (real memory in use plus the reservation), so a request
 * that would take the heap near its limit is answered 429 `circuit_breaking_exception` instead of
 * being read further. Contract: every successful `reserve` is matched by one `release` of the same
 * bytes (the `Reservation` does it once, whatever ends the request).
 */
export class CircuitBreakers {
  private readonly used: Record<BreakerName, number> = { request: 0, in_flight_requests: 0 };
  private trips = 0;

  /** Real memory as last read, when, and the bytes reserved since (see `realNow`). */
  private real = { bytes: 0, at: -Infinity, reservedSince: 0 };

  /** The pace of large bodies' reading; undefined when they are read as they come. */
  readonly bodyPace: BodyPace | undefined;

  constructor(private readonly limits: BreakerLimits, private readonly realUsage: () => number = defaultRealUsage) {
    this.bodyPace = limits.largeBodyBytesPerSecond > 0 ? new BodyPace(limits.largeBodyBytesPerSecond) : undefined;
  }

  /**
   * Real memory in use: read at most once a REAL_USAGE_MS (V8's heap statistics cost ~10-20 µs a
   * read, and 12,000 clients trickling their bodies a byte at a time make thousands of reservations
   * a second), plus what was reserved since the read, which is what it would have grown by.
   */
  private realNow(): number {
    const now = performance.now();
    if (now - this.real.at >= REAL_USAGE_MS) this.real = { bytes: this.realUsage(), at: now, reservedSince: 0 };
    return this.real.bytes + this.real.reservedSince;
  }

  /** Bytes reserved now, per breaker, and how often one tripped. */
  stats(): { request: number; in_flight_requests: number; tripped: number } {
    return { ...this.used, tripped: this.trips };
  }

  /** Reserves `bytes` on `breaker` for `label` (`<http_request>`, a search's…), or throws 429. */
  reserve(breaker: BreakerName, bytes: number, label: string): void {
    const limit = breaker === 'request' ? this.limits.requestBytes : this.limits.inFlightBytes;
    const wanted = this.used[breaker] + bytes;
    if (wanted > limit) {
      this.trips++;
      throw new EsError(429, 'circuit_breaking_exception',
        `[${breaker}] Data too large, data for [${label}] would be [${byteSize(wanted)}], which is larger than the limit of [${byteSize(limit)}]`,
        { bytes_wanted: wanted, bytes_limit: limit, durability: 'TRANSIENT' });
    }
    const real = this.realNow();
    if (real + bytes > this.limits.totalBytes) {
      this.trips++;
      throw new EsError(429, 'circuit_breaking_exception',
        `[parent] Data too large, data for [${label}] would be [${byteSize(real + bytes)}], which is larger than the limit of [${byteSize(this.limits.totalBytes)}], ` +
          `real usage: [${byteSize(real)}], new bytes reserved: [${byteSize(bytes)}], usages [request=${byteSize(this.used.request)}, fielddata=0/0b, ` +
          `in_flight_requests=${byteSize(this.used.in_flight_requests)}, model_inference=0/0b, eql_sequence=0/0b, accounting=0/0b]`,
        { bytes_wanted: real + bytes, bytes_limit: this.limits.totalBytes, durability: 'TRANSIENT' });
    }
    this.used[breaker] = wanted;
    this.real.reservedSince += bytes;
  }

  release(breaker: BreakerName, bytes: number): void {
    this.used[breaker] = Math.max(0, this.used[breaker] - bytes);
  }

  /** A reservation that grows as a request's body arrives and is released once, when `release()` is called. */
  reservation(breaker: BreakerName, label: string): Reservation {
    return new Reservation(this, breaker, label);
  }

  /**
   * `body` counted against the in-flight breaker as it flows (released when `done` fires): a body
   * the breaker refuses fails the stream with the 429, so the reader answers it.
   */
  countedBody(body: Readable, done: (release: () => void) => void, label = '<http_request>'): Readable {
    const held = this.reservation('in_flight_requests', label);
    done(() => held.release());
    const counter = new Transform({
      transform(chunk: Buffer, _enc, next) {
        let wait: number;
        try {
          wait = held.read(chunk.length, body);
        } catch (err) {
          return next(err as Error);
        }
        if (wait > 0) setTimeout(() => next(null, chunk), wait);
        else next(null, chunk);
      },
    });
    body.on('error', (err) => counter.destroy(err));
    return body.pipe(counter);
  }
}

export class Reservation {
  private bytes = 0;
  private released = false;
  /** Every byte read from here on is paced, not only those past LARGE_BODY_BYTES (`paceAll`). */
  private pacedAll = false;

  constructor(private readonly breakers: CircuitBreakers, private readonly breaker: BreakerName, private readonly label: string) {}

  add(bytes: number): void {
    if (this.released) return;
    this.breakers.reserve(this.breaker, bytes, this.label);
    this.bytes += bytes;
  }

  /**
   * `add` for `bytes` more of a request body, and how long (ms) its reader waits before it reads on:
   * past LARGE_BODY_BYTES, the body is read at the node's pace (BodyPace); 0 before that, or unpaced.
   * `req` (the body's request) is marked held back for the wait (holdBodyBack).
   */
  read(bytes: number, req: Readable): number {
    this.add(bytes);
    const pace = this.breakers.bodyPace;
    const paced = this.pacedAll ? bytes : Math.min(bytes, this.bytes - LARGE_BODY_BYTES);
    const wait = pace && paced > 0 ? pace.wait(paced) : 0;
    // the slow-body watch learns that the server, not the client, holds the body back
    if (wait > 0 && req instanceof IncomingMessage) holdBodyBack(req, wait);
    return wait;
  }

  /**
   * The rest of the body is read only to be dropped (its request refused part way, its answer due
   * on a connection that can carry the next one): all of it at the node's pace, its first megabyte
   * too. A client sending such bodies back to back is then held to the pace for every byte the
   * node reads of them, which is all their cost here.
   */
  paceAll(): void {
    this.pacedAll = true;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.breakers.release(this.breaker, this.bytes);
    this.bytes = 0;
  }
}

/** How long a reading of real memory in use stands for it (ms). */
const REAL_USAGE_MS = 5;

/** Real memory in use: V8's heap and the buffers outside it (request bodies are Buffers). */
function defaultRealUsage(): number {
  const h = v8.getHeapStatistics() as v8.HeapInfo & { external_memory?: number };
  return h.used_heap_size + (h.external_memory ?? 0);
}
