/**
 * The search `suggest` section: `term` suggestions (dictionary terms of the field within an edit
 * distance of each analyzed token, as ES's DirectSpellChecker-based term suggester) and
 * `completion` suggestions (inputs of a `completion` field that start with the analyzed prefix,
 * best weight first, one option per document; with `contexts` on a context-enabled field, only
 * the suggestions a context accepts, weighted by its boost — contexts.ts) and `phrase` suggestions
 * (corrections of the whole text by a noisy-channel model — phrase.ts). Not supported: completion
 * `fuzzy` and `regex`, phrase `collate` (refused with a clear 400).
 *
 * Completion entries are read from the field's doc values (every input) and, for their weights,
 * from `_source`; a suggestion scans the documents that have the field — fine for the corpus
 * sizes of the embedded engine, not an FST.
 */
import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { fieldType, resolveFieldMapping, type FieldMapping } from '../../mapping/index.js';
import { fuzzyMatcher, parseFuzzy, prefixMatcher, regexMatcher, type FuzzyOptions } from './completion-match.js';
import { bestContext, contextMappingsOf, entryContexts, queryContexts, valueAt } from './contexts.js';
import { codePoints, editDistance } from '../query/term-patterns.js';
import { parsePhraseOptions, phraseSuggest, type PhraseSuggestOptions } from './phrase.js';
import { searchAnalyzerOf } from './search-analyzer.js';
import { FETCH_ALL, filterSource, type SourceFilter } from '../source-filter.js';

export type SuggestRequest = DictionarySuggestRequest | PhraseSuggestRequest;

/** A `term` or `completion` suggestion. */
export interface DictionarySuggestRequest {
  name: string;
  kind: 'term' | 'completion';
  text: string;
  field: string;
  size: number;
  analyzer?: string;
  // term
  suggestMode: 'missing' | 'popular' | 'always';
  maxEdits: number;
  prefixLength: number;
  minWordLength: number;
  sort: 'score' | 'frequency';
  // completion
  skipDuplicates: boolean;
  /** The completion query's `contexts`, as given (read against each index's context mappings). */
  contexts?: unknown;
  /** `fuzzy` of a completion suggestion. */
  fuzzy?: FuzzyOptions;
  /** `regex` of a completion suggestion (in place of a prefix). */
  regex?: string;
}

/** A `phrase` suggestion (phrase.ts). */
export interface PhraseSuggestRequest {
  name: string;
  kind: 'phrase';
  text: string;
  phrase: PhraseSuggestOptions;
}

function bad(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

function num(v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) throw bad(`[${String(v)}] is not a number`);
  return n;
}

/** The body's `suggest` section, validated. */
export function parseSuggest(raw: unknown): SuggestRequest[] {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new EsError(400, 'parsing_exception', 'suggest must be an object', { line: 1, col: 1 });
  const section = raw as Record<string, unknown>;
  const globalText = typeof section.text === 'string' ? section.text : undefined;
  const out: SuggestRequest[] = [];
  for (const [name, def] of Object.entries(section)) {
    if (name === 'text') continue;
    if (def === null || typeof def !== 'object' || Array.isArray(def)) throw new EsError(400, 'parsing_exception', `suggestion [${name}] must be an object`, { line: 1, col: 1 });
    const d = def as Record<string, unknown>;
    const kind = ['term', 'phrase', 'completion'].find((k) => k in d);
    if (!kind) throw new EsError(400, 'parsing_exception', `suggestion does not support [${Object.keys(d).join(', ')}]`, { line: 1, col: 1 });
    const o = (d[kind] ?? {}) as Record<string, unknown>;
    if (kind === 'phrase') {
      const phrase = parsePhraseOptions(o);
      const text = typeof d.text === 'string' ? d.text : globalText;
      if (text === undefined) throw bad('The required text option is missing');
      out.push({ name, kind, text, phrase });
      continue;
    }
    if (typeof o.field !== 'string') throw bad(`the required field option [field] is missing`);
    const regex = kind === 'completion' && typeof d.regex === 'string' ? d.regex : undefined;
    if (regex !== undefined && o.fuzzy !== undefined) throw bad('[fuzzy] cannot be used with [regex]');
    if (o.regex !== undefined && (o.regex === null || typeof o.regex !== 'object' || Array.isArray(o.regex))) throw bad('[regex] options must be an object');
    const text = regex ?? (typeof d.prefix === 'string' ? d.prefix : typeof d.text === 'string' ? d.text : globalText);
    if (text === undefined) throw bad('The required text option is missing');
    out.push({
      name, kind: kind as 'term' | 'completion', text, field: o.field,
      size: num(o.size, 5),
      analyzer: typeof o.analyzer === 'string' ? o.analyzer : undefined,
      suggestMode: (o.suggest_mode as DictionarySuggestRequest['suggestMode']) ?? 'missing',
      maxEdits: num(o.max_edits, 2),
      prefixLength: num(o.prefix_length, 1),
      minWordLength: num(o.min_word_length ?? o.min_word_len, 4),
      sort: o.sort === 'frequency' ? 'frequency' : 'score',
      skipDuplicates: o.skip_duplicates === true,
      contexts: o.contexts,
      fuzzy: kind === 'completion' ? parseFuzzy(o.fuzzy) : undefined,
      regex,
    });
  }
  return out;
}

function docFreq(handles: IndexHandle[], field: string, term: string): number {
  let n = 0;
  for (const h of handles) n += h.inverted?.field(field)?.termStats(term, h.inverted.liveness).docFreq ?? 0;
  return n;
}

function termSuggest(handles: IndexHandle[], s: DictionarySuggestRequest): unknown[] {
  const first = handles.find((h) => resolveFieldMapping(h.mappings, s.field)) ?? handles[0];
  if (!first) return [];
  const tokens = first.registry.analyzer(searchAnalyzerOf(resolveFieldMapping(first.mappings, s.field), first, s.analyzer)).analyze(s.text);
  return tokens.map((t) => {
    const entry = { text: t.token, offset: t.start_offset, length: t.end_offset - t.start_offset, options: [] as Array<{ text: string; score: number; freq: number }> };
    const chars = Array.from(t.token);
    if (chars.length < s.minWordLength) return entry;
    const ownFreq = docFreq(handles, s.field, t.token);
    if (s.suggestMode === 'missing' && ownFreq > 0) return entry;
    const prefix = chars.slice(0, s.prefixLength).join('');
    const points = codePoints(t.token);
    const seen = new Map<string, { text: string; score: number; freq: number }>();
    for (const h of handles) {
      const fi = h.inverted?.field(s.field);
      if (!fi) continue;
      for (const term of fi.sortedTerms()) {
        if (term === t.token || seen.has(term) || !term.startsWith(prefix)) continue;
        const cand = codePoints(term);
        // adjacent transpositions count one edit, as Lucene's internal distance
        const ed = editDistance(points, cand, s.maxEdits, true);
        if (ed > s.maxEdits) continue;
        const freq = docFreq(handles, s.field, term);
        if (freq === 0 || (s.suggestMode === 'popular' && freq <= ownFreq)) continue;
        // Lucene's DirectSpellChecker score: 1 − edits / length of the shorter word.
        seen.set(term, { text: term, score: Math.fround(1 - ed / Math.min(cand.length, chars.length)), freq });
      }
    }
    const options = [...seen.values()].sort((a, b) =>
      s.sort === 'frequency' ? b.freq - a.freq || b.score - a.score || (a.text < b.text ? -1 : 1) : b.score - a.score || b.freq - a.freq || (a.text < b.text ? -1 : 1));
    entry.options = options.slice(0, s.size);
    return entry;
  });
}

/** One completion entry of a document's `_source`: its inputs, weight (default 1) and the contexts given with it. */
interface CompletionEntry {
  inputs: string[];
  weight: number;
  contexts: unknown;
}

/** The completion entries at `path` of a document's `_source` (a string, an `{input, weight, contexts}` object, or a list of them). */
function entriesFromSource(source: unknown, path: string[]): CompletionEntry[] {
  const v = valueAt(source, path.join('.'));
  const out: CompletionEntry[] = [];
  for (const entry of Array.isArray(v) ? v : [v]) {
    if (typeof entry === 'string') out.push({ inputs: [entry], weight: 1, contexts: undefined });
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const e = entry as Record<string, unknown>;
    out.push({ inputs: (Array.isArray(e.input) ? e.input : [e.input]).filter((i): i is string => typeof i === 'string'), weight: Number(e.weight ?? 1), contexts: e.contexts });
  }
  return out;
}

/** A completion option is rendered as a search hit is (Elasticsearch's Option writes its SearchHit's fields), `_type` included. */
interface CompletionOption {
  text: string;
  _index: string;
  _type: '_doc';
  _id: string;
  _score: number;
  _source?: unknown;
  contexts?: Record<string, string[]>;
  order: number;
}

/** At most this many analyzed forms of one text (paths through its stacked tokens). */
const MAX_FORMS = 64;

/**
 * The analyzed forms of a completion input or prefix: one per path through its tokens, the
 * tokens stacked at one position (a synonym's alternatives) each starting a path of its own, as
 * Lucene's completion analyzer turns the token graph into an automaton — "Foo Fighters" with the
 * synonyms foo, renamed is "foo fighters" and "renamed fighters".
 */
function analyzedForms(analyzer: { analyze(text: string): Array<{ token: string; position: number }> }, text: string, separator = ' '): string[] {
  let forms: string[] = [];
  let position: number | undefined;
  let stacked: string[] = [];
  const extend = () => {
    forms = forms.length === 0 ? stacked : forms.flatMap((f) => stacked.map((t) => `${f}${separator}${t}`)).slice(0, MAX_FORMS);
  };
  for (const t of analyzer.analyze(text)) {
    if (t.position !== position && stacked.length) {
      extend();
      stacked = [];
    }
    position = t.position;
    stacked.push(t.token);
  }
  if (stacked.length) extend();
  return forms.length ? forms : [''];
}

/**
 * What a completion field indexes of an input: its first `max_input_length` UTF-16 code units
 * (default 50; a surrogate pair is not split), as Elasticsearch's CompletionFieldMapper cuts it
 * before Lucene sees it — the suggestion's text is that cut input.
 */
function indexedInput(input: string, maxInputLength: number): string {
  if (input.length <= maxInputLength) return input;
  const cut = maxInputLength > 0 && /[\uD800-\uDBFF]/.test(input[maxInputLength - 1]) ? maxInputLength - 1 : maxInputLength;
  return input.slice(0, cut);
}

/**
 * A completion suggester's options, each a document with its `_source` filtered as the search's
 * hits are (`_source` of the body, `_source_includes`/`_source_excludes` of the URL): Elasticsearch
 * fetches them in the same fetch phase.
 */
function completionSuggest(handles: IndexHandle[], s: DictionarySuggestRequest, fetched: SourceFilter): unknown[] {
  const options: CompletionOption[] = [];
  let order = 0;
  for (const h of handles) {
    const mapping = resolveFieldMapping(h.mappings, s.field);
    if (!mapping) continue;
    if (fieldType(mapping) !== 'completion') throw bad(`Field [${s.field}] is not a completion suggest field`);
    const contextMappings = contextMappingsOf(mapping);
    const accepted = contextMappings.length ? queryContexts(contextMappings, s.contexts) : undefined;
    const analyzer = h.registry.analyzer(typeof mapping.search_analyzer === 'string' ? mapping.search_analyzer : typeof mapping.analyzer === 'string' ? mapping.analyzer : 'simple');
    const indexAnalyzer = h.registry.analyzer(typeof mapping.analyzer === 'string' ? mapping.analyzer : 'simple');
    // `preserve_separators: false`: the tokens of a form follow one another with no separator ("foof" finds "Foo Fighters")
    const separator = mapping.preserve_separators === false || mapping.preserve_separators === 'false' ? '' : ' ';
    const maxInputLength = mapping.max_input_length === undefined ? 50 : Number(mapping.max_input_length);
    const matchers = s.regex !== undefined
      ? [regexMatcher(s.regex)]
      : analyzedForms(analyzer, s.text, separator).map((prefix) => (s.fuzzy ? fuzzyMatcher(prefix, s.fuzzy) : prefixMatcher(prefix)));
    // the best boost any analyzed form of the input gets from any form of the prefix
    const match = (input: string): number | undefined => {
      let best: number | undefined;
      for (const form of analyzedForms(indexAnalyzer, input, separator)) {
        for (const matcher of matchers) {
          const boost = matcher(form);
          if (boost !== undefined && (best === undefined || boost > best)) best = boost;
        }
      }
      return best;
    };
    const fi = h.inverted!.field(s.field);
    if (!fi) continue;
    const live = h.inverted!.liveness;
    for (let ord = 0; ord < h.inverted!.maxOrd; ord++) {
      if (live[ord] !== 1) continue;
      const inputs = fi.docValues.get(ord);
      if (!inputs?.some((input) => match(indexedInput(String(input), maxInputLength)) !== undefined)) continue;
      const id = h.inverted!.idOf(ord)!;
      const source = h.get(id)?.source;
      // A completion multi-field's entries sit at its parent's path in _source.
      const path = s.field.split('.');
      let entries = entriesFromSource(source, path);
      if (!entries.length && path.length > 1) entries = entriesFromSource(source, path.slice(0, -1));
      let best: { text: string; score: number; contexts?: Record<string, string[]> } | undefined;
      for (const entry of entries) {
        const context = accepted ? bestContext(accepted, entryContexts(contextMappings, entry.contexts, source)) : undefined;
        if (accepted && !context) continue;
        for (const input of entry.inputs) {
          const text = indexedInput(input, maxInputLength);
          const boost = match(text);
          if (boost === undefined) continue;
          // Lucene's CompletionScorer: a boost of 0 leaves the weight as it is
          const score = entry.weight * (boost || 1) * (context?.boost ?? 1);
          if (!best || score > best.score) best = { text, score, contexts: context && { [context.name]: [context.value] } };
        }
      }
      if (!best) continue;
      const shown = source === undefined ? undefined : filterSource(source, fetched);
      options.push({ text: best.text, _index: h.name, _type: '_doc', _id: id, _score: best.score, ...(shown ? { _source: shown } : {}), ...(best.contexts ? { contexts: best.contexts } : {}), order: order++ });
    }
  }
  options.sort((a, b) => b._score - a._score || (a.text < b.text ? -1 : a.text > b.text ? 1 : a.order - b.order));
  const picked: CompletionOption[] = [];
  const texts = new Set<string>();
  for (const o of options) {
    if (picked.length >= s.size) break;
    if (s.skipDuplicates && texts.has(o.text)) continue;
    texts.add(o.text);
    picked.push(o);
  }
  return [{ text: s.text, offset: 0, length: s.text.length, options: picked.map(({ order: _o, ...rest }) => rest) }];
}

/**
 * The response's `suggest` section; with `typed_keys` each suggestion's name is prefixed by its
 * type (`term#name`, `phrase#name`, `completion#name`), as aggregation names are.
 */
export function runSuggest(handles: IndexHandle[], suggestions: SuggestRequest[], fetched: SourceFilter = FETCH_ALL, typedKeys = false): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const s of suggestions) {
    out[typedKeys ? `${s.kind}#${s.name}` : s.name] = s.kind === 'phrase' ? phraseSuggest(handles, s.text, s.phrase) : s.kind === 'term' ? termSuggest(handles, s) : completionSuggest(handles, s, fetched);
  }
  return out;
}
