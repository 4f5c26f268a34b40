/**
 * The parent-join module's queries over an index's `join` field (mapping/join-field.ts): parent_id
 * (the children of one parent), has_child (parents with a matching child) and has_parent (children
 * of a matching parent). Parents and children share the one index (each shard of Elasticsearch's,
 * routed together), so the join is a lookup of ids within it: a parent's `_id` is the value its
 * children hold in `<join>#<parent relation>`.
 */
import { EsError } from '../../../../errors/index.js';
import { joinFieldOf, joinIdField, parentRelationOf, type JoinField } from '../../mapping/join-field.js';
import { DocSetBuilder, type ScoredDocs } from './doc-set.js';
import { runQuery, type Exec } from './execute-query.js';
import { explainByScore } from './explain-query.js';
import { refusedAlways } from './expensive-queries.js';
import { checkKeys, enumOf, innerQueryBody, isObject, parseQuery, parsingError } from './parse-query.js';
import { booleanValue, boostOf } from './query-fields.js';
import { collectHighlightTerms } from './query-terms-for-highlight.js';
import type { Query } from './query.js';
import type { QueryOf, QueryType } from './query-type.js';
import { rewriteQuery, type RewriteContext } from './rewrite-query.js';

const f = Math.fround;
const NONE: Query = { type: 'match_none' };

const term = (field: string, value: string): Query => ({ type: 'indexed_term', field, term: value, boost: 1, constant: true });
const filtered = (must: Query[], filter: Query[]): Query => ({ type: 'bool', must, filter, should: [], mustNot: [], boost: 1 });

/** `query` narrowed to the documents of one relation of the join field `field` (the inner hits of the queries run it). */
export const relationQuery = (query: Query, field: string, relation: string): Query => filtered([query], [term(field, relation)]);

function joinOf(ctx: RewriteContext, query: string, ignoreUnmapped: boolean): JoinField | undefined {
  const join = joinFieldOf(ctx.mappings);
  if (!join && !ignoreUnmapped) throw new EsError(400, 'query_shard_exception', `[${query}] no join field has been configured`);
  return join;
}

function optionalInt(name: string, key: string, v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw parsingError(`[${name}] [${key}] must be an integer`);
  return n;
}

export const parentIdQuery: QueryType<'parent_id'> = {
  name: 'parent_id',
  expensive: () => refusedAlways('joining'),
  parse(body) {
    if (!isObject(body)) throw parsingError('[parent_id] query malformed');
    checkKeys('parent_id', body, ['type', 'id', 'ignore_unmapped', 'boost', '_name']);
    if (typeof body.type !== 'string') throw parsingError('[parent_id] requires \'type\' field');
    if (body.id === undefined || body.id === null) throw parsingError('[parent_id] requires \'id\' field');
    return { type: 'parent_id', childType: body.type, id: String(body.id), ignoreUnmapped: booleanValue(body.ignore_unmapped, false), boost: boostOf('parent_id', body.boost) };
  },
  children: () => [],
  withChildren: (q) => q,
  rewrite(q, ctx) {
    const join = joinOf(ctx, 'parent_id', q.ignoreUnmapped);
    if (!join) return NONE;
    const parent = parentRelationOf(join, q.childType);
    if (parent === undefined) {
      if (q.ignoreUnmapped) return NONE;
      throw new EsError(400, 'query_shard_exception', `[parent_id] no relation found for child [${q.childType}]`);
    }
    return { type: 'constant_score', filter: filtered([], [term(join.name, q.childType), term(joinIdField(join, parent), q.id)]), boost: q.boost };
  },
  // rewritten away before it is run
  *execute() {
    throw new Error('parent_id runs rewritten');
  },
  matches: () => false,
  explain: explainByScore,
  print: (q) => `parent_id(${q.childType}:${q.id})`,
  highlightTerms: () => undefined,
  scope: () => 'index',
};

/** The query with its `inner_hits` (an object, read by the search), or refused. */
function withInnerHits<Q extends { innerHits?: Record<string, unknown> }>(name: string, q: Q, innerHits: unknown): Q {
  if (innerHits === undefined) return q;
  if (!isObject(innerHits)) throw parsingError(`[${name}] query does not support [inner_hits]`);
  return { ...q, innerHits };
}

/** A relation the join does not hold: nothing with `ignore_unmapped`, else Elasticsearch's refusal. */
function notHeld(query: string, join: JoinField, type: string, role: 'child' | 'parent', ignoreUnmapped: boolean): Query {
  if (ignoreUnmapped) return NONE;
  throw new EsError(400, 'query_shard_exception', `[${query}] join field [${join.name}] doesn't hold [${type}] as a ${role}`);
}

type ScoreMode = 'none' | 'avg' | 'sum' | 'min' | 'max';

export const hasChildQuery: QueryType<'has_child'> = {
  name: 'has_child',
  expensive: () => refusedAlways('joining'),
  parse(raw) {
    const name = 'has_child';
    const body = innerQueryBody(name, raw, ['type', 'query', 'score_mode', 'min_children', 'max_children', 'ignore_unmapped', 'inner_hits', 'boost', '_name'], 'type');
    const q: QueryOf<'has_child'> = {
      type: 'has_child', childType: body.type as string, query: parseQuery(body.query),
      scoreMode: enumOf(name, 'score_mode', body.score_mode, ['none', 'avg', 'sum', 'min', 'max'] as const, 'none'),
      minChildren: optionalInt(name, 'min_children', body.min_children) ?? 1,
      maxChildren: optionalInt(name, 'max_children', body.max_children) ?? Number.MAX_SAFE_INTEGER,
      ignoreUnmapped: booleanValue(body.ignore_unmapped, false), boost: boostOf(name, body.boost),
    };
    return withInnerHits('has_child', q, body.inner_hits);
  },
  children: (q) => [q.query],
  withChildren: (q, fn) => ({ ...q, query: fn(q.query) }),
  rewrite(q, ctx) {
    if (q.join) return q;
    const join = joinOf(ctx, 'has_child', q.ignoreUnmapped);
    if (!join) return NONE;
    const parent = parentRelationOf(join, q.childType);
    if (parent === undefined) return notHeld('has_child', join, q.childType, 'child', q.ignoreUnmapped);
    return { ...q, query: rewriteQuery(relationQuery(q.query, join.name, q.childType), ctx), join: { field: join.name, parent } };
  },
  *execute(q, x, scoring) {
    if (!q.join) return yield* runQuery(NONE, x, scoring);
    const children = yield* runQuery(q.query, x, scoring && q.scoreMode !== 'none');
    const idField = x.index.field(joinIdField(q.join.field, q.join.parent))?.docValues;
    // parent ord → the scores of its matching children
    const byParent = new Map<number, number[]>();
    for (let i = 0; i < children.length; i++) {
      const id = idField?.get(children.ords[i])?.[0];
      const ord = id === undefined ? undefined : x.index.ordOf(String(id));
      if (ord === undefined || x.live[ord] !== 1) continue;
      let s = byParent.get(ord);
      if (!s) byParent.set(ord, (s = []));
      s.push(children.scores[i]);
    }
    const relation = x.index.field(q.join.field)?.docValues;
    const out = new DocSetBuilder();
    for (const ord of [...byParent.keys()].sort((a, b) => a - b)) {
      if (relation?.get(ord)?.[0] !== q.join.parent) continue;
      const s = byParent.get(ord)!;
      if (s.length < q.minChildren || s.length > q.maxChildren) continue;
      out.add(ord, scoring ? f(f(combine(q.scoreMode, s)) * q.boost) : 0);
    }
    return out.build();
  },
  matches: () => false,
  explain: explainByScore,
  print: (q, p) => `HasChildQuery (${p.child(q.query)})`,
  highlightTerms: (q, ctx) => collectHighlightTerms(q.query, ctx),
  scope: () => 'index',
};

export const hasParentQuery: QueryType<'has_parent'> = {
  name: 'has_parent',
  expensive: () => refusedAlways('joining'),
  parse(raw) {
    const name = 'has_parent';
    const body = innerQueryBody(name, raw, ['parent_type', 'query', 'score', 'ignore_unmapped', 'inner_hits', 'boost', '_name'], 'parent_type', '[has_parent] query requires');
    const q: QueryOf<'has_parent'> = {
      type: 'has_parent', parentType: body.parent_type as string, query: parseQuery(body.query), score: booleanValue(body.score, false),
      ignoreUnmapped: booleanValue(body.ignore_unmapped, false), boost: boostOf(name, body.boost),
    };
    return withInnerHits('has_parent', q, body.inner_hits);
  },
  children: (q) => [q.query],
  withChildren: (q, fn) => ({ ...q, query: fn(q.query) }),
  rewrite(q, ctx) {
    if (q.join) return q;
    const join = joinOf(ctx, 'has_parent', q.ignoreUnmapped);
    if (!join) return NONE;
    const children = join.relations.get(q.parentType);
    if (!children) return notHeld('has_parent', join, q.parentType, 'parent', q.ignoreUnmapped);
    return { ...q, query: rewriteQuery(relationQuery(q.query, join.name, q.parentType), ctx), join: { field: join.name, children } };
  },
  *execute(q, x, scoring) {
    if (!q.join) return yield* runQuery(NONE, x, scoring);
    const parents = yield* runQuery(q.query, x, scoring && q.score);
    const ids = x.index.field(joinIdField(q.join.field, q.parentType));
    const relation = x.index.field(q.join.field)?.docValues;
    const found = new Map<number, number>();
    for (let i = 0; i < parents.length; i++) {
      const id = x.index.idOf(parents.ords[i]);
      const tid = id === undefined || !ids ? -1 : ids.termId(id);
      if (tid < 0) continue;
      for (const ord of postingOrds(ids!, tid)) {
        if (x.live[ord] !== 1 || !q.join.children.includes(String(relation?.get(ord)?.[0]))) continue;
        found.set(ord, parents.scores[i]);
      }
    }
    const out = new DocSetBuilder();
    for (const ord of [...found.keys()].sort((a, b) => a - b)) out.add(ord, scoring ? f(f(q.score ? found.get(ord)! : 1) * q.boost) : 0);
    return out.build();
  },
  matches: () => false,
  explain: explainByScore,
  print: (q, p) => `HasParentQuery (${p.child(q.query)})`,
  highlightTerms: (q, ctx) => collectHighlightTerms(q.query, ctx),
  scope: () => 'index',
};

function combine(mode: ScoreMode, s: number[]): number {
  switch (mode) {
    case 'none': return 1;
    case 'sum': return s.reduce((a, b) => a + b, 0);
    case 'avg': return s.reduce((a, b) => a + b, 0) / s.length;
    case 'min': return Math.min(...s);
    case 'max': return Math.max(...s);
  }
}

/** The ordinals a term's postings list. */
function postingOrds(field: NonNullable<ReturnType<Exec['index']['field']>>, tid: number): number[] {
  const r = field.postingsOf(tid);
  const out: number[] = [];
  while (!r.done) out.push(r.read()); // keyword postings: ordinals only (no positions)
  return out;
}

/** The inner-hits requests of parent-join queries anywhere in a query (search/join-inner-hits). */
export type JoinInnerHitsQuery = QueryOf<'has_child'> | QueryOf<'has_parent'>;
