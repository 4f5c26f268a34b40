import type { AnalysisRegistry } from '../../analysis/index.js';
import { parseDocument, resolveFieldMapping, type Mappings, type ParsedDocument } from '../../mapping/index.js';
import { parseQuery } from './parse-query.js';
import { requiredShouldMatches, type Query } from './query.js';
import { queryTerm } from './query-terms.js';

export interface MatchContext {
  mappings: Mappings;
  registry: AnalysisRegistry;
}

export interface CandidateDocument {
  id: string;
  source: Record<string, unknown>;
}

interface Evaluated {
  id: string;
  doc: ParsedDocument;
  mappings: Mappings;
  registry: AnalysisRegistry;
}

function fieldTerms(e: Evaluated, field: string): string[] | undefined {
  return e.doc.fields.get(field)?.terms;
}

function termMatches(e: Evaluated, field: string, value: string | number | boolean, caseInsensitive = false): boolean {
  if (field === '_id') return String(value) === e.id;
  const mapping = resolveFieldMapping(e.mappings, field);
  if (!mapping) return false;
  const term = queryTerm(mapping, value, e.registry);
  if (term === undefined) return false;
  const terms = fieldTerms(e, field);
  if (!terms) return false;
  if (caseInsensitive) {
    const lower = term.toLowerCase();
    return terms.some((t) => t.toLowerCase() === lower);
  }
  return terms.includes(term);
}

function evaluate(q: Query, e: Evaluated): boolean {
  switch (q.type) {
    case 'match_all':
      return true;
    case 'match_none':
      return false;
    case 'term':
      return termMatches(e, q.field, q.value, q.caseInsensitive);
    case 'terms':
      return q.values.some((v) => termMatches(e, q.field, v));
    case 'ids':
      return q.values.includes(e.id);
    case 'exists': {
      if (e.doc.fields.has(q.field)) return true;
      const prefix = q.field + '.';
      for (const name of e.doc.fields.keys()) if (name.startsWith(prefix)) return true;
      return false;
    }
    case 'bool': {
      if (!q.must.every((c) => evaluate(c, e))) return false;
      if (!q.filter.every((c) => evaluate(c, e))) return false;
      if (q.mustNot.some((c) => evaluate(c, e))) return false;
      const needed = requiredShouldMatches(q.minimumShouldMatch, q.should.length, q.must.length + q.filter.length > 0);
      if (needed === 0) return true;
      let matched = 0;
      for (const c of q.should) if (evaluate(c, e) && ++matched >= needed) return true;
      return false;
    }
  }
}

/**
 * Does this one document match this query? Works on the document, the index's mappings and
 * analysis alone — no index — so live search streams can test a changed document. The same
 * semantics as the index executor (execute-query.ts), from the same parsing and term rules.
 */
export function documentMatches(query: Query, candidate: CandidateDocument, ctx: MatchContext): boolean {
  let doc: ParsedDocument;
  try {
    doc = parseDocument(candidate.source, ctx.mappings, ctx.registry, candidate.id);
  } catch {
    return false;
  }
  return evaluate(query, { id: candidate.id, doc, mappings: doc.mappings ?? ctx.mappings, registry: ctx.registry });
}

/** Parses a query DSL object once and returns a predicate over documents. */
export function createDocumentMatcher(dsl: unknown, ctx: MatchContext): (candidate: CandidateDocument) => boolean {
  const query = dsl === undefined ? ({ type: 'match_all', boost: 1 } as Query) : parseQuery(dsl);
  return (candidate) => documentMatches(query, candidate, ctx);
}
