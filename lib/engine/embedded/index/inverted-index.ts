import type { ParsedDocument } from '../mapping/index.js';
import { FieldIndex } from './field-index.js';

/**
 * The in-memory search structures of one index, rebuilt from the store at start.
 *
 * Every write of a document gives it a new ordinal (as Lucene gives a new doc id), so ordinal order
 * is index order: the tie-break of equal scores. The previous ordinal becomes dead.
 */
export class InvertedIndex {
  private readonly ordToId: Array<string | undefined> = [];
  private readonly ordFields: Array<string[] | undefined> = [];
  private readonly idToOrd = new Map<string, number>();
  private readonly fieldIndexes = new Map<string, FieldIndex>();
  private dead = 0;

  get docCount(): number {
    return this.idToOrd.size;
  }

  /** Ordinals ever assigned (live or dead); live ones are < maxOrd. */
  get maxOrd(): number {
    return this.ordToId.length;
  }

  put(id: string, doc: ParsedDocument): number {
    this.delete(id);
    const ord = this.ordToId.length;
    this.ordToId.push(id);
    this.idToOrd.set(id, ord);
    const names: string[] = [];
    for (const [name, field] of doc.fields) {
      let fi = this.fieldIndexes.get(name);
      if (!fi) this.fieldIndexes.set(name, (fi = new FieldIndex(field.type)));
      fi.add(ord, field);
      names.push(name);
    }
    this.ordFields.push(names);
    return ord;
  }

  delete(id: string): void {
    const ord = this.idToOrd.get(id);
    if (ord === undefined) return;
    this.idToOrd.delete(id);
    this.ordToId[ord] = undefined;
    for (const name of this.ordFields[ord] ?? []) this.fieldIndexes.get(name)?.remove(ord);
    this.ordFields[ord] = undefined;
    if (++this.dead > 10_000 && this.dead > this.idToOrd.size) this.compact();
  }

  isLive(ord: number): boolean {
    return this.ordToId[ord] !== undefined;
  }

  idOf(ord: number): string | undefined {
    return this.ordToId[ord];
  }

  ordOf(id: string): number | undefined {
    return this.idToOrd.get(id);
  }

  field(name: string): FieldIndex | undefined {
    return this.fieldIndexes.get(name);
  }

  fieldNames(): IterableIterator<string> {
    return this.fieldIndexes.keys();
  }

  /** Live ordinals in index order. */
  *liveOrds(): IterableIterator<number> {
    for (let ord = 0; ord < this.ordToId.length; ord++) if (this.ordToId[ord] !== undefined) yield ord;
  }

  private compact(): void {
    const live = (ord: number) => this.ordToId[ord] !== undefined;
    for (const fi of this.fieldIndexes.values()) fi.compact(live);
    this.dead = 0;
  }
}
