import { EsError } from '../../../errors/index.js';
import { float32, parseQuery, type Explanation, type Query } from './query/index.js';
import { TopK } from './sort/index.js';

/** How a rescored document's two scores are combined (Elasticsearch's QueryRescoreMode). */
export type RescoreMode = 'total' | 'multiply' | 'avg' | 'max' | 'min';

/** One `rescore` entry: the query rescorer over the top `windowSize` documents of each index. */
export interface Rescorer {
  windowSize: number;
  query: Query;
  queryWeight: number;
  rescoreQueryWeight: number;
  scoreMode: RescoreMode;
}

/** A document of an index's top documents, with the score the rescorers change. */
export interface RescoredDoc {
  ord: number;
  score: number;
}

const DEFAULT_WINDOW_SIZE = 10;
const MODES = new Set<RescoreMode>(['total', 'multiply', 'avg', 'max', 'min']);

function parsingError(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function numberOf(value: unknown, name: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw parsingError(`[query] failed to parse field [${name}]`);
  return n;
}

function parseOne(raw: unknown): Rescorer {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw parsingError('rescore must be an object or an array of objects');
  let windowSize = DEFAULT_WINDOW_SIZE;
  let rescorer: Omit<Rescorer, 'windowSize'> | undefined;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === 'window_size') {
      const n = numberOf(value, 'window_size');
      if (!Number.isInteger(n) || n < 0) throw new EsError(400, 'illegal_argument_exception', `[window_size] must be greater than or equal to 0`);
      windowSize = n;
    } else if (key === 'query') rescorer = parseQueryRescorer(value);
    else if (key === 'learning_to_rank' || key === 'script') {
      throw new EsError(400, 'illegal_argument_exception', `rescorer [${key}] is not supported by the embedded engine`);
    } else throw parsingError(`rescore doesn't support rescorer with name [${key}]`);
  }
  if (!rescorer) throw parsingError('missing rescore type');
  return { windowSize, ...rescorer };
}

function parseQueryRescorer(raw: unknown): Omit<Rescorer, 'windowSize'> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw parsingError('[query] must be an object');
  const out = { queryWeight: 1, rescoreQueryWeight: 1, scoreMode: 'total' as RescoreMode, query: undefined as Query | undefined };
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    switch (key) {
      case 'rescore_query':
        out.query = parseQuery(value);
        break;
      case 'query_weight':
        out.queryWeight = numberOf(value, key);
        break;
      case 'rescore_query_weight':
        out.rescoreQueryWeight = numberOf(value, key);
        break;
      case 'score_mode': {
        const mode = String(value).toLowerCase() as RescoreMode;
        if (!MODES.has(mode)) throw new EsError(400, 'illegal_argument_exception', `illegal score_mode [${String(value)}]`);
        out.scoreMode = mode;
        break;
      }
      default:
        throw parsingError(`[query] unknown field [${key}]`);
    }
  }
  if (!out.query) throw parsingError('[query] rescore_query cannot be null');
  return { ...out, query: out.query };
}

/** `rescore`: one rescorer or an array of them, applied in order. */
export function parseRescore(raw: unknown): Rescorer[] {
  return Array.isArray(raw) ? raw.map(parseOne) : [parseOne(raw)];
}

const f = Math.fround;

/** The two weighted scores of a rescored document combined by the rescorer's mode (float arithmetic, as Lucene's). */
function combine(mode: RescoreMode, primary: number, secondary: number): number {
  switch (mode) {
    case 'total':
      return f(primary + secondary);
    case 'multiply':
      return f(primary * secondary);
    case 'avg':
      return f((primary + secondary) / 2);
    case 'max':
      return Math.max(primary, secondary);
    case 'min':
      return Math.min(primary, secondary);
  }
}

/** A document of the window: its first-pass score and, when the rescore query matches it, that query's. */
function combined(r: Rescorer, first: number, second: number | undefined): number {
  const primary = f(f(first) * f(r.queryWeight));
  if (second === undefined) return primary;
  return combine(r.scoreMode, primary, f(f(second) * f(r.rescoreQueryWeight)));
}

/**
 * A hit's explanation through one rescorer, as Elasticsearch's QueryRescorer explains it: the
 * first pass times `primaryWeight`; for a document of the window that the rescore query matches,
 * that and the rescore query's explanation times `secondaryWeight`, combined by the score mode.
 */
export function explainRescore(r: Rescorer, source: Explanation, rescored: boolean, second: () => { matched: boolean; explanation: Explanation }): Explanation {
  const primary: Explanation = {
    value: float32(f(source.value) * f(r.queryWeight)),
    description: 'product of:',
    details: [source, { value: float32(r.queryWeight), description: 'primaryWeight', details: [] }],
  };
  if (!rescored) return primary;
  const rescore = second();
  if (!rescore.matched) return primary;
  const secondary: Explanation = {
    value: float32(f(rescore.explanation.value) * f(r.rescoreQueryWeight)),
    description: 'product of:',
    details: [rescore.explanation, { value: float32(r.rescoreQueryWeight), description: 'secondaryWeight', details: [] }],
  };
  return { value: float32(combine(r.scoreMode, f(primary.value), f(secondary.value))), description: `${r.scoreMode} of:`, details: [primary, secondary] };
}

const byScore = (a: RescoredDoc, b: RescoredDoc) => b.score - a.score || a.ord - b.ord;

/**
 * One rescorer over an index's top documents (best first), as Elasticsearch's QueryRescorer: the
 * first `windowSize` get the combined score (a document the rescore query does not match keeps
 * its own, weighted by `query_weight`); the documents past the window are weighted by
 * `query_weight` too; then all are ordered again by score (ties by index order).
 */
export function rescoreTop(docs: RescoredDoc[], r: Rescorer, rescoreScore: (ord: number) => number | undefined): RescoredDoc[] {
  return docs
    .map((d, i) => ({ ord: d.ord, score: i < r.windowSize ? combined(r, d.score, rescoreScore(d.ord)) : f(f(d.score) * f(r.queryWeight)) }))
    .sort(byScore);
}

/** The first-pass top `n` of an index's matches, best first (ties by index order), without sorting every match. */
export function topDocs(ords: ArrayLike<number>, scores: ArrayLike<number>, length: number, n: number): RescoredDoc[] {
  const top = new TopK<RescoredDoc>(n, byScore);
  const probe: RescoredDoc = { ord: 0, score: 0 };
  for (let i = 0; i < length; i++) {
    probe.ord = ords[i];
    probe.score = scores[i];
    if (top.admits(probe)) top.push({ ord: probe.ord, score: probe.score });
  }
  return top.sorted();
}

/**
 * Checks a rescored search as Elasticsearch's search context does: no sort but `_score`
 * (descending), no `collapse`, and every window within `index.max_rescore_window`.
 */
export function checkRescore(rescorers: Rescorer[], onlyScoreSort: boolean, maxRescoreWindow: number): void {
  if (!onlyScoreSort) throw new EsError(400, 'illegal_argument_exception', 'Cannot use [sort] option in conjunction with [rescore].');
  for (const r of rescorers) {
    if (r.windowSize > maxRescoreWindow) {
      throw new EsError(400, 'illegal_argument_exception',
        `Rescore window [${r.windowSize}] is too large. It must be less than [${maxRescoreWindow}]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_rescore_window] index level setting.`);
    }
  }
}
