/**
 * The `combined_fields` query (Elasticsearch's CombinedFieldsQueryBuilder over Lucene's
 * CombinedFieldQuery, BM25F): the text is analyzed once, with the search analyzer every field
 * shares, and each position becomes one `combined_term` clause that scores its terms as if the
 * fields were one (term frequencies and field lengths summed with the field weights), combined by
 * the operator.
 */
import { EsError } from '../../../../errors/index.js';
import type { AnalysisRegistry, Token } from '../../analysis/index.js';
import { fieldType, resolveFieldMapping, type FieldMapping, type Mappings } from '../../mapping/index.js';
import { positionGroups } from './analyzed-query.js';
import { boostOf, checkFields, inField, isObject, requiredFields, unsupportedValue } from './query-fields.js';
import type { Query } from './query.js';

export interface CombinedFieldsOptions {
  operator: 'or' | 'and';
  minimumShouldMatch?: string | number;
  zeroTermsQuery: 'none' | 'all';
  autoGenerateSynonymsPhraseQuery: boolean;
}

const TEXT_TYPES = new Set(['text', 'match_only_text', 'search_as_you_type']);

function illegal(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

/** `"title^2"` → title with weight 2 (the weight must not be below 1). */
function fieldWeight(spec: string): { pattern: string; weight: number } {
  const caret = spec.lastIndexOf('^');
  if (caret <= 0) return { pattern: spec, weight: 1 };
  const weight = Math.fround(Number(spec.slice(caret + 1)));
  if (!Number.isFinite(weight)) throw illegal(`failed to parse field boost [${spec.slice(caret + 1)}]`);
  return { pattern: spec.slice(0, caret), weight };
}

export function parseCombinedFieldsQuery(body: unknown): { fields: Array<{ pattern: string; weight: number }>; query: string; options: CombinedFieldsOptions; boost: number } {
  if (!isObject(body)) throw unsupportedValue('combined_fields', 'combined_fields', body);
  checkFields('combined_fields', body, ['query', 'fields', 'operator', 'minimum_should_match', 'auto_generate_synonyms_phrase_query', 'zero_terms_query', 'boost', '_name']);
  const fields = body.fields === undefined ? [] : inField('combined_fields', 'fields', () => {
    const list = Array.isArray(body.fields) ? body.fields : [body.fields];
    const out = list.map((s) => {
      if (typeof s !== 'string') throw unsupportedValue('combined_fields', 'fields', s);
      return fieldWeight(s);
    });
    if (out.some((fw) => fw.weight < 1)) throw illegal('[combined_fields] requires field boosts to be >= 1.0');
    return out;
  });
  const operator = body.operator === undefined ? 'or' : inField('combined_fields', 'operator', () => {
    const s = String(body.operator).toLowerCase();
    if (s !== 'or' && s !== 'and') throw illegal(`No enum constant org.elasticsearch.index.query.Operator.${String(body.operator).toUpperCase()}`);
    return s;
  });
  const zero = body.zero_terms_query === undefined ? 'none' : inField('combined_fields', 'zero_terms_query', () => {
    const s = String(body.zero_terms_query).toLowerCase();
    if (s !== 'none' && s !== 'all') throw illegal(`Unsupported [zero_terms_query] value [${String(body.zero_terms_query)}]`);
    return s;
  });
  if (body.query === undefined || body.query === null) throw requiredFields(['query']);
  if (typeof body.query === 'object') throw unsupportedValue('combined_fields', 'query', body.query);
  const msm = body.minimum_should_match;
  return {
    fields, query: String(body.query),
    options: {
      operator, zeroTermsQuery: zero, autoGenerateSynonymsPhraseQuery: body.auto_generate_synonyms_phrase_query !== false && body.auto_generate_synonyms_phrase_query !== 'false',
      minimumShouldMatch: typeof msm === 'string' || typeof msm === 'number' ? msm : undefined,
    },
    boost: boostOf('combined_fields', body.boost),
  };
}

function searchAnalyzerName(mapping: FieldMapping, registry: AnalysisRegistry): string {
  if (typeof mapping.search_analyzer === 'string') return mapping.search_analyzer;
  if (typeof mapping.analyzer === 'string') return mapping.analyzer;
  if (registry.hasAnalyzer('default_search')) return 'default_search';
  return registry.hasAnalyzer('default') ? 'default' : 'standard';
}

/**
 * The query against one index's mappings: `combined_term` clauses per analyzed position.
 * `expand` resolves field patterns (`title.*`) to concrete fields.
 */
export function lowerCombinedFields(
  q: { fields: Array<{ pattern: string; weight: number }>; query: string; options: CombinedFieldsOptions; boost: number },
  mappings: Mappings, registry: AnalysisRegistry, expand: (patterns: string[]) => Array<{ field: string; boost: number }>,
): Query {
  if (q.fields.length === 0) throw illegal('In [combined_fields] query, at least one field must be provided');
  const resolved: Array<{ field: string; weight: number; mapping: FieldMapping }> = [];
  for (const { pattern, weight } of q.fields) {
    for (const { field } of expand([pattern])) {
      const mapping = resolveFieldMapping(mappings, field);
      if (!mapping || resolved.some((r) => r.field === field)) continue;
      resolved.push({ field, weight, mapping });
    }
  }
  if (resolved.length === 0) return { type: 'match_none' };
  let analyzer: string | undefined;
  for (const r of resolved) {
    const type = fieldType(r.mapping);
    if (!TEXT_TYPES.has(type)) throw illegal(`Field [${r.field}] of type [${type}] does not support [combined_fields] queries`);
    const name = searchAnalyzerName(r.mapping, registry);
    if (analyzer !== undefined && analyzer !== name) throw illegal('All fields in [combined_fields] query must have the same search analyzer');
    analyzer = name;
  }
  const tokens: Token[] = registry.analyzer(analyzer!).analyze(q.query);
  if (!tokens.length) return q.options.zeroTermsQuery === 'all' ? { type: 'match_all', boost: 1 } : { type: 'match_none' };
  const fields = resolved.map(({ field, weight }) => ({ field, weight }));
  const clauses: Query[] = positionGroups(tokens).groups.map((terms) => ({ type: 'combined_term', fields, terms, boost: 1 }));
  if (clauses.length === 1 && q.options.minimumShouldMatch === undefined) return { ...clauses[0], boost: q.boost } as Query;
  if (q.options.operator === 'and') return { type: 'bool', must: clauses, filter: [], should: [], mustNot: [], boost: q.boost };
  return { type: 'bool', must: [], filter: [], should: clauses, mustNot: [], minimumShouldMatch: q.options.minimumShouldMatch, boost: q.boost };
}
