/**
 * ml-commons' `ml_inference` search processors (2.16+): a request processor that rewrites the
 * query from a model's prediction on values read by `input_map` (paths into the request body), a
 * response processor that adds a model's prediction on hit fields by `output_map`. Their options
 * are read as ml-commons reads them, so a pipeline holding one is stored as OpenSearch stores it.
 * This engine hosts no ML models: a search the processor would predict for fails as a missing
 * model fails OpenSearch's (unless `ignore_failure`), and one with no input to read passes
 * unchanged under `ignore_missing`, as ml-commons leaves it.
 */
import { EsError } from '../../../errors/index.js';
import { isMap, type ConfigReader, type JsonMap } from '../ingest/index.js';
import type { Compile, RequestProcessor, ResponseProcessor } from './search-pipeline.js';

interface MlInferenceOptions {
  model: string;
  ignoreMissing: boolean;
  /** Each input map's values: where the model's inputs are read. */
  inputs: string[];
}

function readOptions(c: ConfigReader, own: readonly string[]): MlInferenceOptions {
  const model = c.requiredString('model_id');
  const functionName = c.optionalString('function_name', 'remote')!;
  if (!FUNCTION_NAMES.has(functionName.toLowerCase())) throw c.error('function_name', `Wrong function name: ${functionName}`);
  c.boolean('full_response_path', false);
  const ignoreMissing = c.boolean('ignore_missing', false);
  const tasks = c.take('max_prediction_tasks');
  if (tasks !== undefined && (typeof tasks !== 'number' || !Number.isInteger(tasks) || tasks < 1)) throw c.error('max_prediction_tasks', 'max_prediction_tasks must be a positive integer');
  c.optionalMap('model_config');
  c.optionalString('model_input');
  for (const option of own) c.take(option);
  const inputMaps = mapList(c, 'input_map');
  const outputMaps = mapList(c, 'output_map');
  if (inputMaps.length && outputMaps.length && inputMaps.length !== outputMaps.length) {
    throw c.error('input_map', 'when output_maps and input_maps are provided, their size need to match');
  }
  return { model, ignoreMissing, inputs: inputMaps.flatMap((m) => Object.values(m).map(String)) };
}

/** The model functions ml-commons knows (FunctionName); `remote` is the default. */
const FUNCTION_NAMES = new Set(['remote', 'text_embedding', 'sparse_encoding', 'sparse_tokenize', 'text_similarity', 'question_answering', 'linear_regression', 'kmeans']);

function mapList(c: ConfigReader, name: string): JsonMap[] {
  const list = c.optionalList(name);
  if (list === undefined) return [];
  if (!list.every(isMap)) throw c.error(name, `${name} must be a list of maps`);
  return list as JsonMap[];
}

const missingModel = (model: string) => new EsError(404, 'status_exception', `Failed to find model ${model}`);

/** The value at a dotted path of a JSON object (undefined when any step is missing). */
function at(value: unknown, path: string): unknown {
  let v = value;
  for (const step of path.split('.')) v = isMap(v) ? v[step] : undefined;
  return v;
}

export const mlInferenceRequest: Compile<RequestProcessor> = (c) => {
  const { model, ignoreMissing, inputs } = readOptions(c, ['query_template']);
  return (ignoreFailure) => ({
    kind: 'request', type: 'ml_inference', ignoreFailure,
    run(body) {
      if (ignoreMissing && inputs.some((path) => at(body, path.replace(/^\$\./, '')) === undefined)) return body;
      throw missingModel(model);
    },
  });
};

export const mlInferenceResponse: Compile<ResponseProcessor> = (c) => {
  const { model, ignoreMissing, inputs } = readOptions(c, ['override', 'one_to_one']);
  return (ignoreFailure) => ({
    kind: 'response', type: 'ml_inference', ignoreFailure,
    run(answer) {
      const hits = isMap(answer.hits) && Array.isArray(answer.hits.hits) ? answer.hits.hits.filter(isMap) : [];
      const read = hits.some((hit) => inputs.every((field) => at(hit._source, field) !== undefined));
      if (!hits.length || (ignoreMissing && !read)) return answer;
      throw missingModel(model);
    },
  });
};
