import type { JsonObject } from '../indices/index.js';
import { fillPlaceholders } from './placeholders.js';

/**
 * The Flow Framework plugin's use cases (`use_case=` on create): named templates with default
 * parameters a create body may override (only keys a use case knows are taken) and parameters it
 * must give. Written here as data: each use case's steps, and its defaults, as OpenSearch's
 * workflow-templates reference lists them. `${{key}}` in a step's inputs is the parameter `key`.
 */
export interface UseCase {
  readonly name: string;
  readonly description: string;
  readonly required: readonly string[];
  readonly defaults: Readonly<Record<string, string>>;
  readonly nodes: readonly JsonObject[];
}

const p = (key: string): string => `\${{${key}}}`;

/** The steps that bring a remote model up: a connector, the model registered on it, the model deployed. */
function remoteModel(extra: Record<string, unknown> = {}): JsonObject[] {
  return [
    {
      id: 'create_connector', type: 'create_connector',
      user_inputs: {
        name: p('create_connector.name'), description: p('create_connector.description'), version: '1',
        protocol: p('create_connector.protocol'),
        parameters: { endpoint: p('create_connector.endpoint'), model: p('create_connector.model'), ...extra },
        credential: { key: p('create_connector.credential.key') },
        actions: [{ action_type: p('create_connector.actions.action_type'), method: p('create_connector.actions.method'), url: p('create_connector.actions.url') }],
      },
    },
    { id: 'register_model', type: 'register_remote_model', previous_node_inputs: { create_connector: 'connector_id' }, user_inputs: { name: p('register_remote_model.name'), description: p('register_remote_model.description') } },
    { id: 'deploy_model', type: 'deploy_model', previous_node_inputs: { register_model: 'model_id' } },
  ];
}

/** An ingest pipeline embedding a text field, and an index using it (its model: a parameter, or the deployed one). */
function embeddingIndex(modelFrom?: string): JsonObject[] {
  const pipeline: JsonObject = {
    id: 'create_ingest_pipeline', type: 'create_ingest_pipeline',
    user_inputs: {
      pipeline_id: p('create_ingest_pipeline.pipeline_id'),
      configurations: {
        description: p('create_ingest_pipeline.description'),
        processors: [{ text_embedding: { model_id: modelFrom ? `\${{${modelFrom}.model_id}}` : p('create_ingest_pipeline.model_id'), field_map: { [p('text_embedding.field_map.input')]: p('text_embedding.field_map.output') } } }],
      },
    },
    ...(modelFrom ? { previous_node_inputs: { [modelFrom]: 'model_id' } } : {}),
  };
  const index: JsonObject = {
    id: 'create_index', type: 'create_index', previous_node_inputs: { create_ingest_pipeline: 'pipeline_id' },
    user_inputs: {
      index_name: p('create_index.name'),
      configurations: {
        settings: { 'index.knn': true, default_pipeline: '${{create_ingest_pipeline.pipeline_id}}' },
        mappings: { properties: { [p('text_embedding.field_map.output')]: { type: 'knn_vector', dimension: p('text_embedding.field_map.output.dimension') }, [p('text_embedding.field_map.input')]: { type: 'text' } } },
      },
    },
  };
  return [pipeline, index];
}

/** A search pipeline whose request processors set the default model of neural queries. */
function queryEnricher(modelFrom?: string): JsonObject {
  return {
    id: 'create_search_pipeline', type: 'create_search_pipeline',
    user_inputs: {
      pipeline_id: p('create_search_pipeline.pipeline_id'),
      configurations: { request_processors: [{ neural_query_enricher: { default_model_id: modelFrom ? `\${{${modelFrom}.model_id}}` : p('create_ingest_pipeline.model_id') } }] },
    },
    ...(modelFrom ? { previous_node_inputs: { [modelFrom]: 'model_id' } } : {}),
  };
}

const COHERE_EMBEDDING = {
  'create_connector.name': 'cohere-embedding-connector', 'create_connector.description': 'The connector to Cohere\'s public embed API',
  'create_connector.protocol': 'http', 'create_connector.endpoint': 'api.cohere.ai', 'create_connector.model': 'embed-english-v3.0',
  'create_connector.actions.url': 'https://api.cohere.ai/v1/embed', 'create_connector.actions.action_type': 'predict', 'create_connector.actions.method': 'POST',
  'create_connector.credential.key': '123', 'register_remote_model.name': 'Cohere english embed model', 'register_remote_model.description': 'cohere-embedding-model',
};
const OPENAI_EMBEDDING = {
  'create_connector.name': 'OpenAI-embedding-connector', 'create_connector.description': 'Connector to public OpenAI model',
  'create_connector.protocol': 'http', 'create_connector.endpoint': 'api.openai.com', 'create_connector.model': 'text-embedding-ada-002',
  'create_connector.actions.url': 'https://api.openai.com/v1/embeddings', 'create_connector.actions.action_type': 'predict', 'create_connector.actions.method': 'POST',
  'create_connector.credential.key': '123', 'register_remote_model.name': 'OpenAI embedding model', 'register_remote_model.description': 'openai-embedding-model',
};
const BEDROCK_TITAN = {
  'create_connector.name': 'Amazon Bedrock Connector: embedding', 'create_connector.description': 'The connector to Bedrock Titan embedding model',
  'create_connector.protocol': 'aws_sigv4', 'create_connector.endpoint': 'bedrock-runtime.us-east-1.amazonaws.com', 'create_connector.model': 'amazon.titan-embed-text-v1',
  'create_connector.actions.url': 'https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.titan-embed-text-v1/invoke', 'create_connector.actions.action_type': 'predict', 'create_connector.actions.method': 'POST',
  'create_connector.credential.key': '', 'register_remote_model.name': 'Bedrock embedding model', 'register_remote_model.description': 'bedrock-embedding-model',
};
const CHAT = (model: string, endpoint: string, url: string) => ({
  'create_connector.name': `${model} chat connector`, 'create_connector.description': `The connector to ${model}`,
  'create_connector.protocol': 'http', 'create_connector.endpoint': endpoint, 'create_connector.model': model,
  'create_connector.actions.url': url, 'create_connector.actions.action_type': 'predict', 'create_connector.actions.method': 'POST',
  'create_connector.credential.key': '123', 'register_remote_model.name': `${model} chat model`, 'register_remote_model.description': `${model} chat model`,
});
const INDEX = {
  'create_ingest_pipeline.pipeline_id': 'nlp-ingest-pipeline', 'create_ingest_pipeline.description': 'A text embedding pipeline',
  'create_ingest_pipeline.model_id': '123', 'text_embedding.field_map.input': 'passage_text', 'text_embedding.field_map.output': 'passage_embedding',
  'text_embedding.field_map.output.dimension': '1024', 'create_index.name': 'my-nlp-index',
};
const ENRICHER = { 'create_search_pipeline.pipeline_id': 'default_model_pipeline' };
const AWS_KEYS = ['create_connector.credential.access_key', 'create_connector.credential.secret_key', 'create_connector.credential.session_token'];
const KEY = ['create_connector.credential.key'];
const MODEL_ID = ['create_ingest_pipeline.model_id'];

const USE_CASES: readonly UseCase[] = [
  { name: 'open_ai_embedding_model_deploy', description: 'Deploys OpenAI\'s embedding model', required: KEY, defaults: OPENAI_EMBEDDING, nodes: remoteModel() },
  { name: 'cohere_embedding_model_deploy', description: 'Deploys Cohere\'s embedding model', required: KEY, defaults: COHERE_EMBEDDING, nodes: remoteModel({ input_type: 'search_document', truncate: 'END' }) },
  { name: 'bedrock_titan_embedding_model_deploy', description: 'Deploys Amazon Bedrock Titan\'s embedding model', required: AWS_KEYS, defaults: BEDROCK_TITAN, nodes: remoteModel() },
  { name: 'bedrock_titan_multimodal_model_deploy', description: 'Deploys Amazon Bedrock Titan\'s multimodal embedding model', required: AWS_KEYS, defaults: { ...BEDROCK_TITAN, 'create_connector.model': 'amazon.titan-embed-image-v1' }, nodes: remoteModel() },
  { name: 'cohere_chat_model_deploy', description: 'Deploys Cohere\'s chat model', required: KEY, defaults: CHAT('command', 'api.cohere.ai', 'https://api.cohere.ai/v1/chat'), nodes: remoteModel() },
  { name: 'openai_chat_model_deploy', description: 'Deploys OpenAI\'s chat model', required: KEY, defaults: CHAT('gpt-3.5-turbo', 'api.openai.com', 'https://api.openai.com/v1/chat/completions'), nodes: remoteModel() },
  {
    name: 'local_neural_sparse_search_bi_encoder', description: 'Deploys a local sparse encoding model, its ingest pipeline and index', required: [],
    defaults: { ...INDEX, 'register_local_sparse_encoding_model.name': 'amazon/neural-sparse/opensearch-neural-sparse-encoding-v1', 'register_local_sparse_encoding_model.version': '1.0.1', 'register_local_sparse_encoding_model.model_format': 'TORCH_SCRIPT', 'create_ingest_pipeline.pipeline_id': 'nlp-ingest-pipeline-sparse', 'text_embedding.field_map.output': 'passage_tokens' },
    nodes: [
      { id: 'register_local_sparse_encoding_model', type: 'register_local_sparse_encoding_model', user_inputs: { name: p('register_local_sparse_encoding_model.name'), version: p('register_local_sparse_encoding_model.version'), model_format: p('register_local_sparse_encoding_model.model_format'), deploy: true } },
      ...embeddingIndex('register_local_sparse_encoding_model'),
    ],
  },
  { name: 'semantic_search', description: 'An ingest pipeline embedding a text field with a deployed model, and an index using it', required: MODEL_ID, defaults: INDEX, nodes: embeddingIndex() },
  { name: 'multimodal_search', description: 'An ingest pipeline embedding text and images with a deployed model, and an index using it', required: MODEL_ID, defaults: { ...INDEX, 'text_embedding.field_map.output.dimension': '1024', 'create_ingest_pipeline.pipeline_id': 'nlp-multimodal-ingest-pipeline', 'create_index.name': 'my-multimodal-nlp-index' }, nodes: embeddingIndex() },
  { name: 'multimodal_search_with_bedrock_titan', description: 'Deploys Amazon Bedrock Titan\'s multimodal model, an ingest pipeline and an index using it', required: AWS_KEYS, defaults: { ...BEDROCK_TITAN, ...INDEX, 'create_connector.model': 'amazon.titan-embed-image-v1', 'create_index.name': 'my-multimodal-nlp-index' }, nodes: [...remoteModel(), ...embeddingIndex('deploy_model')] },
  { name: 'semantic_search_with_query_enricher', description: 'Semantic search\'s pipeline and index, and a search pipeline setting the model of neural queries', required: MODEL_ID, defaults: { ...INDEX, ...ENRICHER }, nodes: [...embeddingIndex(), queryEnricher()] },
  { name: 'semantic_search_with_cohere_embedding', description: 'Deploys Cohere\'s embedding model, an ingest pipeline and an index using it', required: KEY, defaults: { ...COHERE_EMBEDDING, ...INDEX }, nodes: [...remoteModel({ input_type: 'search_document', truncate: 'END' }), ...embeddingIndex('deploy_model')] },
  { name: 'semantic_search_with_cohere_embedding_query_enricher', description: 'Deploys Cohere\'s embedding model, an ingest pipeline and an index using it, and a search pipeline setting the model of neural queries', required: KEY, defaults: { ...COHERE_EMBEDDING, ...INDEX, ...ENRICHER }, nodes: [...remoteModel({ input_type: 'search_document', truncate: 'END' }), ...embeddingIndex('deploy_model'), queryEnricher('deploy_model')] },
  {
    name: 'hybrid_search', description: 'Semantic search\'s pipeline and index, and a search pipeline normalizing and combining hybrid query scores', required: MODEL_ID,
    defaults: { ...INDEX, 'create_search_pipeline.pipeline_id': 'nlp-search-pipeline', 'normalization-processor.normalization.technique': 'min_max', 'normalization-processor.combination.technique': 'arithmetic_mean' },
    nodes: [...embeddingIndex(), {
      id: 'create_search_pipeline', type: 'create_search_pipeline',
      user_inputs: { pipeline_id: p('create_search_pipeline.pipeline_id'), configurations: { phase_results_processors: [{ 'normalization-processor': { normalization: { technique: p('normalization-processor.normalization.technique') }, combination: { technique: p('normalization-processor.combination.technique') } } }] } },
    }],
  },
  {
    name: 'conversational_search_with_llm_deploy', description: 'Deploys a chat model and a search pipeline answering with it (retrieval-augmented generation)', required: KEY,
    defaults: { ...CHAT('command', 'api.cohere.ai', 'https://api.cohere.ai/v1/chat'), 'create_search_pipeline.pipeline_id': 'rag-pipeline', 'create_search_pipeline.retrieval_augmented_generation.context_field_list': '["text"]' },
    nodes: [...remoteModel(), {
      id: 'create_search_pipeline', type: 'create_search_pipeline', previous_node_inputs: { deploy_model: 'model_id' },
      user_inputs: { pipeline_id: p('create_search_pipeline.pipeline_id'), configurations: { response_processors: [{ retrieval_augmented_generation: { model_id: '${{deploy_model.model_id}}', context_field_list: p('create_search_pipeline.retrieval_augmented_generation.context_field_list') } }] } },
    }],
  },
];

export function useCase(name: string): UseCase | undefined {
  return USE_CASES.find((u) => u.name === name);
}

/** A use case's template, its parameters filled in (defaults overridden by the keys the body gives that the use case knows). */
export function useCaseTemplate(u: UseCase, given: Record<string, string>): JsonObject {
  const values = { ...u.defaults };
  for (const [key, value] of Object.entries(given)) if (Object.hasOwn(values, key) || u.required.includes(key)) values[key] = value;
  return {
    name: u.name, description: u.description, use_case: u.name.toUpperCase(),
    version: { template: '1.0.0', compatibility: ['2.12.0', '3.0.0'] },
    workflows: { provision: { nodes: fillPlaceholders(u.nodes, (key) => (Object.hasOwn(values, key) ? values[key] : undefined)) as JsonObject[] } },
  };
}
