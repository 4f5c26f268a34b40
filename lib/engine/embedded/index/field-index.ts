import type { IndexableField } from '../mapping/index.js';
import { DocValues } from './doc-values.js';
import { growInt32, growUint8 } from './growable.js';
import { IntSlicePool, SliceReader } from './int-slice-pool.js';
import { TermDict } from './term-dict.js';
import type { DocValuesSnapshot } from './doc-values.js';
import type { ColumnRef, SnapshotReader, SnapshotWriter } from './snapshot.js';
import { intToByte4 } from './small-float.js';

/** Field types indexed with frequencies, positions and norms (Lucene's DOCS_AND_FREQS_AND_POSITIONS). */
const POSITIONAL_TYPES = new Set(['text', 'match_only_text', 'search_as_you_type']);

const HAS_VALUE = 1;
const HAS_TERMS = 2;
/** Added but not yet visible (a write waiting for its store commit): left out of the statistics. */
const PENDING = 4;

/**
 * The inverted index, norms and doc values of one field.
 *
 * Postings of a term are one int list in a shared slice pool, in ordinal order: `ord` for
 * DOCS-only fields (keyword, numbers…), `ord, freq, pos × freq` for positional fields (text).
 * Postings of removed documents stay until `compact` (like Lucene's deleted docs until a merge);
 * readers check liveness. Statistics (docCount, sumTotalTermFreq) count live documents only.
 */
export class FieldIndex {
  readonly positional: boolean;
  private readonly dict = new TermDict();
  /** Term id → term (the dictionary's own list). */
  private readonly termList: string[] = this.dict.terms;
  private sorted: string[] | undefined;
  private pool = new IntSlicePool();
  private head = new Int32Array(256);
  private tail = new Int32Array(256);
  private end = new Int32Array(256);
  private level = new Uint8Array(256);
  private df = new Int32Array(256);
  private lastOrd = new Int32Array(256);
  private freqScratch = new Int32Array(256);
  private slotScratch = new Int32Array(256);
  private tidBuf = new Int32Array(64);
  private uniqBuf = new Int32Array(64);
  private startBuf = new Int32Array(64);
  private posBuf = new Int32Array(64);
  private flags = new Uint8Array(1024);
  private tokenCounts = new Int32Array(1024);
  /** One-byte encoded field length per document (positional fields). */
  norms = new Uint8Array(1024);
  /** Typed values per live document, for sorting, aggregations and ranges (string ids = term ids). */
  docValues: DocValues;
  /** Live documents with at least one term in this field (Lucene's Terms.getDocCount). */
  docCount = 0;
  /** Sum over live documents of their token count (DOCS-only fields: their distinct terms). */
  sumTotalTermFreq = 0;

  constructor(readonly type: string) {
    this.positional = POSITIONAL_TYPES.has(type);
    this.docValues = this.newDocValues();
  }

  private newDocValues(): DocValues {
    return new DocValues(this.termList, (term) => this.dict.get(term));
  }

  /** The field as a snapshot header; columns are cut to the terms and the `maxOrd` ordinals in use. */
  toSnapshot(w: SnapshotWriter, maxOrd: number): FieldIndexSnapshot {
    const t = this.termList.length;
    const n = Math.min(maxOrd, this.flags.length);
    return {
      type: this.type,
      terms: this.termList,
      pool: w.column(this.pool.usedBuffer),
      head: w.column(this.head.subarray(0, t)),
      tail: w.column(this.tail.subarray(0, t)),
      end: w.column(this.end.subarray(0, t)),
      level: w.column(this.level.subarray(0, t)),
      df: w.column(this.df.subarray(0, t)),
      lastOrd: w.column(this.lastOrd.subarray(0, t)),
      flags: w.column(this.flags.subarray(0, n)),
      tokenCounts: w.column(this.tokenCounts.subarray(0, n)),
      norms: w.column(this.norms.subarray(0, n)),
      docCount: this.docCount,
      sumTotalTermFreq: this.sumTotalTermFreq,
      docValues: this.docValues.toSnapshot(w),
    };
  }

  static fromSnapshot(r: SnapshotReader, s: FieldIndexSnapshot): FieldIndex {
    const fi = new FieldIndex(s.type);
    const terms = s.terms;
    for (let i = 0; i < terms.length; i++) fi.dict.intern(terms[i]);
    fi.pool = IntSlicePool.fromUsed(r.i32(s.pool));
    fi.head = r.i32(s.head);
    fi.tail = r.i32(s.tail);
    fi.end = r.i32(s.end);
    fi.level = r.u8(s.level);
    fi.df = r.i32(s.df);
    fi.lastOrd = r.i32(s.lastOrd);
    fi.freqScratch = new Int32Array(fi.head.length);
    fi.slotScratch = new Int32Array(fi.head.length);
    fi.flags = r.u8(s.flags);
    fi.tokenCounts = r.i32(s.tokenCounts);
    fi.norms = r.u8(s.norms);
    fi.docCount = s.docCount;
    fi.sumTotalTermFreq = s.sumTotalTermFreq;
    fi.docValues.loadSnapshot(r, s.docValues);
    return fi;
  }

  /** A deep copy (when two fields that shared one index start to differ). */
  clone(): FieldIndex {
    const c = new FieldIndex(this.type);
    for (const t of this.termList) c.dict.intern(t);
    c.sorted = this.sorted;
    c.pool = this.pool.clone();
    c.head = this.head.slice();
    c.tail = this.tail.slice();
    c.end = this.end.slice();
    c.level = this.level.slice();
    c.df = this.df.slice();
    c.lastOrd = this.lastOrd.slice();
    c.freqScratch = new Int32Array(this.freqScratch.length);
    c.slotScratch = new Int32Array(this.slotScratch.length);
    c.flags = this.flags.slice();
    c.tokenCounts = this.tokenCounts.slice();
    c.norms = this.norms.slice();
    c.docCount = this.docCount;
    c.sumTotalTermFreq = this.sumTotalTermFreq;
    for (const ord of this.docValues.keys()) c.docValues.set(ord, this.docValues.get(ord)!);
    return c;
  }

  get termCount(): number {
    return this.termList.length;
  }

  /** Does this live document have a value or a term in this field? */
  has(ord: number): boolean {
    return ord < this.flags.length && this.flags[ord] !== 0;
  }

  hasTerms(ord: number): boolean {
    return ord < this.flags.length && (this.flags[ord] & HAS_TERMS) !== 0;
  }

  termId(term: string): number {
    return this.dict.get(term);
  }

  termOf(tid: number): string {
    return this.termList[tid];
  }

  /** Postings count of a term, removed documents included (an upper bound of its docFreq). */
  postingsCount(tid: number): number {
    return this.df[tid];
  }

  /** A reader over the postings of a term (see the class comment for the layout). */
  postingsOf(tid: number, reader: SliceReader = new SliceReader()): SliceReader {
    return reader.reset(this.pool, this.head[tid], this.tail[tid]);
  }

  /**
   * Term → ordinals (removed documents included), built on demand: for uninverting a text field
   * (fielddata). Query execution reads `postingsOf(tid)` instead.
   */
  get postings(): Map<string, { ords: number[] }> {
    const out = new Map<string, { ords: number[] }>();
    const reader = new SliceReader();
    for (let tid = 0; tid < this.termList.length; tid++) {
      const ords: number[] = [];
      this.postingsOf(tid, reader);
      while (!reader.done) {
        ords.push(reader.read());
        if (this.positional) {
          const f = reader.read();
          for (let j = 0; j < f; j++) reader.read();
        }
      }
      if (ords.length) out.set(this.termList[tid], { ords });
    }
    return out;
  }

  /** All terms, sorted (code unit order, as Lucene's BytesRef order for BMP text): for prefix, range, wildcard and fuzzy. */
  sortedTerms(): string[] {
    if (!this.sorted) this.sorted = [...this.termList].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return this.sorted;
  }

  /** Sets up the postings of a term the dictionary just added. */
  private newTerm(tid: number): number {
    this.sorted = undefined;
    if (tid >= this.head.length) {
      const n = tid + 1;
      this.head = growInt32(this.head, n);
      this.tail = growInt32(this.tail, n);
      this.end = growInt32(this.end, n);
      this.df = growInt32(this.df, n);
      this.lastOrd = growInt32(this.lastOrd, n);
      this.freqScratch = growInt32(this.freqScratch, n);
      this.slotScratch = growInt32(this.slotScratch, n);
      this.level = growUint8(this.level, this.head.length);
    }
    const start = this.pool.alloc(0);
    this.head[tid] = start;
    this.tail[tid] = start;
    this.end[tid] = IntSlicePool.sliceEnd(start, 0);
    this.level[tid] = 0;
    this.lastOrd[tid] = -1;
    return tid;
  }

  private append(tid: number, value: number): void {
    let p = this.tail[tid];
    if (p === this.end[tid]) {
      const lvl = IntSlicePool.nextLevel(this.level[tid]);
      const s = this.pool.alloc(lvl);
      this.pool.buffer[p] = s;
      this.level[tid] = lvl;
      this.end[tid] = IntSlicePool.sliceEnd(s, lvl);
      p = s;
    }
    this.pool.buffer[p] = value;
    this.tail[tid] = p + 1;
  }

  private ensureOrd(ord: number): void {
    if (ord >= this.flags.length) {
      this.flags = growUint8(this.flags, ord + 1);
      this.norms = growUint8(this.norms, ord + 1);
      this.tokenCounts = growInt32(this.tokenCounts, ord + 1);
    }
  }

  /** Adds a document's field; a `pending` one stays out of the statistics until `activate`. */
  add(ord: number, field: IndexableField, pending = false): void {
    this.ensureOrd(ord);
    const terms = field.terms;
    const n = terms.length;
    let firstTid = -1;
    if (n > 0) {
      firstTid = this.positional ? this.addPositional(ord, terms, field.positions) : this.addDocsOnly(ord, terms);
      if (!pending) {
        this.docCount++;
        this.sumTotalTermFreq += this.tokenCounts[ord];
      }
      this.flags[ord] |= HAS_TERMS | HAS_VALUE;
    }
    const values = field.values;
    if (values.length) {
      this.docValues.set(ord, values, values.length === 1 && n > 0 && values[0] === terms[0] ? firstTid : -1);
      this.flags[ord] |= HAS_VALUE;
    }
    if (pending && this.flags[ord] !== 0) this.flags[ord] |= PENDING;
  }

  /** A pending document becomes visible: it joins the statistics. */
  activate(ord: number): void {
    if (ord >= this.flags.length) return;
    const f = this.flags[ord];
    if ((f & PENDING) === 0) return;
    this.flags[ord] = f & ~PENDING;
    if (f & HAS_TERMS) {
      this.docCount++;
      this.sumTotalTermFreq += this.tokenCounts[ord];
    }
  }

  private termIdFor(term: string): number {
    const tid = this.dict.intern(term);
    return this.dict.added ? this.newTerm(tid) : tid;
  }

  /** Returns the term id of the first term. */
  private addDocsOnly(ord: number, terms: string[]): number {
    let unique = 0;
    let first = -1;
    for (let i = 0; i < terms.length; i++) {
      const tid = this.termIdFor(terms[i]);
      if (i === 0) first = tid;
      if (this.lastOrd[tid] === ord) continue;
      this.lastOrd[tid] = ord;
      this.df[tid]++;
      this.append(tid, ord);
      unique++;
    }
    this.tokenCounts[ord] = unique;
    return first;
  }

  /** Returns the term id of the first term. */
  private addPositional(ord: number, terms: string[], positions: number[]): number {
    const n = terms.length;
    if (this.tidBuf.length < n) {
      this.tidBuf = growInt32(this.tidBuf, n);
      this.uniqBuf = growInt32(this.uniqBuf, n);
      this.startBuf = growInt32(this.startBuf, n + 1);
      this.posBuf = growInt32(this.posBuf, n);
    }
    const tids = this.tidBuf;
    const uniq = this.uniqBuf;
    let u = 0;
    let overlaps = 0;
    for (let i = 0; i < n; i++) {
      const tid = this.termIdFor(terms[i]);
      tids[i] = tid;
      if (i > 0 && positions[i] === positions[i - 1]) overlaps++;
      if (this.lastOrd[tid] !== ord) {
        this.lastOrd[tid] = ord;
        this.freqScratch[tid] = 0;
        this.slotScratch[tid] = u;
        uniq[u++] = tid;
      }
      this.freqScratch[tid]++;
    }
    const freq = this.freqScratch;
    if (u === n) {
      for (let i = 0; i < n; i++) {
        const tid = tids[i];
        this.df[tid]++;
        this.append(tid, ord);
        this.append(tid, 1);
        this.append(tid, positions[i]);
      }
    } else {
      // Group positions by term (counting sort by first appearance), then write each posting.
      const start = this.startBuf;
      let acc = 0;
      for (let k = 0; k < u; k++) {
        start[k] = acc;
        acc += freq[uniq[k]];
      }
      for (let i = 0; i < n; i++) {
        const slot = this.slotScratch[tids[i]];
        this.posBuf[start[slot]++] = positions[i];
      }
      let from = 0;
      for (let k = 0; k < u; k++) {
        const tid = uniq[k];
        const f = freq[tid];
        this.df[tid]++;
        this.append(tid, ord);
        this.append(tid, f);
        for (let j = from; j < from + f; j++) this.append(tid, this.posBuf[j]);
        from += f;
      }
    }
    this.norms[ord] = intToByte4(n - overlaps);
    this.tokenCounts[ord] = n;
    return tids[0];
  }

  remove(ord: number): void {
    if (!this.has(ord)) return;
    if ((this.flags[ord] & (HAS_TERMS | PENDING)) === HAS_TERMS) {
      this.docCount--;
      this.sumTotalTermFreq -= this.tokenCounts[ord];
    }
    this.flags[ord] = 0;
    this.docValues.delete(ord);
  }

  /** Rewrites the postings without the entries of documents that are no longer live. */
  compact(isLive: (ord: number) => boolean): void {
    const old = this.pool;
    const reader = new SliceReader();
    const snapshot: Array<{ head: number; tail: number }> = [];
    for (let tid = 0; tid < this.termList.length; tid++) snapshot.push({ head: this.head[tid], tail: this.tail[tid] });
    this.pool = new IntSlicePool(Math.max(1 << 16, old.size >> 1));
    for (let tid = 0; tid < this.termList.length; tid++) {
      const start = this.pool.alloc(0);
      this.head[tid] = start;
      this.tail[tid] = start;
      this.end[tid] = IntSlicePool.sliceEnd(start, 0);
      this.level[tid] = 0;
      this.df[tid] = 0;
      reader.reset(old, snapshot[tid].head, snapshot[tid].tail);
      while (!reader.done) {
        const ord = reader.read();
        const live = isLive(ord);
        if (live) {
          this.df[tid]++;
          this.append(tid, ord);
        }
        if (!this.positional) continue;
        const f = reader.read();
        if (live) this.append(tid, f);
        for (let j = 0; j < f; j++) {
          const p = reader.read();
          if (live) this.append(tid, p);
        }
      }
    }
  }
}

export interface FieldIndexSnapshot {
  type: string;
  terms: string[];
  pool: ColumnRef;
  head: ColumnRef;
  tail: ColumnRef;
  end: ColumnRef;
  level: ColumnRef;
  df: ColumnRef;
  lastOrd: ColumnRef;
  flags: ColumnRef;
  tokenCounts: ColumnRef;
  norms: ColumnRef;
  docCount: number;
  sumTotalTermFreq: number;
  docValues: DocValuesSnapshot;
}
