import { writeSync } from 'node:fs';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { createRequire } from 'node:module';
import type pinoPretty from 'pino-pretty';

import type { LogLevel } from '../config/index.js';

export type { DestinationStream, Logger } from 'pino';

export interface LoggerOptions {
  level: LogLevel;
  /**
   * Where the lines go. Default: stdout — one JSON line per event, written asynchronously (what is
   * pending is flushed when the process exits); human-readable when stdout is a terminal. Tests
   * give a stream of their own, to capture the lines or to drop them.
   */
  destination?: DestinationStream;
}

/**
 * Never logged, whoever hands the logger an object carrying them: a safety net, since nothing in
 * the gateway logs headers or bodies (the access line is built field by field).
 */
const SECRET_PATHS = [
  'authorization', 'cookie', 'password',
  'headers.authorization', 'headers.cookie', 'headers["set-cookie"]',
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["set-cookie"]',
];

/** The process's structured log: one JSON line per event (`level` as a label, `time` in ISO 8601). */
export function createLogger(options: LoggerOptions): Logger {
  const human = options.destination === undefined && process.stdout.isTTY;
  const destination = options.destination
    ?? (human ? (createRequire(import.meta.url)('pino-pretty') as typeof pinoPretty)({ colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }) : bufferedStdout());
  return pino({
    level: options.level,
    timestamp: isoTime,
    redact: { paths: SECRET_PATHS, censor: '[redacted]' },
    // pino-pretty reads pino's numeric levels; a JSON reader is better served by the label
    formatters: human ? {} : { level: (label) => ({ level: label }) },
  }, destination);
}

/**
 * Stdout written in pieces of 64 KB, and at least every second, so a quiet node's lines are not
 * held; what is pending is written when the process exits. sonic-boom does the writing (partial
 * writes, EAGAIN, the exit flush), but it is handed whole pieces, not lines: given a line at a time
 * it measures the UTF-8 length of all it holds on every write, which cost a busy gateway ~3 µs per
 * access line (measured: 7.8 µs a line through sonic-boom, 5.0 µs through this, 3.9 µs to nowhere).
 * Each line is encoded into the piece as it comes, while it is fresh in the cache: a piece of 64 KB
 * joined and encoded at once cost a busy gateway ~1.8 µs per line (loaded), most of it reading
 * back lines built hundreds of requests before.
 */
function bufferedStdout(): DestinationStream {
  const out = pino.destination({ dest: 1, sync: false, contentMode: 'buffer' });
  const lines = new PendingBytes((bytes) => out.write(bytes as unknown as string));
  setInterval(() => {
    try {
      lines.drain();
      out.flush();
    } catch {
      // not ready yet, or closed at exit: the next tick, or the exit flush, writes it
    }
  }, 1000).unref();
  // pino flushes sonic-boom at exit (it registered first); what this holds goes after it
  process.once('exit', () => {
    const bytes = lines.take();
    if (!bytes) return;
    try {
      out.write(bytes as unknown as string);
      out.flushSync();
    } catch {
      try {
        writeSync(1, bytes);
      } catch {
        // stdout is gone: nothing can be written at exit
      }
    }
  });
  return {
    write: (line: string) => lines.add(line),
    flush(cb?: (err?: Error) => void) {
      lines.drain();
      out.flush(cb);
    },
  } as DestinationStream;
}

/** Lines encoded into a piece of PIECE bytes until it is full: then it is handed to the writer. */
class PendingBytes {
  private piece = Buffer.allocUnsafe(PIECE);
  private used = 0;

  constructor(private readonly write: (bytes: Buffer) => void) {}

  add(line: string): void {
    // a UTF-8 character takes at most 3 bytes per UTF-16 unit: a line that might not fit goes in the next piece
    if (this.used + line.length * 3 > PIECE) {
      this.drain();
      if (line.length * 3 > PIECE) return this.write(Buffer.from(line, 'utf8'));
    }
    this.used += this.piece.write(line, this.used, 'utf8');
  }

  /** Hands what is held to the writer. */
  drain(): void {
    const bytes = this.take();
    if (bytes) this.write(bytes);
  }

  /** What is held (a piece of its own: the writer keeps it until written), undefined when nothing. */
  take(): Buffer | undefined {
    if (this.used === 0) return undefined;
    const bytes = this.piece.subarray(0, this.used);
    this.piece = Buffer.allocUnsafe(PIECE);
    this.used = 0;
    return bytes;
  }
}

const PIECE = 64 * 1024;

/**
 * pino's `isoTime`, with the date and time up to the second made once a second, and the whole member
 * once a millisecond (a busy node writes tens of lines in one): every access line has a time, and a
 * Date's ISO string was a tenth of the line's cost.
 */
let second = -1;
let secondPrefix = '';
let millisecond = -1;
let member = '';
function isoTime(): string {
  const now = Date.now();
  if (now === millisecond) return member;
  millisecond = now;
  const s = Math.floor(now / 1000);
  if (s !== second) {
    second = s;
    secondPrefix = `,"time":"${new Date(s * 1000).toISOString().slice(0, 20)}`; // 2026-11-28T21:34:11.
  }
  return (member = `${secondPrefix}${String(now - s * 1000).padStart(3, '0')}Z"`);
}

/** A logger that writes nothing (tests, benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/**
 * The `log: (line) => void` the gateway's modules take (a plain sentence about something that went
 * wrong beside a request: a change feed down, a record not written): a line at `level`, with any
 * credential a message might quote (URL userinfo, an Authorization value) scrubbed first.
 */
export function lineLogger(logger: Logger, level: Level = 'warn'): (line: string) => void {
  return (line) => logger[level](scrubLine(line));
}

const URL_USERINFO = /(\/\/)[^/\s:@]+:[^/\s@]+@/g;
const AUTH_VALUE = /\b(Basic|Bearer|ApiKey)\s+[A-Za-z0-9+/=._~-]+/gi;

export function scrubLine(line: string): string {
  if (!line.includes('@') && !/basic|bearer|apikey/i.test(line)) return line;
  return line.replace(URL_USERINFO, '$1[redacted]@').replace(AUTH_VALUE, '$1 [redacted]');
}
