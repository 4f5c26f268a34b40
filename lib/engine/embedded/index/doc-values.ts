import { growInt32, growUint8 } from './growable.js';
import { decodeValues, encodeValues, type ColumnRef, type SnapshotReader, type SnapshotWriter } from './snapshot.js';
import { arraySlotBytes, MAP_ENTRY_BYTES, stringBytes, type CharBytes } from './memory-bytes.js';

/** A doc value; date_nanos values are epoch nanoseconds, beyond what a number holds exactly: BigInts. */
export type DocValue = string | number | bigint | boolean;

/** What one document holds in a doc values column. */
export const DV_NONE = 0;
export const DV_STRING = 1;
export const DV_NUMBER = 2;
export const DV_TRUE = 3;
export const DV_FALSE = 4;
export const DV_MULTI = 5;
export const DV_BIGINT = 6;

/**
 * Column of typed values per document ordinal (sorting, aggregations, ranges): keyword values as
 * strings, numbers and dates (epoch ms) as numbers, date_nanos (epoch ns) as BigInts, booleans as
 * booleans; geo points as [lat, lon, lat, lon…]. Dense by ordinal, and without an object per
 * document for the common single-valued case: a kind byte per ordinal, a string id (Int32Array), a
 * number (Float64Array) or a BigInt (BigInt64Array); only documents with several values keep an
 * array. String ids are the field's term ids (the dictionary is shared with the inverted index) or,
 * for values that are not terms (`index: false`), negative ids into a dictionary of their own.
 *
 * `get(ord)` keeps the Map-like contract (a fresh array for single values); hot loops read the
 * columns through `kindAt` / `stringIdAt` / `numberAt` / `multiAt` instead.
 */
export class DocValues implements Map<number, DocValue[]> {
  private kinds = new Uint8Array(0);
  private sids: Int32Array<ArrayBuffer> | undefined;
  private nums: Float64Array<ArrayBuffer> | undefined;
  private bigs: BigInt64Array<ArrayBuffer> | undefined;
  private multi: Array<DocValue[] | undefined> | undefined;
  private extra: string[] = [];
  private extraIds: Map<string, number> | undefined;
  private count = 0;
  private maxOrd = 0;
  private readonly scratch: DocValue[] = [''];

  /**
   * @param terms the field's term list (term id → term), shared with its inverted index.
   * @param termId the field's term dictionary lookup (-1 when absent).
   */
  constructor(
    private readonly terms: readonly string[] = [],
    private readonly termId: (term: string) => number = () => -1,
  ) {}

  /** The values of one document, in document order; undefined when it has none. */
  get(ord: number): DocValue[] | undefined {
    if (ord >= this.maxOrd) return undefined;
    switch (this.kinds[ord]) {
      case DV_NONE:
        return undefined;
      case DV_STRING:
        return [this.stringOf(this.sids![ord])];
      case DV_NUMBER:
        return [this.nums![ord]];
      case DV_BIGINT:
        return [this.bigs![ord]];
      case DV_TRUE:
        return [true];
      case DV_FALSE:
        return [false];
      default:
        return this.multi![ord];
    }
  }

  /**
   * The values of one document without allocating: single values come in an array this column
   * reuses, valid only until the next `view` call on it — for loops that read and drop them.
   */
  view(ord: number): DocValue[] | undefined {
    if (ord >= this.maxOrd) return undefined;
    const scratch = this.scratch;
    switch (this.kinds[ord]) {
      case DV_NONE:
        return undefined;
      case DV_STRING:
        scratch[0] = this.stringOf(this.sids![ord]);
        return scratch;
      case DV_NUMBER:
        scratch[0] = this.nums![ord];
        return scratch;
      case DV_BIGINT:
        scratch[0] = this.bigs![ord];
        return scratch;
      case DV_TRUE:
        scratch[0] = true;
        return scratch;
      case DV_FALSE:
        scratch[0] = false;
        return scratch;
      default:
        return this.multi![ord];
    }
  }

  /** Kind of the values of a document (DV_NONE… DV_MULTI). */
  kindAt(ord: number): number {
    return ord < this.maxOrd ? this.kinds[ord] : DV_NONE;
  }

  /** String id of a single-valued DV_STRING document. */
  stringIdAt(ord: number): number {
    return this.sids![ord];
  }

  /** The number of a single-valued DV_NUMBER document. */
  numberAt(ord: number): number {
    return this.nums![ord];
  }

  /** The values of a DV_MULTI document. */
  multiAt(ord: number): DocValue[] {
    return this.multi![ord]!;
  }

  /** String ids are in [-extraCount, termCount): `stringOf(id)` gives the string. */
  stringOf(sid: number): string {
    return sid >= 0 ? this.terms[sid] : this.extra[~sid];
  }

  get termCount(): number {
    return this.terms.length;
  }

  get extraCount(): number {
    return this.extra.length;
  }

  has(ord: number): boolean {
    return this.kindAt(ord) !== DV_NONE;
  }

  /** Number of documents with values. */
  get size(): number {
    return this.count;
  }

  /**
   * The bytes its columns take, and an estimate of its multi-valued documents' arrays and its
   * strings outside the term list (the term list is its field's: counted with the dictionary).
   */
  memoryBytes(charBytes: CharBytes): number {
    let n = this.kinds.byteLength + (this.sids?.byteLength ?? 0) + (this.nums?.byteLength ?? 0) + (this.bigs?.byteLength ?? 0);
    if (this.multi) {
      n += arraySlotBytes(this.multi.length);
      for (const values of this.multi) {
        if (!values) continue;
        n += arraySlotBytes(values.length);
        // a number is a heap number (16 bytes), a string its bytes; one of the term list is shared
        for (const v of values) n += typeof v === 'string' ? stringBytes(v, charBytes) : 16;
      }
    }
    for (const e of this.extra) n += stringBytes(e, charBytes) + MAP_ENTRY_BYTES;
    return n;
  }

  private ensure(ord: number): void {
    if (ord >= this.kinds.length) this.kinds = growUint8(this.kinds, ord + 1);
    if (ord >= this.maxOrd) this.maxOrd = ord + 1;
  }

  private stringIdFor(v: string, hint: number): number {
    if (hint >= 0) return hint;
    const tid = this.termId(v);
    if (tid >= 0) return tid;
    this.extraIds ??= new Map();
    let id = this.extraIds.get(v);
    if (id === undefined) {
      id = ~this.extra.length;
      this.extra.push(v);
      this.extraIds.set(v, id);
    }
    return id;
  }

  /**
   * Sets the values of a document. `termIdHint` is the term id of `values[0]` when the caller
   * knows it (a keyword indexed as itself), -1 otherwise.
   */
  set(ord: number, values: DocValue[], termIdHint = -1): this {
    if (values.length === 0) {
      this.delete(ord);
      return this;
    }
    this.ensure(ord);
    if (this.kinds[ord] === DV_NONE) this.count++;
    else if (this.kinds[ord] === DV_MULTI) this.multi![ord] = undefined;
    if (values.length > 1) {
      this.multi ??= [];
      this.multi[ord] = values;
      this.kinds[ord] = DV_MULTI;
      return this;
    }
    const v = values[0];
    if (typeof v === 'string') {
      if (!this.sids || ord >= this.sids.length) this.sids = growInt32(this.sids ?? new Int32Array(0), Math.max(ord + 1, this.kinds.length));
      this.sids[ord] = this.stringIdFor(v, termIdHint);
      this.kinds[ord] = DV_STRING;
    } else if (typeof v === 'number') {
      if (!this.nums || ord >= this.nums.length) this.nums = growColumn(this.nums, Math.max(ord + 1, this.kinds.length), (n) => new Float64Array(n));
      this.nums[ord] = v;
      this.kinds[ord] = DV_NUMBER;
    } else if (typeof v === 'bigint' && BigInt.asIntN(64, v) !== v) {
      // past a signed 64-bit column (an unsigned_long from 2^63): kept as a list of one
      this.multi ??= [];
      this.multi[ord] = values;
      this.kinds[ord] = DV_MULTI;
    } else if (typeof v === 'bigint') {
      if (!this.bigs || ord >= this.bigs.length) this.bigs = growColumn(this.bigs, Math.max(ord + 1, this.kinds.length), (n) => new BigInt64Array(n));
      this.bigs[ord] = v;
      this.kinds[ord] = DV_BIGINT;
    } else {
      this.kinds[ord] = v ? DV_TRUE : DV_FALSE;
    }
    return this;
  }

  delete(ord: number): boolean {
    if (this.kindAt(ord) === DV_NONE) return false;
    if (this.kinds[ord] === DV_MULTI) this.multi![ord] = undefined;
    this.kinds[ord] = DV_NONE;
    this.count--;
    return true;
  }

  /** Ordinals with values, ascending. */
  *keys(): IterableIterator<number> {
    const k = this.kinds;
    for (let ord = 0; ord < this.maxOrd; ord++) if (k[ord] !== DV_NONE) yield ord;
  }

  /** Values of each document that has some, in ordinal order. */
  *values(): IterableIterator<DocValue[]> {
    for (const ord of this.keys()) yield this.get(ord)!;
  }

  *entries(): IterableIterator<[number, DocValue[]]> {
    for (const ord of this.keys()) yield [ord, this.get(ord)!];
  }

  [Symbol.iterator](): IterableIterator<[number, DocValue[]]> {
    return this.entries();
  }

  forEach(cb: (values: DocValue[], ord: number, map: Map<number, DocValue[]>) => void): void {
    for (const ord of this.keys()) cb(this.get(ord)!, ord, this);
  }

  clear(): void {
    this.kinds = new Uint8Array(0);
    this.sids = undefined;
    this.nums = undefined;
    this.bigs = undefined;
    this.multi = undefined;
    this.count = 0;
    this.maxOrd = 0;
  }

  get [Symbol.toStringTag](): string {
    return 'DocValues';
  }

  toSnapshot(w: SnapshotWriter): DocValuesSnapshot {
    const multi: Array<[number, unknown[]]> = [];
    if (this.multi) this.multi.forEach((vs, ord) => vs && multi.push([ord, encodeValues(vs)]));
    return {
      kinds: w.column(this.kinds.subarray(0, this.maxOrd)),
      sids: this.sids ? w.column(this.sids.subarray(0, Math.min(this.sids.length, this.maxOrd))) : undefined,
      nums: this.nums ? w.column(this.nums.subarray(0, Math.min(this.nums.length, this.maxOrd))) : undefined,
      bigs: this.bigs ? w.column(this.bigs.subarray(0, Math.min(this.bigs.length, this.maxOrd))) : undefined,
      multi,
      extra: this.extra,
      count: this.count,
    };
  }

  /** Restores a snapshot into this (empty) column. */
  loadSnapshot(r: SnapshotReader, s: DocValuesSnapshot): void {
    this.kinds = r.u8(s.kinds);
    this.maxOrd = this.kinds.length;
    this.sids = s.sids ? r.i32(s.sids) : undefined;
    this.nums = s.nums ? r.f64(s.nums) : undefined;
    this.bigs = s.bigs ? r.i64(s.bigs) : undefined;
    if (s.multi.length) {
      this.multi = [];
      for (const [ord, vs] of s.multi) this.multi[ord] = decodeValues(vs);
    }
    this.extra = s.extra;
    if (s.extra.length) this.extraIds = new Map(s.extra.map((v, i) => [v, ~i]));
    this.count = s.count;
  }
}

export interface DocValuesSnapshot {
  kinds: ColumnRef;
  sids: ColumnRef | undefined;
  nums: ColumnRef | undefined;
  bigs: ColumnRef | undefined;
  multi: Array<[number, unknown[]]>;
  extra: string[];
  count: number;
}

/** A value column (numbers or BigInts, 8 bytes each) grown by doubling to hold `minLength` ordinals. */
function growColumn<A extends Float64Array<ArrayBuffer> | BigInt64Array<ArrayBuffer>>(a: A | undefined, minLength: number, make: (length: number) => A): A {
  const len = a?.length ?? 0;
  if (minLength <= len) return a!;
  let cap = Math.max(16, len * 2);
  while (cap < minLength) cap *= 2;
  const next = make(cap);
  if (a) new Uint8Array(next.buffer).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return next;
}
