import { rangeOperands, type PreparedDocument } from '../../engine/embedded/index.js';
import { IntervalIndex, type IntervalItem } from './interval-index.js';
import type { Atom } from './requirement.js';

export type RangeAtom = Extract<Atom, { kind: 'range' }>;

/**
 * What a bucket needs of an entry. An entry with a range is found by its interval, which it
 * carries itself (`IntervalItem`: the range's bounds; those of an entry without a range are unset).
 */
export interface Bucketed extends IntervalItem {
  /** When set, the entry is found only when one of the document's values lies within this range. */
  readonly range?: RangeAtom;
  /** Where it stands in the bucket's list (entries without a range). */
  at: number;
}

interface RangeTable<E extends Bucketed> {
  readonly field: string;
  readonly numeric: boolean;
  readonly booleanField: boolean;
  readonly intervals: IntervalIndex<E>;
}

/** A field's ranges compare either doc values or terms (by the field's type): one table for each. */
const tableKey = (range: RangeAtom) => `${range.field}\u0000${range.bounds.numeric}\u0000${range.booleanField}`;

/**
 * The entries found under one key (a term, an id…): a list, and those that also need a value
 * within a range, by interval per field — so that a document meets only the ranges that contain
 * its values, not every range under a common key (a section, a frequent word).
 */
export class Bucket<E extends Bucketed> {
  private readonly list: E[] = [];
  private readonly ranges = new Map<string, RangeTable<E>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(entry: E): void {
    this.count++;
    const range = entry.range;
    if (!range) {
      entry.at = this.list.length;
      this.list.push(entry);
      return;
    }
    const key = tableKey(range);
    let table = this.ranges.get(key);
    if (!table) {
      table = { field: range.field, numeric: range.bounds.numeric, booleanField: range.booleanField, intervals: new IntervalIndex() };
      this.ranges.set(key, table);
    }
    table.intervals.add(entry);
  }

  delete(entry: E): void {
    const range = entry.range;
    if (!range) {
      if (this.list[entry.at] !== entry) return;
      const last = this.list.pop()!;
      if (last !== entry) {
        this.list[entry.at] = last;
        last.at = entry.at;
      }
      this.count--;
      return;
    }
    const key = tableKey(range);
    const table = this.ranges.get(key);
    if (!table || !table.intervals.has(entry)) return;
    table.intervals.delete(entry);
    this.count--;
    if (table.intervals.size === 0) this.ranges.delete(key);
  }

  /** Calls `visit` for every entry whose range, if it has one, holds for the document. */
  visit(doc: PreparedDocument, visit: (entry: E) => void): void {
    const list = this.list;
    for (let i = 0; i < list.length; i++) visit(list[i]);
    for (const table of this.ranges.values()) {
      const field = doc.fields.get(table.field);
      if (!field) continue;
      // the tree tests the bounds as the matcher does (`inRange`), open ends included
      for (const v of rangeOperands(field, table.numeric, table.booleanField)) table.intervals.stab(v, visit);
    }
  }
}
