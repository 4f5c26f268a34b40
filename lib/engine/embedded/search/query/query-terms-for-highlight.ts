import { compileWildcardQuery, simpleMatch } from '../../../../wildcard/index.js';
import type { AnalysisRegistry } from '../../analysis/index.js';
import { fieldType, keywordTerm, resolveFieldMapping, type FieldMapping, type Mappings } from '../../mapping/index.js';
import type { IntervalSource, IntervalsRule } from './intervals.js';
import type { Query } from './query.js';
import { queryTypeOf } from './query-type.js';

/** What a query looks for in one field: exact terms and term predicates (prefix, wildcard, fuzzy…). */
export interface HighlightTerms {
  terms: Set<string>;
  predicates: Array<(term: string) => boolean>;
}

export interface HighlightContext {
  field: string;
  mapping: FieldMapping;
  mappings: Mappings;
  registry: AnalysisRegistry;
  requireFieldMatch: boolean;
  out: HighlightTerms;
}
type Ctx = HighlightContext;

function searchAnalyzer(m: FieldMapping, registry: AnalysisRegistry, override?: string): string {
  if (override) return override;
  if (typeof m.search_analyzer === 'string') return m.search_analyzer;
  if (typeof m.analyzer === 'string') return m.analyzer;
  if (registry.hasAnalyzer('default_search')) return 'default_search';
  return registry.hasAnalyzer('default') ? 'default' : 'standard';
}

const TEXT_TYPES = new Set(['text', 'match_only_text', 'search_as_you_type']);

/** The terms a query string becomes in the highlighted field (its search analyzer; keyword: the normalized value). */
function analyzeFor(ctx: Ctx, text: string, analyzer?: string): string[] {
  const type = fieldType(ctx.mapping);
  if (TEXT_TYPES.has(type)) return ctx.registry.analyzer(searchAnalyzer(ctx.mapping, ctx.registry, analyzer)).analyze(text).map((t) => t.token);
  if (type === 'keyword') return [keywordTerm(ctx.mapping, text, ctx.registry)];
  return [text];
}

export function targets(ctx: Ctx, field: string): boolean {
  if (!ctx.requireFieldMatch) return true;
  return simpleMatch(field.split('^')[0], ctx.field);
}

export function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > max) return false;
    prev = cur;
  }
  return prev[b.length] <= max;
}

export function fuzzyEdits(fuzziness: { kind: 'fixed'; edits: number } | { kind: 'auto'; low: number; high: number } | undefined, term: string): number {
  if (!fuzziness) return 0;
  if (fuzziness.kind === 'fixed') return fuzziness.edits;
  return term.length < fuzziness.low ? 0 : term.length < fuzziness.high ? 1 : 2;
}

export function addAnalyzed(ctx: Ctx, text: string, opts: { analyzer?: string; lastIsPrefix?: boolean; fuzziness?: Parameters<typeof fuzzyEdits>[0] }): void {
  const terms = analyzeFor(ctx, text, opts.analyzer);
  terms.forEach((t, i) => {
    if (opts.lastIsPrefix && i === terms.length - 1) ctx.out.predicates.push((x) => x.startsWith(t));
    else ctx.out.terms.add(t);
    const edits = fuzzyEdits(opts.fuzziness, t);
    if (edits > 0) ctx.out.predicates.push((x) => editDistanceAtMost(x, t, edits));
  });
}

/** The terms an intervals rule looks for (its filters' rules only select intervals, they are not highlighted). */
export function visitIntervals(rule: IntervalsRule, ctx: Ctx): void {
  switch (rule.kind) {
    case 'match':
      addAnalyzed(ctx, rule.query, { analyzer: rule.analyzer });
      return;
    case 'prefix': {
      const prefix = rule.prefix.toLowerCase();
      ctx.out.predicates.push((x) => x.startsWith(prefix));
      return;
    }
    case 'wildcard':
      ctx.out.predicates.push(compileWildcardQuery(rule.pattern.toLowerCase(), false).test);
      return;
    case 'fuzzy': {
      const term = rule.term.toLowerCase();
      const edits = fuzzyEdits(rule.fuzziness, term);
      ctx.out.predicates.push((x) => editDistanceAtMost(x, term, edits));
      return;
    }
    default:
      for (const r of rule.rules) visitIntervals(r, ctx);
  }
}

/** The terms of a lowered intervals or span source; what filters and exclusions look for only selects intervals. */
export function visitSource(source: IntervalSource, ctx: Ctx): void {
  switch (source.kind) {
    case 'term':
      if (targets(ctx, source.field)) ctx.out.terms.add(source.term);
      return;
    case 'pattern':
      if (targets(ctx, source.field)) ctx.out.predicates.push(source.pattern.test);
      return;
    case 'none':
      return;
    case 'extend': case 'scripted': case 'first': case 'filtered': case 'not':
      visitSource(source.source, ctx);
      return;
    default:
      for (const s of source.subs) visitSource(s, ctx);
  }
}

export { visit as collectHighlightTerms };

function visit(q: Query, ctx: Ctx): void {
  queryTypeOf(q).highlightTerms(q, ctx);
}

/** A lowered phrase's terms (the last position's as prefixes when it is a phrase prefix). */
export function phraseHighlightTerms(q: Extract<Query, { type: 'phrase' }>, ctx: Ctx): void {
  if (!targets(ctx, q.field)) return;
  for (const path of q.paths) {
    path.terms.forEach((alts, i) => {
      if (q.prefixExpansions !== undefined && i === path.terms.length - 1) for (const a of alts) ctx.out.predicates.push((x) => x.startsWith(a));
      else for (const a of alts) ctx.out.terms.add(a);
    });
  }
}

/**
 * The terms of `query` that highlight `field` (all fields' terms when `requireFieldMatch` is false).
 * `query` is the tree rewritten against the index (rewriteQuery), as Lucene extracts highlight terms
 * from the rewritten query: analyzed for the field each clause searches, metadata-field queries decided.
 */
export function queryTermsForHighlight(query: Query, field: string, mappings: Mappings, registry: AnalysisRegistry, requireFieldMatch: boolean): HighlightTerms {
  const out: HighlightTerms = { terms: new Set(), predicates: [] };
  const mapping = resolveFieldMapping(mappings, field);
  if (!mapping) return out;
  visit(query, { field, mapping, mappings, registry, requireFieldMatch, out });
  return out;
}
