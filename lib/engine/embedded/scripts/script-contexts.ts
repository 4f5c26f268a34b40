import { EsError } from '../../../errors/index.js';

/**
 * The script contexts Elasticsearch 8.15 knows (`GET _script_context` on a default node), by
 * name: `PUT _scripts/{id}/{context}` refuses any other. The embedded engine runs Mustache in the
 * template contexts and Painless (lib/engine/embedded/painless) in PAINLESS_CONTEXTS.
 */
export const SCRIPT_CONTEXTS = new Set([
  'aggregation_selector', 'aggs', 'aggs_combine', 'aggs_init', 'aggs_map', 'aggs_reduce', 'analysis', 'boolean_field',
  'bucket_aggregation', 'composite_field', 'date_field', 'double_field', 'field', 'filter', 'geo_point_field', 'geometry_field',
  'ingest', 'ingest_template', 'interval', 'ip_field', 'keyword_field', 'long_field', 'moving-function', 'number_sort',
  'painless_test', 'processor_conditional', 'reindex', 'score', 'script_heuristic', 'similarity', 'similarity_weight',
  'string_sort', 'template', 'terms_set', 'update', 'update_by_query', 'watcher_condition', 'watcher_transform', 'xpack_template',
]);

/** The contexts a Mustache template compiles in. */
export const TEMPLATE_CONTEXTS = new Set(['template', 'ingest_template']);

/** The contexts the embedded engine runs Painless in (updates, searches, runtime fields, pipeline aggregations, `_execute`). */
export const PAINLESS_CONTEXTS = new Set([
  'aggregation_selector', 'analysis', 'boolean_field', 'bucket_aggregation', 'date_field', 'double_field', 'field', 'filter',
  'geo_point_field', 'ip_field', 'keyword_field', 'long_field', 'number_sort', 'painless_test', 'score', 'string_sort', 'terms_set',
  'update', 'update_by_query',
]);

/** `GET _script_context`: the contexts this engine can run scripts in, as Elasticsearch describes them. */
export function scriptContexts(): { contexts: Array<{ name: string; methods: Array<{ name: string; return_type: string; params: unknown[] }> }> } {
  const names = [...new Set([...TEMPLATE_CONTEXTS, ...PAINLESS_CONTEXTS])].sort();
  return { contexts: names.map((name) => ({ name, methods: [{ name: 'execute', return_type: TEMPLATE_CONTEXTS.has(name) ? 'java.lang.String' : 'java.lang.Object', params: [] }] })) };
}

/** `GET _script_language`: the script types allowed, and the languages this engine runs with their contexts. */
export function scriptLanguages(): { types_allowed: string[]; language_contexts: Array<{ language: string; contexts: string[] }> } {
  return {
    types_allowed: ['inline', 'stored'],
    language_contexts: [
      { language: 'mustache', contexts: [...TEMPLATE_CONTEXTS].sort() },
      { language: 'painless', contexts: [...PAINLESS_CONTEXTS].sort() },
    ],
  };
}

/**
 * `GET _scripts/painless/_context`: the names of the contexts Painless runs in (sorted), or with
 * `context` that context's API as PainlessContextInfo lays it out. The engine's Painless keeps no
 * Java whitelist to describe, so the lists are empty; a context it does not run is refused as
 * Elasticsearch refuses an unknown one.
 */
export function painlessContexts(context: string | undefined): Record<string, unknown> {
  if (context === undefined) return { contexts: [...PAINLESS_CONTEXTS].sort() };
  if (!PAINLESS_CONTEXTS.has(context)) throw new EsError(400, 'illegal_argument_exception', `script context [${context}] not found`);
  return { name: context, classes: [], imported_methods: [], class_bindings: [], instance_bindings: [] };
}
