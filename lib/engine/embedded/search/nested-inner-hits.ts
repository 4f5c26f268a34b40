/**
 * The `inner_hits` of `nested` queries (ES's InnerHitsContext for nested documents): for each hit
 * on the page, the nested objects at the query's path that match its inner query, scored by it,
 * each shown with `_nested` (where it sits in the document) and its own part of `_source`; a nested
 * query with inner hits inside another gives each inner hit inner hits of its own.
 */
import { EsError } from '../../../errors/index.js';
import type { IndexHandle } from '../indices/index.js';
import { ancestorOrd, levelOf, levelView, nestedChain } from './aggregations/nested-scope.js';
import { parseNestedInnerHits, type InnerHitsRequest } from './collapse.js';
import { executeQuery, queryContextOf, queryTypeOf, type Query, type ScoredDocs } from './query/index.js';
import { joinFieldOf, joinIdField, parentRelationOf } from '../mapping/join-field.js';
import { relationQuery } from './query/parent-join-queries.js';

export interface NestedInnerHits {
  path: string;
  /** The nested query's own query, run over the objects at `path`. */
  query: Query;
  def: InnerHitsRequest;
  /** Nested queries with inner hits inside `query`: inner hits of each of this definition's hits. */
  inner: NestedInnerHits[];
  /**
   * Set for the inner hits of a parent-join query (`path` is then empty): a has_child's are the
   * hit's children of `type` that match `query`, a has_parent's the hit's parent of `type` if it does.
   */
  join?: { kind: 'children' | 'parent'; type: string };
}

/** The nested queries with `inner_hits` of a query tree, each with those inside it. */
export function nestedInnerHitsOf(query: Query): NestedInnerHits[] {
  const out: NestedInnerHits[] = [];
  collect(query, out, 0);
  checkUniqueNames(out, new Set());
  return out;
}

function collect(q: Query, out: NestedInnerHits[], depth: number): void {
  if (depth > 200) return;
  if (q.type === 'nested' && q.innerHits !== undefined) {
    const inner: NestedInnerHits[] = [];
    collect(q.query, inner, depth + 1);
    out.push({ path: q.path, query: q.query, def: parseNestedInnerHits(q.innerHits, q.path), inner });
    return;
  }
  if ((q.type === 'has_child' || q.type === 'has_parent') && q.innerHits !== undefined) {
    const type = q.type === 'has_child' ? q.childType : q.parentType;
    const inner: NestedInnerHits[] = [];
    collect(q.query, inner, depth + 1);
    out.push({ path: '', query: q.query, def: parseNestedInnerHits(q.innerHits, type), inner, join: { kind: q.type === 'has_child' ? 'children' : 'parent', type } });
    return;
  }
  for (const child of queryTypeOf(q).children(q)) collect(child, out, depth + 1);
}

/** ES's InnerHitContextBuilder refuses two definitions of one name. */
function checkUniqueNames(defs: NestedInnerHits[], seen: Set<string>): void {
  for (const d of defs) {
    if (seen.has(d.def.name)) throw new EsError(400, 'illegal_argument_exception', `[inner_hits] already contains an entry for key [${d.def.name}]`);
    seen.add(d.def.name);
    checkUniqueNames(d.inner, seen);
  }
}

/** The objects of one document (or outer object) that an inner hits definition shows, with their scores. */
export interface InnerHitsMembers {
  /** The level view of the definition's path: its ordinals are the nested objects'. */
  view: IndexHandle;
  ords: number[];
  scores: number[];
}

/**
 * The matching objects of each definition, grouped by the document (or object) of `handle` they
 * belong to: the inner query runs once per definition and level, not once per hit.
 */
export class NestedMatches {
  private readonly runs = new Map<NestedInnerHits, Map<IndexHandle, { view: IndexHandle; byOwner: Map<number, InnerHitsMembers> } | undefined>>();

  /** The objects of `def` that belong to `ord` of `handle`, in ordinal order; undefined when `def.path` is no nested level below `handle`. */
  of(def: NestedInnerHits, handle: IndexHandle, ord: number): InnerHitsMembers | undefined {
    let perHandle = this.runs.get(def);
    if (!perHandle) this.runs.set(def, (perHandle = new Map()));
    if (!perHandle.has(handle)) perHandle.set(handle, this.run(def, handle));
    const run = perHandle.get(handle);
    if (!run) return undefined;
    return run.byOwner.get(ord) ?? { view: run.view, ords: [], scores: [] };
  }

  /** The inner query over every object at the definition's level, the matches grouped by their owner in `handle`. */
  private run(def: NestedInnerHits, handle: IndexHandle): { view: IndexHandle; byOwner: Map<number, InnerHitsMembers> } | undefined {
    if (def.join) return joinRun(def.join, def.query, handle);
    const chain = nestedChain(handle, def.path);
    if (chain[chain.length - 1] !== def.path) return undefined;
    const view = levelView(handle, chain);
    if (view === handle) return undefined;
    const level = levelOf(view);
    const ctx = queryContextOf(view);
    // the query runs as the nested query runs it: kNN keeps the nearest object of each holder
    if (level) ctx.owner = { path: level.path, parentOf: level.parentOf, parent: queryContextOf(level.parent) };
    const scored = executeQuery(def.query, ctx, true);
    const byOwner = new Map<number, InnerHitsMembers>();
    for (let i = 0; i < scored.length; i++) {
      const child = scored.ords[i];
      const owner = ancestorOrd(view, child, handle);
      if (owner === undefined) continue;
      let m = byOwner.get(owner);
      if (!m) byOwner.set(owner, (m = { view, ords: [], scores: [] }));
      m.ords.push(child);
      m.scores.push(scored.scores[i]);
    }
    return { view, byOwner };
  }
}

/**
 * A parent-join definition's matches in one index (the hits' own), grouped by the hit they belong
 * to: each matching child under its parent, or each matching parent under each of its children.
 */
function joinRun(j: NonNullable<NestedInnerHits['join']>, query: Query, handle: IndexHandle): { view: IndexHandle; byOwner: Map<number, InnerHitsMembers> } | undefined {
  const join = joinFieldOf(handle.mappings);
  const index = handle.inverted;
  if (!join || !index) return undefined;
  const parent = j.kind === 'children' ? parentRelationOf(join, j.type) : j.type;
  if (parent === undefined) return undefined;
  const scored = executeQuery(relationQuery(query, join.name, j.type), queryContextOf(handle), true);
  const ids = index.field(joinIdField(join, parent));
  const byOwner = new Map<number, InnerHitsMembers>();
  const add = (owner: number, ord: number, score: number) => {
    let m = byOwner.get(owner);
    if (!m) byOwner.set(owner, (m = { view: handle, ords: [], scores: [] }));
    m.ords.push(ord);
    m.scores.push(score);
  };
  for (let i = 0; i < scored.length; i++) {
    const ord = scored.ords[i];
    if (j.kind === 'children') {
      const id = ids?.docValues.get(ord)?.[0];
      const owner = id === undefined ? undefined : index.ordOf(String(id));
      if (owner !== undefined) add(owner, ord, scored.scores[i]);
      continue;
    }
    const id = index.idOf(ord);
    const tid = id === undefined || !ids ? -1 : ids.termId(id);
    if (tid < 0) continue;
    const r = ids!.postingsOf(tid);
    while (!r.done) {
      const owner = r.read();
      if (owner !== ord) add(owner, ord, scored.scores[i]);
    }
  }
  return { view: handle, byOwner };
}
