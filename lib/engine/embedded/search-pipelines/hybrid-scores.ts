/**
 * OpenSearch's hybrid search phase-results processors (neural-search 2.10+): `normalization-processor`
 * (each sub-query's scores brought to one scale — min_max, l2 — then combined per document —
 * arithmetic, geometric or harmonic mean, optionally weighted) and `score-ranker-processor` (2.19,
 * reciprocal rank fusion). They act on a search whose query is a `hybrid` query and leave any other
 * search alone, as OpenSearch's do.
 *
 * The engine runs a hybrid query as one search whose sub-queries are named (their per-hit scores
 * read back through `include_named_queries_score`) over the window OpenSearch collects
 * (`pagination_depth`, else from + size), then ranks the window by the combined score and answers
 * the page asked for. OpenSearch collects each sub-query's own top window per shard; the two agree
 * whenever the sub-queries' matches fit in the window.
 */
import { EsError } from '../../../errors/index.js';
import { isMap, type ConfigReader, type JsonMap } from '../ingest/index.js';

/** One sub-query's scores for the window's hits (undefined: the hit does not match it). */
type SubScores = Array<number | undefined>;

export interface PhaseProcessor {
  readonly kind: 'phase';
  readonly type: string;
  readonly ignoreFailure: boolean;
  /** How `hybrid_score_explanation` names the combination and each sub-query's part in it. */
  readonly describe: { combination: string; part: string };
  /** Each hit's combined score and its sub-query parts (one list per sub-query, hits in window order). */
  combine(scores: readonly SubScores[]): { combined: number[]; parts: SubScores[] };
}

/** A hybrid hit's explanation, in the shape of the neural plugin's `hybrid_score_explanation`. */
export interface Explanation {
  value: number;
  description: string;
  details: Explanation[];
}

/** The pipeline-context key under which a hybrid search leaves each hit's explanation (by `_index` and `_id`). */
export const HYBRID_EXPLANATIONS = 'hybrid_score_explanations';
export const hitKey = (hit: JsonMap) => `${String(hit._index)}/${String(hit._id)}`;

const SUB_QUERY_NAME = '_hybrid_sub_query_';
const DEFAULT_WINDOW = 10;
const SINGLE_RESULT_SCORE = 1;
const MIN_NORMALIZED_SCORE = 0.001;

const NORMALIZATIONS: Record<string, (scores: SubScores) => SubScores> = {
  min_max: (scores) => {
    const present = scores.filter((s): s is number => s !== undefined);
    const min = Math.min(...present);
    const max = Math.max(...present);
    return scores.map((s) => (s === undefined ? s : max === min ? SINGLE_RESULT_SCORE : Math.max((s - min) / (max - min), MIN_NORMALIZED_SCORE)));
  },
  l2: (scores) => {
    const norm = Math.sqrt(scores.reduce<number>((sum, s) => sum + (s ?? 0) ** 2, 0));
    return scores.map((s) => (s === undefined ? s : norm === 0 ? 0 : s / norm));
  },
};

/** A document's score from its normalized sub-query scores (0 where it does not match) and their weights. */
const COMBINATIONS: Record<string, (scores: number[], weights: number[]) => number> = {
  arithmetic_mean: (scores, weights) => sum(scores.map((s, i) => s * weights[i])) / sum(weights),
  geometric_mean: (scores, weights) => {
    const used = scores.flatMap((s, i) => (s > 0 ? [[s, weights[i]]] : []));
    return used.length ? Math.exp(sum(used.map(([s, w]) => w * Math.log(s))) / sum(used.map(([, w]) => w))) : 0;
  },
  harmonic_mean: (scores, weights) => {
    const used = scores.flatMap((s, i) => (s > 0 ? [[s, weights[i]]] : []));
    return used.length ? sum(used.map(([, w]) => w)) / sum(used.map(([s, w]) => w / s)) : 0;
  },
};

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export const PHASE_PROCESSORS: Record<string, (c: ConfigReader) => (ignoreFailure: boolean) => PhaseProcessor> = {
  'normalization-processor': (c) => {
    const normalization = techniqueOf(c, 'normalization', c.optionalMap('normalization'), 'min_max', NORMALIZATIONS);
    const combination = c.optionalMap('combination') ?? {};
    const technique = techniqueOf(c, 'combination', combination, 'arithmetic_mean', COMBINATIONS);
    const weights = weightsOf(c, combination.parameters);
    return (ignoreFailure) => ({
      kind: 'phase', type: 'normalization-processor', ignoreFailure,
      describe: { combination: `${technique} combination of:`, part: `${normalization} normalization of:` },
      combine(subs) {
        const normalized = subs.map(NORMALIZATIONS[normalization]);
        const w = subs.map((_, i) => weights?.[i] ?? 1);
        if (weights && weights.length !== subs.length) {
          throw new EsError(400, 'illegal_argument_exception', `number of weights [${weights.length}] must match number of sub-queries [${subs.length}] in hybrid query`);
        }
        return { combined: subs[0].map((_, hit) => COMBINATIONS[technique](normalized.map((s) => s[hit] ?? 0), w)), parts: normalized };
      },
    });
  },
  'score-ranker-processor': (c) => {
    const combination = c.optionalMap('combination') ?? {};
    const { technique = 'rrf', rank_constant: rankConstant = 60, ...rest } = combination;
    if (technique !== 'rrf') throw c.error('combination', `provided combination technique [${String(technique)}] is not supported`);
    if (typeof rankConstant !== 'number' || !Number.isInteger(rankConstant) || rankConstant < 1 || rankConstant >= 10000) {
      throw c.error('combination', `rank constant must be in the interval between 1 and 10000, submitted rank constant: ${String(rankConstant)}`);
    }
    const unknown = Object.keys(rest).filter((k) => k !== 'parameters');
    if (unknown.length) throw c.error('combination', `unrecognized parameters in combination technique: [${unknown.join(', ')}]`);
    return (ignoreFailure) => ({
      kind: 'phase', type: 'score-ranker-processor', ignoreFailure,
      describe: { combination: 'rrf combination of:', part: `rrf, rank_constant [${rankConstant}] normalization of:` },
      combine(subs) {
        // each hit's rank (1-based) in each sub-query's own order gives 1/(rank_constant + rank); a sub-query it does not match adds nothing
        const parts = subs.map((scores) => {
          const order = scores.map((s, hit) => [s, hit] as const).filter(([s]) => s !== undefined).sort((a, b) => b[0]! - a[0]! || a[1] - b[1]);
          const part: SubScores = scores.map(() => undefined);
          order.forEach(([, hit], i) => (part[hit] = 1 / (rankConstant + i + 1)));
          return part;
        });
        return { combined: subs[0].map((_, hit) => sum(parts.map((p) => p[hit] ?? 0))), parts };
      },
    });
  },
};

function techniqueOf(c: ConfigReader, member: 'normalization' | 'combination', config: JsonMap | undefined, fallback: string, known: Record<string, unknown>): string {
  const technique = config?.technique ?? fallback;
  if (typeof technique !== 'string' || !Object.hasOwn(known, technique)) {
    throw c.error(member, `provided ${member} technique [${String(technique)}] is not supported`);
  }
  return technique;
}

function weightsOf(c: ConfigReader, parameters: unknown): number[] | undefined {
  if (parameters === undefined) return undefined;
  if (!isMap(parameters)) throw c.error('combination', 'parameters must be an object');
  const { weights } = parameters;
  if (weights === undefined) return undefined;
  if (!Array.isArray(weights) || !weights.every((w) => typeof w === 'number' && w >= 0 && w <= 1)) {
    throw c.error('combination', 'all weights must be numbers in the range [0.0, 1.0]');
  }
  if (Math.abs(sum(weights) - 1) > 0.0001) throw c.error('combination', 'sum of weights for combination must be equal to 1.0');
  return weights;
}

/** The hybrid query of a search body, if its query is one. */
function hybridOf(body: JsonMap): JsonMap | undefined {
  const query = body.query;
  return isMap(query) && isMap(query.hybrid) && Object.keys(query).length === 1 ? query.hybrid : undefined;
}

/**
 * The body (and URL parameters) the engine runs for a hybrid search through `processor`, and what
 * ranks its window; undefined when the query is not hybrid. `namedScores`: the caller asked for
 * its named queries' scores (`include_named_queries_score`), which the sub-queries' need anyway.
 */
export function hybridSearch(body: JsonMap, processor: PhaseProcessor, namedScores: boolean): {
  body: JsonMap;
  params: Record<string, string>;
  answer(raw: JsonMap, explanations: Map<string, Explanation>): JsonMap;
} | undefined {
  const hybrid = hybridOf(body);
  if (!hybrid || !Array.isArray(hybrid.queries)) return undefined;
  const queries = hybrid.queries;
  const from = typeof body.from === 'number' ? body.from : 0;
  const size = typeof body.size === 'number' ? body.size : DEFAULT_WINDOW;
  const window = typeof hybrid.pagination_depth === 'number' ? hybrid.pagination_depth : from + size;
  const named = queries.map((q, i) => ({ bool: { must: [q], _name: SUB_QUERY_NAME + i } }));
  const { pagination_depth: _depth, queries: _queries, ...hybridRest } = hybrid;
  const run: JsonMap = {
    ...body, from: 0, size: window,
    query: { hybrid: { ...hybridRest, queries: named } },
  };
  return {
    body: run,
    params: { include_named_queries_score: 'true' },
    answer(raw, explanations) {
      const hits = isMap(raw.hits) && Array.isArray(raw.hits.hits) ? raw.hits.hits.filter(isMap) : [];
      const subs: SubScores[] = queries.map((_, i) => hits.map((h) => matchedScore(h, SUB_QUERY_NAME + i)));
      const { combined, parts } = hits.length ? processor.combine(subs) : { combined: [], parts: [] };
      hits.forEach((h, i) => explanations.set(hitKey(h), {
        value: combined[i],
        description: processor.describe.combination,
        details: parts.flatMap((part, q) => (part[i] === undefined ? [] : [{
          value: part[i]!,
          description: processor.describe.part,
          details: [{ value: subs[q][i]!, description: `score of sub-query ${q + 1}`, details: [] }],
        }])),
      }));
      const ranked = hits.map((h, i) => ({ ...withoutSubQueryNames(h, namedScores), _score: combined[i] }))
        .sort((a, b) => b._score - a._score)
        .slice(from, from + size);
      const maxScore = ranked.length ? Math.max(...ranked.map((h) => h._score)) : null;
      return { ...raw, hits: { ...(raw.hits as JsonMap), max_score: maxScore, hits: ranked } };
    },
  };
}

function matchedScore(hit: JsonMap, name: string): number | undefined {
  const matched = hit.matched_queries;
  return isMap(matched) && typeof matched[name] === 'number' ? matched[name] : undefined;
}

/** A hit's `matched_queries` without the sub-query names the search added (a list of the user's names, or scores when asked). */
function withoutSubQueryNames(hit: JsonMap, scores: boolean): JsonMap {
  const { matched_queries: matched, ...rest } = hit;
  if (!isMap(matched)) return rest;
  const own = Object.entries(matched).filter(([k]) => !k.startsWith(SUB_QUERY_NAME));
  if (!own.length) return rest;
  return { ...rest, matched_queries: scores ? Object.fromEntries(own) : own.map(([k]) => k) };
}
