/**
 * The parent-join module's bucket aggregations: `children` (the child documents of type `type`
 * whose parents are in the bucket) and `parent` (the parents of the bucket's documents of child
 * type `type`). An index without a join field, or whose join does not hold the type, gives an
 * empty bucket, as Elasticsearch's unconfigured case does.
 */
import { EsError } from '../../../../errors/index.js';
import { joinFieldOf, joinIdField, parentRelationOf } from '../../mapping/join-field.js';
import { withSubs } from './aggregations.js';
import { docCount } from './source.js';
import type { AggregationType, DocSet, Segment } from './types.js';

interface JoinAggParams {
  type: string;
}

function parseType(agg: string, name: string, body: Record<string, unknown>): JoinAggParams {
  for (const k of Object.keys(body)) {
    if (k !== 'type') throw new EsError(400, 'parsing_exception', `Unknown key for a VALUE_STRING in [${name}]: [${k}].`, { line: 1, col: 1 });
  }
  if (typeof body.type !== 'string') throw new EsError(400, 'parsing_exception', `Missing [type] field for ${agg} aggregation [${name}]`, { line: 1, col: 1 });
  return { type: body.type };
}

/** The join of one segment's index for child type `type`: the field, the parent relation, and the index. */
function joinFor(seg: Segment, type: string) {
  const join = joinFieldOf(seg.handle.mappings);
  const parent = join && parentRelationOf(join, type);
  const index = seg.handle.inverted;
  if (!join || parent === undefined || !index) return undefined;
  const relation = index.field(join.name)?.docValues;
  const ids = index.field(joinIdField(join, parent));
  if (!ids) return undefined; // no document holds the relation yet
  return { index, parent, relationOf: (ord: number) => relation?.get(ord)?.[0], ids };
}

type Join = NonNullable<ReturnType<typeof joinFor>>;

/** A bucket aggregation that moves each index's documents across the join by `move` (into `out`). */
function joinAggregation(agg: 'children' | 'parent', move: (j: Join, ord: number, type: string, out: Set<number>) => void): AggregationType<JoinAggParams> {
  return {
    kind: 'bucket',
    parse: (name, body) => parseType(agg, name, body),
    run(node, docs, ctx) {
      const { type } = node.params;
      const inBucket: DocSet = docs.map((seg) => {
        const j = joinFor(seg, type);
        if (!j) return { handle: seg.handle, ords: [] };
        const out = new Set<number>();
        for (const ord of seg.ords) move(j, ord, type, out);
        return { handle: seg.handle, ords: [...out].sort((a, b) => a - b) };
      });
      return { typed: agg, body: withSubs({ doc_count: docCount(inBucket) }, node.subs, inBucket, ctx, false) };
    },
  };
}

/** The bucket's parents' children of type `type`. */
export const children = joinAggregation('children', (j, ord, type, out) => {
  if (j.relationOf(ord) !== j.parent) return;
  const id = j.index.idOf(ord);
  const tid = id === undefined ? -1 : j.ids.termId(id);
  if (tid < 0) return;
  const r = j.ids.postingsOf(tid);
  while (!r.done) {
    const child = r.read();
    if (j.index.isLive(child) && j.relationOf(child) === type) out.add(child);
  }
});

/** The parents of the bucket's documents of child type `type`. */
export const parent = joinAggregation('parent', (j, ord, type, out) => {
  if (j.relationOf(ord) !== type) return;
  const id = j.ids.docValues.get(ord)?.[0];
  const p = id === undefined ? undefined : j.index.ordOf(String(id));
  if (p !== undefined && j.index.isLive(p) && j.relationOf(p) === j.parent) out.add(p);
});
