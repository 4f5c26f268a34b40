/**
 * A pipeline: its definition read and its processors compiled once (pipeline-definition errors
 * are ES's `parse_exception`s), and the runner that applies them to a document with
 * Elasticsearch's semantics — `if` conditions, `ignore_failure`, `on_failure` at processor and
 * pipeline level (with `_ingest.on_failure_message`, `_processor_type`, `_processor_tag` and
 * `_pipeline`), `drop`, nested pipelines with cycle detection — and, for a verbose simulation,
 * a result per processor run.
 */
import { EsError, errorBody, toEsError } from '../../../errors/index.js';
import type { StoredScripts } from '../painless/index.js';
import { deepCopy, isMap, type IngestDocument, type JsonMap } from './ingest-document.js';
import { ConfigReader, configError } from './processor-config.js';
import { OPENSEARCH_PROCESSOR_FACTORIES, PROCESSOR_FACTORIES } from './processor-registry.js';
import { DROPPED, type ExecutionContext, type FactoryEnvironment, type Processor } from './processor.js';
import { readCondition } from './scripts.js';

export interface Pipeline {
  readonly id: string;
  readonly description?: string;
  readonly version?: number;
  readonly processors: readonly Processor[];
  readonly onFailure?: readonly Processor[];
}

const PIPELINE_KEYS = new Set(['description', 'processors', 'on_failure', 'version', '_meta', 'deprecated']);
/** ES's limit on nested `pipeline` processors. */
const MAX_NESTED_PIPELINES = 100;

/** Compiles a pipeline definition (the body of PUT _ingest/pipeline/{id}, or simulate's `pipeline`). */
/** `openSearch`: OpenSearch's own processors are served too (the engine speaks its dialect). */
export function compilePipeline(id: string, definition: unknown, storedScripts: StoredScripts, openSearch = false): Pipeline {
  if (!isMap(definition)) throw configError(undefined, undefined, undefined, 'pipeline definition must be an object');
  const unknown = Object.keys(definition).filter((k) => !PIPELINE_KEYS.has(k));
  if (unknown.length) throw configError(undefined, undefined, undefined, `pipeline [${id}] doesn't support one or more provided configuration parameters [${unknown.join(', ')}]`);
  if (definition.processors === undefined || definition.processors === null) throw configError(undefined, undefined, 'processors', 'required property is missing');
  if (!Array.isArray(definition.processors)) throw configError(undefined, undefined, 'processors', `property isn't a list, but of type [${typeof definition.processors}]`);
  if (definition.description !== undefined && definition.description !== null && typeof definition.description !== 'string') {
    throw configError(undefined, undefined, 'description', 'property isn\'t a string');
  }
  if (definition.version !== undefined && definition.version !== null && !Number.isInteger(Number(definition.version))) {
    throw configError(undefined, undefined, 'version', 'property isn\'t an int');
  }
  if (definition._meta !== undefined && definition._meta !== null && !isMap(definition._meta)) {
    throw configError(undefined, undefined, '_meta', 'property isn\'t a map');
  }
  const env: FactoryEnvironment = {
    storedScripts,
    openSearch,
    compileProcessor: (config, property) => {
      if (!isMap(config) || Object.keys(config).length !== 1) throw configError(undefined, undefined, property, 'property isn\'t a map with one processor');
      return compileProcessor(config, env);
    },
  };
  const processors = compileList(definition.processors, env, 'processors');
  let onFailure: Processor[] | undefined;
  if (definition.on_failure !== undefined && definition.on_failure !== null) {
    onFailure = compileList(definition.on_failure, env, 'on_failure');
    if (onFailure.length === 0) throw configError(undefined, undefined, 'on_failure', 'pipeline on_failure processors list cannot be empty');
  }
  return {
    id,
    description: typeof definition.description === 'string' ? definition.description : undefined,
    version: definition.version === undefined || definition.version === null ? undefined : Number(definition.version),
    processors,
    onFailure,
  };
}

function compileList(list: unknown, env: FactoryEnvironment, property: string): Processor[] {
  if (!Array.isArray(list)) throw configError(undefined, undefined, property, 'property isn\'t a list');
  return list.map((entry) => {
    if (!isMap(entry)) throw configError(undefined, undefined, property, 'property isn\'t a list of maps');
    return compileProcessor(entry, env);
  });
}

/** One `{type: {options}}` entry → a processor; its options are taken from a copy, so the stored definition stays as sent. */
function compileProcessor(entry: JsonMap, env: FactoryEnvironment): Processor {
  const entries = Object.entries(entry);
  if (entries.length !== 1) throw configError(undefined, undefined, undefined, 'processor definition must name exactly one processor type');
  const [type, rawOptions] = entries[0];
  // `script` may be given as its source alone: {"script": "ctx.x = 1"}
  const options = typeof rawOptions === 'string' && type === 'script' ? { source: rawOptions } : rawOptions;
  if (!isMap(options)) throw configError(type, undefined, undefined, `[${type}] processor configuration must be an object`);
  const copy = deepCopy(options);
  const tagValue = copy.tag;
  const tag = tagValue === undefined || tagValue === null ? undefined : String(tagValue);
  const config = new ConfigReader(type, tag, copy);
  config.take('tag');
  const description = config.optionalString('description');
  const factory = PROCESSOR_FACTORIES[type] ?? (env.openSearch ? OPENSEARCH_PROCESSOR_FACTORIES[type] : undefined);
  if (!factory) throw configError(type, tag, undefined, `No processor type exists with name [${type}]`);
  const condition = readCondition(config, env.storedScripts);
  const ignoreFailure = config.boolean('ignore_failure', false);
  const onFailureConfig = config.take('on_failure');
  let onFailure: Processor[] | undefined;
  if (onFailureConfig !== undefined) {
    onFailure = compileList(onFailureConfig, env, 'on_failure');
    if (onFailure.length === 0) throw configError(type, tag, 'on_failure', 'processors list cannot be empty');
  }
  const execute = factory(config, env);
  config.finish();
  return { type, tag, description, condition, ignoreFailure, onFailure, execute };
}

/** A processor's failure on its way up: the error, and which processor (innermost) in which pipeline raised it. */
export class ProcessorFailure extends Error {
  constructor(
    readonly error: EsError,
    readonly processorType: string,
    readonly processorTag: string | undefined,
    readonly pipelines: string[],
  ) {
    super(error.reason);
  }
}

/** What a failure looks like from outside the pipeline: the processor's own error. */
export function failureError(e: unknown): EsError {
  return e instanceof ProcessorFailure ? e.error : toEsError(e);
}

/** One processor's entry in a verbose simulation (`processor_results`). */
export type ProcessorResult = JsonMap;

function errorOf(e: EsError): JsonMap {
  return errorBody(e).error as JsonMap;
}

/**
 * Runs pipelines on documents. `lookup` finds stored pipelines (for `pipeline` processors);
 * `trace`, when given, receives a result per processor run (simulate's `verbose`).
 */
export class PipelineRunner implements ExecutionContext {
  constructor(
    private readonly lookup: (id: string) => Pipeline | undefined,
    private readonly trace?: ProcessorResult[],
  ) {}

  /** Runs `pipeline` on `doc`; DROPPED when a `drop` ran; throws ProcessorFailure. */
  run(pipeline: Pipeline, doc: IngestDocument): typeof DROPPED | void {
    if (doc.pipelineStack.includes(pipeline.id)) {
      throw new EsError(500, 'graph_structure_exception', `Cycle detected for pipeline: ${pipeline.id}`);
    }
    if (doc.pipelineStack.length >= MAX_NESTED_PIPELINES) {
      throw new EsError(500, 'graph_structure_exception', `Too many nested pipelines. Cannot have more than ${MAX_NESTED_PIPELINES} nested pipelines`);
    }
    const previous = doc.ingest.pipeline;
    doc.pipelineStack.push(pipeline.id);
    doc.ingest.pipeline = pipeline.id;
    try {
      try {
        return this.runProcessors(pipeline.processors, doc);
      } catch (e) {
        if (!pipeline.onFailure || !(e instanceof ProcessorFailure)) throw e;
        return this.onFailure(pipeline.onFailure, e, doc);
      }
    } finally {
      // terminate ends the pipeline it ran in, never the one that called it (TerminateProcessor)
      doc.terminated = false;
      doc.pipelineStack.pop();
      if (previous === undefined) delete doc.ingest.pipeline;
      else doc.ingest.pipeline = previous;
    }
  }

  runPipeline(name: string, doc: IngestDocument, ignoreMissing: boolean): typeof DROPPED | void {
    const pipeline = this.lookup(name);
    if (!pipeline) {
      if (ignoreMissing) return;
      throw new EsError(400, 'illegal_argument_exception', `Pipeline processor configured for non-existent pipeline [${name}]`);
    }
    return this.run(pipeline, doc);
  }

  runProcessors(processors: readonly Processor[], doc: IngestDocument): typeof DROPPED | void {
    for (const p of processors) {
      if (this.runOne(p, doc) === DROPPED) return DROPPED;
      if (doc.terminated || doc.rerouted) return;
    }
  }

  private record(p: Processor, status: string, extra: JsonMap = {}, ifResult?: boolean): void {
    if (!this.trace) return;
    const r: ProcessorResult = { processor_type: p.type, status };
    if (p.description !== undefined) r.description = p.description;
    if (p.tag !== undefined) r.tag = p.tag;
    if (p.condition && ifResult !== undefined) r.if = { condition: p.condition.source, result: ifResult };
    this.trace.push(Object.assign(r, extra));
  }

  private runOne(p: Processor, doc: IngestDocument): typeof DROPPED | void {
    let ifResult: boolean | undefined;
    try {
      if (p.condition) {
        ifResult = p.condition.test(doc);
        if (!ifResult) {
          this.record(p, 'skipped', {}, false);
          return;
        }
      }
      // a nested pipeline's own entry comes before those of its processors, and carries no document
      if (p.type === 'pipeline') this.record(p, 'success', {}, ifResult);
      doc.budget.run(p.type);
      const outcome = p.execute(doc, this);
      if (p.type === 'pipeline') return outcome;
      if (outcome === DROPPED) {
        this.record(p, 'dropped', {}, ifResult);
        return DROPPED;
      }
      // the document is copied for the verbose trace only (simulate), never on the write path
      if (this.trace) this.record(p, 'success', { doc: doc.toJson() }, ifResult);
    } catch (e) {
      const failure = this.asFailure(e, p, doc);
      if (p.ignoreFailure) {
        if (this.trace) this.record(p, 'error_ignored', { ignored_error: { error: errorOf(failure.error) }, doc: doc.toJson() }, ifResult);
        return;
      }
      this.record(p, 'error', { error: errorOf(failure.error) }, ifResult);
      if (!p.onFailure) throw failure;
      return this.onFailure(p.onFailure, failure, doc);
    }
  }

  private asFailure(e: unknown, p: Processor, doc: IngestDocument): ProcessorFailure {
    if (e instanceof ProcessorFailure) return e;
    return new ProcessorFailure(toEsError(e), p.type, p.tag, [...doc.pipelineStack].reverse());
  }

  /** Runs `handlers` with the failure described under `_ingest`, then takes the description away again. */
  private onFailure(handlers: readonly Processor[], failure: ProcessorFailure, doc: IngestDocument): typeof DROPPED | void {
    const keys = ['on_failure_message', 'on_failure_processor_type', 'on_failure_processor_tag', 'on_failure_pipeline'];
    const previous = keys.map((k) => doc.ingest[k]);
    doc.ingest.on_failure_message = failure.error.reason;
    doc.ingest.on_failure_processor_type = failure.processorType;
    doc.ingest.on_failure_processor_tag = failure.processorTag ?? null;
    if (failure.pipelines.length > 1) doc.ingest.on_failure_pipeline = failure.pipelines[0];
    try {
      return this.runProcessors(handlers, doc);
    } finally {
      keys.forEach((k, i) => {
        if (previous[i] === undefined) delete doc.ingest[k];
        else doc.ingest[k] = previous[i];
      });
    }
  }
}
