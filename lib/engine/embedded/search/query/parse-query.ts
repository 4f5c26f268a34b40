import { piecesOf, type ReadableText } from '../../../../cooperative/index.js';
import { EsError } from '../../../../errors/index.js';
import { queryStringToDsl } from '../query-string/index.js';
import { booleanValue, parseFuzziness, parseRewrite } from './query-fields.js';
import type { DecayFunction, FullTextOptions, MultiMatchType, Query, Scalar, ScoreFunction } from './query.js';
import { queryTypeOfName, registeredQueryNames } from './query-type.js';
import { didYouMean } from '../../rest/unknown-field.js';
import { parseScriptSpec } from '../../painless/index.js';

export function parsingError(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

export function illegal(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function scalar(name: string, v: unknown): Scalar {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v === null) throw illegal('field name is null or empty');
  throw parsingError(`[${name}] query does not support array of values`);
}

export function num(name: string, key: string, v: unknown, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw parsingError(`[${name}] failed to parse field [${key}]`);
  return n;
}

/** Only single-key objects: `{ "term": { … } }`. */
function singleEntry(q: Record<string, unknown>): [string, unknown] {
  const keys = Object.keys(q);
  if (keys.length === 0) return ['match_all', {}];
  if (keys.length > 1) throw parsingError(`[${keys[0]}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]`);
  return [keys[0], q[keys[0]]];
}

export function fieldAndBody(name: string, body: unknown, extraKeys: string[] = []): [string, unknown] {
  if (!isObject(body)) throw parsingError(`[${name}] query malformed, no start_object after query name`);
  const keys = Object.keys(body).filter((k) => k !== 'boost' && k !== '_name' && !extraKeys.includes(k));
  if (keys.length === 0) throw illegal('field name is null or empty');
  if (keys.length > 1) throw parsingError(`[${name}] query doesn't support multiple fields, found [${keys[0]}] and [${keys[1]}]`);
  return [keys[0], body[keys[0]]];
}

export function checkKeys(name: string, spec: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(spec)) if (!allowed.includes(k)) throw parsingError(`[${name}] query does not support [${k}]`);
}

/**
 * The body of a query around one inner `query` (nested, has_child, has_parent): an object with
 * only `allowed` keys, its `kindKey` (the path or relation) a string and its `query` present;
 * `requires` starts the message naming a missing one, as each query words it.
 */
export function innerQueryBody(name: string, body: unknown, allowed: string[], kindKey: string, requires = `[${name}] requires`): Record<string, unknown> {
  if (!isObject(body)) throw parsingError(`[${name}] query malformed`);
  checkKeys(name, body, allowed);
  if (typeof body[kindKey] !== 'string') throw parsingError(`${requires} '${kindKey}' field`);
  if (body.query === undefined) throw parsingError(`${requires} 'query' field`);
  return body;
}

export function clauses(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

export function zeroTerms(name: string, v: unknown): 'none' | 'all' {
  if (v === undefined) return 'none';
  const s = String(v).toLowerCase();
  if (s !== 'none' && s !== 'all') throw parsingError(`[${name}] Unsupported zero_terms_query value [${String(v)}]`);
  return s;
}

function operatorOf(name: string, v: unknown): 'or' | 'and' {
  if (v === undefined) return 'or';
  const s = String(v).toLowerCase();
  if (s !== 'or' && s !== 'and') throw parsingError(`[${name}] query does not support [operator] with value [${String(v)}]`);
  return s;
}

const withFuzzyRewrite = (fuzzyRewrite: FullTextOptions['fuzzyRewrite']) => (fuzzyRewrite ? { fuzzyRewrite } : {});

export function fullTextOptions(name: string, spec: Record<string, unknown>): FullTextOptions {
  const msm = spec.minimum_should_match;
  return {
    analyzer: typeof spec.analyzer === 'string' ? spec.analyzer : undefined,
    operator: operatorOf(name, spec.operator),
    minimumShouldMatch: typeof msm === 'number' || typeof msm === 'string' ? msm : undefined,
    fuzziness: parseFuzziness(spec.fuzziness),
    prefixLength: num(name, 'prefix_length', spec.prefix_length, 0),
    maxExpansions: num(name, 'max_expansions', spec.max_expansions, 50),
    transpositions: booleanValue(spec.fuzzy_transpositions, true),
    zeroTermsQuery: zeroTerms(name, spec.zero_terms_query),
    lenient: booleanValue(spec.lenient, false),
    autoGenerateSynonymsPhraseQuery: booleanValue(spec.auto_generate_synonyms_phrase_query, true),
    ...withFuzzyRewrite(parseRewrite(spec.fuzzy_rewrite)),
  };
}

export const MATCH_KEYS = ['query', 'analyzer', 'operator', 'minimum_should_match', 'fuzziness', 'prefix_length', 'max_expansions', 'fuzzy_transpositions',
  'fuzzy_rewrite', 'zero_terms_query', 'lenient', 'auto_generate_synonyms_phrase_query', 'cutoff_frequency', 'boost', '_name'];

/**
 * A field query's field and options (`{ field: text }` read as `{ field: { query: text } }`), with
 * its text's pieces where a long text was kept as the pieces it was decoded in (long-strings.ts).
 */
export function parseFieldQuery(name: string, body: unknown, allowed: string[]): { field: string; spec: Record<string, unknown>; pieces?: ReadableText } {
  const [field, raw] = fieldAndBody(name, body);
  const spec = isObject(raw) ? raw : { query: raw };
  checkKeys(name, spec, allowed);
  if (spec.query === undefined) throw illegal(`[${name}] requires query value`);
  const pieces = isObject(raw) ? piecesOf(raw, 'query') : piecesOf(body as object, field);
  return pieces ? { field, spec, pieces } : { field, spec };
}

export function parseFunction(f: Record<string, unknown>): ScoreFunction {
  const fn: ScoreFunction = {};
  for (const [k, v] of Object.entries(f)) {
    switch (k) {
      case 'filter':
        fn.filter = parseQuery(v);
        break;
      case 'weight':
        fn.weight = num('function_score', 'weight', v, 1);
        break;
      case 'field_value_factor': {
        if (!isObject(v) || typeof v.field !== 'string') throw parsingError('[field_value_factor] requires a [field]');
        fn.fieldValueFactor = {
          field: v.field,
          factor: num('field_value_factor', 'factor', v.factor, 1),
          modifier: typeof v.modifier === 'string' ? v.modifier.toLowerCase() : 'none',
          missing: v.missing === undefined ? undefined : num('field_value_factor', 'missing', v.missing, 0),
        };
        break;
      }
      case 'gauss':
      case 'exp':
      case 'linear':
        fn.decay = parseDecay(k, v);
        break;
      case 'random_score':
        fn.randomScore = isObject(v) ? { seed: typeof v.seed === 'number' ? v.seed : undefined, field: typeof v.field === 'string' ? v.field : undefined } : {};
        break;
      case 'script_score':
        if (!isObject(v) || v.script === undefined) throw parsingError('[script_score] requires a [script]');
        fn.script = parseScriptSpec(v.script);
        break;
      default:
        throw parsingError(`failed to parse [function_score] query. unknown field [${k}]`);
    }
  }
  return fn;
}

function parseDecay(kind: 'gauss' | 'exp' | 'linear', v: unknown): DecayFunction {
  if (!isObject(v)) throw parsingError(`[${kind}] malformed score function`);
  let mode: DecayFunction['multiValueMode'] = 'min';
  let field: string | undefined;
  let spec: Record<string, unknown> | undefined;
  for (const [k, val] of Object.entries(v)) {
    if (k === 'multi_value_mode') mode = String(val).toLowerCase() as DecayFunction['multiValueMode'];
    else if (isObject(val)) [field, spec] = [k, val];
  }
  if (!field || !spec) throw parsingError(`[${kind}] malformed score function`);
  if (spec.scale === undefined) throw illegal(`[${kind}] must be set for ${kind} functions`);
  return { kind, field, origin: spec.origin, scale: spec.scale, offset: spec.offset, decay: num(kind, 'decay', spec.decay, 0.5), multiValueMode: mode };
}

export function enumOf<T extends string>(name: string, key: string, v: unknown, allowed: readonly T[], dflt: T): T {
  if (v === undefined) return dflt;
  const s = String(v).toLowerCase() as T;
  if (!allowed.includes(s)) throw parsingError(`[${name}] illegal ${key} [${String(v)}]`);
  return s;
}

export const MULTI_MATCH_TYPES: readonly MultiMatchType[] = ['best_fields', 'most_fields', 'cross_fields', 'phrase', 'phrase_prefix', 'bool_prefix'];
export const BOOL_KEYS = new Set(['must', 'filter', 'should', 'must_not', 'minimum_should_match', 'boost', '_name', 'adjust_pure_negative']);

export function geoField(name: string, body: Record<string, unknown>, reserved: string[]): [string, unknown] {
  const keys = Object.keys(body).filter((k) => !reserved.includes(k));
  if (keys.length !== 1) throw parsingError(`[${name}] query requires exactly one field`);
  return [keys[0], body[keys[0]]];
}

/** `indices.query.bool.max_nested_depth` (ES 8: 30, static): how deep queries may nest in one another. */
export const MAX_QUERY_NESTED_DEPTH = 30;

/** How many queries enclose the one being parsed (parsing is synchronous, so one counter serves). */
let nestedDepth = 0;

/** Parses a query DSL object; throws ES's 400s (parsing_exception…) for what it cannot accept. */
export function parseQuery(input: unknown): Query {
  if (nestedDepth >= MAX_QUERY_NESTED_DEPTH) {
    throw illegal('The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]');
  }
  nestedDepth++;
  try {
    return parseQueryNode(input);
  } finally {
    nestedDepth--;
  }
}

/** A query given a name (`_name`): hits it matches list the name in `matched_queries`. */
export interface NamedQuery {
  name: string;
  query: Query;
}

/** The named queries of the parse under way (`withNamedQueries`), in the order they were read. */
let namedQueries: NamedQuery[] | undefined;

/** Runs `parse` and gives what it returned with the named queries parsed in it (nested ones too). */
export function withNamedQueries<T>(parse: () => T): [T, NamedQuery[]] {
  const outer = namedQueries;
  const named: NamedQuery[] = (namedQueries = []);
  try {
    return [parse(), named];
  } finally {
    namedQueries = outer;
  }
}

/** A query's `_name`: on its body (`bool`, `terms`, `query_string`…) or on its field's object (`match`, `term`, `range`…). */
function nameOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  if (typeof body._name === 'string') return body._name;
  const keys = Object.keys(body);
  if (keys.length === 1) {
    const inner = body[keys[0]];
    if (isObject(inner) && typeof inner._name === 'string') return inner._name;
  }
  return undefined;
}

function parseQueryNode(input: unknown): Query {
  if (!isObject(input)) throw parsingError(`[_na] query malformed, must start with start_object`);
  const [name, body] = singleEntry(input);
  const query = parseQueryOf(name, body);
  if (namedQueries) {
    const queryName = nameOf(body);
    if (queryName !== undefined) namedQueries.push({ name: queryName, query });
  }
  return query;
}

function parseQueryOf(name: string, body: unknown): Query {
  const type = queryTypeOfName(name);
  if (type) return type.parse(body, name);
  switch (name) {
    case 'query_string':
    case 'simple_query_string':
      // syntax → ordinary DSL; field patterns stay unexpanded here (routes expand them against mappings first)
      return parseQuery(queryStringToDsl(name, body));
    default:
      // Elasticsearch suggests the registered names more than half similar (SuggestingErrorOnUnknown)
      throw new EsError(400, 'parsing_exception', `unknown query [${name}]${didYouMean(name, [...registeredQueryNames(), 'query_string', 'simple_query_string'])}`, {
        line: 1,
        col: 1,
        caused_by: { type: 'named_object_not_found_exception', reason: `[1:1] unknown field [${name}]` },
      });
  }
}
