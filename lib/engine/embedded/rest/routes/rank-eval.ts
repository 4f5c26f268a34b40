/**
 * `[/{index}]/_rank_eval` (GET or POST), Elasticsearch's ranking evaluation: each rated request
 * (a search body, or a template with params) runs as a search of its metric's `k` hits without
 * `_source`; the metric scores the hits against the request's ratings; the answer's
 * `metric_score` is the mean over the requests that ran. A request whose search fails is listed
 * under `failures` and leaves the mean.
 *
 * Metrics as the reference defines them: precision, recall, mean_reciprocal_rank, dcg (with
 * `normalize`), expected_reciprocal_rank.
 */
import { EsError, errorBody, toEsError } from '../../../../errors/index.js';
import { parseSearchTemplateRequest, renderSearchTemplate } from '../../scripts/index.js';
import { jsonObject, requestBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { executeSearch } from './search.js';
import { resolveTarget } from './search-target.js';

type Obj = Record<string, unknown>;

interface Rating {
  index: string;
  id: string;
  rating: number;
}

interface RatedRequest {
  id: string;
  body?: Obj;
  templateId?: string;
  params: Obj;
  ratings: Rating[];
}

interface Hit {
  index: string;
  id: string;
  score: number | null;
  rating: number | null;
}

interface Metric {
  name: string;
  k: number;
  /** The score of one request's rated hits, with the details the answer shows. */
  evaluate(hits: Hit[], ratings: Rating[]): { score: number; details: Obj };
}

function isObject(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function parsing(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function intOption(metric: string, body: Obj, key: string, fallback: number): number {
  const v = body[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw parsing(`[${metric}] ${key} doesn't support values of type: ${typeof v === 'string' ? 'VALUE_STRING' : 'VALUE_BOOLEAN'}`);
  return v;
}

function checkKeys(metric: string, body: Obj, keys: string[]): void {
  for (const k of Object.keys(body)) if (!keys.includes(k)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [${metric}] unknown field [${k}]`);
}

const isRelevant = (threshold: number) => (h: Hit) => h.rating !== null && h.rating >= threshold;

function precision(body: Obj): Metric {
  checkKeys('precision', body, ['k', 'relevant_rating_threshold', 'ignore_unlabeled']);
  const k = intOption('precision', body, 'k', 10);
  const threshold = intOption('precision', body, 'relevant_rating_threshold', 1);
  const ignoreUnlabeled = body.ignore_unlabeled === true;
  return {
    name: 'precision', k,
    evaluate(hits) {
      const counted = ignoreUnlabeled ? hits.filter((h) => h.rating !== null) : hits;
      const relevant = counted.filter(isRelevant(threshold)).length;
      return { score: counted.length ? relevant / counted.length : 0, details: { relevant_docs_retrieved: relevant, docs_retrieved: counted.length } };
    },
  };
}

function recall(body: Obj): Metric {
  checkKeys('recall', body, ['k', 'relevant_rating_threshold']);
  const k = intOption('recall', body, 'k', 10);
  const threshold = intOption('recall', body, 'relevant_rating_threshold', 1);
  return {
    name: 'recall', k,
    evaluate(hits, ratings) {
      const retrieved = hits.filter(isRelevant(threshold)).length;
      const relevant = ratings.filter((r) => r.rating >= threshold).length;
      return { score: relevant ? retrieved / relevant : 0, details: { relevant_docs_retrieved: retrieved, relevant_docs: relevant } };
    },
  };
}

function meanReciprocalRank(body: Obj): Metric {
  checkKeys('mean_reciprocal_rank', body, ['k', 'relevant_rating_threshold']);
  const k = intOption('mean_reciprocal_rank', body, 'k', 10);
  const threshold = intOption('mean_reciprocal_rank', body, 'relevant_rating_threshold', 1);
  return {
    name: 'mean_reciprocal_rank', k,
    evaluate(hits) {
      const first = hits.findIndex(isRelevant(threshold));
      return { score: first < 0 ? 0 : 1 / (first + 1), details: { first_relevant: first < 0 ? -1 : first + 1 } };
    },
  };
}

function dcgOf(ratings: number[]): number {
  let sum = 0;
  ratings.forEach((r, i) => {
    sum += (2 ** r - 1) / Math.log2(i + 2);
  });
  return sum;
}

function dcg(body: Obj): Metric {
  checkKeys('dcg', body, ['k', 'normalize', 'unknown_doc_rating']);
  const k = intOption('dcg', body, 'k', 10);
  const normalize = body.normalize === true;
  const unknown = typeof body.unknown_doc_rating === 'number' ? body.unknown_doc_rating : undefined;
  return {
    name: 'dcg', k,
    evaluate(hits, ratings) {
      const gains = hits.map((h) => h.rating ?? unknown ?? 0);
      const value = dcgOf(gains);
      const ideal = dcgOf(ratings.map((r) => r.rating).sort((a, b) => b - a).slice(0, k));
      const normalized = ideal === 0 ? 0 : value / ideal;
      const unrated = hits.filter((h) => h.rating === null).length;
      return { score: normalize ? normalized : value, details: { dcg: value, ideal_dcg: ideal, normalized_dcg: normalized, unrated_docs: unrated } };
    },
  };
}

function expectedReciprocalRank(body: Obj): Metric {
  checkKeys('expected_reciprocal_rank', body, ['k', 'maximum_relevance', 'unknown_doc_rating']);
  if (body.maximum_relevance === undefined) throw new EsError(400, 'x_content_parse_exception', '[1:1] [expected_reciprocal_rank] failed to parse field [maximum_relevance]');
  const maxRelevance = intOption('expected_reciprocal_rank', body, 'maximum_relevance', 0);
  const k = intOption('expected_reciprocal_rank', body, 'k', 10);
  const unknown = typeof body.unknown_doc_rating === 'number' ? body.unknown_doc_rating : undefined;
  return {
    name: 'expected_reciprocal_rank', k,
    evaluate(hits) {
      let err = 0;
      let notYetSatisfied = 1;
      hits.forEach((h, i) => {
        const rating = h.rating ?? unknown;
        if (rating === undefined) return;
        const p = (2 ** rating - 1) / 2 ** maxRelevance;
        err += (notYetSatisfied * p) / (i + 1);
        notYetSatisfied *= 1 - p;
      });
      return { score: err, details: { unrated_docs: hits.filter((h) => h.rating === null).length } };
    },
  };
}

const METRICS: Record<string, (body: Obj) => Metric> = {
  precision, recall, mean_reciprocal_rank: meanReciprocalRank, dcg, expected_reciprocal_rank: expectedReciprocalRank,
};

function parseMetric(v: unknown): Metric {
  if (!isObject(v) || Object.keys(v).length !== 1) throw parsing('[metric] must be an object with exactly one metric');
  const [name, body] = Object.entries(v)[0];
  const make = METRICS[name];
  if (!make) throw new EsError(400, 'x_content_parse_exception', `[1:1] [rank_eval] unknown metric [${name}]`);
  return make(isObject(body) ? body : {});
}

function parseRatings(id: string, v: unknown): Rating[] {
  if (!Array.isArray(v)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [requests] failed to parse field [ratings]`);
  return v.map((r) => {
    if (!isObject(r) || typeof r._index !== 'string' || r._id === undefined || typeof r.rating !== 'number') {
      throw new EsError(400, 'x_content_parse_exception', `[1:1] [rated_document] failed to parse: rating of request [${id}] needs _index, _id and rating`);
    }
    return { index: r._index, id: String(r._id), rating: r.rating };
  });
}

function parseRequests(v: unknown, templates: Map<string, Obj>): RatedRequest[] {
  if (!Array.isArray(v) || v.length === 0) throw new EsError(400, 'x_content_parse_exception', '[1:1] [rank_eval] requests must not be empty');
  const seen = new Set<string>();
  return v.map((r) => {
    if (!isObject(r) || typeof r.id !== 'string') throw new EsError(400, 'x_content_parse_exception', '[1:1] [requests] failed to parse field [id]');
    if (seen.has(r.id)) throw new EsError(400, 'illegal_argument_exception', `Found duplicate rated request key [${r.id}]`);
    seen.add(r.id);
    const templateId = typeof r.template_id === 'string' ? r.template_id : undefined;
    if (r.request === undefined && templateId === undefined) throw new EsError(400, 'illegal_argument_exception', 'Either request or template_id must be set');
    if (templateId !== undefined && !templates.has(templateId)) throw new EsError(400, 'illegal_argument_exception', `Template with id [${templateId}] not found in the templates section`);
    return { id: r.id, body: isObject(r.request) ? r.request : undefined, templateId, params: isObject(r.params) ? r.params : {}, ratings: parseRatings(r.id, r.ratings) };
  });
}

function parseTemplates(v: unknown): Map<string, Obj> {
  const out = new Map<string, Obj>();
  if (v === undefined) return out;
  if (!Array.isArray(v)) throw new EsError(400, 'x_content_parse_exception', '[1:1] [rank_eval] failed to parse field [templates]');
  for (const t of v) {
    if (!isObject(t) || typeof t.id !== 'string' || !isObject(t.template)) throw new EsError(400, 'x_content_parse_exception', '[1:1] [templates] failed to parse field [template]');
    out.set(t.id, t.template);
  }
  return out;
}

/** The search one rated request runs: its body (or its rendered template), `k` hits, no `_source`. */
function searchBody(ctx: EngineContext, request: RatedRequest, templates: Map<string, Obj>, k: number): Obj {
  let body: Obj;
  if (request.templateId !== undefined) {
    const { inline, ...template } = templates.get(request.templateId)!;
    const parsed = parseSearchTemplateRequest({ ...template, ...(inline !== undefined ? { source: inline } : {}), params: request.params });
    body = jsonObject(renderSearchTemplate(ctx.storedScripts, parsed));
  } else {
    body = { ...request.body };
  }
  return { ...body, size: k, _source: false };
}

/** What a rated request's search may not hold (Elasticsearch's RatedRequest), given or rendered from a template. */
const REFUSED_PARTS: Array<[string[], string]> = [
  [['aggs', 'aggregations'], 'contain aggregations'],
  [['suggest'], 'contain a suggest section'],
  [['highlight'], 'contain a highlighter section'],
  [['explain'], 'use explain'],
  [['profile'], 'use profile'],
];

function checkRatedSearch(body: Obj): void {
  for (const [keys, what] of REFUSED_PARTS) {
    // explain and profile count when asked for (true); the others whenever present
    const used = keys.some((key) => body[key] !== undefined && (what.startsWith('use') ? body[key] === true || body[key] === 'true' : true));
    if (used) throw new EsError(400, 'illegal_argument_exception', `Query in rated requests should not ${what}.`);
  }
}

async function rankEval(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requestBody(req);
  if (!body) throw new EsError(400, 'parse_exception', 'request body is required');
  for (const k of Object.keys(body)) {
    if (!['requests', 'metric', 'templates', 'max_concurrent_searches'].includes(k)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [rank_eval] unknown field [${k}]`);
  }
  // the request's indices are authorized as one read before any rated search runs (403 for the whole request, as Elasticsearch)
  resolveTarget(ctx, req.pathParams.index, req.params);
  const templates = parseTemplates(body.templates);
  const requests = parseRequests(body.requests, templates);
  const metric = parseMetric(body.metric);
  const details: Obj = {};
  const failures: Obj = {};
  const scores: number[] = [];
  // a template that fails to render is that request's failure; a search that is not a plain ranking refuses the whole request
  const bodies = new Map<RatedRequest, Obj>();
  for (const request of requests) {
    try {
      bodies.set(request, searchBody(ctx, request, templates, metric.k));
    } catch (e) {
      failures[request.id] = { error: errorBody(toEsError(e)).error };
      continue;
    }
    checkRatedSearch(bodies.get(request)!);
  }
  for (const [request, body] of bodies) {
    try {
      const result = await executeSearch(ctx, req.pathParams.index, req.params, body, performance.now());
      const rated = new Map(request.ratings.map((r) => [`${r.index}\u0000${r.id}`, r.rating]));
      const rawHits = ((result.hits as { hits?: Array<{ _index: string; _id: string; _score: number | null }> }).hits ?? []).slice(0, metric.k);
      const hits: Hit[] = rawHits.map((h) => ({ index: h._index, id: h._id, score: h._score, rating: rated.get(`${h._index}\u0000${h._id}`) ?? null }));
      const { score, details: metricDetails } = metric.evaluate(hits, request.ratings);
      scores.push(score);
      details[request.id] = {
        metric_score: score,
        unrated_docs: hits.filter((h) => h.rating === null).map((h) => ({ _index: h.index, _id: h.id })),
        hits: hits.map((h) => ({ hit: { _index: h.index, _id: h.id, _score: h.score }, rating: h.rating })),
        metric_details: { [metric.name]: metricDetails },
      };
    } catch (e) {
      failures[request.id] = { error: errorBody(toEsError(e)).error };
    }
  }
  const mean = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 0;
  return { status: 200, body: { metric_score: mean, details, failures } };
}

export const rankEvalRoutes: Route[] = [
  { id: 'rank_eval', handler: rankEval },
];
