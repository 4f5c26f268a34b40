export type DocValue = string | number | boolean;

/**
 * Column of typed values per document ordinal (sorting, aggregations, ranges): keyword values as
 * strings, numbers and dates (epoch ms) as numbers, booleans as booleans; geo points as
 * [lat, lon, lat, lon…]. Dense by ordinal: a lookup is an array read, no hashing.
 */
export class DocValues implements Map<number, DocValue[]> {
  private vals: Array<DocValue[] | undefined> = [];
  private count = 0;

  /** The values of one document, in document order; undefined when it has none. */
  get(ord: number): DocValue[] | undefined {
    return this.vals[ord];
  }

  has(ord: number): boolean {
    return this.vals[ord] !== undefined;
  }

  /** Number of documents with values. */
  get size(): number {
    return this.count;
  }

  set(ord: number, values: DocValue[]): this {
    while (this.vals.length < ord) this.vals.push(undefined);
    if (this.vals[ord] === undefined) this.count++;
    this.vals[ord] = values;
    return this;
  }

  delete(ord: number): boolean {
    if (this.vals[ord] === undefined) return false;
    this.vals[ord] = undefined;
    this.count--;
    return true;
  }

  /** Ordinals with values, ascending. */
  *keys(): IterableIterator<number> {
    const v = this.vals;
    for (let ord = 0; ord < v.length; ord++) if (v[ord] !== undefined) yield ord;
  }

  /** Values of each document that has some, in ordinal order. */
  *values(): IterableIterator<DocValue[]> {
    for (const vs of this.vals) if (vs !== undefined) yield vs;
  }

  *entries(): IterableIterator<[number, DocValue[]]> {
    const v = this.vals;
    for (let ord = 0; ord < v.length; ord++) if (v[ord] !== undefined) yield [ord, v[ord]!];
  }

  [Symbol.iterator](): IterableIterator<[number, DocValue[]]> {
    return this.entries();
  }

  forEach(cb: (values: DocValue[], ord: number, map: Map<number, DocValue[]>) => void): void {
    const v = this.vals;
    for (let ord = 0; ord < v.length; ord++) if (v[ord] !== undefined) cb(v[ord]!, ord, this);
  }

  clear(): void {
    this.vals = [];
    this.count = 0;
  }

  get [Symbol.toStringTag](): string {
    return 'DocValues';
  }
}
