import type { IndexHandle } from '../indices/index.js';
import { FieldIndex, type InvertedIndex } from '../index/index.js';
import { toIndexedValue, type Mappings } from '../mapping/index.js';
import type { ExecutionContext, Query } from './query/index.js';

const SEQ_NO = '_seq_no';

/** Whether a parsed query tree names `_seq_no` as a field (a walk over the parsed value, never its text). */
function namesSeqNo(value: unknown, depth = 0): boolean {
  if (depth > 200 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => namesSeqNo(v, depth + 1));
  const o = value as Record<string, unknown>;
  if (o.field === SEQ_NO) return true;
  for (const k in o) if (namesSeqNo(o[k], depth + 1)) return true;
  return false;
}

/**
 * The context a search's queries run in on one index, with `_seq_no` a long field when they name
 * it: Elasticsearch's SeqNoFieldMapper indexes every document's sequence number as a long with
 * points and doc values, so `term`, `terms`, `range` and `exists` on it work as on any long field.
 * The field is built from the sequence numbers the index keeps in memory, only for a search that
 * asks, and only in that search's context (the index's mappings are not changed).
 */
export function withSeqNoField(ctx: ExecutionContext, handle: IndexHandle, queries: Array<Query | undefined>): ExecutionContext {
  if (!queries.some((q) => q !== undefined && namesSeqNo(q))) return ctx;
  const base = ctx.index;
  let built: FieldIndex | undefined;
  const seqNos = (): FieldIndex => {
    if (built) return built;
    const fi = new FieldIndex('long');
    for (const ord of base.liveOrdinals()) {
      const seqNo = handle.seqNoAt(ord);
      if (seqNo === undefined) continue;
      const indexed = toIndexedValue(seqNo, { type: 'long' }, SEQ_NO, base.idOf(ord)!, handle.registry);
      if (!indexed || indexed.value === undefined) continue;
      fi.add(ord, { type: 'long', terms: indexed.terms, positions: indexed.terms.map(() => 0), values: [indexed.value] });
    }
    return (built = fi);
  };
  const index = Object.create(base) as InvertedIndex;
  index.field = (name: string) => (name === SEQ_NO ? seqNos() : base.field(name));
  index.fieldNames = function* () {
    yield* base.fieldNames();
    yield SEQ_NO;
  };
  const properties = { ...((ctx.mappings.properties ?? {}) as Record<string, unknown>), [SEQ_NO]: { type: 'long' } };
  const mappings = { ...ctx.mappings, properties } as Mappings;
  return { ...ctx, index, mappings };
}
