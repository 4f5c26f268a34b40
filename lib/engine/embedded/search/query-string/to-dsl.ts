/**
 * `query_string` and `simple_query_string` bodies → ordinary query DSL (bool, dis_max, match,
 * match_phrase, prefix, wildcard, regexp, fuzzy, range, exists, match_all, match_none), with
 * Elasticsearch's parameters. Field patterns (`*`, `name.*`) are expanded through the optional
 * `FieldResolver`, which knows the target indices' mappings; without one, a pattern is kept for
 * full-text clauses (as `multi_match`) and used as a field name elsewhere.
 */
import { EsError } from '../../../../errors/index.js';
import { parseClassic } from './classic-parser.js';
import { parseFlags, parseSimple } from './simple-parser.js';
import { QuerySyntaxError, type QsNode } from './syntax.js';

export type Json = Record<string, unknown>;

export interface FieldResolver {
  /** Concrete fields a name or pattern stands for; `allFieldsMode` keeps only searchable leaf fields. */
  expand(pattern: string, allFieldsMode: boolean): string[];
  /** `index.query.default_field` of the target indices (`["*"]` when unset). */
  defaultFields(): string[];
  /** The text a term-level query (wildcard, prefix, fuzzy) looks up on `field`: normalized as ES does. */
  normalize(field: string, text: string): string;
  /** Whether the field holds strings (term-level queries on other types need `lenient`). */
  isStringField(field: string): boolean;
  /** Tokens of `text` with the analyzer `field` searches with (or `analyzer`), for analyze_wildcard. */
  analyze(field: string, text: string, analyzer?: string): string[];
  /** The longest regex the target indices accept (the least `index.max_regex_length`, 1000 by default). */
  maxRegexLength(): number;
}

type Kind = 'query_string' | 'simple_query_string';

const QS_KEYS = new Set([
  'query', 'default_field', 'fields', 'default_operator', 'analyzer', 'quote_analyzer', 'allow_leading_wildcard',
  'enable_position_increments', 'fuzzy_max_expansions', 'fuzziness', 'fuzzy_prefix_length', 'fuzzy_transpositions',
  'phrase_slop', 'tie_breaker', 'analyze_wildcard', 'max_determinized_states', 'minimum_should_match', 'lenient',
  'time_zone', 'quote_field_suffix', 'auto_generate_synonyms_phrase_query', 'type', 'rewrite', 'escape', 'boost', '_name',
  'auto_generate_phrase_queries', 'split_on_whitespace', 'use_dis_max', 'all_fields', 'fuzzy_rewrite',
]);
const SQS_KEYS = new Set([
  'query', 'fields', 'default_operator', 'analyzer', 'flags', 'fuzzy_max_expansions', 'fuzzy_prefix_length',
  'fuzzy_transpositions', 'lenient', 'analyze_wildcard', 'minimum_should_match', 'quote_field_suffix',
  'auto_generate_synonyms_phrase_query', 'boost', '_name', 'all_fields',
]);
const TYPES = new Set(['best_fields', 'most_fields', 'cross_fields', 'phrase', 'phrase_prefix', 'bool_prefix']);

function parsingError(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

interface Settings {
  kind: Kind;
  fields: Array<{ pattern: string; boost: number }>;
  allFieldsMode: boolean;
  operator: 'and' | 'or';
  analyzer?: string;
  quoteAnalyzer?: string;
  lenient: boolean;
  analyzeWildcard: boolean;
  type: string;
  tieBreaker?: number;
  phraseSlop: number;
  fuzziness: string;
  fuzzyPrefixLength?: number;
  fuzzyMaxExpansions?: number;
  fuzzyTranspositions?: boolean;
  timeZone?: string;
  autoSynonymsPhrase?: boolean;
  resolver?: FieldResolver;
}

function fieldSpec(s: string): { pattern: string; boost: number } {
  const m = /^(.*)\^([\d.]+)$/.exec(s);
  return m ? { pattern: m[1], boost: Number(m[2]) } : { pattern: s, boost: 1 };
}

function operatorOf(v: unknown): 'and' | 'or' {
  if (v === undefined || v === null) return 'or';
  const s = String(v).toLowerCase();
  if (s === 'and' || s === 'or') return s;
  throw new EsError(400, 'illegal_argument_exception', `No enum constant org.elasticsearch.index.query.Operator.${String(v).toUpperCase()}`);
}

function settingsOf(kind: Kind, b: Json, resolver: FieldResolver | undefined): Settings {
  const keys = kind === 'query_string' ? QS_KEYS : SQS_KEYS;
  for (const k of Object.keys(b)) if (!keys.has(k)) throw parsingError(`[${kind}] query does not support [${k}]`);
  if (kind === 'query_string' && b.default_field !== undefined && b.fields !== undefined) {
    throw parsingError('[query_string] cannot use [fields] parameter in conjunction with [default_field]');
  }
  let fields: Array<{ pattern: string; boost: number }>;
  if (Array.isArray(b.fields)) fields = b.fields.map((f) => fieldSpec(String(f)));
  else if (typeof b.default_field === 'string') fields = [fieldSpec(b.default_field)];
  else fields = (resolver?.defaultFields() ?? ['*']).map(fieldSpec);
  if (fields.length === 0) fields = (resolver?.defaultFields() ?? ['*']).map(fieldSpec);
  const allFieldsMode = fields.length === 1 && fields[0].pattern === '*';
  const type = b.type === undefined ? 'best_fields' : String(b.type).toLowerCase();
  if (!TYPES.has(type)) throw parsingError(`[query_string] unknown type [${String(b.type)}]`);
  const num = (v: unknown) => (v === undefined ? undefined : Number(v));
  return {
    kind, fields, allFieldsMode,
    operator: operatorOf(b.default_operator),
    analyzer: typeof b.analyzer === 'string' ? b.analyzer : undefined,
    quoteAnalyzer: typeof b.quote_analyzer === 'string' ? b.quote_analyzer : undefined,
    lenient: b.lenient === undefined ? allFieldsMode : b.lenient === true || b.lenient === 'true',
    analyzeWildcard: b.analyze_wildcard === true || b.analyze_wildcard === 'true',
    type,
    tieBreaker: num(b.tie_breaker),
    phraseSlop: num(b.phrase_slop) ?? 0,
    fuzziness: b.fuzziness === undefined ? 'AUTO' : String(b.fuzziness),
    fuzzyPrefixLength: num(b.fuzzy_prefix_length),
    fuzzyMaxExpansions: num(b.fuzzy_max_expansions),
    fuzzyTranspositions: b.fuzzy_transpositions === undefined ? undefined : b.fuzzy_transpositions === true,
    timeZone: typeof b.time_zone === 'string' ? b.time_zone : undefined,
    autoSynonymsPhrase: b.auto_generate_synonyms_phrase_query === undefined ? undefined : b.auto_generate_synonyms_phrase_query !== false,
    resolver,
  };
}

/** Concrete (field, boost) pairs for a node's field (null: the query's fields). */
function targets(s: Settings, field: string | null): Array<{ field: string; boost: number; pattern: boolean }> {
  const specs = field === null ? s.fields : [{ pattern: field, boost: 1 }];
  const out: Array<{ field: string; boost: number; pattern: boolean }> = [];
  for (const spec of specs) {
    const isPattern = spec.pattern.includes('*');
    if (!s.resolver) {
      out.push({ field: spec.pattern, boost: spec.boost, pattern: isPattern });
      continue;
    }
    const all = field === null ? s.allFieldsMode : spec.pattern === '*';
    for (const f of isPattern ? s.resolver.expand(spec.pattern, all) : [spec.pattern]) out.push({ field: f, boost: spec.boost, pattern: false });
  }
  return out;
}

function boosted(q: Json, boost: number): Json {
  if (boost === 1) return q;
  const [name, body] = Object.entries(q)[0] as [string, Json];
  if (name === 'match_none') return q;
  if (['bool', 'dis_max', 'match_all', 'exists', 'multi_match'].includes(name)) return { [name]: { ...body, boost: ((body.boost as number | undefined) ?? 1) * boost } };
  const [field, spec] = Object.entries(body)[0] as [string, Json];
  return { [name]: { [field]: { ...spec, boost: ((spec.boost as number | undefined) ?? 1) * boost } } };
}

/** Per-field queries combined as the query type wants: dis_max for best_fields, bool otherwise. */
function combine(s: Settings, perField: Json[], tieBreaker?: number): Json {
  if (perField.length === 0) return { match_none: {} };
  if (perField.length === 1) return perField[0];
  if (s.type === 'most_fields' || (s.kind === 'simple_query_string' && tieBreaker === undefined)) return { bool: { should: perField } };
  return { dis_max: { queries: perField, tie_breaker: tieBreaker ?? s.tieBreaker ?? 0 } };
}

function matchBody(s: Settings, text: string, phrase: boolean, slop?: number): Json {
  const body: Json = { query: text };
  const analyzer = phrase ? (s.quoteAnalyzer ?? s.analyzer) : s.analyzer;
  if (analyzer) body.analyzer = analyzer;
  if (phrase) {
    if (slop) body.slop = slop;
  } else {
    if (s.operator === 'and') body.operator = 'and';
    if (s.autoSynonymsPhrase !== undefined) body.auto_generate_synonyms_phrase_query = s.autoSynonymsPhrase;
  }
  if (s.lenient) body.lenient = true;
  return body;
}

function textQuery(s: Settings, field: string | null, text: string, phrase: boolean, slop?: number): Json {
  const ts = targets(s, field);
  const asPhrase = phrase || s.type === 'phrase';
  const unresolved = ts.filter((t) => t.pattern);
  if (unresolved.length) {
    // no mappings to expand a pattern with: let multi_match resolve it where it runs
    const mm: Json = { query: text, fields: ts.map((t) => (t.boost === 1 ? t.field : `${t.field}^${t.boost}`)), type: asPhrase ? 'phrase' : s.type === 'phrase' ? 'best_fields' : s.type, lenient: true };
    if (asPhrase && slop) mm.slop = slop;
    if (!asPhrase && s.operator === 'and') mm.operator = 'and';
    return { multi_match: mm };
  }
  if (s.type === 'cross_fields' && !asPhrase && ts.length > 1) {
    const mm: Json = { query: text, fields: ts.map((t) => (t.boost === 1 ? t.field : `${t.field}^${t.boost}`)), type: 'cross_fields' };
    if (s.operator === 'and') mm.operator = 'and';
    if (s.analyzer) mm.analyzer = s.analyzer;
    if (s.lenient) mm.lenient = true;
    return { multi_match: mm };
  }
  const perField = ts.map((t) => boosted({ [asPhrase ? 'match_phrase' : 'match']: { [t.field]: matchBody(s, text, asPhrase, slop) } }, t.boost));
  return combine(s, perField);
}

/** Term-level queries (wildcard, prefix, fuzzy, regexp, range) over the node's fields. */
function termLevel(s: Settings, field: string | null, build: (field: string) => Json | null, stringsOnly = true): Json {
  const perField: Json[] = [];
  for (const t of targets(s, field)) {
    // a pattern query on a number or date cannot run: lenient drops that field
    if (stringsOnly && s.resolver && !s.resolver.isStringField(t.field) && s.lenient) continue;
    const q = build(t.field);
    if (q) perField.push(boosted(q, t.boost));
  }
  return combine(s, perField, s.kind === 'simple_query_string' ? 1 : undefined);
}

function normalize(s: Settings, field: string, text: string): string {
  return s.resolver ? s.resolver.normalize(field, text) : text.toLowerCase();
}

function wildcardQuery(s: Settings, field: string | null, text: string): Json {
  if (text === '*' && (field === '*' || (field === null && s.allFieldsMode))) return { match_all: {} };
  return termLevel(s, field, (f) => {
    if (text === '*') return { exists: { field: f } };
    const isPrefix = /^[^*?]*\*$/.test(text.replace(/\\./g, 'x'));
    if (s.analyzeWildcard && s.resolver && isPrefix) {
      const tokens = s.resolver.analyze(f, text.slice(0, -1), s.analyzer);
      if (tokens.length === 0) return null;
      const last = { prefix: { [f]: { value: tokens[tokens.length - 1] } } };
      if (tokens.length === 1) return last;
      return { bool: { must: [...tokens.slice(0, -1).map((t) => ({ term: { [f]: { value: t } } })), last] } };
    }
    const value = normalize(s, f, text);
    return isPrefix ? { prefix: { [f]: { value: value.slice(0, -1) } } } : { wildcard: { [f]: { value } } };
  });
}

function nodeToDsl(s: Settings, n: QsNode): Json {
  switch (n.kind) {
    case 'match_all':
      return boosted({ match_all: {} }, n.boost ?? 1);
    case 'match_none':
      return { match_none: {} };
    case 'exists':
      return boosted({ exists: { field: n.field } }, n.boost ?? 1);
    case 'term':
      return boosted(textQuery(s, n.field, n.text, false), n.boost ?? 1);
    case 'phrase':
      return boosted(textQuery(s, n.field, n.text, true, n.slop ?? s.phraseSlop), n.boost ?? 1);
    case 'wildcard':
      return boosted(wildcardQuery(s, n.field, n.text), n.boost ?? 1);
    case 'fuzzy':
      return boosted(termLevel(s, n.field, (f) => {
        const body: Json = { value: normalize(s, f, n.text), fuzziness: n.fuzziness ?? s.fuzziness };
        if (s.fuzzyPrefixLength !== undefined) body.prefix_length = s.fuzzyPrefixLength;
        if (s.fuzzyMaxExpansions !== undefined) body.max_expansions = s.fuzzyMaxExpansions;
        if (s.fuzzyTranspositions !== undefined) body.transpositions = s.fuzzyTranspositions;
        return { fuzzy: { [f]: body } };
      }), n.boost ?? 1);
    case 'regexp': {
      // ES's QueryStringQueryParser measures the expression before it looks at any field
      const max = s.resolver?.maxRegexLength();
      if (max !== undefined && n.text.length > max) {
        throw new EsError(400, 'illegal_argument_exception',
          `The length of regex [${n.text.length}] used in the [query_string] has exceeded the allowed maximum of [${max}]. This maximum can be set by changing the [index.max_regex_length] index level setting.`);
      }
      // normalized as Lucene's query parser normalizes a regexp (the field's search analyzer's
      // normalization, whole): /UPPERCASE/ on a standard-analyzed text field looks for `uppercase`
      return boosted(termLevel(s, n.field, (f) => ({ regexp: { [f]: { value: normalize(s, f, n.text) } } })), n.boost ?? 1);
    }
    case 'range':
      return boosted(termLevel(s, n.field, (f) => {
        const body: Json = {};
        if (n.lower !== undefined) body[n.includeLower ? 'gte' : 'gt'] = n.lower;
        if (n.upper !== undefined) body[n.includeUpper ? 'lte' : 'lt'] = n.upper;
        if (s.timeZone) body.time_zone = s.timeZone;
        return { range: { [f]: body } };
      }, false), n.boost ?? 1);
    case 'bool': {
      const must: Json[] = [];
      const should: Json[] = [];
      const mustNot: Json[] = [];
      for (const c of n.clauses) {
        const q = nodeToDsl(s, c.node);
        (c.occur === 'must' ? must : c.occur === 'should' ? should : mustNot).push(q);
      }
      const body: Json = {};
      if (must.length) body.must = must;
      if (should.length) body.should = should;
      if (mustNot.length) body.must_not = mustNot;
      return boosted({ bool: body }, n.boost ?? 1);
    }
  }
}

function withMinimumShouldMatch(q: Json, msm: unknown): Json {
  if (msm === undefined || msm === null) return q;
  if (q.bool && (q.bool as Json).should) return { bool: { ...(q.bool as Json), minimum_should_match: msm } };
  if (q.match) {
    const [field, spec] = Object.entries(q.match as Json)[0] as [string, Json];
    return { match: { [field]: { ...spec, minimum_should_match: msm } } };
  }
  return q;
}

/**
 * A `query_string` or `simple_query_string` body as ordinary DSL. Syntax errors in
 * `query_string` are ES's 400 (query_shard_exception caused by parse_exception);
 * `simple_query_string` never fails on syntax.
 */
export function queryStringToDsl(kind: Kind, body: unknown, resolver?: FieldResolver, index?: { name: string; uuid: string }): Json {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw parsingError(`[${kind}] query malformed, no start_object after query name`);
  const b = body as Json;
  if (typeof b.query !== 'string' && typeof b.query !== 'number' && typeof b.query !== 'boolean') throw parsingError(`[${kind}] must be provided with a [query]`);
  const text = String(b.query);
  const s = settingsOf(kind, b, resolver);
  let tree: QsNode;
  if (kind === 'query_string') {
    try {
      tree = parseClassic(text, { defaultOperator: s.operator, allowLeadingWildcard: b.allow_leading_wildcard !== false });
    } catch (e) {
      if (!(e instanceof QuerySyntaxError)) throw e;
      throw new EsError(400, 'query_shard_exception', `Failed to parse query [${text}]`, {
        index_uuid: index?.uuid ?? '_na_',
        index: index?.name ?? '_na_',
        caused_by: { type: 'parse_exception', reason: e.message },
      });
    }
  } else {
    let flags: number;
    try {
      flags = parseFlags(b.flags);
    } catch (e) {
      throw new EsError(400, 'illegal_argument_exception', (e as Error).message);
    }
    tree = parseSimple(text, flags, s.operator);
  }
  let q = withMinimumShouldMatch(nodeToDsl(s, tree), b.minimum_should_match);
  const boost = b.boost === undefined ? 1 : Number(b.boost);
  if (boost !== 1) q = q.bool ? boosted(q, boost) : { bool: { must: [q], boost } };
  return q;
}
