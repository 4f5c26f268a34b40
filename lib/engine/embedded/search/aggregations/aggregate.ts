import type { IndexHandle } from '../../indices/index.js';
import type { StoredScripts } from '../../painless/index.js';
import { runAggregations } from './aggregations.js';
import type { AggContext, AggNode, DocSet } from './types.js';

/** The matches of one index as parallel columns (`length` entries used). */
export interface MatchSegment {
  handle: IndexHandle;
  ords: ArrayLike<number>;
  scores: ArrayLike<number>;
  length: number;
}

export interface AggregateOptions {
  typedKeys: boolean;
  now?: number;
  /** Scripts stored with `_scripts`, for aggregation scripts given by id. */
  storedScripts?: StoredScripts;
  /** `search.max_buckets`: the buckets the response may hold (MAX_BUCKETS when not given). */
  maxBuckets?: number;
}

/**
 * Aggregations that read query scores: top_hits shows them, the samplers keep the best-scoring
 * documents, scripted metrics and scripts may read `_score`.
 */
const SCORING = new Set(['top_hits', 'sampler', 'diversified_sampler', 'scripted_metric']);

function needsScores(nodes: AggNode[]): boolean {
  return nodes.some((n) => SCORING.has(n.type) || n.body.script !== undefined || needsScores(n.subs));
}

function isAscending(ords: number[]): boolean {
  for (let i = 1; i < ords.length; i++) if (ords[i] < ords[i - 1]) return false;
  return true;
}

/**
 * The `aggregations` of a search response, from the matching documents of each searched index.
 * `hits` need not be sorted; scores are kept only when an aggregation reads them.
 */
export function aggregate(
  nodes: AggNode[],
  handles: IndexHandle[],
  hits: Iterable<{ handle: IndexHandle; ord: number; score: number }> | MatchSegment[],
  opts: AggregateOptions,
): Record<string, unknown> {
  const { docs, ctx } = aggregationInput(nodes, handles, hits, opts);
  return runAggregations(nodes, docs, ctx);
}

/** What `aggregate` runs the aggregations over: the matches as a doc set, and the context. */
export function aggregationInput(
  nodes: AggNode[],
  handles: IndexHandle[],
  hits: Iterable<{ handle: IndexHandle; ord: number; score: number }> | MatchSegment[],
  opts: AggregateOptions,
): { docs: DocSet; ctx: AggContext } {
  const withScores = needsScores(nodes);
  const docs: DocSet = handles.map((handle) => ({ handle, ords: [], scores: withScores ? new Map<number, number>() : undefined }));
  const segOf = new Map<IndexHandle, DocSet[number]>(docs.map((s) => [s.handle, s]));
  if (Array.isArray(hits)) {
    // The matches of each index as columns, without an object per hit. An index matched once
    // lends its ordinal column as is (a read-only view: aggregations never write a doc set they
    // are given, they build new ones); otherwise the columns are copied.
    const segments = hits as MatchSegment[];
    const times = new Map<IndexHandle, number>();
    for (const m of segments) times.set(m.handle, (times.get(m.handle) ?? 0) + 1);
    for (const m of segments) {
      const seg = segOf.get(m.handle)!;
      const { ords, scores, length } = m;
      if (times.get(m.handle) === 1 && ords instanceof Int32Array) seg.ords = ords.subarray(0, length) as unknown as number[];
      else {
        const out = seg.ords;
        let n = out.length;
        out.length = n + length;
        for (let i = 0; i < length; i++) out[n++] = ords[i];
      }
      if (seg.scores) for (let i = 0; i < length; i++) seg.scores.set(ords[i], scores[i]);
    }
  } else {
    let last: DocSet[number] | undefined;
    for (const hit of hits as Iterable<{ handle: IndexHandle; ord: number; score: number }>) {
      const seg = last?.handle === hit.handle ? last : (last = segOf.get(hit.handle)!);
      seg.ords.push(hit.ord);
      seg.scores?.set(hit.ord, hit.score);
    }
  }
  for (const seg of docs) if (!isAscending(seg.ords)) seg.ords = Array.from(seg.ords).sort((a, b) => a - b);
  let all: DocSet | undefined;
  const ctx: AggContext = {
    typedKeys: opts.typedKeys,
    now: opts.now ?? Date.now(),
    storedScripts: opts.storedScripts,
    buckets: { count: 0, max: opts.maxBuckets },
    get all(): DocSet {
      all ??= handles.map((handle) => ({ handle, ords: [...handle.inverted!.liveOrds()] }));
      return all;
    },
  };
  return { docs, ctx };
}
