import type { IndexHandle } from '../../indices/index.js';
import { runAggregations } from './aggregations.js';
import type { AggNode, DocSet } from './types.js';

export interface AggregateOptions {
  typedKeys: boolean;
  now?: number;
}

function needsScores(nodes: AggNode[]): boolean {
  return nodes.some((n) => n.type === 'top_hits' || needsScores(n.subs));
}

function isAscending(ords: number[]): boolean {
  for (let i = 1; i < ords.length; i++) if (ords[i] < ords[i - 1]) return false;
  return true;
}

/**
 * The `aggregations` of a search response, from the matching documents of each searched index.
 * `hits` need not be sorted; scores are kept only when a `top_hits` shows them.
 */
export function aggregate(nodes: AggNode[], handles: IndexHandle[], hits: Iterable<{ handle: IndexHandle; ord: number; score: number }>, opts: AggregateOptions): Record<string, unknown> {
  const withScores = needsScores(nodes);
  const docs: DocSet = handles.map((handle) => ({ handle, ords: [], scores: withScores ? new Map<number, number>() : undefined }));
  const segOf = new Map<IndexHandle, DocSet[number]>(docs.map((s) => [s.handle, s]));
  let last: DocSet[number] | undefined;
  for (const hit of hits) {
    const seg = last?.handle === hit.handle ? last : (last = segOf.get(hit.handle)!);
    seg.ords.push(hit.ord);
    seg.scores?.set(hit.ord, hit.score);
  }
  for (const seg of docs) if (!isAscending(seg.ords)) seg.ords.sort((a, b) => a - b);
  let all: DocSet | undefined;
  const ctx = {
    typedKeys: opts.typedKeys,
    now: opts.now ?? Date.now(),
    get all(): DocSet {
      all ??= handles.map((handle) => ({ handle, ords: [...handle.inverted!.liveOrds()] }));
      return all;
    },
  };
  return runAggregations(nodes, docs, ctx);
}
