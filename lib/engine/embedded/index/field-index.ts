import type { CharBytes } from './memory-bytes.js';
import { VectorColumn, type VectorColumnSnapshot } from './vector-column.js';
import type { IndexableField } from '../mapping/index.js';
import { DocValues } from './doc-values.js';
import { growInt32, growUint8 } from './growable.js';
import { BLOCK_INTS, IntSlicePool, SliceReader } from './int-slice-pool.js';
import { TermDict } from './term-dict.js';
import type { DocValuesSnapshot } from './doc-values.js';
import type { ColumnRef, SnapshotReader, SnapshotWriter } from './snapshot.js';
import { intToByte4 } from './small-float.js';

/** Field types indexed with frequencies, positions and norms (Lucene's DOCS_AND_FREQS_AND_POSITIONS). */
const POSITIONAL_TYPES = new Set(['text', 'match_only_text', 'search_as_you_type']);

/**
 * Per-term state, interleaved (stride `TS`) so that adding a posting touches one cache line: the
 * postings list's first and current slice positions and slice end, its slice level, its postings
 * count, the last ordinal added, and two scratch slots of `addPositional`.
 */
const TS = 8;
/**
 * Work `addSteps` does between two yields, at most: terms added, characters of terms hashed (a gram
 * can be a thousand characters long, and hashing and comparing one costs about 20 ns a character
 * on a loaded runner), tokens grouped by term, postings ints written. Each bound is about a
 * millisecond of work, so that a stretch ends near where its driver looks at the clock.
 */
const STEP_TERMS = 2048;
const STEP_CHARS = 1 << 16;
const STEP_TOKENS = 1 << 15;
const STEP_INTS = 1 << 15;
const HEAD = 0;
const TAIL = 1;
const END = 2;
const LEVEL = 3;
const DF = 4;
const LAST_ORD = 5;
const FREQ = 6;
const SLOT = 7;

/** Terms whose live statistics a field keeps between two of its changes, at most. */
const MEMO_TERMS = 16_384;

interface TermStats {
  readonly docFreq: number;
  readonly totalTermFreq: number;
}

/** A field's live statistics as walked from its postings, for one liveness column and one state of the field. */
interface LiveStats {
  readonly changes: number;
  readonly live: Uint8Array;
  sumDocFreq?: number;
  readonly terms: Map<number, TermStats>;
}

const HAS_VALUE = 1;
const HAS_TERMS = 2;
/** Added but not yet visible (a write waiting for its store commit): left out of the statistics. */
const PENDING = 4;
/** Removed, out of the statistics already, its values kept for the readers that still see it (`retire`). */
const RETIRED = 8;

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
  private readonly dict: TermDict;
  /** Term id → term (the dictionary's own list). */
  private readonly termList: string[];
  private sorted: string[] | undefined;
  /** How many of `termList` (its first ones: the dictionary only grows) `sorted` holds. */
  private sortedCount = 0;
  private pool = new IntSlicePool();
  /**
   * A compaction in progress (`startCompaction`): the terms below `upTo` have their postings in
   * `pool` already, the others still in `from`, where their entries go until their turn.
   */
  private compacting: { from: IntSlicePool; upTo: number; isLive: (ord: number) => boolean } | undefined;
  /** Term id × TS → the term's state (see `TS`). */
  // every column starts small and doubles: an index of 10,000 fields holds 10,000 of them
  private st = new Int32Array(16 * TS);
  private tidBuf = new Int32Array(64);
  private uniqBuf = new Int32Array(64);
  private startBuf = new Int32Array(64);
  private posBuf = new Int32Array(64);
  private flags = new Uint8Array(64);
  private tokenCounts = new Int32Array(64);
  /** One-byte encoded field length per document (positional fields). */
  norms = new Uint8Array(64);
  /** Typed values per live document, for sorting, aggregations and ranges (string ids = term ids). */
  docValues: DocValues;
  /** The documents' vectors (dense_vector, knn_vector fields); undefined for other fields. */
  vectors: VectorColumn | undefined;
  /** Live documents with at least one term in this field (Lucene's Terms.getDocCount). */
  docCount = 0;
  /** Sum over live documents of their token count (DOCS-only fields: their distinct terms). */
  sumTotalTermFreq = 0;
  /** Changes of the field's live statistics (a document added, made visible or removed): what `liveStats` holds for. */
  private statsChanges = 0;
  /** Live statistics walked from the postings, kept until the field's next change (`termStats`, `sumDocFreq`). */
  private liveStats?: LiveStats;

  /** `dict`: the field's terms so far (a snapshot's), none by default. */
  constructor(
    readonly type: string,
    dict?: TermDict,
  ) {
    this.dict = dict ?? new TermDict();
    this.termList = this.dict.terms;
    this.positional = POSITIONAL_TYPES.has(type);
    this.docValues = this.newDocValues();
  }

  private newDocValues(): DocValues {
    return new DocValues(this.termList, (term) => this.dict.get(term));
  }

  /** The field as a snapshot header; columns are cut to the terms and the `maxOrd` ordinals in use. */
  toSnapshot(w: SnapshotWriter, maxOrd: number): FieldIndexSnapshot {
    this.compactSome(Infinity);
    const t = this.termList.length;
    const n = Math.min(maxOrd, this.flags.length);
    return {
      type: this.type,
      terms: this.termList,
      pool: w.column(this.pool.usedBuffer),
      state: w.column(this.st.subarray(0, t * TS)),
      flags: w.column(this.flags.subarray(0, n)),
      tokenCounts: w.column(this.tokenCounts.subarray(0, n)),
      norms: w.column(this.norms.subarray(0, n)),
      docCount: this.docCount,
      sumTotalTermFreq: this.sumTotalTermFreq,
      docValues: this.docValues.toSnapshot(w),
      ...(this.vectors ? { vectors: this.vectors.toSnapshot(w) } : {}),
    };
  }

  static fromSnapshot(r: SnapshotReader, s: FieldIndexSnapshot): FieldIndex {
    const fi = new FieldIndex(s.type, TermDict.ofDistinct(s.terms));
    fi.pool = IntSlicePool.fromUsed(r.i32(s.pool));
    fi.st = r.i32(s.state);
    fi.flags = r.u8(s.flags);
    fi.tokenCounts = r.i32(s.tokenCounts);
    fi.norms = r.u8(s.norms);
    fi.docCount = s.docCount;
    fi.sumTotalTermFreq = s.sumTotalTermFreq;
    fi.docValues.loadSnapshot(r, s.docValues);
    if (s.vectors) fi.vectors = VectorColumn.fromSnapshot(r, s.vectors);
    return fi;
  }

  /** A deep copy (when two fields that shared one index start to differ). */
  clone(): FieldIndex {
    this.compactSome(Infinity);
    const c = new FieldIndex(this.type, TermDict.ofDistinct(this.termList.slice()));
    c.sorted = this.sorted; // never changed in place: shared until either copy sorts anew
    c.sortedCount = this.sortedCount;
    c.pool = this.pool.clone();
    c.st = this.st.slice();
    c.flags = this.flags.slice();
    c.tokenCounts = this.tokenCounts.slice();
    c.norms = this.norms.slice();
    c.docCount = this.docCount;
    c.sumTotalTermFreq = this.sumTotalTermFreq;
    for (const ord of this.docValues.keys()) c.docValues.set(ord, this.docValues.get(ord)!);
    c.vectors = this.vectors?.clone();
    return c;
  }

  /** The bytes it takes: its columns (allocated lengths), postings pool, dictionary and doc values. */
  memoryBytes(charBytes: CharBytes): number {
    let n = this.pool.memoryBytes + this.dict.memoryBytes(charBytes) + this.docValues.memoryBytes(charBytes) + (this.vectors?.memoryBytes() ?? 0);
    n += this.st.byteLength + this.tidBuf.byteLength + this.uniqBuf.byteLength + this.startBuf.byteLength + this.posBuf.byteLength;
    n += this.flags.byteLength + this.tokenCounts.byteLength + this.norms.byteLength;
    return n + (this.compacting?.from.memoryBytes ?? 0);
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
    return this.st[tid * TS + DF];
  }

  /**
   * A term's document frequency and total term frequency over the live documents (`live`: the
   * index's liveness column), as Lucene's TermStats; a DOCS-only field counts each document once.
   * Zero for a term the field does not have.
   */
  termStats(term: string, live: Uint8Array): TermStats {
    const tid = this.dict.get(term);
    if (tid < 0) return { docFreq: 0, totalTermFreq: 0 };
    const memo = this.statsFor(live);
    let stats = memo.terms.get(tid);
    if (stats) return stats;
    let docFreq = 0;
    let totalTermFreq = 0;
    const r = this.postingsOf(tid);
    while (!r.done) {
      const ord = r.read();
      let freq = 1;
      if (this.positional) {
        freq = r.read();
        for (let j = 0; j < freq; j++) r.read();
      }
      if (live[ord] !== 1) continue;
      docFreq++;
      totalTermFreq += freq;
    }
    stats = { docFreq, totalTermFreq };
    if (memo.terms.size < MEMO_TERMS) memo.terms.set(tid, stats);
    return stats;
  }

  /**
   * The sum over the field's terms of their live document frequencies (Lucene's
   * Terms.getSumDocFreq): a DOCS-only field's is its sumTotalTermFreq (distinct terms per document);
   * a positional field's walks every posting once, and is kept until the field's next change (an
   * `_mtermvectors` of thousands of items asks it of each: a walk per item held the event loop
   * for seconds).
   */
  sumDocFreq(live: Uint8Array): number {
    if (!this.positional) return this.sumTotalTermFreq;
    const memo = this.statsFor(live);
    if (memo.sumDocFreq !== undefined) return memo.sumDocFreq;
    let sum = 0;
    const r = new SliceReader();
    for (let tid = 0; tid < this.termList.length; tid++) {
      this.postingsOf(tid, r);
      while (!r.done) {
        const ord = r.read();
        const freq = r.read();
        for (let j = 0; j < freq; j++) r.read();
        if (live[ord] === 1) sum++;
      }
    }
    return (memo.sumDocFreq = sum);
  }

  /**
   * The live statistics walked so far, valid for this liveness column until the field's next
   * change: each is walked from the postings once, however many readers (term vector items,
   * suggesters) ask for it in between, as Lucene reads them from its terms dictionary.
   */
  private statsFor(live: Uint8Array): LiveStats {
    const memo = this.liveStats;
    if (memo && memo.changes === this.statsChanges && memo.live === live) return memo;
    return (this.liveStats = { changes: this.statsChanges, live, terms: new Map() });
  }

  /** A reader over the postings of a term (see the class comment for the layout). */
  postingsOf(tid: number, reader: SliceReader = new SliceReader()): SliceReader {
    return reader.reset(this.poolOf(tid), this.st[tid * TS + HEAD], this.st[tid * TS + TAIL]);
  }

  /** The pool that holds a term's postings (during a compaction, the old one for terms not yet compacted). */
  private poolOf(tid: number): IntSlicePool {
    const c = this.compacting;
    return c && tid >= c.upTo ? c.from : this.pool;
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

  /**
   * The tokens of each document of `inSet` (1 at its ordinal) in position order (tokens at one
   * position in term order), read back from a positional field's postings: its text as analyzed.
   * Empty for a field without positions.
   */
  tokensOf(inSet: Uint8Array): Map<number, string[]> {
    const found = new Map<number, Array<[position: number, term: string]>>();
    if (!this.positional) return new Map();
    const reader = new SliceReader();
    for (let tid = 0; tid < this.termList.length; tid++) {
      this.postingsOf(tid, reader);
      while (!reader.done) {
        const ord = reader.read();
        const freq = reader.read();
        for (let j = 0; j < freq; j++) {
          const position = reader.read();
          if (inSet[ord] !== 1) continue;
          let tokens = found.get(ord);
          if (!tokens) found.set(ord, (tokens = []));
          tokens.push([position, this.termList[tid]]);
        }
      }
    }
    const out = new Map<number, string[]>();
    for (const [ord, tokens] of found) {
      tokens.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      out.set(ord, tokens.map((t) => t[1]));
    }
    return out;
  }

  /** All terms, sorted (code unit order, as Lucene's BytesRef order for BMP text): for prefix, range, wildcard and fuzzy. */
  sortedTerms(): string[] {
    const n = this.termList.length;
    if (this.sorted && this.sortedCount === n) return this.sorted;
    const added = n - this.sortedCount;
    // terms added since the last sort (a write or a few) are merged in, in linear time; a new
    // array each time, since a caller may still be reading the previous one
    this.sorted = this.sorted && added <= n / 8
      ? mergeSorted(this.sorted, this.termList.slice(this.sortedCount).sort(codeUnitOrder))
      : [...this.termList].sort(codeUnitOrder);
    this.sortedCount = n;
    return this.sorted;
  }

  /** Sets up the postings of a term the dictionary just added. */
  private newTerm(tid: number): number {
    if ((tid + 1) * TS > this.st.length) this.st = growInt32(this.st, (tid + 1) * TS);
    const start = this.poolOf(tid).alloc(0);
    const b = tid * TS;
    const st = this.st;
    st[b + HEAD] = start;
    st[b + TAIL] = start;
    st[b + END] = IntSlicePool.sliceEnd(start, 0);
    st[b + LEVEL] = 0;
    st[b + DF] = 0;
    st[b + LAST_ORD] = -1;
    return tid;
  }

  /** Appends to the postings of the term whose state starts at `b` (= tid × TS). */
  private append(b: number, value: number): void {
    const st = this.st;
    let p = st[b + TAIL];
    const pool = this.compacting ? this.poolOf(b / TS) : this.pool;
    if (p === st[b + END]) {
      const lvl = IntSlicePool.nextLevel(st[b + LEVEL]);
      const s = pool.alloc(lvl);
      pool.set(p, s);
      st[b + LEVEL] = lvl;
      st[b + END] = IntSlicePool.sliceEnd(s, lvl);
      p = s;
    }
    pool.set(p, value);
    st[b + TAIL] = p + 1;
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
    const n = field.terms.length;
    let firstTid = -1;
    if (n > 0) {
      if (this.positional) {
        this.startPositional(n);
        this.internPositional(ord, field.terms, field.positions, 0, n);
        if (this.runUnique < n) {
          this.startGrouping();
          this.groupPositions(field.positions, 0, n);
        }
        this.writePositional(ord, field.positions, 0, this.runUnique);
        firstTid = this.endPositional(ord, n);
      } else firstTid = this.addDocsOnly(ord, field.terms);
    }
    this.addValues(ord, field, pending, firstTid);
  }

  /**
   * `add`, a stretch of about STEP_TERMS terms between two yields, for a field of many terms (a
   * value through a large ngram filter): the caller gives the event loop a turn at the yields. Who
   * drives it must let no other `add` or `clone` of this index run before it is over (the term
   * states hold this document's counts in between); readers and `activate`/`remove` of other
   * documents may. A field of fewer terms is added in one go.
   */
  *addSteps(ord: number, field: IndexableField, pending = false): Generator<void, void, void> {
    const n = field.terms.length;
    if (n < STEP_TERMS || !this.positional) return this.add(ord, field, pending);
    this.ensureOrd(ord);
    this.startPositional(n);
    const { terms, positions } = field;
    for (let from = 0; from < n; ) {
      let to = from;
      // a stretch ends after STEP_TERMS terms or STEP_CHARS characters hashed (a gram can be long)
      for (let chars = 0; to < n && to - from < STEP_TERMS && chars < STEP_CHARS; ) chars += terms[to++].length;
      this.internPositional(ord, terms, positions, from, to);
      from = to;
      yield;
    }
    if (this.runUnique < n) {
      this.startGrouping();
      for (let from = 0; from < n; from += STEP_TOKENS) {
        this.groupPositions(positions, from, Math.min(n, from + STEP_TOKENS));
        yield;
      }
    }
    const end = this.runUnique;
    const distinct = end === n;
    for (let from = 0; from < end; ) {
      let to = from;
      // a stretch ends after STEP_TERMS terms or STEP_INTS postings ints (a term may repeat thousands of times)
      for (let ints = 0; to < end && to - from < STEP_TERMS && ints < STEP_INTS; to++) ints += 2 + (distinct ? 1 : this.st[this.uniqBuf[to] * TS + FREQ]);
      this.writePositional(ord, positions, from, to);
      from = to;
      yield;
    }
    this.addValues(ord, field, pending, this.endPositional(ord, n));
  }

  private addValues(ord: number, field: IndexableField, pending: boolean, firstTid: number): void {
    const n = field.terms.length;
    this.statsChanges++;
    if (n > 0) {
      if (!pending) {
        this.docCount++;
        this.sumTotalTermFreq += this.tokenCounts[ord];
      }
      this.flags[ord] |= HAS_TERMS | HAS_VALUE;
    }
    const values = field.values;
    if (values.length) {
      this.docValues.set(ord, values, values.length === 1 && n > 0 && values[0] === field.terms[0] ? firstTid : -1);
      this.flags[ord] |= HAS_VALUE;
    }
    if (field.vector) {
      (this.vectors ??= new VectorColumn()).set(ord, field.vector);
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
    this.statsChanges++;
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
      const b = tid * TS;
      if (this.st[b + LAST_ORD] === ord) continue;
      this.st[b + LAST_ORD] = ord;
      this.st[b + DF]++;
      this.append(b, ord);
      unique++;
    }
    this.tokenCounts[ord] = unique;
    return first;
  }

  // A positional field's document being added (the stretches of `addSteps` share it): its distinct
  // terms so far (in `uniqBuf`) and the positions that repeat the previous one.
  private runTerms = 0;
  private runUnique = 0;
  private runOverlaps = 0;

  private startPositional(n: number): void {
    if (this.tidBuf.length < n) {
      this.tidBuf = growInt32(this.tidBuf, n);
      this.uniqBuf = growInt32(this.uniqBuf, n);
      this.startBuf = growInt32(this.startBuf, n + 1);
      this.posBuf = growInt32(this.posBuf, n);
    }
    this.runTerms = n;
    this.runUnique = 0;
    this.runOverlaps = 0;
  }

  /** Term ids of terms [from, to), counting each distinct term's frequency in this document. */
  private internPositional(ord: number, terms: string[], positions: number[], from: number, to: number): void {
    const tids = this.tidBuf;
    const uniq = this.uniqBuf;
    let u = this.runUnique;
    for (let i = from; i < to; i++) {
      const tid = this.termIdFor(terms[i]);
      tids[i] = tid;
      if (i > 0 && positions[i] === positions[i - 1]) this.runOverlaps++;
      const b = tid * TS;
      const st = this.st;
      if (st[b + LAST_ORD] !== ord) {
        st[b + LAST_ORD] = ord;
        st[b + FREQ] = 0;
        st[b + SLOT] = u;
        uniq[u++] = tid;
      }
      st[b + FREQ]++;
    }
    this.runUnique = u;
  }

  /**
   * With repeated terms: the positions grouped by term (a counting sort by first appearance) into
   * `posBuf`, begun by `startGrouping` and done for tokens [from, to) a call. Once every token is,
   * startBuf[k] ends term k's positions: term k's start is the end of term k - 1.
   */
  private startGrouping(): void {
    const u = this.runUnique;
    const st = this.st;
    const start = this.startBuf;
    let acc = 0;
    for (let k = 0; k < u; k++) {
      start[k] = acc;
      acc += st[this.uniqBuf[k] * TS + FREQ];
    }
  }

  private groupPositions(positions: number[], from: number, to: number): void {
    const st = this.st;
    const start = this.startBuf;
    for (let i = from; i < to; i++) {
      const slot = st[this.tidBuf[i] * TS + SLOT];
      this.posBuf[start[slot]++] = positions[i];
    }
  }

  /** Writes the postings of distinct terms [from, to) (in order of first appearance). */
  private writePositional(ord: number, positions: number[], from: number, to: number): void {
    const st = this.st;
    const uniq = this.uniqBuf;
    // every term distinct: term k is the k-th token, its one position is positions[k]
    const distinct = this.runUnique === this.runTerms;
    for (let k = from; k < to; k++) {
      const b = uniq[k] * TS;
      const f = st[b + FREQ];
      st[b + DF]++;
      this.append(b, ord);
      this.append(b, f);
      if (distinct) {
        this.append(b, positions[k]);
        continue;
      }
      const end = this.startBuf[k];
      for (let j = end - f; j < end; j++) this.append(b, this.posBuf[j]);
    }
  }

  private endPositional(ord: number, n: number): number {
    this.norms[ord] = intToByte4(n - this.runOverlaps);
    this.tokenCounts[ord] = n;
    return this.tidBuf[0];
  }

  /** A removed document leaves the statistics; its values stay (for the readers that still see it) until `remove`. */
  retire(ord: number): void {
    if (!this.has(ord)) return;
    const f = this.flags[ord];
    if (f & RETIRED) return;
    this.statsChanges++;
    if ((f & (HAS_TERMS | PENDING)) === HAS_TERMS) {
      this.docCount--;
      this.sumTotalTermFreq -= this.tokenCounts[ord];
    }
    this.flags[ord] = f | RETIRED;
  }

  remove(ord: number): void {
    if (!this.has(ord)) return;
    this.retire(ord);
    this.flags[ord] = 0;
    this.docValues.delete(ord);
    this.vectors?.delete(ord);
  }

  /** Rewrites the postings without the entries of documents that are no longer live, in one piece. */
  compact(isLive: (ord: number) => boolean): void {
    this.startCompaction(isLive);
    this.compactSome(Infinity);
  }

  /**
   * Starts rewriting the postings without the entries of documents that are no longer live (a
   * document that is live or pending now keeps its entries); `compactSome` does it a stretch of
   * terms at a time, while the field is read and written as usual meanwhile.
   */
  startCompaction(isLive: (ord: number) => boolean): void {
    this.compactSome(Infinity);
    const from = this.pool;
    this.compacting = { from, upTo: 0, isLive };
    this.pool = new IntSlicePool(Math.min(BLOCK_INTS, Math.max(1 << 10, from.size >> 1)));
  }

  /** Goes on with a compaction until `deadline` (performance.now()); true once there is none left. */
  compactSome(deadline: number): boolean {
    const c = this.compacting;
    if (!c) return true;
    const reader = new SliceReader();
    const { isLive } = c;
    while (c.upTo < this.termList.length) {
      if ((c.upTo & 63) === 0 && performance.now() >= deadline) return false;
      const tid = c.upTo;
      const st = this.st;
      const b = tid * TS;
      reader.reset(c.from, st[b + HEAD], st[b + TAIL]);
      // from here on the term's postings are in the new pool (its appends go there)
      c.upTo = tid + 1;
      const start = this.pool.alloc(0);
      st[b + HEAD] = start;
      st[b + TAIL] = start;
      st[b + END] = IntSlicePool.sliceEnd(start, 0);
      st[b + LEVEL] = 0;
      st[b + DF] = 0;
      while (!reader.done) {
        const ord = reader.read();
        const live = isLive(ord);
        if (live) {
          st[b + DF]++;
          this.append(b, ord);
        }
        if (!this.positional) continue;
        const f = reader.read();
        if (live) this.append(b, f);
        for (let j = 0; j < f; j++) {
          const p = reader.read();
          if (live) this.append(b, p);
        }
      }
    }
    this.compacting = undefined;
    return true;
  }
}

export interface FieldIndexSnapshot {
  type: string;
  terms: string[];
  pool: ColumnRef;
  state: ColumnRef;
  flags: ColumnRef;
  tokenCounts: ColumnRef;
  norms: ColumnRef;
  docCount: number;
  sumTotalTermFreq: number;
  docValues: DocValuesSnapshot;
  vectors?: VectorColumnSnapshot;
}

const codeUnitOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Two arrays sorted in code unit order, as one (a new array). */
function mergeSorted(a: string[], b: string[]): string[] {
  const out = new Array<string>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}
