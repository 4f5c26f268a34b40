/**
 * The `phrase` suggester, as Elasticsearch's PhraseSuggester: a noisy-channel spell checker over
 * the whole text. The text is analyzed with the field's search analyzer (or `analyzer`); each
 * single token (shingles skipped with `force_unigrams`) becomes a candidate set: the token itself
 * and the terms the direct generators draw for it (DirectSpellChecker over their field, through
 * their pre/post filters), the best `shard_size` kept. Every path through the sets with at most
 * `max_errors` corrections is scored by an n-gram language model of the field (`gram_size`,
 * smoothed by stupid backoff, Laplace or linear interpolation) times each word's channel score
 * (its string similarity, `real_word_error_likelihood` for a word left as it is); the paths that
 * beat the text's own score × `confidence` are the options, best first, ties by their terms.
 *
 * One index is one shard: each index gives its corrections from its own statistics, and the
 * options of several indices are merged as ES reduces shard suggestions. `collate` is refused.
 */
import { EsError } from '../../../../errors/index.js';
import type { Analyzer, Token } from '../../analysis/index.js';
import type { FieldIndex } from '../../index/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { resolveFieldMapping } from '../../mapping/index.js';
import { float32Text } from '../sort/numbers.js';
import { compareTerms, suggestSimilar, type SpellCheckOptions, type SuggestMode } from './direct-spell-checker.js';
import { namedAnalyzer, searchAnalyzerOf } from './search-analyzer.js';

/**
 * Partial paths the correction search scores at most (a guard of this engine's, not Elasticsearch's):
 * with the defaults (five candidates a word, one error, ten words) a search takes a few hundred;
 * many errors over many candidates would take billions.
 */
const MAX_STEPS = 200_000;

export interface DirectGenerator extends Omit<SpellCheckOptions, 'maxQueryFrequency' | 'thresholdFrequency'> {
  field: string;
  /** max_term_freq */
  maxTermFreq: number;
  /** min_doc_freq */
  minDocFreq: number;
  preFilter?: string;
  postFilter?: string;
}

export type SmoothingModel =
  | { kind: 'stupid_backoff'; discount: number }
  | { kind: 'laplace'; alpha: number }
  | { kind: 'linear_interpolation'; trigramLambda: number; bigramLambda: number; unigramLambda: number };

export interface PhraseSuggestOptions {
  field: string;
  analyzer?: string;
  size: number;
  shardSize: number;
  gramSize?: number;
  /** Floats, as ES keeps them. */
  realWordErrorLikelihood: number;
  confidence: number;
  maxErrors: number;
  separator: string;
  forceUnigrams: boolean;
  tokenLimit: number;
  highlight?: { preTag: string; postTag: string };
  smoothing: SmoothingModel;
  generators: DirectGenerator[];
}

function bad(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

function parsing(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function number(v: unknown, name: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw bad(`[${name}] must be a number but was [${String(v)}]`);
  return n;
}

function integer(v: unknown, name: string): number {
  return Math.trunc(number(v, name));
}

function bool(v: unknown, name: string): boolean {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw bad(`Failed to parse value [${String(v)}] of [${name}] as only [true] or [false] are allowed.`);
}

const GENERATOR_DEFAULTS: Omit<DirectGenerator, 'field'> = {
  size: 5, suggestMode: 'missing', accuracy: Math.fround(0.5), sort: 'score', maxEdits: 2, maxInspections: 5,
  maxTermFreq: Math.fround(0.01), prefixLength: 1, minWordLength: 4, minDocFreq: 0,
};

/** One `direct_generator` entry (DirectCandidateGeneratorBuilder). */
function parseGenerator(raw: unknown): DirectGenerator {
  if (!isObject(raw)) throw new EsError(400, 'x_content_parse_exception', '[direct_generator] expected an object');
  const g: DirectGenerator = { field: '', ...GENERATOR_DEFAULTS };
  for (const [key, v] of Object.entries(raw)) {
    switch (key) {
      case 'field': g.field = String(v); break;
      case 'size': g.size = integer(v, key); break;
      case 'suggest_mode': {
        const mode = String(v).toLowerCase();
        if (mode !== 'missing' && mode !== 'popular' && mode !== 'always') throw bad(`Illegal suggest mode ${String(v)}`);
        g.suggestMode = mode as SuggestMode;
        break;
      }
      case 'accuracy': g.accuracy = Math.fround(number(v, key)); break;
      case 'sort': {
        const sort = String(v).toLowerCase();
        if (sort !== 'score' && sort !== 'frequency') throw bad(`Illegal suggest sort ${String(v)}`);
        g.sort = sort;
        break;
      }
      case 'string_distance':
        if (String(v).toLowerCase() !== 'internal') throw bad(`[string_distance] [${String(v)}] is not supported by the embedded engine yet (only [internal])`);
        break;
      case 'max_edits': {
        const edits = integer(v, key);
        if (edits < 1 || edits > 2) throw bad(`Illegal max_edits value ${edits}`);
        g.maxEdits = edits;
        break;
      }
      case 'max_inspections': g.maxInspections = integer(v, key); break;
      case 'max_term_freq': g.maxTermFreq = Math.fround(number(v, key)); break;
      case 'prefix_length': case 'prefix_len': g.prefixLength = integer(v, key); break;
      case 'min_word_length': case 'min_word_len': g.minWordLength = integer(v, key); break;
      case 'min_doc_freq': g.minDocFreq = Math.fround(number(v, key)); break;
      case 'pre_filter': g.preFilter = String(v); break;
      case 'post_filter': g.postFilter = String(v); break;
      default: throw new EsError(400, 'x_content_parse_exception', `[direct_generator] unknown field [${key}]`);
    }
  }
  if (!g.field) throw new EsError(400, 'x_content_parse_exception', 'Required [field]');
  return g;
}

/** The `smoothing` object: one model (SmoothingModel.fromXContent). */
function parseSmoothing(raw: unknown): SmoothingModel {
  if (!isObject(raw)) throw parsing('suggester[phrase] [smoothing] must be an object');
  let model: SmoothingModel | undefined;
  for (const [name, def] of Object.entries(raw)) {
    const d = isObject(def) ? def : {};
    const only = (allowed: string[], label: string) => {
      for (const key of Object.keys(d)) if (!allowed.includes(key)) throw bad(`suggester[phrase][smoothing][${label}] doesn't support field [${key}]`);
    };
    if (name === 'stupid_backoff' || name === 'stupidBackoff') {
      only(['discount'], 'stupid_backoff');
      model = { kind: 'stupid_backoff', discount: d.discount === undefined ? 0.4 : number(d.discount, 'discount') };
    } else if (name === 'laplace') {
      only(['alpha'], 'laplace');
      model = { kind: 'laplace', alpha: d.alpha === undefined ? 0.5 : number(d.alpha, 'alpha') };
    } else if (name === 'linear_interpolation' || name === 'linearInterpolation' || name === 'linear') {
      only(['trigram_lambda', 'bigram_lambda', 'unigram_lambda'], 'linear');
      const lambda = (key: string) => (d[key] === undefined ? 0 : number(d[key], key));
      const [trigramLambda, bigramLambda, unigramLambda] = [lambda('trigram_lambda'), lambda('bigram_lambda'), lambda('unigram_lambda')];
      if (Math.abs(trigramLambda + bigramLambda + unigramLambda - 1) > 0.001) throw bad('linear smoothing lambdas must sum to 1');
      model = { kind: 'linear_interpolation', trigramLambda, bigramLambda, unigramLambda };
    } else {
      throw bad(`suggester[phrase] doesn't support object field [${name}]`);
    }
  }
  if (!model) throw bad('suggester[phrase] [smoothing] needs a model: [stupid_backoff], [laplace] or [linear_interpolation]');
  return model;
}

/** The body of a `phrase` suggestion (PhraseSuggestionBuilder.fromXContent and its setters' checks). */
export function parsePhraseOptions(o: Record<string, unknown>): PhraseSuggestOptions {
  const out: PhraseSuggestOptions = {
    field: '', size: 5, shardSize: -1,
    realWordErrorLikelihood: Math.fround(0.95), confidence: 1, maxErrors: 1, separator: ' ',
    forceUnigrams: true, tokenLimit: 10, smoothing: { kind: 'stupid_backoff', discount: 0.4 }, generators: [],
  };
  let shardSize: number | undefined;
  for (const [key, v] of Object.entries(o)) {
    switch (key) {
      case 'field': out.field = String(v); break;
      case 'analyzer': out.analyzer = String(v); break;
      case 'size':
        out.size = integer(v, key);
        if (out.size <= 0) throw bad('size must be positive');
        break;
      case 'shard_size':
        shardSize = integer(v, key);
        if (shardSize <= 0) throw bad('shardSize must be positive');
        break;
      case 'gram_size':
        out.gramSize = integer(v, key);
        if (out.gramSize < 1) throw bad('gramSize must be >= 1');
        break;
      case 'real_word_error_likelihood':
        out.realWordErrorLikelihood = Math.fround(number(v, key));
        if (out.realWordErrorLikelihood <= 0) throw bad('real_word_error_likelihood must be > 0.0');
        break;
      case 'confidence':
        out.confidence = Math.fround(number(v, key));
        if (out.confidence < 0) throw bad('confidence must be >= 0.0');
        break;
      case 'max_errors':
        out.maxErrors = Math.fround(number(v, key));
        if (out.maxErrors <= 0) throw bad('max_error must be > 0.0');
        break;
      case 'separator': out.separator = String(v); break;
      case 'force_unigrams': out.forceUnigrams = bool(v, key); break;
      case 'token_limit':
        out.tokenLimit = integer(v, key);
        if (out.tokenLimit <= 0) throw bad('token_limit must be >= 1');
        break;
      case 'direct_generator':
        if (!Array.isArray(v)) throw parsing(`suggester[phrase] doesn't support field [${key}]`);
        out.generators.push(...v.map(parseGenerator));
        break;
      case 'smoothing': out.smoothing = parseSmoothing(v); break;
      case 'highlight': {
        if (!isObject(v)) throw parsing(`suggester[phrase] doesn't support field [${key}]`);
        for (const k of Object.keys(v)) if (k !== 'pre_tag' && k !== 'post_tag') throw parsing(`suggester[phrase][highlight] doesn't support field [${k}]`);
        if ((v.pre_tag === undefined) !== (v.post_tag === undefined)) throw bad('Pre and post tag must both be null or both not be null.');
        if (v.pre_tag !== undefined) out.highlight = { preTag: String(v.pre_tag), postTag: String(v.post_tag) };
        break;
      }
      case 'collate':
        throw bad('[collate] of the phrase suggester is not supported by the embedded engine yet');
      default:
        throw parsing(`suggester[phrase] doesn't support field [${key}]`);
    }
  }
  if (!out.field) throw bad('the required field option [field] is missing');
  out.shardSize = shardSize ?? Math.max(out.size, 5);
  return out;
}

/** Lucene's TermStats. */
interface TermStats {
  docFreq: number;
  totalTermFreq: number;
}

/** One word of a path: a term with its statistics, string similarity and generator score. */
interface Candidate {
  term: string;
  stats: TermStats;
  /** The channel's string similarity: 1 for the text's own word. */
  stringDistance: number;
  score: number;
  userInput: boolean;
}

/** A word of the text and the corrections drawn for it. */
interface CandidateSet {
  original: Candidate;
  candidates: Candidate[];
}

/** Strongest first: higher score, then the earlier term. */
function strongerFirst(a: Candidate, b: Candidate): number {
  return b.score - a.score || compareTerms(a.term, b.term);
}

/** Statistics of one field of an index, cached for the request. */
class FieldStats {
  private readonly cache = new Map<string, TermStats>();
  constructor(
    readonly index: FieldIndex,
    private readonly live: Uint8Array,
  ) {}

  of(term: string): TermStats {
    let s = this.cache.get(term);
    if (!s) this.cache.set(term, (s = this.index.termStats(term, this.live)));
    return s;
  }
}

/** The last token of `term` through `analyzer` (ES's pre_filter), or the term itself when it gives none. */
function lastToken(analyzer: Analyzer | undefined, term: string): string {
  if (!analyzer) return term;
  const tokens = analyzer.analyze(term);
  return tokens.length ? tokens[tokens.length - 1].token : term;
}

/** A `direct_generator` bound to an index (ES's DirectCandidateGenerator). */
class DirectCandidateGenerator {
  private readonly sumTotalTermFreq: number;
  /** The document frequency at which `popular` stops asking for more (from min_doc_freq). */
  private readonly frequencyPlateau: number;

  constructor(
    private readonly options: DirectGenerator,
    private readonly stats: FieldStats,
    private readonly live: Uint8Array,
    private readonly maxDoc: number,
    private readonly nonErrorLikelihood: number,
    private readonly preFilter: Analyzer | undefined,
    private readonly postFilter: Analyzer | undefined,
  ) {
    this.sumTotalTermFreq = stats.index.sumTotalTermFreq;
    const t = options.minDocFreq;
    this.frequencyPlateau = t >= 1 ? Math.trunc(t) : Math.trunc(maxDoc * t);
  }

  /** Statistics of a word of the text, through the pre filter. */
  termStats(term: string): TermStats {
    return this.stats.of(lastToken(this.preFilter, term));
  }

  createCandidate(term: string, stats: TermStats, channelScore: number, userInput: boolean): Candidate {
    return { term, stats, stringDistance: channelScore, score: this.score(stats, channelScore), userInput };
  }

  private score(stats: TermStats, errorScore: number): number {
    return errorScore * ((stats.totalTermFreq + 1) / (this.sumTotalTermFreq + 1));
  }

  /** Adds this generator's corrections of the set's word to it. */
  drawCandidates(set: CandidateSet): void {
    const word = lastToken(this.preFilter, set.original.term);
    let thresholdFrequency = this.options.minDocFreq;
    if (this.options.suggestMode !== 'always') {
      const threshold = this.thresholdTermFrequency(set.original.stats.docFreq);
      if (threshold === 2147483647) return;
      if (thresholdFrequency < threshold) thresholdFrequency = threshold;
    }
    const words = suggestSimilar(this.stats.index, this.live, this.maxDoc, word, {
      ...this.options, maxQueryFrequency: this.options.maxTermFreq, thresholdFrequency,
    });
    const drawn: Candidate[] = [];
    for (const w of words) {
      const stats = this.stats.of(w.term);
      const candidate: Candidate = { term: w.term, stats, stringDistance: w.score, score: this.score(stats, w.score), userInput: false };
      this.postFiltered(candidate, drawn);
    }
    // merged without duplicates (a term drawn again replaces the earlier one), strongest first
    const merged = new Map<string, Candidate>();
    for (const c of set.candidates) merged.set(c.term, c);
    for (const c of drawn) merged.set(c.term, c);
    set.candidates = [...merged.values()].sort(strongerFirst);
  }

  /** The candidate through the post filter: a token other than the term itself keeps the term's statistics. */
  private postFiltered(candidate: Candidate, out: Candidate[]): void {
    if (!this.postFilter) {
      out.push(candidate);
      return;
    }
    let position = -1;
    for (const t of this.postFilter.analyze(candidate.term)) {
      const newPosition = t.position > position;
      position = t.position;
      const score = this.score(candidate.stats, candidate.stringDistance);
      if (newPosition && t.token === candidate.term) {
        out.push({ term: t.token, stats: this.stats.of(t.token), stringDistance: candidate.stringDistance, score, userInput: false });
      } else {
        out.push({ term: t.token, stats: candidate.stats, stringDistance: this.nonErrorLikelihood, score, userInput: false });
      }
    }
  }

  /** How many more documents than the word a `popular` correction must be in (ES's log-scaled threshold). */
  private thresholdTermFrequency(docFreq: number): number {
    if (docFreq <= 0) return 0;
    const scaled = docFreq * (Math.log10(docFreq - this.frequencyPlateau) * (1 / Math.log10(5))) + 1;
    const rounded = Number.isNaN(scaled) ? 0 : Math.floor(scaled + 0.5);
    return Math.min(Math.max(0, rounded), 2147483647);
  }
}

/** The n-gram language model of the suggest field with its smoothing (ES's WordScorer and subclasses). */
class WordScorer {
  private readonly vocabularySize: number;
  private readonly numTerms: number;

  constructor(
    private readonly stats: FieldStats,
    private readonly realWordLikelihood: number,
    private readonly separator: string,
    private readonly model: SmoothingModel,
  ) {
    this.vocabularySize = stats.index.sumTotalTermFreq;
    this.numTerms = stats.index.termCount;
  }

  private frequency(...terms: string[]): number {
    return this.stats.of(terms.join(this.separator)).totalTermFreq;
  }

  /** log10 of the channel score × the language model's probability of the word at `at`. */
  score(path: Candidate[], at: number, gramSize: number): number {
    const w = path[at];
    const channel = w.stringDistance === 1 ? this.realWordLikelihood : w.stringDistance;
    const p = at === 0 || gramSize === 1 ? this.unigram(w)
      : at === 1 || gramSize === 2 ? this.bigram(w, path[at - 1])
        : this.trigram(w, path[at - 1], path[at - 2]);
    return Math.log10(channel * p);
  }

  private unigram(w: Candidate): number {
    if (this.model.kind === 'laplace') return (this.model.alpha + this.frequency(w.term)) / (this.vocabularySize + this.model.alpha * this.numTerms);
    return (1 + this.frequency(w.term)) / (this.vocabularySize + this.numTerms);
  }

  private bigram(w: Candidate, w1: Candidate): number {
    const m = this.model;
    const count = this.frequency(w1.term, w.term);
    switch (m.kind) {
      case 'stupid_backoff':
        return count < 1 ? m.discount * this.unigram(w) : count / (w1.stats.totalTermFreq + 0.00000000001);
      case 'laplace':
        return (m.alpha + count) / (w1.stats.totalTermFreq + m.alpha * this.numTerms);
      case 'linear_interpolation': {
        const [, bigramLambda, unigramLambda] = this.lambdas(m);
        if (count < 1) return unigramLambda * this.unigram(w);
        return bigramLambda * (count / (0.5 + w1.stats.totalTermFreq)) + unigramLambda * this.unigram(w);
      }
      default:
        return assertNever(m);
    }
  }

  private trigram(w: Candidate, w1: Candidate, w2: Candidate): number {
    const m = this.model;
    switch (m.kind) {
      case 'stupid_backoff': {
        // the bigram first: without it the trigram cannot be there either
        const bigramCount = this.frequency(w1.term, w.term);
        if (bigramCount < 1) return m.discount * this.unigram(w);
        const trigramCount = this.frequency(w2.term, w1.term, w.term);
        if (trigramCount < 1) return m.discount * (bigramCount / (w1.stats.totalTermFreq + 0.00000000001));
        return trigramCount / (bigramCount + 0.00000000001);
      }
      case 'laplace':
        return (m.alpha + this.frequency(w2.term, w1.term, w.term)) / (this.frequency(w1.term, w.term) + m.alpha * this.numTerms);
      case 'linear_interpolation': {
        // ES joins these n-grams last word first (w w-1 w-2, w w-1); kept so that scores match
        const [trigramLambda] = this.lambdas(m);
        const count = this.frequency(w.term, w1.term, w2.term);
        if (count < 1) return this.bigram(w, w1);
        return trigramLambda * (count / (1 + this.frequency(w.term, w1.term))) + this.bigram(w, w1);
      }
      default:
        return assertNever(m);
    }
  }

  /** The lambdas normalised to sum 1. */
  private lambdas(m: { trigramLambda: number; bigramLambda: number; unigramLambda: number }): [number, number, number] {
    const sum = m.trigramLambda + m.bigramLambda + m.unigramLambda;
    return [m.trigramLambda / sum, m.bigramLambda / sum, m.unigramLambda / sum];
  }
}

function assertNever(x: never): never {
  throw new Error(`unexpected smoothing model ${JSON.stringify(x)}`);
}

interface Correction {
  score: number;
  candidates: Candidate[];
}

/** Correction order: by score, then (equal scores) the earlier terms are the stronger. Negative when `a` is weaker. */
function compareCorrections(a: Correction, b: Correction): number {
  if (a.score !== b.score) return a.score < b.score ? -1 : 1;
  const n = Math.min(a.candidates.length, b.candidates.length);
  for (let i = 0; i < n; i++) {
    const cmp = compareTerms(a.candidates[i].term, b.candidates[i].term);
    if (cmp !== 0) return -cmp;
  }
  return a.candidates.length - b.candidates.length;
}

/** The best paths through the candidate sets (ES's CandidateScorer). */
class CandidateScorer {
  private readonly best: Correction[] = [];

  constructor(
    private readonly scorer: WordScorer,
    private readonly maxCorrections: number,
    private readonly gramSize: number,
  ) {}

  /** The score of one path: exp of the sum of the words' log10 scores (ES's arithmetic, as it is). */
  score(path: Candidate[]): number {
    let sum = 0;
    for (let i = 0; i < path.length; i++) sum += this.scorer.score(path, i, this.gramSize);
    return Math.exp(sum);
  }

  findBestCandidates(sets: CandidateSet[], maxErrors: number, cutoffScore: number): Correction[] {
    if (!sets.length) return [];
    const misspellings = maxErrors >= 1 ? Math.trunc(maxErrors) : Math.floor(Math.fround(maxErrors * sets.length) + 0.5);
    this.walk(sets, new Array<Candidate>(sets.length), 0, Math.max(1, misspellings), cutoffScore, 0);
    return this.best.sort((a, b) => compareCorrections(b, a));
  }

  /** Paths scored so far: a walk stops at MAX_STEPS, so that many errors over many candidates cannot hold the event loop. */
  private steps = 0;

  private walk(sets: CandidateSet[], path: Candidate[], ord: number, left: number, cutoff: number, pathScore: number): void {
    if (this.steps > MAX_STEPS) return;
    const set = sets[ord];
    const last = ord === sets.length - 1;
    const choices = left > 0 ? [set.original, ...set.candidates] : [set.original];
    for (const choice of choices) {
      if (++this.steps > MAX_STEPS) return;
      path[ord] = choice;
      const score = pathScore + this.scorer.score(path, ord, this.gramSize);
      if (last) this.offer(path, cutoff, score);
      else this.walk(sets, path, ord + 1, choice === set.original ? left : left - 1, cutoff, score);
    }
  }

  /** Keeps the path when it beats the cutoff and the weakest of the best so far. */
  private offer(path: Candidate[], cutoff: number, logScore: number): void {
    const score = Math.exp(logScore);
    if (score <= cutoff) return;
    const correction = { score, candidates: path.slice() };
    if (this.best.length < this.maxCorrections) {
      this.best.push(correction);
      return;
    }
    let weakest = 0;
    for (let i = 1; i < this.best.length; i++) if (compareCorrections(this.best[i], this.best[weakest]) < 0) weakest = i;
    if (compareCorrections(this.best[weakest], correction) < 0) this.best[weakest] = correction;
  }
}

/** The correction's words joined by spaces; with tags, each run of corrected words wrapped in them. */
function joinCorrection(c: Correction, tags?: { preTag: string; postTag: string }): string {
  return c.candidates.map((w, i) => {
    if (!tags || w.userInput) return w.term;
    const open = i === 0 || c.candidates[i - 1].userInput ? tags.preTag : '';
    const close = i === c.candidates.length - 1 || c.candidates[i + 1].userInput ? tags.postTag : '';
    return open + w.term + close;
  }).join(' ');
}

interface PhraseOption {
  text: string;
  highlighted?: string;
  score: number;
}

/** The field's analyzer has a shingle filter that drops single words. */
function withoutUnigrams(analyzer: Analyzer): boolean {
  const s = analyzer.shingle;
  return s !== undefined && s.minShingleSize > 1 && !s.outputUnigrams;
}

/** The candidate sets of the text: one per word (a shingle skipped when unigrams are required; a synonym joins its word's set). */
function candidateSets(tokens: Token[], o: PhraseSuggestOptions, first: DirectCandidateGenerator): CandidateSet[] {
  const sets: CandidateSet[] = [];
  let current: CandidateSet | undefined;
  let anyUnigram = false;
  let position = -1;
  for (const t of tokens) {
    const posInc = t.position - position;
    position = t.position;
    if (o.forceUnigrams && t.type === 'shingle') continue;
    anyUnigram = true;
    if (posInc === 0 && t.type === 'SYNONYM' && current) {
      const stats = first.termStats(t.token);
      if (stats.docFreq > 0) current.candidates.push(first.createCandidate(t.token, stats, o.realWordErrorLikelihood, false));
    } else {
      current = { original: first.createCandidate(t.token, first.termStats(t.token), 1, true), candidates: [] };
      sets.push(current);
    }
  }
  if (o.forceUnigrams && !anyUnigram && tokens.length) throw new EsError(500, 'illegal_state_exception', 'At least one unigram is required but all tokens were ngrams');
  return sets;
}

/** The corrections of one index, with the score they had to beat; undefined when the index has no such field. */
function suggestOnIndex(h: IndexHandle, text: string, o: PhraseSuggestOptions): { options: PhraseOption[]; cutoff: number } | undefined {
  const mapping = resolveFieldMapping(h.mappings, o.field);
  if (!mapping) return undefined;
  const analyzer = o.analyzer ? namedAnalyzer(h, o.analyzer) : h.registry.analyzer(searchAnalyzerOf(mapping, h));
  let generators = o.generators;
  if (!generators.length) {
    if (withoutUnigrams(analyzer) && o.forceUnigrams) {
      throw bad(`The default candidate generator for phrase suggest can't operate on field: [${o.field}] since it doesn't emit unigrams. If you know what you are doing try to set min_shingle_size to 1 in the shingle filter`);
    }
    generators = [{ field: o.field, ...GENERATOR_DEFAULTS }];
  }
  const gramSize = o.gramSize ?? analyzer.shingle?.maxShingleSize ?? 1;
  for (const g of generators) if (!resolveFieldMapping(h.mappings, g.field)) throw bad(`No mapping found for field [${g.field}]`);
  const inverted = h.inverted;
  if (!inverted) return { options: [], cutoff: Number.MIN_VALUE };
  const live = inverted.liveness;
  const fieldStats = new Map<string, FieldStats>();
  const statsOf = (field: string): FieldStats | undefined => {
    const fi = inverted.field(field);
    if (!fi) return undefined;
    let s = fieldStats.get(field);
    if (!s) fieldStats.set(field, (s = new FieldStats(fi, live)));
    return s;
  };
  const gens: DirectCandidateGenerator[] = [];
  for (const g of generators) {
    const pre = g.preFilter === undefined ? undefined : namedAnalyzer(h, g.preFilter);
    const post = g.postFilter === undefined ? undefined : namedAnalyzer(h, g.postFilter);
    const stats = statsOf(g.field);
    if (stats) gens.push(new DirectCandidateGenerator(g, stats, live, inverted.docCount, o.realWordErrorLikelihood, pre, post));
  }
  const suggestStats = statsOf(o.field);
  if (!gens.length || !suggestStats) return { options: [], cutoff: Number.MIN_VALUE };

  const sets = candidateSets(analyzer.analyze(text), o, gens[0]);
  if (!sets.length || sets.length >= o.tokenLimit) return { options: [], cutoff: Number.MIN_VALUE };
  for (const set of sets) {
    for (const g of gens) g.drawCandidates(set);
    if (set.candidates.length > o.shardSize) set.candidates = set.candidates.sort((a, b) => b.score - a.score).slice(0, o.shardSize);
  }
  const scorer = new CandidateScorer(new WordScorer(suggestStats, o.realWordErrorLikelihood, o.separator, o.smoothing), o.shardSize, gramSize);
  const cutoff = o.confidence > 0 ? scorer.score(sets.map((s) => s.original)) * o.confidence : Number.MIN_VALUE;
  const corrections = scorer.findBestCandidates(sets, o.maxErrors, cutoff);
  return {
    cutoff,
    options: corrections.map((c) => ({
      text: joinCorrection(c),
      ...(o.highlight ? { highlighted: joinCorrection(c, o.highlight) } : {}),
      score: Math.fround(c.score),
    })),
  };
}

/** The suggestion's one entry: the whole text and its corrections from every index, best first, `size` of them. */
export function phraseSuggest(handles: IndexHandle[], text: string, o: PhraseSuggestOptions): unknown[] {
  const results = handles.map((h) => suggestOnIndex(h, text, o)).filter((r) => r !== undefined);
  if (!results.length && handles.length) throw bad(`no mapping found for field [${o.field}]`);
  let merged: PhraseOption[] = results[0]?.options ?? [];
  if (results.length > 1) {
    // ES's reduce of shard entries: one option per text at its best score, above every shard's cutoff
    const cutoff = Math.max(...results.map((r) => r.cutoff));
    const byText = new Map<string, PhraseOption>();
    for (const option of results.flatMap((r) => r.options)) {
      const seen = byText.get(option.text);
      if (!seen || option.score > seen.score) byText.set(option.text, option);
    }
    merged = [...byText.values()].filter((option) => option.score > cutoff).sort((a, b) => b.score - a.score || compareTerms(a.text, b.text));
  }
  const options = merged
    .slice(0, o.size)
    .map((option) => ({ text: option.text, ...(option.highlighted !== undefined ? { highlighted: option.highlighted } : {}), score: float32Text(option.score) }));
  return [{ text, offset: 0, length: text.length, options }];
}
