/**
 * What a processor is once its configuration has been read: a step that changes an
 * IngestDocument in place (or drops it), plus what Elasticsearch keeps around every processor —
 * `tag`, `description`, the `if` condition, `ignore_failure` and `on_failure` — which the
 * pipeline runner applies (pipeline.ts), so each processor only does its own work.
 */
import type { IngestDocument } from './ingest-document.js';
import type { StoredScripts } from '../painless/index.js';
import type { ConfigReader } from './processor-config.js';

/** What `drop` (or a nested pipeline that dropped) answers: the document is not indexed. */
export const DROPPED = Symbol('dropped');

/** What a running processor may need beyond its document: the other pipelines, and the trace of a verbose simulation. */
export interface ExecutionContext {
  /** Runs the stored pipeline `name` on the document (the `pipeline` processor). */
  runPipeline(name: string, doc: IngestDocument, ignoreMissing: boolean): typeof DROPPED | void;
  /** Runs a list of processors as one step (foreach's inner processor). */
  runProcessors(processors: readonly Processor[], doc: IngestDocument): typeof DROPPED | void;
}

export interface Condition {
  source: string;
  test(doc: IngestDocument): boolean;
}

export interface Processor {
  readonly type: string;
  readonly tag?: string;
  readonly description?: string;
  readonly condition?: Condition;
  readonly ignoreFailure: boolean;
  readonly onFailure?: readonly Processor[];
  execute(doc: IngestDocument, ctx: ExecutionContext): typeof DROPPED | void;
}

/** The body of a processor: what its factory builds from its own options. */
export type ProcessorBody = (doc: IngestDocument, ctx: ExecutionContext) => typeof DROPPED | void;

/** Reads a processor's own options (the reader refuses what is left) and returns its body. */
export type ProcessorFactory = (config: ConfigReader, env: FactoryEnvironment) => ProcessorBody;

/** What a factory may need besides its options. */
export interface FactoryEnvironment {
  /** Compiles one nested processor configuration (foreach's `processor`). */
  compileProcessor(config: unknown, property: string): Processor;
  /** Stored scripts, for `script` and `if` given by id. */
  storedScripts: StoredScripts;
  /** Whether OpenSearch's own processors are served (the engine speaks its dialect). */
  openSearch?: boolean;
}

/**
 * Work a processor's factory started in the background so its documents need not do it in their
 * turn (user_agent compiling uap-core's patterns): the write routes await it before they run
 * pipelines, so a document that comes while it runs waits for it instead of doing it synchronously.
 */
const warmUps = new Set<Promise<void>>();

export function warmingUp(work: Promise<void>): void {
  const settled = work.catch(() => undefined).finally(() => warmUps.delete(settled));
  warmUps.add(settled);
}

/** What is still warming up, or undefined (nothing to wait for: no extra turn of the loop). */
export function processorsWarmingUp(): Promise<unknown> | undefined {
  return warmUps.size ? Promise.all(warmUps) : undefined;
}
