/**
 * Pipelines on the write path. `ingestForWrite` decides, for one document about to be written,
 * which pipelines run — the request's `pipeline` (else the target's `index.default_pipeline`),
 * then the target's `index.final_pipeline`; `_none` names none — runs them, and follows a change
 * of `_index` to the new target's pipelines, as Elasticsearch does. Every write path goes through
 * `ingestForWrite`: documents, `_bulk`, `_update_by_query` and `_reindex` (its `dest.pipeline`).
 */
import { exactIntegersOf } from '../../../ndjson/index.js';
import { EsError } from '../../../errors/index.js';
import { isSystemIndex } from '../../index-patterns.js';
import { resolveDateMathName, type Indices, type IndexHandle } from '../indices/index.js';
import { IngestDocument, type DocumentMetadata, type JsonMap } from './ingest-document.js';
import type { IngestPipelines } from './ingest-pipelines.js';
import { failureError, PipelineRunner } from './pipeline.js';
import { DROPPED } from './processor.js';

/** A document as a write path hands it to its pipelines. */
export interface DocumentToIngest {
  index: string;
  /** Undefined for a document whose id is generated after the pipelines ran. */
  id?: string;
  routing?: string;
  source: JsonMap;
  /** The source's text, when the caller has it: integers past 2^53 it holds render exactly in templates. */
  text?: string;
}

export type IngestOutcome =
  | {
    kind: 'document'; index: string; id?: string; routing?: string; source: JsonMap;
    /** The definitions' texts of the pipelines that ran holding integers past 2^53: where the source's exact values may come from. */
    pipelineTexts: string[];
  }
  | { kind: 'dropped' }
  | { kind: 'failed'; error: EsError };

function missingPipeline(id: string): EsError {
  return new EsError(400, 'illegal_argument_exception', `pipeline with id [${id}] does not exist`);
}

function ingestDocumentOf(doc: DocumentToIngest): IngestDocument {
  const metadata: DocumentMetadata = { _index: doc.index };
  if (doc.id !== undefined) metadata._id = doc.id;
  if (doc.routing !== undefined) metadata._routing = doc.routing;
  const ingest = new IngestDocument(doc.source, metadata);
  const exact = exactIntegersOf(doc.text);
  if (exact) ingest.exactIntegers = exact;
  return ingest;
}

function outcomeOf(ingest: IngestDocument, pipelineTexts: string[]): IngestOutcome {
  const m = ingest.metadata;
  return {
    kind: 'document', index: m._index, source: ingest.source, pipelineTexts,
    id: m._id === undefined || m._id === null ? undefined : String(m._id),
    routing: m._routing === undefined || m._routing === null ? undefined : String(m._routing),
  };
}

/** The index a write to `name` reaches without creating anything: the index, the alias's or the data stream's write index. */
function existingTarget(indices: Indices, name: string): IndexHandle | undefined {
  const handle = indices.get(name);
  if (handle) return handle;
  const stream = indices.dataStreams.get(name);
  if (stream) return indices.get(indices.dataStreams.writeIndexOf(stream));
  const targets = indices.aliasTargets(name);
  if (targets.length === 1) return targets[0];
  return targets.find((h) => h.meta.aliases[name]?.is_write_index === true);
}

/**
 * The settings a write to `name` is under: its target's, or — a target the write will create —
 * those the index templates matching the name would give it, as Elasticsearch resolves the
 * pipelines of an index that does not exist yet from its templates.
 */
function targetSettings(indices: Indices, name: string): Readonly<Record<string, unknown>> | undefined {
  const handle = existingTarget(indices, name);
  if (handle) return handle.meta.settings;
  const settings = indices.templates.apply(name, {}).settings;
  return settings !== null && typeof settings === 'object' && !Array.isArray(settings) ? (settings as Record<string, unknown>) : undefined;
}

function setting(settings: Readonly<Record<string, unknown>> | undefined, key: string): string | undefined {
  const v = settings?.[key];
  return typeof v === 'string' && v !== '_none' && v !== '' ? v : undefined;
}

/** Whether a write to `index` with this request pipeline runs any pipeline at all (the fast path asks first). */
export function hasPipelines(indices: Indices, index: string, requestPipeline: string | undefined): boolean {
  if (requestPipeline !== undefined && requestPipeline !== '_none') return true;
  const settings = targetSettings(indices, index);
  return (requestPipeline === undefined && setting(settings, 'index.default_pipeline') !== undefined) || setting(settings, 'index.final_pipeline') !== undefined;
}

/**
 * The pipelines of one write: undefined when none applies (write the document as it is),
 * else the outcome. A missing pipeline, a failing processor, a cycle of `_index` changes, or a
 * final pipeline that changes `_index` fail this document only.
 */
export function ingestForWrite(indices: Indices, pipelines: IngestPipelines, requestPipeline: string | undefined, doc: DocumentToIngest): IngestOutcome | undefined {
  if (!hasPipelines(indices, doc.index, requestPipeline)) return undefined;
  try {
    const ingest = ingestDocumentOf(doc);
    const runner = new PipelineRunner((id) => pipelines.get(id));
    const visited = [doc.index];
    const pipelineTexts: string[] = [];
    const ran = (id: string) => {
      const text = pipelines.exactTextOf(id);
      if (text !== undefined) pipelineTexts.push(text);
    };
    let settings = targetSettings(indices, doc.index);
    let first = requestPipeline === '_none' ? undefined : requestPipeline ?? setting(settings, 'index.default_pipeline');
    for (;;) {
      const index = ingest.metadata._index;
      if (first !== undefined) {
        const pipeline = pipelines.get(first);
        if (!pipeline) throw missingPipeline(first);
        ran(first);
        if (runner.run(pipeline, ingest) === DROPPED) return { kind: 'dropped' };
      }
      // a reroute skips what was left of the target's pipelines, its final pipeline included
      const rerouted = ingest.rerouted;
      ingest.rerouted = false;
      if (ingest.metadata._index !== index) {
        // a new target: its own default and final pipelines run instead
        const next = ingest.metadata._index;
        refuseSystemTarget(next);
        if (visited.includes(next)) {
          throw new EsError(500, 'illegal_state_exception', `index cycle detected while processing pipeline [${first}] for document [${doc.id ?? ''}]: [${[...visited, next].join(', ')}]`);
        }
        visited.push(next);
        settings = targetSettings(indices, next);
        first = setting(settings, 'index.default_pipeline');
        continue;
      }
      const final = rerouted ? undefined : setting(settings, 'index.final_pipeline');
      if (final !== undefined) {
        const pipeline = pipelines.get(final);
        if (!pipeline) throw missingPipeline(final);
        ran(final);
        if (runner.run(pipeline, ingest) === DROPPED) return { kind: 'dropped' };
        if (ingest.metadata._index !== index) throw new EsError(500, 'illegal_state_exception', `final pipeline [${final}] can't change the target index`);
      }
      return outcomeOf(ingest, pipelineTexts);
    }
  } catch (e) {
    return { kind: 'failed', error: failureError(e) };
  }
}

/**
 * A pipeline's new `_index` (a `set`, a script, a `reroute`) that names a system index
 * (`.gateway-*`, `.opensearch-observability`, date math resolving to one): refused for every
 * caller, the admin included, as a request naming it is — a system index is written through the
 * APIs that keep it, never by a document a pipeline sends there.
 */
function refuseSystemTarget(name: string): void {
  if (!isSystemIndex(name) && !(name.startsWith('<') && isSystemIndex(resolveDateMathName(name)))) return;
  throw new EsError(403, 'security_exception', `action [indices:data/write/bulk[s]] is unauthorized: index [${name}] is a system index, reachable only through the APIs that keep it (the gateway's, an engine plugin's); an ingest pipeline may not send a document there`);
}

/** Indices naming `id` as their default or final pipeline (a pipeline in use cannot be deleted). */
export function pipelineUsers(indices: Indices, id: string): { setting: 'default' | 'final'; indices: string[] } | undefined {
  for (const which of ['default', 'final'] as const) {
    const users = indices.all().filter((h) => h.meta.settings[`index.${which}_pipeline`] === id).map((h) => h.name);
    if (users.length) return { setting: which, indices: users };
  }
  return undefined;
}
