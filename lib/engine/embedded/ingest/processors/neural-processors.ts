/**
 * The neural-search plugin's ingest processors that embed text with an ML model: `text_embedding`
 * (dense vectors) and `sparse_encoding` (token weights), each reading `model_id`, `field_map`
 * (source field → target field) and `batch_size`. This engine hosts no ML models, so a pipeline
 * holding one is stored as OpenSearch stores it, and a document with a mapped field fails as a
 * missing model fails OpenSearch's inference; a document with none of them passes unchanged, as
 * the plugin leaves it.
 */
import { EsError } from '../../../../errors/index.js';
import { isMap } from '../ingest-document.js';
import type { ConfigReader } from '../processor-config.js';
import type { ProcessorFactory } from '../processor.js';

const embedding: ProcessorFactory = (config) => {
  const model = config.requiredString('model_id');
  const fields = fieldMapOf(config);
  const batch = config.take('batch_size');
  if (batch !== undefined && (typeof batch !== 'number' || !Number.isInteger(batch) || batch < 1)) throw config.error('batch_size', 'batch_size must be a positive integer');
  return (doc) => {
    if (!Object.keys(fields).some((f) => doc.has(f))) return;
    throw new EsError(404, 'status_exception', `Failed to find model ${model}`);
  };
};

function fieldMapOf(config: ConfigReader): Record<string, unknown> {
  const map = config.optionalMap('field_map');
  if (map === undefined) throw config.error('field_map', 'required property is missing');
  if (!Object.keys(map).length || Object.values(map).some((v) => v === null || (typeof v !== 'string' && !isMap(v)))) {
    throw config.error('field_map', 'Unable to create the processor as field_map has invalid key or value');
  }
  return map;
}

export const textEmbedding = embedding;
export const sparseEncoding = embedding;
