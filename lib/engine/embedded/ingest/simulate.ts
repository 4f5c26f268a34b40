/**
 * The simulate pipeline API (`POST _ingest/pipeline[/{id}]/_simulate`): a stored pipeline, or
 * one given inline (compiled as `_simulate_pipeline`), run over the request's documents without
 * writing anything; `verbose` answers each processor's result.
 */
import { TimeSlice } from '../../../cooperative/index.js';
import { EsError, errorBody } from '../../../errors/index.js';
import { IngestDocument, isMap, type DocumentMetadata, type JsonMap } from './ingest-document.js';
import type { IngestPipelines } from './ingest-pipelines.js';
import { failureError, PipelineRunner, type Pipeline, type ProcessorResult } from './pipeline.js';
import { configError } from './processor-config.js';
import { DROPPED, processorsWarmingUp } from './processor.js';

const SIMULATED_PIPELINE_ID = '_simulate_pipeline';
const DOC_METADATA = ['_index', '_id', '_routing', '_version', '_version_type', '_if_seq_no', '_if_primary_term'];

function parseDocs(body: JsonMap): IngestDocument[] {
  const docs = body.docs;
  if (docs === undefined || docs === null) throw configError(undefined, undefined, 'docs', 'required property is missing');
  if (!Array.isArray(docs)) throw configError(undefined, undefined, 'docs', 'property isn\'t a list');
  if (docs.length === 0) throw new EsError(400, 'illegal_argument_exception', 'must specify at least one document in [docs]');
  return docs.map((d) => {
    if (!isMap(d)) throw new EsError(400, 'illegal_argument_exception', 'malformed [docs] section, should include an inner object');
    if (!isMap(d._source)) throw configError(undefined, undefined, '_source', 'required property is missing');
    const metadata: DocumentMetadata = { _index: d._index === undefined || d._index === null ? '_index' : String(d._index) };
    metadata._id = d._id === undefined || d._id === null ? '_id' : String(d._id);
    if (d._routing !== undefined && d._routing !== null) metadata._routing = String(d._routing);
    metadata._version = d._version === undefined || d._version === null ? -3 : Number(d._version);
    for (const k of DOC_METADATA) if (metadata[k] === undefined && d[k] !== undefined && d[k] !== null) metadata[k] = d[k];
    return new IngestDocument(structuredClone(d._source), metadata);
  });
}

export interface SimulateRequest {
  /** The stored pipeline's id (`/_ingest/pipeline/{id}/_simulate`); else the body's `pipeline`. */
  id?: string;
  body: JsonMap;
  verbose: boolean;
}

export async function simulate(pipelines: IngestPipelines, req: SimulateRequest): Promise<JsonMap> {
  let pipeline: Pipeline | undefined;
  if (req.id !== undefined) {
    pipeline = pipelines.get(req.id);
    if (!pipeline) throw new EsError(400, 'illegal_argument_exception', `pipeline [${req.id}] does not exist`);
  } else {
    if (req.body.pipeline === undefined || req.body.pipeline === null) throw configError(undefined, undefined, 'pipeline', 'required property is missing');
    pipeline = pipelines.compile(SIMULATED_PIPELINE_ID, req.body.pipeline);
  }
  await processorsWarmingUp(); // what compiling the pipeline started (user_agent's patterns)
  const lookup = (id: string) => pipelines.get(id);
  // each document's pipeline in one piece, the event loop given a turn between them once a slice is
  // used: a simulation of thousands of documents held it for minutes
  const slice = new TimeSlice();
  const docs: Array<JsonMap | null> = [];
  for (const doc of parseDocs(req.body)) {
    await slice.pause();
    docs.push(simulateOne(pipeline, doc, lookup, req.verbose));
  }
  return { docs };
}

/** One document through the pipeline: its result, each processor's with `verbose`, null when dropped. */
function simulateOne(pipeline: Pipeline, doc: IngestDocument, lookup: (id: string) => Pipeline | undefined, verbose: boolean): JsonMap | null {
  if (verbose) {
    const trace: ProcessorResult[] = [];
    try {
      new PipelineRunner(lookup, trace).run(pipeline, doc);
    } catch {
      // the failing processor's result already says what went wrong
    }
    return { processor_results: trace };
  }
  try {
    if (new PipelineRunner(lookup).run(pipeline, doc) === DROPPED) return null;
    return { doc: doc.toJson() };
  } catch (e) {
    return { error: errorBody(failureError(e)).error };
  }
}
