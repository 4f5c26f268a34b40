/**
 * Analysis: text → tokens, as Elasticsearch's analyzers produce them.
 *
 * - `Token`: one token with offsets, type and position, as `_analyze` returns it.
 * - `Analyzer.analyze(text)`: tokens of one text value; `analyzeValues(texts)` on the analyzers
 *   the registry returns gives the tokens of a multi-valued field (position_increment_gap).
 * - `AnalysisRegistry`: resolves analyzer / normalizer names for one index, from the built-ins and
 *   the index's `settings.index.analysis` (custom analyzers, tokenizers, filters, char filters,
 *   normalizers). `createAnalysisRegistry` throws an EsError (400 illegal_argument_exception)
 *   for an invalid analysis definition, so index creation can refuse it.
 * - `analyzeRequest(registry, body)`: the `_analyze` API body semantics.
 * - `ConfigFiles`: the engine's config directory, which `hyphenation_patterns_path` and
 *   `word_list_path` are read from (nothing outside it is ever read).
 * - `SynonymsSource`: the synonyms sets a registry reads `synonyms_set` rules from; the
 *   registry's `reloadSearchAnalyzers` makes its search analyzers read them again.
 */
import { IndexAnalysisRegistry, type RegistryOptions } from './registry.js';

export type { Token, Analyzer, AnalysisRegistry, IndexTerms } from './types.js';
export type { RegistryOptions, ComponentSpec } from './registry.js';
export { PipelineAnalyzer } from './analyzer.js';
export { analyzeRequest, type AnalyzeRequestBody, type AnalyzeResponse } from './analyze-request.js';
export { foldToAscii } from './filters/ascii-folding.js';
export { splitSynonymRule, type SynonymsSource } from './filters/index.js';
export { ConfigFiles } from './config-files.js';
export { HtmlStripCharFilter } from './char-filters/html-strip.js';

/**
 * The registry for an index's `settings.index.analysis` (may be undefined). `options` carries
 * the index-level limits the definitions are checked against (index.max_ngram_diff,
 * index.max_shingle_diff).
 */
export function createAnalysisRegistry(analysisSettings?: unknown, options?: RegistryOptions): IndexAnalysisRegistry {
  return new IndexAnalysisRegistry(analysisSettings, options);
}

export { IndexAnalysisRegistry };
