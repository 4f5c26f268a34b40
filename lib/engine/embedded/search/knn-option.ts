import { queryTypeOf, queryWork, type ExecutionContext, type Query } from './query/index.js';
import type { WorkBudget } from './work-budget.js';

type KnnOption = Extract<Query, { type: 'knn' }>;

interface Neighbour {
  index: string;
  order: number;
  ord: number;
  score: number;
}

/** The option's k nearest over every index: each index's own k nearest, merged by score (ties: index order, then document). */
async function globalNearest(q: KnnOption, contexts: ExecutionContext[], budget: WorkBudget): Promise<KnnOption> {
  const all: Neighbour[] = [];
  for (const [order, ctx] of contexts.entries()) {
    const docs = await budget.drive(queryWork(q, ctx, true, budget));
    for (let i = 0; i < docs.length; i++) all.push({ index: ctx.indexName ?? '', order, ord: docs.ords[i], score: docs.scores[i] });
  }
  all.sort((a, b) => b.score - a.score || a.order - b.order || a.ord - b.ord);
  const nearest = new Map<string, Set<number>>();
  for (const n of all.slice(0, q.k ?? all.length)) {
    let ords = nearest.get(n.index);
    if (!ords) nearest.set(n.index, ords = new Set());
    ords.add(n.ord);
  }
  return { ...q, nearest };
}

/**
 * The query with each `knn` search option narrowed to its global k nearest. Elasticsearch runs the
 * option in the DFS phase: every shard's k nearest are merged into k overall, and only those take
 * part in the query phase; the `knn` query, by contrast, keeps k per shard.
 */
export async function withGlobalKnn(query: Query, contexts: ExecutionContext[], budget: WorkBudget): Promise<Query> {
  if (query.type === 'knn') return query.option && contexts.length > 1 ? globalNearest(query, contexts, budget) : query;
  const type = queryTypeOf(query);
  const children = type.children(query);
  if (!children.length) return query;
  const replaced = new Map<Query, Query>();
  for (const c of children) {
    const next = await withGlobalKnn(c, contexts, budget);
    if (next !== c) replaced.set(c, next);
  }
  return replaced.size ? type.withChildren(query, (c) => replaced.get(c) ?? c) : query;
}
