/**
 * The `_analyze` API body, as ES's TransportAnalyzeAction reads it:
 * - `analyzer`: a named analyzer (the engine resolves `field` to its analyzer name first);
 * - `tokenizer` (+ `filter`, `char_filter`), each by name or inline definition: a one-off
 *   analyzer (position gap 0 between values);
 * - only `filter` / `char_filter`: a one-off normalizer (keyword tokenizer);
 * - `normalizer`: a named normalizer;
 * - nothing: the `standard` analyzer.
 * `text` is a string or an array; an array's values continue positions (plus the analyzer's
 * position_increment_gap, 100 for named analyzers) and offsets (plus 1).
 */
import { EsError } from '../../../errors/index.js';
import { PipelineAnalyzer } from './analyzer.js';
import { IndexAnalysisRegistry, type ComponentSpec } from './registry.js';
import type { Definition } from './settings.js';
import type { AnalysisRegistry, Token } from './types.js';

export interface AnalyzeRequestBody {
  analyzer?: string;
  tokenizer?: ComponentSpec;
  filter?: ComponentSpec | ComponentSpec[];
  char_filter?: ComponentSpec | ComponentSpec[];
  normalizer?: string;
  text?: string | string[];
  [key: string]: unknown;
}

export interface AnalyzeResponse {
  tokens: Token[];
}

function validationError(reason: string): EsError {
  return new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: ${reason};`);
}

function specList(v: ComponentSpec | ComponentSpec[] | undefined): ComponentSpec[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

function isSpec(v: unknown): v is ComponentSpec {
  return typeof v === 'string' || (typeof v === 'object' && v !== null && !Array.isArray(v));
}

export function analyzeRequest(registry: AnalysisRegistry, body: AnalyzeRequestBody): AnalyzeResponse {
  const texts = body.text === undefined || body.text === null ? [] : Array.isArray(body.text) ? body.text.map(String) : [String(body.text)];
  if (texts.length === 0) throw validationError('text is missing');
  const filters = specList(body.filter);
  const charFilters = specList(body.char_filter);
  if (![body.tokenizer, ...filters, ...charFilters].every((s) => s === undefined || isSpec(s))) {
    throw new EsError(400, 'illegal_argument_exception', 'tokenizer, filter and char_filter must be names or definition objects');
  }
  const extraComponents = body.tokenizer !== undefined || filters.length > 0 || charFilters.length > 0;
  if (body.normalizer !== undefined && (body.tokenizer !== undefined || body.analyzer !== undefined)) {
    throw validationError('tokenizer/analyze should be null if normalizer is specified');
  }
  if (body.analyzer !== undefined && extraComponents) throw validationError('cannot define extra components on a named analyzer');

  let analyzer;
  if (body.analyzer !== undefined) analyzer = registry.analyzer(String(body.analyzer));
  else if (body.normalizer !== undefined) analyzer = registry.normalizer(String(body.normalizer));
  else if (extraComponents) {
    const full = registry instanceof IndexAnalysisRegistry ? registry : new IndexAnalysisRegistry(undefined);
    analyzer = full.buildAnonymous(body.tokenizer as ComponentSpec | undefined, filters, charFilters);
  } else analyzer = registry.analyzer('standard');

  if (analyzer instanceof PipelineAnalyzer) return { tokens: analyzer.analyzeValues(texts) };
  return { tokens: texts.flatMap((t) => analyzer.analyze(t)) };
}

