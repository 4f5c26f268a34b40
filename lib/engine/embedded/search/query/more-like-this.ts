/**
 * The `more_like_this` query (Elasticsearch's MoreLikeThisQueryBuilder over its XMoreLikeThis):
 * the terms of the `like` texts and documents that are frequent there and rare in the index,
 * scored tf · idf (ClassicSimilarity's idf), the best `max_query_terms` of them as optional term
 * clauses of which `minimum_should_match` must match. Terms of the `unlike` texts and documents
 * are never selected; documents named in `like` are excluded unless `include`.
 *
 * Documents named by `_index`/`_id` are read before the query runs (the search route resolves
 * them, as Elasticsearch fetches their term vectors): they arrive here with their `_source`.
 */
import { EsError } from '../../../../errors/index.js';
import type { AnalysisRegistry } from '../../analysis/index.js';
import { fieldType, indexAnalyzerName, keywordTerm, resolveFieldMapping, type Mappings } from '../../mapping/index.js';
import { isObject } from './query-fields.js';
import type { Query } from './query.js';

/** A `like`/`unlike` document: given inline (`doc`), or named and resolved to its source. */
export interface MltItem {
  index?: string;
  id?: string;
  /** An artificial document's source. */
  doc?: Record<string, unknown>;
  /** A named document's source, once read. */
  resolved?: Record<string, unknown>;
  fields?: string[];
  perFieldAnalyzer?: Record<string, string>;
}

export interface MoreLikeThis {
  fields?: string[];
  likeTexts: string[];
  likeItems: MltItem[];
  unlikeTexts: string[];
  unlikeItems: MltItem[];
  maxQueryTerms: number;
  minTermFreq: number;
  minDocFreq: number;
  maxDocFreq: number;
  minWordLength: number;
  maxWordLength: number;
  stopWords: Set<string>;
  analyzer?: string;
  minimumShouldMatch: string | number;
  boostTerms: number;
  include: boolean;
  failOnUnsupportedField: boolean;
}

function parsing(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function parseItem(raw: Record<string, unknown>): MltItem {
  const item: MltItem = {};
  for (const [k, v] of Object.entries(raw)) {
    switch (k) {
      case '_index':
      case 'index':
        item.index = String(v);
        break;
      case '_id':
      case 'id':
        item.id = String(v);
        break;
      case 'doc':
        if (!isObject(v)) throw new EsError(400, 'parse_exception', 'failed to parse [doc]: expected an object');
        item.doc = v;
        break;
      case '_source':
        // a named document's source, read by the search route before parsing
        if (isObject(v)) item.resolved = v;
        break;
      case 'fields':
        item.fields = (Array.isArray(v) ? v : [v]).map(String);
        break;
      case 'per_field_analyzer':
        if (isObject(v)) item.perFieldAnalyzer = Object.fromEntries(Object.entries(v).map(([f, a]) => [f, String(a)]));
        break;
      case 'routing':
      case '_routing':
      case 'version':
      case 'version_type':
        break;
      default:
        throw new EsError(400, 'parse_exception', `Unknown field [${k}] in [more_like_this] item`);
    }
  }
  if (item.id !== undefined && item.doc !== undefined) throw new EsError(400, 'parse_exception', 'Please specify either an id or a document, not both!');
  if (item.id === undefined && item.doc === undefined) throw new EsError(400, 'parse_exception', 'Element requires either an id or a document');
  return item;
}

function likeList(v: unknown, texts: string[], items: MltItem[]): void {
  for (const x of Array.isArray(v) ? v : [v]) {
    if (typeof x === 'string') texts.push(x);
    else if (isObject(x)) items.push(parseItem(x));
    else throw parsing('[mlt] query does not support like/unlike values of this type');
  }
}

function intParam(key: string, v: unknown): number {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) throw parsing(`[mlt] query does not support [${key}] with value [${String(v)}]`);
  return Math.trunc(n);
}

/** The query's body, read as MoreLikeThisQueryBuilder reads it. */
export function parseMoreLikeThis(body: unknown): { mlt: MoreLikeThis; boost: number } {
  if (!isObject(body)) throw parsing('[mlt] query malformed, no start_object after query name');
  const m: MoreLikeThis = {
    likeTexts: [], likeItems: [], unlikeTexts: [], unlikeItems: [], maxQueryTerms: 25, minTermFreq: 2, minDocFreq: 5, maxDocFreq: Number.MAX_SAFE_INTEGER,
    minWordLength: 0, maxWordLength: 0, stopWords: new Set(), minimumShouldMatch: '30%', boostTerms: 0, include: false, failOnUnsupportedField: true,
  };
  let boost = 1;
  let likeGiven = false;
  for (const [k, v] of Object.entries(body)) {
    switch (k) {
      case 'fields':
        if (!Array.isArray(v)) throw parsing(`[mlt] query does not support [${k}]`);
        m.fields = v.map(String);
        break;
      case 'like':
        likeGiven = true;
        likeList(v, m.likeTexts, m.likeItems);
        break;
      case 'unlike':
        likeList(v, m.unlikeTexts, m.unlikeItems);
        break;
      case 'max_query_terms': m.maxQueryTerms = intParam(k, v); break;
      case 'min_term_freq': m.minTermFreq = intParam(k, v); break;
      case 'min_doc_freq': m.minDocFreq = intParam(k, v); break;
      case 'max_doc_freq': m.maxDocFreq = intParam(k, v); break;
      case 'min_word_length':
      case 'min_word_len':
        m.minWordLength = intParam(k, v);
        break;
      case 'max_word_length':
      case 'max_word_len':
        m.maxWordLength = intParam(k, v);
        break;
      case 'stop_words':
        m.stopWords = new Set((Array.isArray(v) ? v : [v]).map(String));
        break;
      case 'analyzer': m.analyzer = String(v); break;
      case 'minimum_should_match':
        if (typeof v !== 'string' && typeof v !== 'number') throw parsing(`[mlt] query does not support [${k}]`);
        m.minimumShouldMatch = v;
        break;
      case 'boost_terms': m.boostTerms = Number(v); break;
      case 'include': m.include = v === true || v === 'true'; break;
      case 'fail_on_unsupported_field': m.failOnUnsupportedField = v !== false && v !== 'false'; break;
      case 'boost': boost = Number(v); break;
      case '_name': break;
      default:
        throw parsing(`[mlt] query does not support [${k}]`);
    }
  }
  if (!likeGiven || (m.likeTexts.length === 0 && m.likeItems.length === 0)) throw parsing("more_like_this requires 'like' to be specified");
  if (m.fields !== undefined && m.fields.length === 0) throw new EsError(400, 'illegal_argument_exception', "more_like_this requires 'fields' to be non-empty");
  if (!Number.isFinite(boost)) throw parsing(`[mlt] query does not support [boost] with value [${String(body.boost)}]`);
  if (boost < 0) throw new EsError(400, 'illegal_argument_exception', `negative [boost] are not allowed in [more_like_this], but got [${boost}]`);
  return { mlt: m, boost };
}

const ANALYZED = new Set(['text', 'match_only_text', 'search_as_you_type']);

/** The terms of `text` in `field` as indexing makes them (its index analyzer, or `analyzer`; keywords: the normalized value). */
export function indexTermsOf(field: string, text: string, analyzer: string | undefined, mappings: Mappings, registry: AnalysisRegistry): string[] {
  const mapping = resolveFieldMapping(mappings, field);
  if (!mapping) return [];
  if (analyzer) return registry.analyzer(analyzer).analyze(text).map((t) => t.token);
  const type = fieldType(mapping);
  if (ANALYZED.has(type)) return registry.analyzer(indexAnalyzerName(mapping, registry)).analyze(text).map((t) => t.token);
  if (type === 'keyword') return [keywordTerm(mapping, text, registry)];
  return [text];
}

/** What term selection needs of the index searched. */
export interface MltIndex {
  /** Live documents. */
  numDocs: number;
  docFreq(field: string, term: string): number;
  /** The field's type, undefined when unmapped. */
  typeOf(field: string): string | undefined;
  /** Fields (text and keyword) to read documents by when `fields` is not given. */
  defaultFields(): string[];
  /** The terms of `text` in `field` as its analyzer (or `analyzer`) indexes them. */
  terms(field: string, text: string, analyzer?: string): string[];
}

const SUPPORTED = new Set(['text', 'keyword', 'match_only_text', 'search_as_you_type', 'constant_keyword', 'wildcard']);

/** ClassicSimilarity.idf: ln((N + 1) / (df + 1)) + 1, as a float. */
function classicIdf(docFreq: number, numDocs: number): number {
  return Math.fround(Math.log((numDocs + 1) / (docFreq + 1)) + 1);
}

/** Values of a (dotted) field in a source, flattened. */
function sourceValues(source: unknown, path: string[]): unknown[] {
  if (path.length === 0) return source === undefined || source === null ? [] : Array.isArray(source) ? source.flat(Infinity) : [source];
  if (Array.isArray(source)) return source.flatMap((s) => sourceValues(s, path));
  if (!isObject(source)) return [];
  for (let i = path.length; i >= 1; i--) {
    const key = path.slice(0, i).join('.');
    if (key in source) return sourceValues(source[key], path.slice(i));
  }
  return [];
}

interface ScoreTerm {
  word: string;
  field: string;
  score: number;
}

/**
 * The lowered query: optional term clauses of the selected terms (per like text, then per field of
 * the like documents), minimum_should_match applied to each group, liked documents excluded.
 */
export function buildMoreLikeThis(m: MoreLikeThis, boost: number, index: MltIndex): Query {
  let fields = m.fields;
  if (fields === undefined) {
    if (m.likeTexts.length || m.unlikeTexts.length) {
      throw new EsError(400, 'illegal_argument_exception',
        '[more_like_this] query cannot infer the field to analyze the free text, you should update the [index.query.default_field] index setting to a field that exists in the mapping or set the [fields] option in the query.');
    }
    fields = index.defaultFields();
  }
  const usable: string[] = [];
  for (const field of fields) {
    const type = index.typeOf(field);
    if (type === undefined) continue;
    if (!SUPPORTED.has(type)) {
      if (m.failOnUnsupportedField) throw new EsError(400, 'illegal_argument_exception', `more_like_this only supports text/keyword fields: [${field}]`);
      continue;
    }
    usable.push(field);
  }
  if (!usable.length) return { type: 'match_none' };
  const noise = (w: string) => {
    const len = [...w].length;
    return len < m.minWordLength || (m.maxWordLength > 0 && len > m.maxWordLength) || m.stopWords.has(w);
  };
  const itemFields = (item: MltItem) => (item.fields ?? usable).filter((f) => usable.includes(f));
  const itemTerms = (item: MltItem, field: string): string[] =>
    sourceValues(item.doc ?? item.resolved, field.split('.')).flatMap((v) => index.terms(field, String(v), item.perFieldAnalyzer?.[field]));
  // Terms never selected: the unlike texts' (in the first field) and the unlike documents'.
  const skip = new Set<string>();
  for (const text of m.unlikeTexts) for (const t of index.terms(usable[0], text, m.analyzer)) skip.add(`${usable[0]}\u0000${t}`);
  for (const item of m.unlikeItems) for (const field of itemFields(item)) for (const t of itemTerms(item, field)) skip.add(`${field}\u0000${t}`);

  /** XMoreLikeThis.createQueue then createQuery: the best terms, popped lowest first, as term clauses. */
  const select = (words: Map<string, number>, queueFields: string[]): Query[] => {
    const limit = Math.min(m.maxQueryTerms, words.size);
    const queue: ScoreTerm[] = [];
    for (const [word, tf] of words) {
      if (m.minTermFreq > 0 && tf < m.minTermFreq) continue;
      let topField = queueFields[0];
      let docFreq = 0;
      for (const field of queueFields) {
        const df = index.docFreq(field, word);
        if (df > docFreq) {
          topField = field;
          docFreq = df;
        }
      }
      if (m.minDocFreq > 0 && docFreq < m.minDocFreq) continue;
      if (docFreq > m.maxDocFreq || docFreq === 0) continue;
      const score = Math.fround(tf * classicIdf(docFreq, index.numDocs));
      if (queue.length < limit) queue.push({ word, field: topField, score });
      else {
        let low = 0;
        for (let i = 1; i < queue.length; i++) if (queue[i].score < queue[low].score) low = i;
        if (queue.length && queue[low].score < score) queue[low] = { word, field: topField, score };
      }
    }
    queue.sort((a, b) => a.score - b.score);
    const lowest = queue.length ? queue[0].score : 0;
    return queue.map((t) => ({
      type: 'indexed_term', field: t.field, term: t.word, constant: false,
      boost: m.boostTerms ? Math.fround(Math.fround(m.boostTerms * t.score) / lowest) : 1,
    }));
  };
  const group = (clauses: Query[]): Query | undefined =>
    clauses.length ? { type: 'bool', must: [], filter: [], should: clauses, mustNot: [], minimumShouldMatch: m.minimumShouldMatch, boost: 1 } : undefined;

  const groups: Query[] = [];
  if (m.likeItems.length) {
    const perField: Query[] = [];
    for (const field of usable) {
      const words = new Map<string, number>();
      for (const item of m.likeItems) {
        if (!itemFields(item).includes(field)) continue;
        for (const t of itemTerms(item, field)) {
          if (noise(t) || skip.has(`${field}\u0000${t}`)) continue;
          words.set(t, (words.get(t) ?? 0) + 1);
        }
      }
      perField.push(...select(words, [field]));
    }
    const g = group(perField);
    if (g) groups.push(g);
  }
  if (m.likeTexts.length) {
    const words = new Map<string, number>();
    for (const text of m.likeTexts) {
      for (const t of index.terms(usable[0], text, m.analyzer)) {
        if (noise(t) || skip.has(`${usable[0]}\u0000${t}`)) continue;
        words.set(t, (words.get(t) ?? 0) + 1);
      }
    }
    const g = group(select(words, usable));
    if (g) groups.push(g);
  }
  if (!groups.length) return { type: 'match_none' };
  const excluded = m.include ? [] : m.likeItems.filter((i) => i.id !== undefined).map((i) => i.id!);
  const mustNot: Query[] = excluded.length ? [{ type: 'ids', values: excluded, boost: 1 }] : [];
  return { type: 'bool', must: [], filter: [], should: groups, mustNot, boost };
}
