import { EsError } from '../../../../errors/index.js';
import { simpleMatch } from '../../../../wildcard/index.js';
import type { AnalysisRegistry } from '../../analysis/index.js';
import { fieldType, indexAnalyzerName, keywordTerm, type FieldMapping, type Mappings } from '../../mapping/index.js';
import { leafFields, valuesAtPath } from '../fields/index.js';
import { rewriteQuery, type Query } from '../query/index.js';
import { queryTermsForHighlight, type HighlightTerms } from '../query/query-terms-for-highlight.js';
import type { HighlightOptions, HighlightRequest } from './highlight-request.js';

const TEXT_TYPES = new Set(['text', 'match_only_text', 'search_as_you_type']);

interface Span {
  start: number;
  end: number;
}

interface Passage {
  start: number;
  end: number;
  matches: Span[];
  valueIndex: number;
  score: number;
}

function htmlEncode(s: string): string {
  return s.replace(/[&<>"'/]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;', '/': '&#x2F;' })[c]!);
}

function isMatch(term: string, t: HighlightTerms): boolean {
  if (t.terms.has(term)) return true;
  for (const p of t.predicates) if (p(term)) return true;
  return false;
}

/** Offsets of the value's tokens that the query's terms match (overlapping ones merged). */
function matchedSpans(value: string, mapping: FieldMapping, terms: HighlightTerms, registry: AnalysisRegistry): Span[] {
  const type = fieldType(mapping);
  if (!TEXT_TYPES.has(type)) {
    const term = type === 'keyword' ? keywordTerm(mapping, value, registry) : value;
    return isMatch(term, terms) ? [{ start: 0, end: value.length }] : [];
  }
  const spans: Span[] = [];
  for (const tok of registry.analyzer(indexAnalyzerName(mapping, registry)).analyze(value)) {
    if (!isMatch(tok.token, terms)) continue;
    const last = spans[spans.length - 1];
    if (last && tok.start_offset < last.end) last.end = Math.max(last.end, tok.end_offset);
    else spans.push({ start: tok.start_offset, end: tok.end_offset });
  }
  return spans;
}

/** Sentence starts of a text (after `.`, `!`, `?` followed by whitespace), as a sentence break iterator. */
function sentenceStarts(text: string): number[] {
  const starts = [0];
  const re = /[.!?]+["')\]]*\s+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) if (m.index + m[0].length < text.length) starts.push(m.index + m[0].length);
  return starts;
}

function wordBoundaryAfter(text: string, offset: number): number {
  if (offset >= text.length) return text.length;
  const m = /\s/.exec(text.slice(offset));
  return m ? offset + m.index : text.length;
}

/**
 * Passage boundaries of a value, as ES's bounded sentence scanner: sentences, a sentence longer
 * than `fragment_size` split at the first word boundary after each `fragment_size` chars.
 */
function passageBounds(text: string, fragmentSize: number): number[] {
  const bounds: number[] = [];
  const starts = sentenceStarts(text);
  starts.forEach((start, i) => {
    const end = i + 1 < starts.length ? starts[i + 1] : text.length;
    let from = start;
    bounds.push(from);
    while (end - from > fragmentSize) {
      const cut = wordBoundaryAfter(text, from + fragmentSize);
      if (cut >= end) break;
      from = cut;
      bounds.push(from);
    }
  });
  return bounds;
}

/** Passages holding the matches of one value. */
function passagesOf(text: string, spans: Span[], fragmentSize: number, valueIndex: number): Passage[] {
  const bounds = passageBounds(text, fragmentSize);
  const out: Passage[] = [];
  let i = 0;
  let b = 0;
  while (i < spans.length) {
    while (b + 1 < bounds.length && bounds[b + 1] <= spans[i].start) b++;
    const start = bounds[b];
    let end = b + 1 < bounds.length ? bounds[b + 1] : text.length;
    const matches: Span[] = [];
    while (i < spans.length && spans[i].start < end) {
      matches.push(spans[i]);
      end = Math.max(end, spans[i].end);
      i++;
    }
    out.push({ start, end, matches, valueIndex, score: matches.length });
  }
  return out;
}

function render(text: string, from: number, to: number, matches: Span[], o: HighlightOptions): string {
  const enc = o.encoder === 'html' ? htmlEncode : (s: string) => s;
  let out = '';
  let pos = from;
  for (const m of matches) {
    out += enc(text.slice(pos, m.start)) + o.preTags[0] + enc(text.slice(m.start, m.end)) + o.postTags[0];
    pos = m.end;
  }
  out += enc(text.slice(pos, to));
  return out.trim();
}

function highlightField(values: string[], mapping: FieldMapping, terms: HighlightTerms, o: HighlightOptions, registry: AnalysisRegistry): string[] | undefined {
  const spansPerValue = values.map((v) => matchedSpans(v, mapping, terms, registry));
  if (spansPerValue.every((s) => s.length === 0)) {
    if (o.noMatchSize <= 0 || !values.length) return undefined;
    const v = values[0];
    const end = v.length <= o.noMatchSize ? v.length : v.lastIndexOf(' ', o.noMatchSize) > 0 ? v.lastIndexOf(' ', o.noMatchSize) : o.noMatchSize;
    return [render(v, 0, end, [], o)];
  }
  if (o.numberOfFragments === 0 || !TEXT_TYPES.has(fieldType(mapping))) {
    return values.flatMap((v, i) => (spansPerValue[i].length ? [render(v, 0, v.length, spansPerValue[i], o)] : []));
  }
  const passages = values.flatMap((v, i) => passagesOf(v, spansPerValue[i], o.fragmentSize, i));
  const order = (a: Passage, b: Passage) => a.valueIndex - b.valueIndex || a.start - b.start;
  const chosen = [...passages].sort((a, b) => b.score - a.score || order(a, b)).slice(0, o.numberOfFragments);
  if (o.order !== 'score') chosen.sort(order);
  return chosen.map((p) => render(values[p.valueIndex], p.start, p.end, p.matches, o));
}

function stringValues(source: Record<string, unknown>, path: string): string[] {
  return valuesAtPath(source, path).filter((v) => v !== null && typeof v !== 'object').map(String);
}

/**
 * The values the field indexed: a keyword's values longer than its `ignore_above` are left out
 * (Elasticsearch's keyword value fetcher drops them, so they are never highlighted).
 */
function indexedValues(values: string[], mapping: FieldMapping): string[] {
  const ignoreAbove = fieldType(mapping) === 'keyword' ? Number(mapping.ignore_above) : NaN;
  return Number.isFinite(ignoreAbove) ? values.filter((v) => v.length <= ignoreAbove) : values;
}

/** The `highlight` of one hit: per requested field, fragments of its `_source` text with the query's terms marked. */
export interface HighlightDoc {
  index: string;
  id: string;
  /** `index.highlight.max_analyzed_offset`. */
  maxAnalyzedOffset: number;
  /** The index's `_source` is disabled: as ES's highlighters, only stored fields (`store: true`) have values to highlight. */
  sourceDisabled?: boolean;
}

/**
 * `query` is the search's query rewritten against the hit's index (rewriteQuery); a field's own
 * `highlight_query` is rewritten here the same way.
 */
export function highlightHit(request: HighlightRequest, query: Query, source: Record<string, unknown>, mappings: Mappings, registry: AnalysisRegistry, doc: HighlightDoc): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const { pattern, options } of request.fields) {
    const wildcard = pattern.includes('*');
    const highlightQuery = options.highlightQuery ? rewriteQuery(options.highlightQuery, { mappings, registry, indexName: doc.index }) : query;
    for (const leaf of leafFields(mappings)) {
      if (!simpleMatch(pattern, leaf.name) || leaf.name in out) continue;
      const type = fieldType(leaf.mapping);
      if (wildcard && !TEXT_TYPES.has(type) && type !== 'keyword') continue;
      if (doc.sourceDisabled && leaf.mapping.store !== true && leaf.mapping.store !== 'true') continue;
      const terms = queryTermsForHighlight(highlightQuery, leaf.name, mappings, registry, options.requireFieldMatch);
      if (!terms.terms.size && !terms.predicates.length && options.noMatchSize <= 0) continue;
      const values = indexedValues(stringValues(source, leaf.sourcePath), leaf.mapping);
      if (!values.length) continue;
      const withOffsets = leaf.mapping.index_options === 'offsets' && options.type !== 'plain';
      if (!withOffsets && TEXT_TYPES.has(type) && values.some((v) => v.length > doc.maxAnalyzedOffset)) {
        throw new EsError(400, 'illegal_argument_exception',
          `The length of [${leaf.name}] field of [${doc.id}] doc of [${doc.index}] index has exceeded [${doc.maxAnalyzedOffset}] - maximum allowed to be analyzed for highlighting. This maximum can be set by changing the [index.highlight.max_analyzed_offset] index level setting. For large texts, indexing with offsets or term vectors is recommended!`);
      }
      const fragments = highlightField(values, leaf.mapping, terms, options, registry);
      if (fragments?.length) out[leaf.name] = fragments;
    }
  }
  return Object.keys(out).length ? out : undefined;
}
