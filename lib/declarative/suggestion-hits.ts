import * as stopword from 'stopword';
import type { SuggestionPlan } from './translate.js';

/**
 * A suggestion as ReactiveSearch's suggestion components read it from `hits.hits`: `label` (HTML,
 * shown), `value` (text, searched when picked), `_suggestion_type`, and for index suggestions the
 * document it came from (`_id`, `_index`, `_score`, `_source`).
 */
export interface SuggestionHit {
  value: string;
  label: string;
  url: string | null;
  _suggestion_type: 'index' | 'popular' | 'recent';
  _category: string | null;
  _count: number | null;
  _rs_score: number;
  _matched_tokens: string[] | null;
  _id: string;
  _index: string | null;
  _score: number;
  _source: Record<string, unknown>;
  /** Suggestions of one section (a `sectionLabel` was configured) share a `sectionId`. */
  sectionId?: string;
  sectionLabel?: string;
}

interface Hit {
  _id?: unknown;
  _index?: unknown;
  _score?: unknown;
  _source?: Record<string, unknown>;
  highlight?: Record<string, unknown>;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text as HTML: a label is HTML, a field value is text. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
const stripTags = (html: string): string => html.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (m) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" })[m]!);

/** Case- and accent-insensitive words. */
export function wordsOf(text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Every typed word starts a word of the text (nothing typed: everything matches). */
export function matchesTyped(text: string, typed: string): boolean {
  const words = wordsOf(text);
  return wordsOf(typed).every((t) => words.some((w) => w.startsWith(t)));
}

/** The values at a dotted path of a document (through arrays), as text. */
export function valuesAt(source: Record<string, unknown> | undefined, path: string): string[] {
  let current: unknown[] = [source];
  for (const key of path.split('.')) {
    const next: unknown[] = [];
    for (const v of current) {
      if (Array.isArray(v)) for (const x of v) next.push((x as Record<string, unknown> | null)?.[key]);
      else if (v && typeof v === 'object') next.push((v as Record<string, unknown>)[key]);
    }
    current = next.flat();
  }
  return current.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String);
}

/** A suggestion of analytics or of the `.suggestions` index: a search text. */
export function searchTextHit(text: string, type: 'popular' | 'recent', count: number | null, sectionLabel?: string): SuggestionHit {
  const hit: SuggestionHit = {
    value: text, label: escapeHtml(text), url: null, _suggestion_type: type, _category: null, _count: count,
    _rs_score: 0, _matched_tokens: null, _id: '', _index: null, _score: 0, _source: {},
  };
  if (sectionLabel !== undefined) {
    hit.sectionId = type;
    hit.sectionLabel = sectionLabel;
  }
  return hit;
}

/**
 * The index suggestions of a suggestion component's hits: each data-field value of each hit (its
 * highlighted form as the label when highlighting is on), one per distinct text, the values that
 * match more of the typed words first (then by score); at most one per document with
 * `showDistinctSuggestions`; with `enablePredictiveSuggestions`, the words that follow (or precede)
 * what was typed instead of the whole value.
 */
export function indexSuggestions(hits: Hit[], plan: SuggestionPlan): SuggestionHit[] {
  const typed = wordsOf(plan.text);
  const seen = new Set<string>();
  const out: SuggestionHit[] = [];
  for (const hit of hits) {
    // a value the typed text matches no word of is no suggestion for it (the document's author
    // when its title matched), unless none of the document's values match it word by word (a
    // fuzzy match): then its first value stands for it
    const values = plan.fields.flatMap((field) => valuesAt(hit._source, field).map((raw) => ({ field, raw })));
    const matching = typed.length ? values.filter(({ raw }) => wordsOf(raw).some((w) => typed.some((t) => w.startsWith(t)))) : values;
    for (const { field, raw } of matching.length ? matching : values.slice(0, 1)) {
      const highlights = plan.highlighted ? highlightsOf(hit, field) : [];
      const key = wordsOf(raw).join(' ');
      if (!key || seen.has(key)) continue;
      seen.add(key);
      const words = wordsOf(raw);
      const matched = words.filter((w) => typed.some((t) => w.startsWith(t)));
      const highlighted = highlights.find((h) => wordsOf(stripTags(h)).join(' ') === key);
      out.push({
        value: raw,
        label: highlighted ?? escapeHtml(raw),
        url: plan.urlField ? valuesAt(hit._source, plan.urlField)[0] ?? null : null,
        _suggestion_type: 'index',
        _category: plan.categoryField ? valuesAt(hit._source, plan.categoryField)[0] ?? null : null,
        _count: null,
        _rs_score: typed.filter((t) => words.some((w) => w.startsWith(t))).length,
        _matched_tokens: matched.length ? matched : null,
        _id: String(hit._id ?? ''),
        _index: typeof hit._index === 'string' ? hit._index : null,
        _score: typeof hit._score === 'number' ? hit._score : 0,
        _source: hit._source ?? {},
        ...(plan.sectionLabel !== undefined ? { sectionId: 'index', sectionLabel: plan.sectionLabel } : {}),
      });
    }
  }
  // stable: among equals, the engine's order
  out.sort((a, b) => b._rs_score - a._rs_score || b._score - a._score);
  let list = out;
  if (plan.distinct) {
    const ids = new Set<string>();
    list = list.filter((s) => !ids.has(s._id) && ids.add(s._id));
  }
  return plan.predictive ? predictive(list, plan) : list;
}

/** The highlighted fragments of a field (or of its sub-fields: `name.autosuggest`). */
function highlightsOf(hit: Hit, field: string): string[] {
  const out: string[] = [];
  for (const [name, fragments] of Object.entries(hit.highlight ?? {})) {
    if ((name === field || name.startsWith(`${field}.`)) && Array.isArray(fragments)) out.push(...fragments.filter((f): f is string => typeof f === 'string'));
  }
  return out;
}

/** ReactiveSearch's `searchLanguage` names → the stopword lists of the `stopword` package. */
const STOPWORD_LISTS: Record<string, readonly string[]> = {
  arabic: stopword.ara, bulgarian: stopword.bul, czech: stopword.ces, danish: stopword.dan, english: stopword.eng, finnish: stopword.fin,
  french: stopword.fra, german: stopword.deu, hungarian: stopword.hun, italian: stopword.ita, japanese: stopword.jpn, latvian: stopword.lav,
  norwegian: stopword.nob, persian: stopword.fas, polish: stopword.pol, portuguese: stopword.por, romanian: stopword.ron, russian: stopword.rus,
  slovak: stopword.slk, spanish: stopword.spa, swedish: stopword.swe, thai: stopword.tha, turkish: stopword.tur,
};

/**
 * Predictive suggestions: for each suggestion, up to `maxWords` words after the last word that
 * matches what was typed (else before the first one), offered as `typed + next words`, the
 * predicted words marked in the label. With stopwords, predicted words skip them.
 */
function predictive(list: SuggestionHit[], plan: SuggestionPlan): SuggestionHit[] {
  const config = plan.predictive!;
  const typed = wordsOf(plan.text);
  if (!typed.length) return [];
  const stop = config.stopwords ? new Set([...(STOPWORD_LISTS[config.stopwords.language] ?? []), ...config.stopwords.custom.map((w) => w.toLowerCase())]) : undefined;
  const query = plan.text.trim();
  const out: SuggestionHit[] = [];
  const seen = new Set<string>();
  for (const s of list) {
    const words = s.value.split(/\s+/).filter(Boolean);
    const norm = words.map((w) => wordsOf(w).join(''));
    const hits = norm.map((w, i) => (typed.some((t) => w.startsWith(t)) ? i : -1)).filter((i) => i >= 0);
    if (!hits.length) continue;
    const pick = (candidates: string[]) => candidates.filter((w) => !stop?.has(wordsOf(w).join(''))).slice(0, config.maxWords);
    let predicted = pick(words.slice(hits[hits.length - 1] + 1));
    let before = false;
    if (!predicted.length) {
      predicted = pick(words.slice(0, hits[0]).reverse()).reverse();
      before = true;
    }
    if (!predicted.length) continue;
    const phrase = predicted.join(' ');
    const value = before ? `${phrase} ${query}` : `${query} ${phrase}`;
    const key = wordsOf(value).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    const marked = `${config.preTag}${escapeHtml(phrase)}${config.postTag}`;
    out.push({ ...s, value, label: before ? `${marked} ${escapeHtml(query)}` : `${escapeHtml(query)} ${marked}` });
  }
  return out;
}
