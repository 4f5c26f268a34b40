import type { SliceLength } from '../../../cooperative/index.js';
import { EsError, errors } from '../../../errors/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import { shownSource, type IndexHandle } from '../indices/index.js';
import { holdingBigInts } from '../../json-body.js';
import { holdsBigInt } from '../../../ndjson/index.js';
import { checkIndexBlocks } from '../indices/index-blocks.js';
import { resolveFieldMapping, type Mappings } from '../mapping/index.js';
import { storedFieldValues } from '../rest/stored-fields.js';
import { AggregationPaused, AggregationSteps, aggregationInput, aggregationScriptsAhead, runAggregations, type AggContext } from './aggregations/index.js';
import { docValueFieldCount, fieldsFromDocValues, fieldsFromSource } from './fields/index.js';
import { highlightHit } from './highlight/index.js';
import { percolatorHitParts } from './percolator-fetch.js';
import { checkPercolateFields, checkQueryLimits, explainQuery, float32, queryContextOf, queryWork, rewriteQuery, rewrittenQueryWork, type Query, type ScoredDocs } from './query/index.js';
import type { InnerHitsRequest } from './collapse.js';
import { checkRescore, explainRescore, rescoreTop, topDocs, type Rescorer } from './rescore.js';
import { skippedShards } from './can-match.js';
import type { SearchRequest } from './search-request.js';
import { checkSlice, sliceMembership, type Slice } from './slice.js';
import { TopK, compareKeys, docOrderOf, isScoreOrder, resolveSorts, sortsByIndexPrefix, type ResolvedSort, type SortKey, type SortSpec } from './sort/index.js';
import { filterSource } from './source-filter.js';
import { fetchPlanOf, SearchProfiler } from './profile/index.js';
import { nestedIdentity, nestedObjectOnly, nestedSource } from './aggregations/nested-scope.js';
import { withGlobalKnn } from './knn-option.js';
import { NamedQueryMatches } from './named-queries.js';
import { NestedMatches, nestedInnerHitsOf, type NestedInnerHits } from './nested-inner-hits.js';
import { withSeqNoField } from './seq-no-field.js';
import { runSuggest } from './suggest/index.js';
import { DEFAULT_SEARCH_TIMEOUT_MS, WorkBudget, runAtOnce, type Work } from './work-budget.js';
import { cancelDue, cancelledSearch, type CancelAfter } from './cancel-after.js';
import { SearchTimedOut, type StoredScripts } from '../painless/index.js';
import { ScriptFieldValues, asSearchFailure, fieldsMentionedBy, indexMappings, prepareRuntimeFields, runtimeFieldValues, runtimeFieldsOf, searchView } from './scripts/index.js';

/** The documents of one index that match a search (after min_score and terminate_after), with their scores. */
interface IndexMatches {
  handle: IndexHandle;
  handleOrder: number;
  /** Matching ordinals, ascending, with a parallel score column; `length` entries are used. */
  ords: ArrayLike<number>;
  scores: ArrayLike<number>;
  length: number;
  sorts: ResolvedSort[];
  /** The search's query rewritten against this index: what was run, and what its hits are highlighted by. */
  query: Query;
  /** Per rescorer of the search, the documents of its window (what its explanation combines). */
  rescored?: ReadonlyArray<ReadonlySet<number>>;
  /** With an index sort (`index.sort.*`): a document's doc id, its place in the sort; else the ordinal is. */
  docOrder?: (ord: number) => number;
}

/** What choosing a page of hits needs: the search's own, or one inner hits definition's. */
interface PageRequest {
  from: number;
  size: number;
  searchAfter?: unknown[];
  collapse?: { field: string };
}

/** What building one hit needs: the search's own options, or one inner hits definition's. */
type HitRequest = Pick<SearchRequest, 'query' | 'storedFields' | 'version' | 'seqNoPrimaryTerm' | 'source' | 'sourceRequested' | 'docvalueFields' | 'fields' | 'highlight' | 'explain' | 'rescore'>
  & { collapse?: { field: string }; scriptFieldValues?: ScriptFieldValues };

/** One document competing for the page: where it is, its score and its sort keys. */
interface Candidate {
  m: IndexMatches;
  ord: number;
  score: number;
  keys: SortKey[];
}

function shardCount(h: IndexHandle): number {
  return Number(h.meta.settings['index.number_of_shards'] ?? '1');
}

/** The `_shards` header: every shard successful, `skipped` of them left out by the can-match phase. */
function shardsOf(handles: IndexHandle[], skipped = 0) {
  const total = handles.reduce((n, h) => n + shardCount(h), 0);
  return { total, successful: total, skipped, failed: 0 };
}

function ensureSearchable(handles: IndexHandle[]): void {
  for (const h of handles) {
    if (!h.isOpen) throw errors.indexClosed(h.name, h.uuid);
    checkIndexBlocks(h.name, h.meta.settings, 'read');
  }
}

/** `indices_boost`: the first entry naming the index (or one of its aliases, or a pattern) gives its factor. */
function indexBoost(handle: IndexHandle, boosts: Array<[string, number]>): number {
  for (const [pattern, boost] of boosts) {
    if (simpleMatch(pattern, handle.name)) return boost;
    if (Object.keys(handle.meta.aliases ?? {}).some((a) => simpleMatch(pattern, a))) return boost;
  }
  return 1;
}

function needsScores(req: SearchRequest): boolean {
  return isScoreOrder(req.sort) || req.trackScores || req.minScore !== undefined || req.sort.some((s) => s.kind === 'score' || s.kind === 'script');
}

/** Query phase of one index: matching ordinals and scores, with min_score, indices_boost and terminate_after applied. */
async function matchIndex(
  handle: IndexHandle, handleOrder: number, req: SearchRequest, scoring: boolean, sorts: SortSpec[], mappedSomewhere: (f: string) => boolean, budget: WorkBudget,
  scripts?: StoredScripts,
): Promise<IndexMatches> {
  // An index closed while an earlier one was searched (the search pauses between slices).
  ensureSearchable([handle]);
  const ctx = withSeqNoField({ ...queryContextOf(handle), scripts }, handle, [req.query]);
  const query = rewriteQuery(req.query, ctx);
  const scored: ScoredDocs = await budget.drive(rewrittenQueryWork(query, ctx, scoring, budget));
  let ords: ArrayLike<number> = scored.ords;
  let scores: ArrayLike<number> = scored.scores;
  let length = scored.length;
  const boost = indexBoost(handle, req.indicesBoost);
  if (req.minScore !== undefined || boost !== 1) {
    const keptOrds: number[] = [];
    const keptScores: number[] = [];
    for (let i = 0; i < length; i++) {
      const score = scores[i] * boost;
      if (req.minScore !== undefined && score < req.minScore) continue;
      keptOrds.push(ords[i]);
      keptScores.push(score);
    }
    ords = keptOrds;
    scores = keptScores;
    length = keptOrds.length;
  }
  // Ordinals are ascending (index order): terminate_after keeps the first ones, as a shard's collector would.
  if (req.terminateAfter !== undefined && req.terminateAfter > 0 && length > req.terminateAfter) length = req.terminateAfter;
  return { handle, handleOrder, ords, scores, length, sorts: resolveSorts(sorts, handle, mappedSomewhere, scripts, handleOrder), query, docOrder: docOrderOf(handle) };
}

async function applyPostFilter(matches: IndexMatches[], filter: Query, budget: WorkBudget): Promise<IndexMatches[]> {
  const out: IndexMatches[] = [];
  for (const m of matches) {
    const pass = await budget.drive(queryWork(filter, withSeqNoField(queryContextOf(m.handle), m.handle, [filter]), false, budget));
    const ords: number[] = [];
    const scores: number[] = [];
    // Both sides are ascending: one merge walk.
    let j = 0;
    for (let i = 0; i < m.length; i++) {
      const ord = m.ords[i];
      while (j < pass.length && pass.ords[j] < ord) j++;
      if (j < pass.length && pass.ords[j] === ord) {
        ords.push(ord);
        scores.push(m.scores[i]);
      }
    }
    out.push({ ...m, ords, scores, length: ords.length });
  }
  return out;
}

/**
 * Collects the best `from + size` candidates under the request's order, with `search_after` and
 * `collapse`, without sorting every match: a bounded heap, and sort keys computed only once per doc.
 */
function* collectTop(matches: IndexMatches[], req: PageRequest, scoreOrder: boolean, budget: WorkBudget): Work<Candidate[]> {
  const k = req.from + req.size;
  const sortsOf0 = matches[0]?.sorts ?? [];
  const compare = matches.some((m) => m.docOrder)
    ? docIdCompare(scoreOrder, sortsOf0)
    : scoreOrder
      ? (a: Candidate, b: Candidate) => b.score - a.score || a.m.handleOrder - b.m.handleOrder || a.ord - b.ord
      : (a: Candidate, b: Candidate) => compareKeys(sortsOf0, a.keys, b.keys) || a.m.handleOrder - b.m.handleOrder || a.ord - b.ord;
  let after: SortKey[] | undefined;
  if (req.searchAfter && matches.length) {
    after = scoreOrder
      ? [Number(req.searchAfter[0])]
      : req.searchAfter.map((v, i) => sortsOf0[i].parseAfter(v));
  }
  const collapseField = req.collapse?.field;
  if (collapseField) {
    // Best document per collapse key, then the best groups.
    const best = new Map<string, Candidate>();
    for (const m of matches) {
      const fi = collapseValues(m.handle, collapseField);
      for (let i = 0; i < m.length; i++) {
        if ((i & 1023) === 1023 && budget.check()) yield;
        const ord = m.ords[i];
        const score = m.scores[i];
        const c: Candidate = { m, ord, score, keys: scoreOrder ? [] : m.sorts.map((s) => s.key(ord, score)) };
        const key = groupKey(fi, ord);
        const prev = best.get(key);
        if (!prev || compare(c, prev) < 0) best.set(key, c);
      }
    }
    const top = new TopK<Candidate>(k, compare);
    for (const c of best.values()) top.push(c);
    return yield* top.sortedInRuns(() => budget.check());
  }
  const top = new TopK<Candidate>(k, compare);
  for (const m of matches) {
    const n = m.sorts.length;
    const scratch: SortKey[] = new Array(n);
    const probe: Candidate = { m, ord: 0, score: 0, keys: scratch };
    // A script's key may take long to compute: the clock is read at every document then.
    const tick = m.sorts.some((s) => s.spec.kind === 'script') ? 0 : 1023;
    for (let i = 0; i < m.length; i++) {
      if ((i & tick) === tick && budget.check()) yield;
      const ord = m.ords[i];
      const score = m.scores[i];
      probe.ord = ord;
      probe.score = score;
      if (!scoreOrder) for (let s = 0; s < n; s++) scratch[s] = m.sorts[s].key(ord, score);
      if (after) {
        if (scoreOrder ? !(score < (after[0] as number)) : compareKeys(m.sorts, scratch, after) <= 0) continue;
      }
      if (!top.admits(probe)) continue;
      top.push({ m, ord, score, keys: scoreOrder ? [] : scratch.slice() });
    }
  }
  return yield* top.sortedInRuns(() => budget.check());
}

/** The page's order when an index sets a sort: equal hits in doc id order, their places in the index sort. */
function docIdCompare(scoreOrder: boolean, sorts: ResolvedSort[]): (a: Candidate, b: Candidate) => number {
  const docId = (c: Candidate) => (c.m.docOrder ? c.m.docOrder(c.ord) : c.ord);
  const tie = (a: Candidate, b: Candidate) => a.m.handleOrder - b.m.handleOrder || docId(a) - docId(b);
  return scoreOrder
    ? (a, b) => b.score - a.score || tie(a, b)
    : (a, b) => compareKeys(sorts, a.keys, b.keys) || tie(a, b);
}

/**
 * Early termination of a search on a sorted index: with `track_total_hits: false` and a sort that
 * is a prefix of the index sort, a shard's collector stops once the page is full and more documents
 * match (the rest sort after them), and the response says `terminated_early: true`.
 */
function terminatedByIndexSort(req: SearchRequest, scoreOrder: boolean, matches: IndexMatches[]): boolean {
  if (req.trackTotalHits !== false || scoreOrder || req.size <= 0 || req.aggregations || req.collapse || req.rescore) return false;
  const k = req.from + req.size;
  return matches.some((m) => m.length > k && sortsByIndexPrefix(m.handle, req.sort));
}

type FieldIndex = ReturnType<NonNullable<IndexHandle['inverted']>['field']>;

/** The doc values a collapse field groups by in one index, through a field alias to its target. */
function collapseValues(handle: IndexHandle, field: string): FieldIndex {
  const mapping = resolveFieldMapping(handle.mappings, field);
  const target = mapping?.type === 'alias' && typeof mapping.path === 'string' ? mapping.path : field;
  return handle.inverted!.field(target);
}

/** The collapse group of a document: its first value of the field, typed, or the group of documents without one. */
function groupKey(fi: FieldIndex, ord: number): string {
  const v = fi?.docValues.get(ord)?.[0];
  return v === undefined ? '\u0000null' : typeof v + ':' + String(v);
}

/** hits.total: every match (search_after does not change it). */
function countOf(matches: IndexMatches[]): number {
  return matches.reduce((n, m) => n + m.length, 0);
}

/** `hits.total` as rendered under `track_total_hits` and `rest_total_hits_as_int`; undefined when not tracked. */
function totalBody(total: number, track: boolean | number, asInt: boolean): unknown {
  if (track === false) return asInt ? -1 : undefined;
  const limit = track === true ? Infinity : track;
  if (asInt) return Math.min(total, limit);
  return total > limit ? { value: limit, relation: 'gte' } : { value: total, relation: 'eq' };
}

function maxScoreOf(matches: IndexMatches[]): number | null {
  let max: number | null = null;
  for (const m of matches) for (let i = 0; i < m.length; i++) if (max === null || m.scores[i] > max) max = m.scores[i];
  return max;
}

function showsScores(sort: SortSpec[], trackScores: boolean): boolean {
  return isScoreOrder(sort) || trackScores || sort.some((s) => s.kind === 'score');
}

/**
 * Whether `hits.max_score` is a number: ordered by relevance alone (no sort, or `_score`
 * descending alone), or `track_scores`. Any other sort, even one by `_score` ascending or with a
 * tie-breaker, tracks no maximum in Elasticsearch (its hits still show the score they sort by).
 */
function tracksMaxScore(sort: SortSpec[], trackScores: boolean): boolean {
  return isScoreOrder(sort) || trackScores;
}

function checkCollapseField(field: string, handles: IndexHandle[], mappedSomewhere: (f: string) => boolean): void {
  if (handles.length && !mappedSomewhere(field)) {
    throw new EsError(400, 'illegal_argument_exception', `no mapping found for \`${field}\` in order to collapse on`);
  }
}

/**
 * ES's expand phase for `collapse.inner_hits`: for each collapsed hit, each definition is a search of the hit's
 * group — the request's query and post_filter (not its min_score, indices_boost or terminate_after) narrowed to
 * the group's value — with the definition's own sort, page, second-level collapse and fetch options.
 * Returns the `inner_hits` of one page candidate; only the groups on the page are gathered.
 */
async function groupExpander(
  handles: IndexHandle[], req: SearchRequest, matches: IndexMatches[], page: Candidate[], mappedSomewhere: (f: string) => boolean, budget: WorkBudget,
): Promise<(c: Candidate) => Record<string, unknown>> {
  const { field, innerHits } = req.collapse!;
  for (const ih of innerHits) if (ih.collapse) checkCollapseField(ih.collapse.field, handles, mappedSomewhere);
  const scoring = innerHits.some((ih) => showsScores(ih.sort, ih.trackScores));
  const sameAsSearch = req.minScore === undefined && req.terminateAfter === undefined
    && handles.every((h) => indexBoost(h, req.indicesBoost) === 1) && (!scoring || needsScores(req));
  let pool = matches;
  if (!sameAsSearch) {
    const plain: SearchRequest = { ...req, minScore: undefined, terminateAfter: undefined, indicesBoost: [] };
    pool = [];
    for (const [i, h] of handles.entries()) pool.push(await matchIndex(h, i, plain, scoring, [], mappedSomewhere, budget));
    if (req.postFilter) pool = await applyPostFilter(pool, req.postFilter, budget);
  }
  const keyOf = (c: Candidate) => groupKey(collapseValues(c.m.handle, field), c.ord);
  const groups = new Map<string, IndexMatches[]>(page.map((c) => [keyOf(c), []]));
  for (const m of pool) {
    const fi = collapseValues(m.handle, field);
    const members = new Map<string, { ords: number[]; scores: number[] }>();
    for (let i = 0; i < m.length; i++) {
      const key = groupKey(fi, m.ords[i]);
      if (!groups.has(key)) continue;
      let g = members.get(key);
      if (!g) members.set(key, (g = { ords: [], scores: [] }));
      g.ords.push(m.ords[i]);
      g.scores.push(m.scores[i]);
    }
    for (const [key, g] of members) groups.get(key)!.push({ ...m, ords: g.ords, scores: g.scores, length: g.ords.length });
  }
  const sortsByDefinition = innerHits.map((ih) => {
    const specs = isScoreOrder(ih.sort) ? [] : ih.sort;
    return new Map(handles.map((h) => [h, resolveSorts(specs, h, mappedSomewhere)]));
  });
  return (c) => {
    const group = groups.get(keyOf(c))!;
    const body: Record<string, unknown> = {};
    innerHits.forEach((ih, d) => {
      const members = group.map((m) => ({ ...m, sorts: sortsByDefinition[d].get(m.handle)! }));
      body[ih.name] = { hits: innerHitsBody(members, ih, req) };
    });
    return body;
  };
}

/**
 * The inner hits of a page hit (`handle`, `ord`) for the nested queries' definitions: each
 * definition's matching objects of the hit, paged and fetched as hits of their own.
 */
function nestedInnerHitsBody(defs: NestedInnerHits[], matches: NestedMatches, handle: IndexHandle, ord: number, req: SearchRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const d of defs) {
    const members = matches.of(d, handle, ord);
    if (!members) continue;
    const ih = d.def;
    const scoreOrder = isScoreOrder(ih.sort);
    const m: IndexMatches = {
      handle: members.view, handleOrder: 0, ords: members.ords, scores: members.scores, length: members.ords.length,
      sorts: resolveSorts(scoreOrder ? [] : ih.sort, members.view, () => true), query: d.query,
    };
    const page = ih.size > 0 ? runAtOnce(collectTop([m], ih, scoreOrder, WorkBudget.unbounded)).slice(ih.from) : [];
    const fetch: HitRequest = { ...ih, query: d.query };
    const showScore = showsScores(ih.sort, ih.trackScores);
    const hits = page.flatMap((c) => {
      const hit = buildHit(c, fetch, showScore, !scoreOrder);
      if (hit && d.inner.length) hit.inner_hits = nestedInnerHitsBody(d.inner, matches, members.view, c.ord, req);
      return hit ?? [];
    });
    const maxScore = tracksMaxScore(ih.sort, ih.trackScores) ? maxScoreOf([m]) : null;
    body[ih.name] = { hits: { total: totalBody(m.length, true, req.totalAsInt), max_score: maxScore === null ? null : float32(maxScore), hits } };
  }
  return body;
}

/** One definition's hits of one group; totals are tracked as a plain search's (up to 10,000). */
function innerHitsBody(members: IndexMatches[], ih: InnerHitsRequest, req: SearchRequest): Record<string, unknown> {
  const scoreOrder = isScoreOrder(ih.sort);
  const showScore = showsScores(ih.sort, ih.trackScores);
  const page = ih.size > 0 ? runAtOnce(collectTop(members, ih, scoreOrder, WorkBudget.unbounded)).slice(ih.from) : [];
  const fetch: HitRequest = { ...ih, query: req.query };
  const hits = page.flatMap((c) => buildHit(c, fetch, showScore, !scoreOrder) ?? []);
  const maxScore = tracksMaxScore(ih.sort, ih.trackScores) ? maxScoreOf(members) : null;
  return { total: totalBody(countOf(members), 10_000, req.totalAsInt), max_score: maxScore === null ? null : float32(maxScore), hits };
}

function buildHit(c: Candidate, req: HitRequest, showScore: boolean, showSort: boolean): Record<string, unknown> | undefined {
  const { handle } = c.m;
  const id = handle.inverted!.idOf(c.ord)!;
  const doc = handle.get(id);
  if (!doc) return undefined;
  const hit: Record<string, unknown> = { _index: handle.name, _type: '_doc' };
  if (req.storedFields !== '_none_') hit._id = id;
  // a nested inner hit is an object of the document: where it sits, and its own part of _source
  const nested = nestedIdentity(handle, c.ord);
  if (nested) hit._nested = nested;
  if (req.version) hit._version = doc.version;
  if (req.seqNoPrimaryTerm) {
    hit._seq_no = doc.seqNo;
    hit._primary_term = doc.primaryTerm;
  }
  hit._score = showScore ? float32(c.score) : null;
  if (doc.routing !== undefined) hit._routing = doc.routing;
  const ignored = handle.inverted!.field('_ignored')?.docValues.get(c.ord);
  if (ignored?.length && req.storedFields !== '_none_') hit._ignored = ignored;
  // integers past 2^53 as written (BigInts), in `_source`, `fields` and doc values alike
  const shown = shownSource(doc);
  if (shown !== doc.source) holdingBigInts(hit);
  // As ES's fetch phase: with script_fields and no explicit `_source`, hits carry no `_source`.
  const sourceWanted = req.sourceRequested || (req.storedFields === undefined && !req.scriptFieldValues);
  if (sourceWanted && req.storedFields !== '_none_' && !sourceDisabled(handle.mappings)) {
    // as ES's fetch phase: the document's source filtered (full paths), then a nested hit's own part of it
    const filtered = filterSource(shown, req.source);
    const source = nested ? nestedSource(filtered, nested) : filtered;
    if (source !== null && typeof source === 'object' && !Array.isArray(source)) hit._source = source;
  }
  const ignoredValues: Record<string, unknown[]> = {};
  const ignoredFields = ignored?.length ? { fields: new Set(ignored as string[]), values: ignoredValues } : undefined;
  const scripted = req.scriptFieldValues?.of(handle, c.ord);
  // a script's long past 2^53 is a BigInt, written with its digits
  if (scripted && holdsBigInt(scripted)) holdingBigInts(hit);
  const fields = {
    // stored fields (`store: true`) named by stored_fields, as Elasticsearch's fetch phase gives them in `fields`
    ...(Array.isArray(req.storedFields) ? storedFieldValues(handle.mappings, doc.source, req.storedFields, handle.registry) : undefined),
    ...fieldsFromDocValues(req.docvalueFields, handle, c.ord, shown),
    ...fieldsFromSource(req.fields, indexMappings(handle), handle.registry, shown, ignoredFields),
    ...runtimeFieldValues(req.fields, handle, c.ord),
    ...scripted,
  };
  if (req.collapse) {
    const v = collapseValues(handle, req.collapse.field)?.docValues.get(c.ord)?.[0];
    fields[req.collapse.field] = v === undefined ? [null] : [v];
  }
  if (Object.keys(fields).length) hit.fields = fields;
  if (Object.keys(ignoredValues).length) hit.ignored_field_values = ignoredValues;
  if (req.highlight) {
    const maxAnalyzedOffset = Number(handle.meta.settings['index.highlight.max_analyzed_offset'] ?? 1_000_000);
    // a nested hit highlights its own object (its siblings' values are not its own)
    const source = nested ? nestedObjectOnly(doc.source, nested) as Record<string, unknown> : doc.source;
    const highlight = highlightHit(req.highlight, c.m.query, source, handle.mappings, handle.registry,
      { index: handle.name, id, maxAnalyzedOffset, sourceDisabled: sourceDisabled(handle.mappings) });
    if (highlight) hit.highlight = highlight;
  }
  if (showSort) hit.sort = c.m.sorts.map((s, i) => s.render(c.keys[i]));
  if (req.explain) {
    hit._shard = `[${handle.name}][0]`;
    hit._node = 'embedded';
    let explanation = explainQuery(req.query, c.ord, queryContextOf(handle)).explanation;
    req.rescore?.forEach((r, i) => {
      explanation = explainRescore(r, explanation, c.m.rescored?.[i]?.has(c.ord) ?? false, () => explainQuery(r.query, c.ord, queryContextOf(handle)));
    });
    hit._explanation = explanation;
  }
  return hit;
}

/** `indices_boost` naming a concrete index (no wildcard) that is neither an index nor an alias: ES's index_not_found. */
function checkIndicesBoost(req: SearchRequest, known: (name: string) => boolean): void {
  for (const [name] of req.indicesBoost) if (!name.includes('*') && !known(name)) throw errors.indexNotFound(name);
}

export interface SearchOptions {
  knownIndexOrAlias?: (name: string) => boolean;
  /** The budget of a search that names no `timeout`, in ms (-1: none); DEFAULT_SEARCH_TIMEOUT_MS when not given. */
  defaultTimeoutMs?: number;
  /** Stored scripts, for the search's scripts that name one by `id`. */
  storedScripts?: StoredScripts;
  /** The node's id, as `profile.shards[].id` names it. */
  nodeId?: string;
  /** `search.max_buckets` (the cluster setting): the buckets the aggregations may answer. */
  maxBuckets?: number;
  /** `search.aggs.rewrite_to_filter_by_filter` (the cluster setting; true when not given): as the profile names the aggregators. */
  rewriteToFilterByFilter?: boolean;
  /** How long a stretch of the search may hold the event loop (a background task's share); a whole slice by default. */
  sliceLength?: SliceLength;
  /**
   * What the search awaits when it pauses between two slices: a turn of the event loop by default.
   * A spec's own acts at a pause (a write while the search is under way) before the search goes on.
   */
  pauseFor?: () => Promise<void>;
  /** OpenSearch's `cancel_after_time_interval`: past it the search stops and fails as cancelled (cancel-after.ts). */
  cancelAfter?: CancelAfter;
}

/**
 * Runs a search over resolved indices and builds ES's response body. The search gives the event
 * loop a turn every slice of work (WorkBudget), and stops collecting at its `timeout` (or the
 * default budget): it then answers the hits and aggregations of what it collected, `timed_out: true`.
 */
export async function runSearch(handles: IndexHandle[], req: SearchRequest, started: number, options: SearchOptions = {}): Promise<Record<string, unknown>> {
  // One view of each index for the whole search, as Elasticsearch's searcher reads the reader it
  // opened: writes made while the search pauses change none of what its phases read.
  const readers = handles.map((h) => h.openReader());
  try {
    return await searchIndices(readers.map((r) => r.handle), req, started, options);
  } catch (e) {
    // A failing script fails the search as shard failures do (search_phase_execution_exception).
    throw asSearchFailure(e, handles[0]?.name);
  } finally {
    for (const r of readers) r.release();
  }
}

/** `"_source": {"enabled": false}` in the mappings: hits carry no `_source`, and the fields API (which reads it) is refused. */
function sourceDisabled(mappings: Mappings): boolean {
  const source = mappings._source as { enabled?: unknown } | undefined;
  return source !== null && typeof source === 'object' && (source.enabled === false || source.enabled === 'false');
}

async function searchIndices(indices: IndexHandle[], req: SearchRequest, started: number, options: SearchOptions): Promise<Record<string, unknown>> {
  ensureSearchable(indices);
  for (const h of indices) {
    const max = Number(h.meta.settings['index.max_script_fields'] ?? '32');
    if (req.size > 0 && req.scriptFields.length > max) {
      throw new EsError(400, 'illegal_argument_exception', `Trying to retrieve too many script_fields. Must be less than or equal to: [${max}] but was [${req.scriptFields.length}]. ` +
        'This limit can be set by changing the [index.max_script_fields] index level setting.');
    }
    if (req.fields.length && sourceDisabled(h.mappings)) {
      throw new EsError(400, 'illegal_argument_exception', `Unable to retrieve the requested [fields] since _source is disabled in the mappings for index [${h.name}]`);
    }
  }
  // Runtime fields (the mappings' and `runtime_mappings`) are fields of the indices as this search sees them.
  const handles = indices.map((h) => searchView(h, req.runtimeFields, options.storedScripts));
  for (const h of handles) {
    const maxDocvalueFields = Number(h.meta.settings['index.max_docvalue_fields_search'] ?? '100');
    const docvalueFields = req.docvalueFields.length ? docValueFieldCount(req.docvalueFields, h.mappings) : 0;
    if (docvalueFields > maxDocvalueFields) {
      throw new EsError(400, 'illegal_argument_exception', `Trying to retrieve too many docvalue_fields. Must be less than or equal to: [${maxDocvalueFields}] but was [${docvalueFields}]. ` +
        'This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.');
    }
  }
  checkQueryLimits(handles.map((h) => h.meta.settings), [req.query, req.postFilter]);
  if (options.knownIndexOrAlias) checkIndicesBoost(req, options.knownIndexOrAlias);
  const scoreOrder = isScoreOrder(req.sort);
  const scoring = needsScores(req);
  const mappedSomewhere = (field: string) => handles.some((h) => resolveFieldMapping(h.mappings, field) !== undefined);
  if (req.collapse) checkCollapseField(req.collapse.field, handles, mappedSomewhere);
  const percolates = checkPercolateFields(req.query, mappedSomewhere);
  if (req.rescore) for (const h of handles) checkRescore(req.rescore, scoreOrder, maxRescoreWindow(h));
  const budget = WorkBudget.of(started, budgetMs(req.timeout ?? options.defaultTimeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS, options.cancelAfter), options.sliceLength, options.pauseFor);
  const ensureNotCancelled = (): void => {
    if (cancelDue(options.cancelAfter, started)) throw cancelledSearch(options.cancelAfter, handles[0]?.name);
  };
  if (req.slice) for (const h of handles) checkSlice(req.slice, h);
  // The runtime fields the search reads are computed first, pausing for the event loop (their scripts are per-document work).
  await prepareReadRuntimeFields(handles, req, budget, options.storedScripts);
  const contextOf = (h: IndexHandle) => withSeqNoField({ ...queryContextOf(h), scripts: options.storedScripts }, h, [req.query]);
  const query = await withGlobalKnn(req.query, handles.map(contextOf), budget);
  if (query !== req.query) req = { ...req, query };
  const profiler = req.profile
    ? new SearchProfiler({
      query: req.query, size: req.size, scoreOrder, scoring, aggregations: req.aggregations, contextOf,
      fetch: fetchPlanOf(req, nestedInnerHitsOf(req.query).length > 0),
      rewriteToFilterByFilter: options.rewriteToFilterByFilter ?? true,
    }, options.nodeId ?? 'embedded')
    : undefined;
  let matches: IndexMatches[] = [];
  for (const [i, h] of handles.entries()) {
    const t0 = performance.now();
    const matched = await matchIndex(h, i, req, scoring, scoreOrder ? [] : req.sort, mappedSomewhere, budget, options.storedScripts);
    matches.push(req.slice ? await sliced(matched, req.slice, budget) : matched);
    h.stats.queried(performance.now() - t0, req.statsGroups);
    profiler?.queryPhase(h, performance.now() - t0);
  }

  // Aggregations see every match of the query; post_filter only narrows the hits.
  await budget.pause();
  let aggregations: Record<string, unknown> | undefined;
  if (req.aggregations) {
    const nodes = req.aggregations;
    const t0 = performance.now();
    const input = aggregationInput(nodes, handles, matches, { typedKeys: req.typedKeys, storedScripts: options.storedScripts, maxBuckets: options.maxBuckets });
    const ctx = profiler ? { ...input.ctx, timings: profiler.aggregations } : input.ctx;
    await budget.drive(aggregationScriptsAhead(nodes, input.docs, ctx, budget));
    aggregations = await aggregateWithin(budget, ctx, (passCtx) => runAggregations(nodes, input.docs, passCtx));
    profiler?.aggregationPhase(performance.now() - t0);
  }
  if (req.postFilter) matches = await applyPostFilter(matches, req.postFilter, budget);
  // Collection is over: the page and its fetch are not cut short by the timeout; a cancelled search ends here.
  ensureNotCancelled();
  const timedOut = budget.timedOut;

  await budget.pause();
  const total = countOf(matches);
  const firstPass = matches;
  if (req.rescore) matches = await rescoreMatches(matches, req.rescore, req.from + req.size, budget, options.storedScripts);
  const page = req.size > 0 ? (await budget.drive(collectTop(matches, req, scoreOrder, budget))).slice(req.from) : [];
  // A `_script` sort's keys are cut at the deadline (the documents left sort as missing).
  const sortTimedOut = scriptSorted(matches) && budget.timedOut;
  const showScore = showsScores(req.sort, req.trackScores);
  const expand = req.collapse?.innerHits.length && page.length ? await groupExpander(handles, req, matches, page, mappedSomewhere, budget) : undefined;
  const nestedDefs = page.length ? nestedInnerHitsOf(req.query) : [];
  const nestedMatches = new NestedMatches();
  const out: Record<string, unknown>[] = [];
  // The fetch phase, counted once per index that has hits on the page (as per shard in ES).
  const fetching = new Set<IndexHandle>();
  const hitRequest: HitRequest = req.scriptFields.length ? { ...req, scriptFieldValues: new ScriptFieldValues(req.scriptFields, options.storedScripts) } : req;
  const named = req.namedQueries && page.length ? new NamedQueryMatches(req.namedQueries, req.namedQueryScores === true, budget, options.storedScripts) : undefined;
  const percolating = page.length > 0 && percolates;
  for (const c of page) {
    await budget.pause();
    const t0 = performance.now();
    const hit = buildHit(c, hitRequest, showScore, !scoreOrder);
    if (hit && named) {
      const matched = await named.of(c.m.handle, c.ord);
      if (matched) hit.matched_queries = matched;
    }
    if (hit && percolating) {
      const parts = percolatorHitParts(req.query, req.highlight, c.m.handle, c.ord, String(hit._id));
      if (parts.fields) hit.fields = { ...(hit.fields as Record<string, unknown> | undefined), ...parts.fields };
      if (parts.highlight) hit.highlight = { ...(hit.highlight as Record<string, unknown> | undefined), ...parts.highlight };
    }
    if (hit && expand) hit.inner_hits = expand(c);
    if (hit && nestedDefs.length) hit.inner_hits = { ...(hit.inner_hits as Record<string, unknown> | undefined), ...nestedInnerHitsBody(nestedDefs, nestedMatches, c.m.handle, c.ord, req) };
    if (hit) out.push(hit);
    c.m.handle.stats.fetchedHit(performance.now() - t0, req.statsGroups);
    fetching.add(c.m.handle);
    profiler?.fetchedHit(c.m.handle, performance.now() - t0);
  }
  for (const h of fetching) h.stats.fetched(req.statsGroups);
  ensureNotCancelled();
  // size 0 collects no top hits, so Elasticsearch scores nothing and reports no max_score.
  const maxScore = tracksMaxScore(req.sort, req.trackScores) && req.size > 0 ? maxScoreOf(matches) : null;
  const hitsBody: Record<string, unknown> = {};
  const renderedTotal = totalBody(total, req.trackTotalHits, req.totalAsInt);
  if (renderedTotal !== undefined) hitsBody.total = renderedTotal;
  hitsBody.max_score = maxScore === null ? null : float32(maxScore);
  hitsBody.hits = out;
  const body: Record<string, unknown> = {
    took: Math.max(0, Math.round(performance.now() - started)),
    timed_out: timedOut || sortTimedOut,
  };
  if (req.terminateAfter !== undefined) {
    body.terminated_early = firstPass.some((m) => req.terminateAfter! > 0 && m.length >= req.terminateAfter!);
  }
  if (terminatedByIndexSort(req, scoreOrder, firstPass)) body.terminated_early = true;
  body._shards = shardsOf(handles, skippedShards(req, handles, shardCount, Date.now()));
  body.hits = hitsBody;
  if (aggregations) body.aggregations = aggregations;
  if (req.suggest) {
    const t0 = performance.now();
    body.suggest = runSuggest(handles, req.suggest, req.source, req.typedKeys);
    const ms = performance.now() - t0;
    for (const h of handles) {
      h.stats.suggestTotal++;
      h.stats.suggestMs += ms;
    }
  }
  if (profiler) body.profile = profiler.render(handles);
  return body;
}

/** How long the search may collect: its timeout, cut to its cancellation interval (a negative timeout is none). */
function budgetMs(timeoutMs: number, cancel: CancelAfter | undefined): number {
  if (!cancel) return timeoutMs;
  return timeoutMs < 0 ? cancel.ms : Math.min(timeoutMs, cancel.ms);
}

function scriptSorted(matches: IndexMatches[]): boolean {
  return matches.some((m) => m.sorts.some((s) => s.spec.kind === 'script'));
}

/**
 * The aggregation phase, held to the search's budget: it runs in passes of a time slice each
 * (aggregations/aggregation-steps.ts), the event loop gets a turn between two, and its scripts are
 * held to the search's deadline. A script aggregation stops at the deadline with what it
 * collected; a phase still running at the deadline (a pipeline's script, a pass that paused)
 * leaves the aggregations empty: the search answers `timed_out: true` either way. A profiled
 * search runs the phase in one piece (its timings are of one run of each aggregation).
 */
async function aggregateWithin(budget: WorkBudget, ctx: AggContext, run: (ctx: AggContext) => Record<string, unknown>): Promise<Record<string, unknown>> {
  const steps = ctx.timings ? undefined : new AggregationSteps();
  for (;;) {
    steps?.begin();
    // the context's own members, `all` a getter computed once when read
    const pass: AggContext = Object.assign(Object.create(ctx) as AggContext, { steps, buckets: { count: 0, max: ctx.buckets?.max } });
    try {
      return budget.within(() => run(pass));
    } catch (e) {
      if (e instanceof SearchTimedOut) return {};
      if (!(e instanceof AggregationPaused)) throw e;
    }
    await budget.turn();
    budget.check();
    if (budget.timedOut) return {};
  }
}

/** The matches of an index that belong to the search's slice (a filter: totals and aggregations see the slice only). */
async function sliced(m: IndexMatches, slice: Slice, budget: WorkBudget): Promise<IndexMatches> {
  const member = sliceMembership(slice, m.handle);
  const ords: number[] = [];
  const scores: number[] = [];
  for (let i = 0; i < m.length; i++) {
    if ((i & 1023) === 1023) await budget.pause();
    if (!member(m.ords[i])) continue;
    ords.push(m.ords[i]);
    scores.push(m.scores[i]);
  }
  return { ...m, ords, scores, length: ords.length };
}

/** `index.max_rescore_window`: by default the index's `max_result_window`, as in Elasticsearch. */
function maxRescoreWindow(h: IndexHandle): number {
  const settings = h.meta.settings;
  return Number(settings['index.max_rescore_window'] ?? settings['index.max_result_window'] ?? '10000');
}

/**
 * The rescore phase, per index as per shard in Elasticsearch: the index's best `max(from + size,
 * window_size)` documents, each rescorer applied in turn; what the page is chosen from afterwards.
 * `hits.total` and aggregations were taken before, from every match.
 */
async function rescoreMatches(matches: IndexMatches[], rescorers: Rescorer[], pageEnd: number, budget: WorkBudget, scripts?: StoredScripts): Promise<IndexMatches[]> {
  const n = Math.max(pageEnd, ...rescorers.map((r) => r.windowSize));
  const out: IndexMatches[] = [];
  for (const m of matches) {
    let docs = topDocs(m.ords, m.scores, m.length, n);
    const rescored: Array<Set<number>> = [];
    for (const r of rescorers) {
      await budget.pause();
      const second: ScoredDocs = await budget.drive(queryWork(r.query, { ...queryContextOf(m.handle), scripts }, true, budget));
      rescored.push(new Set(docs.slice(0, r.windowSize).map((d) => d.ord)));
      docs = rescoreTop(docs, r, (ord) => second.get(ord));
    }
    out.push({ ...m, ords: docs.map((d) => d.ord), scores: docs.map((d) => d.score), length: docs.length, rescored });
  }
  return out;
}

/** Computes ahead, with pauses, the scripted runtime fields of `handles` that `request` (parsed) may read. */
async function prepareReadRuntimeFields(handles: IndexHandle[], request: unknown, budget: WorkBudget, storedScripts: StoredScripts | undefined): Promise<void> {
  let reads: ((name: string) => boolean) | undefined;
  for (const h of handles) {
    if (!runtimeFieldsOf(h)) continue;
    reads ??= await budget.drive(fieldsMentionedBy(request, storedScripts, budget));
    await budget.drive(prepareRuntimeFields(h, budget, reads));
  }
}

/** `_count`: every match, counted with pauses for the event loop (no timeout, as in Elasticsearch). */
export async function runCount(indices: IndexHandle[], query: Query, storedScripts?: StoredScripts): Promise<Record<string, unknown>> {
  ensureSearchable(indices);
  const readers = indices.map((h) => h.openReader());
  const handles = readers.map((r) => searchView(r.handle, [], storedScripts));
  const budget = new WorkBudget(Infinity);
  let count = 0;
  try {
    await prepareReadRuntimeFields(handles, query, budget, storedScripts);
    for (const h of handles) count += (await budget.drive(queryWork(query, withSeqNoField({ ...queryContextOf(h), scripts: storedScripts }, h, [query]), false, budget))).size;
  } catch (e) {
    throw asSearchFailure(e, handles[0]?.name);
  } finally {
    for (const r of readers) r.release();
  }
  return { count, _shards: shardsOf(handles) };
}
