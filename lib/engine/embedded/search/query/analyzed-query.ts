/**
 * The clauses a full-text query becomes once its text is analyzed, as Lucene's QueryBuilder and
 * ES's MatchQuery build them.
 *
 * Tokens in plain positions give one clause per position (a term, or the synonyms stacked there),
 * combined by the operator, or a phrase over the positions. When a token spans several positions
 * (a multi-word synonym from `synonym_graph`) the tokens form a graph and the clauses follow its
 * paths instead:
 * - match: the graph's articulation points cut it into segments combined by the operator; a
 *   segment where paths part becomes a disjunction of its paths, each a phrase (or, without
 *   auto_generate_synonyms_phrase_query, a conjunction of its terms);
 * - match_phrase / match_phrase_prefix: one phrase whose paths are the graph's paths (Lucene's span
 *   query over the segments, scored as one query), or with slop a disjunction of one phrase per
 *   path; the prefix applies to the last term of each path.
 */
import type { Token } from '../../analysis/index.js';
import { fieldType, type FieldMapping } from '../../mapping/index.js';
import type { FullTextOptions, PhrasePath, Query } from './query.js';
import { fuzzyPattern, prefixPattern } from './term-patterns.js';
import { isTokenGraph, TokenGraph, type GraphPath } from './token-graph.js';

const BM25_TYPES = new Set(['text', 'search_as_you_type', 'keyword', 'constant_keyword', 'wildcard']);
const NO_MATCH: Query = { type: 'match_none' };

/** Analyzed text grouped by position: [[terms at pos 0], [terms at pos 1]…] with their positions. */
export function positionGroups(tokens: readonly Token[]): { groups: string[][]; positions: number[] } {
  const groups: string[][] = [];
  const positions: number[] = [];
  for (const t of tokens) {
    if (positions.length && positions[positions.length - 1] === t.position) groups[groups.length - 1].push(t.token);
    else {
      groups.push([t.token]);
      positions.push(t.position);
    }
  }
  return { groups, positions };
}

/** One analyzed term (fuzzy when the options ask for it). */
export function termClause(field: string, mapping: FieldMapping, term: string, boost: number, o: FullTextOptions | undefined): Query {
  if (o?.fuzziness) {
    const pattern = fuzzyPattern(term, o.fuzziness, o.prefixLength, o.transpositions);
    if (pattern.maxEdits > 0) return { type: 'term_pattern', field, pattern, scoring: 'fuzzy', maxExpansions: o.maxExpansions, boost, ...(o.fuzzyRewrite && { rewrite: o.fuzzyRewrite }) };
  }
  return { type: 'indexed_term', field, term, boost, constant: !BM25_TYPES.has(fieldType(mapping)) };
}

/** The terms stacked on one position: the term, or any of the synonyms. */
export function synonymClause(field: string, mapping: FieldMapping, terms: string[], boost: number, o: FullTextOptions | undefined): Query {
  if (terms.length === 1) return termClause(field, mapping, terms[0], boost, o);
  return anyOf(terms.map((t) => termClause(field, mapping, t, 1, o)), boost);
}

function prefixClause(field: string, term: string): Query {
  return { type: 'term_pattern', field, pattern: prefixPattern(term, false), scoring: 'constant', maxExpansions: Infinity, boost: 1 };
}

function anyOf(clauses: Query[], boost: number): Query {
  if (clauses.length === 1 && boost === 1) return clauses[0];
  return { type: 'bool', must: [], filter: [], should: clauses, mustNot: [], boost };
}

/** Clauses combined by the operator; minimum_should_match applies to the optional ones. */
function combine(clauses: Query[], o: FullTextOptions, boost: number): Query {
  if (o.operator === 'and') return { type: 'bool', must: clauses, filter: [], should: [], mustNot: [], boost };
  return { type: 'bool', must: [], filter: [], should: clauses, mustNot: [], minimumShouldMatch: o.minimumShouldMatch, boost };
}

function asPhrasePath(path: GraphPath): PhrasePath {
  return { terms: path.terms.map((t) => [t]), offsets: path.offsets };
}

/** `match`: a boolean over the positions, or over the segments of a token graph. */
export function matchQuery(field: string, mapping: FieldMapping, tokens: readonly Token[], o: FullTextOptions, boost: number): Query {
  if (isTokenGraph(tokens)) return graphBoolean(field, mapping, new TokenGraph(tokens), o, boost, false);
  const { groups } = positionGroups(tokens);
  if (groups.length === 1 && o.minimumShouldMatch === undefined) return synonymClause(field, mapping, groups[0], boost, o);
  return combine(groups.map((g) => synonymClause(field, mapping, g, 1, o)), o, boost);
}

/** `match_bool_prefix`: as `match`, the last position's terms being prefixes. */
export function boolPrefixQuery(field: string, mapping: FieldMapping, tokens: readonly Token[], o: FullTextOptions, boost: number): Query {
  if (isTokenGraph(tokens)) return graphBoolean(field, mapping, new TokenGraph(tokens), o, boost, true);
  const { groups } = positionGroups(tokens);
  const clauses = groups.map((g, i) => (i < groups.length - 1 ? synonymClause(field, mapping, g, 1, o) : anyOf(g.map((t) => prefixClause(field, t)), 1)));
  return combine(clauses, o, boost);
}

/**
 * Lucene's analyzeGraphBoolean: one clause per segment between articulation points. With
 * `lastIsPrefix` (bool_prefix), the last segment's single term is a prefix, and its paths are
 * phrase prefixes.
 */
function graphBoolean(field: string, mapping: FieldMapping, graph: TokenGraph, o: FullTextOptions, boost: number, lastIsPrefix: boolean): Query {
  const starts = [0, ...graph.articulationPoints()];
  const clauses = starts.map((start, i) => {
    const end = i + 1 < starts.length ? starts[i + 1] : undefined;
    const prefix = lastIsPrefix && end === undefined;
    if (graph.hasSidePath(start)) return anyOf(graph.paths(start, end).map((path) => sidePathClause(field, mapping, path, o, prefix)), 1);
    const terms = graph.termsFrom(start);
    // No terms: a graph without a complete path (its tokens all lead to dead ends) matches nothing.
    if (terms.length === 0) return NO_MATCH;
    return prefix && terms.length === 1 ? prefixClause(field, terms[0]) : synonymClause(field, mapping, terms, 1, o);
  });
  return combine(clauses, o, boost);
}

/**
 * One path of a segment where paths part: a phrase (a phrase prefix in the last segment of a
 * bool_prefix), or without auto_generate_synonyms_phrase_query a conjunction of its terms; a
 * one-term path is that term.
 */
function sidePathClause(field: string, mapping: FieldMapping, path: GraphPath, o: FullTextOptions, prefix: boolean): Query {
  if (o.autoGenerateSynonymsPhraseQuery && (path.terms.length > 1 || prefix)) {
    return linearPhrase(field, mapping, asPhrasePath(path), 0, 1, prefix ? o.maxExpansions : undefined);
  }
  if (path.terms.length === 1) return termClause(field, mapping, path.terms[0], 1, o);
  return { type: 'bool', must: path.terms.map((t) => termClause(field, mapping, t, 1, o)), filter: [], should: [], mustNot: [], boost: 1 };
}

/**
 * `match_phrase` (`prefixExpansions` undefined) and `match_phrase_prefix`: a phrase over the
 * positions, or over the paths of a token graph.
 */
export function phraseQuery(field: string, mapping: FieldMapping, tokens: readonly Token[], slop: number, boost: number, prefixExpansions?: number): Query {
  if (!isTokenGraph(tokens)) {
    const { groups, positions } = positionGroups(tokens);
    return linearPhrase(field, mapping, { terms: groups, offsets: positions.map((p) => p - positions[0]) }, slop, boost, prefixExpansions);
  }
  const paths = new TokenGraph(tokens).paths();
  if (slop > 0) return anyOf(paths.map((p) => linearPhrase(field, mapping, asPhrasePath(p), slop, 1, prefixExpansions)), boost);
  return { type: 'phrase', field, paths: paths.map(asPhrasePath), slop, prefixExpansions, boost };
}

/** A phrase along one path; a single position is its terms (or, for a prefix, the first one's prefix). */
function linearPhrase(field: string, mapping: FieldMapping, path: PhrasePath, slop: number, boost: number, prefixExpansions: number | undefined): Query {
  if (path.terms.length > 1) return { type: 'phrase', field, paths: [path], slop, prefixExpansions, boost };
  if (prefixExpansions === undefined) return synonymClause(field, mapping, path.terms[0], boost, undefined);
  return { type: 'term_pattern', field, pattern: prefixPattern(path.terms[0][0], false), scoring: 'constant', maxExpansions: prefixExpansions, boost };
}
