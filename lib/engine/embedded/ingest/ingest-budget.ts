/**
 * What one document may cost its pipelines. Elasticsearch bounds a document's ingest by its
 * request (size, nested pipelines) and grok by a watchdog; in one process, a processor that
 * expands data (split, gsub, grok, json, append…) or a pipeline that fans out can take the whole
 * node with one document. So each document carries a budget: the bytes its processors may
 * produce, and the processors it may run. Past either, the processor fails like any processor
 * (400 illegal_argument_exception, so `on_failure` and `ignore_failure` apply), before the
 * memory or time is spent. Retrying the same document fails the same way, hence not a 429.
 */
import { EsError } from '../../../errors/index.js';

/** Bytes (UTF-16 units, about bytes) processors may produce for one document. */
export const MAX_INGEST_BYTES_PER_DOCUMENT = 32 * 1024 * 1024;
/** What one produced list element or map entry costs beyond its own contents. */
export const INGEST_ELEMENT_BYTES = 16;
/**
 * What one replacement costs beyond its text (gsub): the match's groups, the replacement and the
 * concatenation it feeds. Charging it bounds the replacements of one document (32,768 under the
 * byte limit), and so the time its gsub processors hold the event loop, which they do in one
 * piece: a match costs ~0.5–1 µs with its garbage, and at 64 bytes a replacement an amplifying
 * gsub chain did ~500,000 of them (275 ms) before it was refused.
 */
export const INGEST_REPLACEMENT_BYTES = 1024;
/** Processor runs per document: bounds nested pipeline fan-out, and foreach over foreach. */
export const MAX_PROCESSOR_RUNS_PER_DOCUMENT = 100_000;

export class IngestBudget {
  private bytes = 0;
  private runs = 0;

  constructor(
    readonly maxBytes = MAX_INGEST_BYTES_PER_DOCUMENT,
    readonly maxRuns = MAX_PROCESSOR_RUNS_PER_DOCUMENT,
  ) {}

  /** Bytes still free. */
  remaining(): number {
    return this.maxBytes - this.bytes;
  }

  /** Takes `bytes` for `processor`'s output; refused (nothing taken) past the budget. */
  charge(processor: string, bytes: number): void {
    if (this.bytes + bytes > this.maxBytes) throw this.exceeded(processor, this.bytes + bytes);
    this.bytes += bytes;
  }

  /** The refusal for `processor` wanting the document's bytes to reach `wanted`. */
  exceeded(processor: string, wanted: number): EsError {
    return new EsError(400, 'illegal_argument_exception',
      `[${processor}] processor would take the document's ingest output to [${wanted}] bytes, more than the limit of [${this.maxBytes}] bytes for one document`);
  }

  /** Counts one processor run. */
  run(processor: string): void {
    if (++this.runs > this.maxRuns) {
      throw new EsError(400, 'illegal_argument_exception',
        `[${processor}] processor would be the document's processor run [${this.runs}], more than the limit of [${this.maxRuns}] processor runs for one document (nested pipelines and foreach multiply runs)`);
    }
  }
}

/** What a JSON-like value costs the budget: strings by length, lists and maps by element. */
export function ingestBytes(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 8;
  let n = 0;
  if (Array.isArray(value)) for (const v of value) n += INGEST_ELEMENT_BYTES + ingestBytes(v);
  else for (const [k, v] of Object.entries(value)) n += INGEST_ELEMENT_BYTES + k.length + ingestBytes(v);
  return n;
}
