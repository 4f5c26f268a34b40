import type { IndexableField, ParsedDocument } from '../mapping/index.js';
import { FieldIndex, type FieldIndexSnapshot } from './field-index.js';
import type { ColumnRef, SnapshotReader, SnapshotWriter } from './snapshot.js';
import { growInt32, growUint8 } from './growable.js';
import { SLICE_MS } from '../../../cooperative/index.js';
import { arraySlotBytes, MAP_ENTRY_BYTES, stringBytes, type CharBytes } from './memory-bytes.js';

/** States of an ordinal in the liveness column (readers treat only LIVE as a document). */
const DEAD = 0;
const LIVE = 1;
const PENDING = 2;

const POSITIONAL = new Set(['text', 'match_only_text', 'search_as_you_type']);

/** Same type, terms and values (what a DOCS-only FieldIndex keeps of a field); both absent counts as same. */
/**
 * A bucket for fields that may have the same content (same type, first term and first value):
 * a document's new fields are compared within their bucket only, so a document of 10,000 fields
 * is not 50 million comparisons.
 */
function contentBucket(f: IndexableField): string {
  return `${f.type}\u0000${f.terms.length}\u0000${f.terms[0] ?? ''}\u0000${f.values.length}\u0000${String(f.values[0] ?? '')}`;
}

function sameContent(a: IndexableField | undefined, b: IndexableField | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.type !== b.type) return false;
  // vectors live in their field's own column: fields with vectors never share one
  if (a.vector || b.vector) return false;
  const ta = a.terms;
  const tb = b.terms;
  if (ta.length !== tb.length) return false;
  for (let i = 0; i < ta.length; i++) if (ta[i] !== tb[i]) return false;
  const va = a.values;
  const vb = b.values;
  if (va.length !== vb.length) return false;
  for (let i = 0; i < va.length; i++) if (!Object.is(va[i], vb[i])) return false;
  return true;
}

/** The fields a document being added created so far, by content bucket (made with the first). */
interface CreatedFields {
  buckets?: Map<string, string[]>;
}

/** The shape of a document the index takes: its fields, and its nested objects as sub-documents. */
export interface IndexableDocument {
  fields: ParsedDocument['fields'];
  nested?: Array<{ path: string; doc: IndexableDocument }>;
}

/** The nested objects of one nested path: their own index, and each one's parent ordinal. */
export class NestedIndex {
  readonly index = new InvertedIndex();
  /** Child ordinal → parent ordinal. */
  parentOf = new Int32Array(64);
  /** Parent ordinal → first child ordinal and child count (children of a parent are contiguous). */
  private firstChild = new Int32Array(64);
  private childCount = new Int32Array(64);

  add(parentOrd: number, parentId: string, doc: IndexableDocument, pending = false): void {
    const ord = this.index.putChild(parentId, doc, pending);
    this.parentOf = growInt32(this.parentOf, ord + 1);
    this.parentOf[ord] = parentOrd;
    if (parentOrd >= this.firstChild.length) {
      this.firstChild = growInt32(this.firstChild, parentOrd + 1);
      this.childCount = growInt32(this.childCount, parentOrd + 1);
    }
    if (this.childCount[parentOrd] === 0) this.firstChild[parentOrd] = ord;
    this.childCount[parentOrd]++;
  }

  memoryBytes(charBytes: CharBytes): number {
    return this.index.memoryBytes(charBytes) + this.parentOf.byteLength + this.firstChild.byteLength + this.childCount.byteLength;
  }

  toSnapshot(w: SnapshotWriter): NestedIndexSnapshot {
    return {
      index: this.index.toSnapshot(w),
      parentOf: w.column(this.parentOf),
      firstChild: w.column(this.firstChild),
      childCount: w.column(this.childCount),
    };
  }

  static fromSnapshot(r: SnapshotReader, s: NestedIndexSnapshot): NestedIndex {
    const n = new NestedIndex();
    (n as { index: InvertedIndex }).index = InvertedIndex.fromSnapshot(r, s.index);
    n.parentOf = r.i32(s.parentOf);
    n.firstChild = r.i32(s.firstChild);
    n.childCount = r.i32(s.childCount);
    return n;
  }

  removeChildrenOf(parentOrd: number): void {
    if (parentOrd >= this.childCount.length) return;
    const first = this.firstChild[parentOrd];
    for (let i = 0; i < this.childCount[parentOrd]; i++) this.index.removeOrd(first + i);
    this.childCount[parentOrd] = 0;
  }

  /** The children of a pending parent become visible with it. */
  revealChildrenOf(parentOrd: number): void {
    if (parentOrd >= this.childCount.length) return;
    const first = this.firstChild[parentOrd];
    for (let i = 0; i < this.childCount[parentOrd]; i++) this.index.revealOrd(first + i);
  }
}

/**
 * The in-memory search structures of one index, rebuilt from the store at start.
 *
 * Every write of a document gives it a new ordinal (as Lucene gives a new doc id), so ordinal order
 * is index order: the tie-break of equal scores. The previous ordinal becomes dead. Nested objects
 * live in one `NestedIndex` per nested path (Lucene's hidden block-join documents).
 */
/** A compaction under way: its fields, the one it is at, whether that one has started, and whether another is due after it. */
interface Compaction {
  fields: FieldIndex[];
  at: number;
  started: boolean;
  again: boolean;
}

/** What a reader (`InvertedIndex.openReader`) holds: the index as it was when it began, until `release`. */
export interface IndexReader {
  /** The index as the reader sees it (read-only). */
  readonly index: InvertedIndex;
  /** Lets go of the index as it was: what only this reader still saw is forgotten. */
  release(): void;
}

/**
 * The readers open on one index, and what they keep readable (kept on an object of its own, so
 * that a view of the index — Object.create of it — reaches the same one).
 *
 * Contract: a reader sees the liveness column as it was when it opened (the column is copied before
 * the first change after a reader took it: one copy per change that follows an open, none per
 * search), and every ordinal live then stays readable to it — its id, postings, doc values, vectors
 * and nested objects — until it is released, even when a write replaces or deletes the document
 * meanwhile (as a Lucene reader keeps its segments and live docs). Such an ordinal is `retired`:
 * out of the statistics and of the liveness at once, its data cleared once no reader that saw it
 * is open. Memory: one entry per document written while a reader is open, nothing per reader.
 */
class Readers {
  /** Counts the changes of liveness: a reader sees the ordinals retired at a later generation than its own. */
  generation = 0;
  /** The open readers, by the generation they began at. */
  readonly open = new Set<{ generation: number }>();
  /** The current liveness column is held by a reader: it is copied before its next change. */
  held = false;
  /** Ordinals removed while readers were open, in the order (the generation) they were removed. */
  private retiredList: Array<{ ord: number; generation: number; id: string | undefined }> = [];
  /** The same, by ordinal, and by document id (a reader's `ordOf`). */
  readonly retired = new Set<number>();
  readonly retiredIds = new Map<string, number[]>();

  constructor(private readonly forget: (ord: number) => void) {}

  retire(ord: number, id: string | undefined): void {
    this.retiredList.push({ ord, generation: this.generation, id });
    this.retired.add(ord);
    if (id === undefined) return;
    const ords = this.retiredIds.get(id);
    if (ords) ords.push(ord);
    else this.retiredIds.set(id, [ord]);
  }

  /** Forgets the ordinals no open reader sees any longer (those retired at or before the oldest reader's generation). */
  prune(): void {
    let oldest = Infinity;
    for (const r of this.open) if (r.generation < oldest) oldest = r.generation;
    if (oldest === Infinity) this.held = false;
    let n = 0;
    for (; n < this.retiredList.length && this.retiredList[n].generation <= oldest; n++) {
      const { ord, id } = this.retiredList[n];
      this.retired.delete(ord);
      if (id !== undefined) {
        const ords = this.retiredIds.get(id)!.filter((o) => o !== ord);
        if (ords.length) this.retiredIds.set(id, ords);
        else this.retiredIds.delete(id);
      }
      this.forget(ord);
    }
    if (n) this.retiredList = this.retiredList.slice(n);
  }
}

export class InvertedIndex {
  /** The index itself, also when read through a view of it (a cache's key, alike for every view). */
  readonly origin: InvertedIndex = this;
  private readonly readers = new Readers((ord) => this.clearOrd(ord));
  private readonly ordToId: Array<string | undefined> = [];
  private readonly idToOrd = new Map<string, number>();
  private readonly fieldIndexes = new Map<string, FieldIndex>();
  /** Each FieldIndex once (fields that share one appear once). */
  private readonly distinct: FieldIndex[] = [];
  /**
   * Fields that share the FieldIndex of another field (name → that field's name): two DOCS-only
   * fields of one type created by the same document (`x.keyword` and `x.raw` of a dynamic string)
   * whose terms and values have been identical in every document so far. The first document where
   * they differ gives the sharer a copy of its own before anything of that document is added.
   */
  private readonly sharing = new Map<string, string>();
  private readonly nestedIndexes = new Map<string, NestedIndex>();
  private live = new Uint8Array(1024);
  private liveCount = 0;
  private dead = 0;
  private liveChanges = 0;
  /**
   * The FieldIndexes each pending ordinal was added to: its reveal activates those, not every field
   * of the index (10,000 `activate` calls a write in an index of 10,000 fields, most of them a no-op).
   */
  private readonly pendingFields = new Map<number, FieldIndex[]>();
  /** Documents being staged a stretch at a time (stageSteps): postings are not compacted meanwhile. */
  private staging = 0;
  /** The live ordinals as a column, built on demand; dropped when a document becomes live or dead. */
  private liveColumn: Int32Array<ArrayBuffer> | undefined;

  /** Live documents. */
  get docCount(): number {
    return this.liveCount;
  }

  /** How many times a document became live or stopped being live: what a search sees changed when it changes (a reader's version). */
  get changes(): number {
    return this.liveChanges;
  }

  /** True when every ordinal ever assigned is a live document (none removed or pending). */
  get allLive(): boolean {
    return this.liveCount === this.ordToId.length;
  }

  /** Ordinals ever assigned (live or dead); live ones are < maxOrd. */
  get maxOrd(): number {
    return this.ordToId.length;
  }

  /** True for a reader's view (openReader): its liveness never changes while it is read. */
  get fixedLiveness(): boolean {
    return false;
  }

  /**
   * The index as it is now, for a reader that pauses between pieces of work (a search): the view
   * keeps seeing the documents live now — their ids, postings, doc values and nested objects — and
   * none added later, whatever writes do meanwhile (see Readers), until `release`. Called on a view
   * of the index (field rules), the reader reads through that view. Cost: a few closures; the
   * liveness column is shared until the next write, which copies it once.
   */
  openReader(): IndexReader {
    const readers = this.readers;
    // read through the getters: a reader opened on a reader's view takes that view's state
    const live = this.liveness;
    const maxOrd = this.maxOrd;
    const docCount = this.docCount;
    const hold = { generation: readers.generation };
    readers.open.add(hold);
    readers.held = true;
    const nested = new Map<string, { nested: NestedIndex; reader: IndexReader }>();
    for (const path of this.nestedPaths()) {
      const ni = this.nested(path)!;
      const reader = ni.index.openReader();
      nested.set(path, { nested: Object.create(ni, { index: { value: reader.index } }) as NestedIndex, reader });
    }
    const base = this;
    // the column of live ordinals: the index's own while its liveness is the one this reader took
    let column: Int32Array<ArrayBuffer> | undefined;
    const unchanged = () => base.liveness === live;
    const view = Object.create(base, {
      liveness: { get: () => live },
      maxOrd: { get: () => maxOrd },
      docCount: { get: () => docCount },
      allLive: { get: () => docCount === maxOrd && unchanged() },
      fixedLiveness: { get: () => true },
    }) as InvertedIndex;
    view.isLive = (ord) => live[ord] === LIVE;
    view.liveOrdinals = () => {
      if (unchanged()) return base.liveOrdinals();
      if (column) return column;
      const out = new Int32Array(docCount);
      let n = 0;
      for (let ord = 0; ord < maxOrd && n < docCount; ord++) if (live[ord] === LIVE) out[n++] = ord;
      return (column = out);
    };
    view.liveOrds = function* () {
      for (let ord = 0; ord < maxOrd; ord++) if (live[ord] === LIVE) yield ord;
    };
    view.ordOf = (id) => {
      const ord = base.ordOf(id);
      if (ord !== undefined && live[ord] === LIVE) return ord;
      for (const retired of readers.retiredIds.get(id) ?? []) if (live[retired] === LIVE) return retired;
      return undefined;
    };
    view.nested = (path) => nested.get(path)?.nested;
    view.nestedPaths = () => nested.keys();
    let released = false;
    return {
      index: view,
      release() {
        if (released) return;
        released = true;
        for (const n of nested.values()) n.reader.release();
        readers.open.delete(hold);
        readers.prune();
      },
    };
  }

  /** The liveness column, for a change: a copy when a reader holds it (and grown to hold `ord`); a new generation. */
  private writableLive(ord: number): Uint8Array<ArrayBuffer> {
    const readers = this.readers;
    readers.generation++;
    if (readers.held) {
      readers.held = false;
      const copy = new Uint8Array(Math.max(this.live.length, ord + 1));
      copy.set(this.live);
      this.live = copy;
    } else if (ord >= this.live.length) this.live = growUint8(this.live, ord + 1);
    return this.live;
  }

  put(id: string, doc: IndexableDocument): number {
    this.delete(id);
    const ord = this.append(id, doc, false);
    this.idToOrd.set(id, ord);
    return ord;
  }

  /**
   * Adds a document that stays invisible — not live, not in the statistics, the previous version
   * of the id still live — until `reveal` (its write is durable) or `discard` (its write failed).
   * Returns its ordinal.
   */
  stage(id: string, doc: IndexableDocument): number {
    return this.append(id, doc, true);
  }

  /** A staged document replaces the live version of its id. */
  reveal(id: string, ord: number): void {
    if (this.live[ord] !== PENDING) return;
    this.delete(id);
    this.revealOrd(ord);
    this.idToOrd.set(id, ord);
  }

  /** Forgets a staged document. */
  discard(ord: number): void {
    if (this.live[ord] === PENDING) this.drop(ord);
  }

  /** @internal a pending ordinal becomes live (with its nested objects). */
  revealOrd(ord: number): void {
    if (this.live[ord] !== PENDING) return;
    this.writableLive(ord)[ord] = LIVE;
    this.liveCount++;
    this.liveChanges++;
    this.liveColumn = undefined;
    const added = this.pendingFields.get(ord);
    this.pendingFields.delete(ord);
    for (const fi of added ?? this.distinct) fi.activate(ord);
    for (const ni of this.nestedIndexes.values()) ni.revealChildrenOf(ord);
  }

  /** A nested object (no id of its own: `idOf` gives its root document's id). */
  putChild(parentId: string, doc: IndexableDocument, pending = false): number {
    return this.append(parentId, doc, pending);
  }

  /**
   * `stage`, a stretch at a time: yields between fields and inside a field of many terms, so its
   * driver can give the event loop a turn; returns the ordinal. Until it is over, the driver lets
   * no other write into this index (see FieldIndex.addSteps); searches and the reveal or removal of
   * other documents may run in between (the document is pending: no reader sees it yet).
   */
  *stageSteps(id: string, doc: IndexableDocument): Generator<void, number, void> {
    const ord = this.openOrd(id, true);
    const fields = doc.fields;
    if (this.sharing.size) this.checkSharing(fields);
    const created: CreatedFields = {};
    const added: FieldIndex[] = [];
    this.pendingFields.set(ord, added);
    this.staging++;
    try {
      for (const name of fields.keys()) {
        const field = fields.get(name)!;
        const fi = this.fieldIndexFor(name, field, fields, created);
        if (fi) {
          added.push(fi);
          yield* fi.addSteps(ord, field, true);
        }
        yield;
      }
    } finally {
      this.staging--;
    }
    this.appendNested(ord, id, doc, true);
    return ord;
  }

  private append(id: string, doc: IndexableDocument, pending: boolean): number {
    const ord = this.openOrd(id, pending);
    const fields = doc.fields;
    if (this.sharing.size) this.checkSharing(fields);
    const created: CreatedFields = {};
    const added: FieldIndex[] | undefined = pending ? [] : undefined;
    if (added) this.pendingFields.set(ord, added);
    // Keys then get: iterating entries would allocate a [name, field] pair per field.
    for (const name of fields.keys()) {
      const field = fields.get(name)!;
      const fi = this.fieldIndexFor(name, field, fields, created);
      if (!fi) continue;
      fi.add(ord, field, pending);
      added?.push(fi);
    }
    this.appendNested(ord, id, doc, pending);
    return ord;
  }

  /** A new ordinal for a document of `id`, live or pending. */
  private openOrd(id: string, pending: boolean): number {
    const ord = this.ordToId.length;
    this.ordToId.push(id);
    const live = this.writableLive(ord);
    if (pending) live[ord] = PENDING;
    else {
      live[ord] = LIVE;
      this.liveCount++;
      this.liveChanges++;
      this.liveColumn = undefined;
    }
    return ord;
  }

  /**
   * The FieldIndex a document's field is added to: the field's own (created with its first
   * document); undefined when the field shares its twin's, which takes the values once.
   */
  private fieldIndexFor(name: string, field: IndexableField, fields: IndexableDocument['fields'], created: CreatedFields): FieldIndex | undefined {
    let fi = this.fieldIndexes.get(name);
    if (!fi) {
      if (created.buckets) {
        const twin = this.twinAmong(created.buckets, fields, field);
        if (twin !== undefined) {
          this.fieldIndexes.set(name, this.fieldIndexes.get(twin)!);
          this.sharing.set(name, twin);
          return undefined;
        }
      }
      this.fieldIndexes.set(name, (fi = new FieldIndex(field.type)));
      this.distinct.push(fi);
      created.buckets ??= new Map();
      const bucket = contentBucket(field);
      const same = created.buckets.get(bucket);
      if (same) same.push(name);
      else created.buckets.set(bucket, [name]);
    } else if (this.sharing.size && this.sharing.has(name)) return undefined;
    return fi;
  }

  private appendNested(ord: number, id: string, doc: IndexableDocument, pending: boolean): void {
    if (!doc.nested) return;
    for (const n of doc.nested) {
      let ni = this.nestedIndexes.get(n.path);
      if (!ni) this.nestedIndexes.set(n.path, (ni = new NestedIndex()));
      ni.add(ord, id, n.doc, pending);
    }
  }

  /** A field created by this document that `field` can share (same type, same content), if any. */
  private twinAmong(created: Map<string, string[]>, fields: IndexableDocument['fields'], field: IndexableField): string | undefined {
    if (POSITIONAL.has(field.type) || field.vector) return undefined;
    for (const name of created.get(contentBucket(field)) ?? []) {
      if (this.sharing.has(name)) continue;
      if (sameContent(fields.get(name), field)) return name;
    }
    return undefined;
  }

  /** Gives a field its own FieldIndex again when this document's values differ from its twin's. */
  private checkSharing(fields: IndexableDocument['fields']): void {
    let split: string[] | undefined;
    for (const [name, twin] of this.sharing) {
      if (!sameContent(fields.get(name), fields.get(twin))) (split ??= []).push(name);
    }
    if (!split) return;
    for (const name of split) {
      const shared = this.fieldIndexes.get(name)!;
      const fi = shared.clone();
      this.fieldIndexes.set(name, fi);
      this.distinct.push(fi);
      this.sharing.delete(name);
      // a pending document added to the shared one is pending in the copy too: revealed in both
      for (const added of this.pendingFields.values()) if (added.includes(shared)) added.push(fi);
    }
  }

  delete(id: string): void {
    const ord = this.idToOrd.get(id);
    if (ord === undefined) return;
    this.idToOrd.delete(id);
    this.deleteOrd(ord);
  }

  deleteOrd(ord: number): void {
    if (this.live[ord] === LIVE) this.drop(ord);
  }

  /** @internal removes a live or pending ordinal. */
  removeOrd(ord: number): void {
    if (this.live[ord] !== DEAD) this.drop(ord);
  }

  private drop(ord: number): void {
    const wasLive = this.live[ord] === LIVE;
    if (wasLive) {
      this.liveCount--;
      this.liveChanges++;
      this.liveColumn = undefined;
    }
    this.writableLive(ord)[ord] = DEAD;
    this.pendingFields.delete(ord);
    if (wasLive && this.readers.open.size) {
      // open readers see it still: out of the statistics now, its data kept until they are done
      for (const fi of this.distinct) fi.retire(ord);
      this.readers.retire(ord, this.ordToId[ord]);
    } else this.clearOrd(ord);
    for (const ni of this.nestedIndexes.values()) ni.removeChildrenOf(ord);
    if (++this.dead > 10_000 && this.dead > this.liveCount && this.staging === 0) this.compact();
  }

  /** Forgets what a removed ordinal held (its id, its fields' values). */
  private clearOrd(ord: number): void {
    this.ordToId[ord] = undefined;
    for (const fi of this.distinct) fi.remove(ord);
  }

  isLive(ord: number): boolean {
    return this.live[ord] === 1;
  }

  /** The liveness column (1 = live), indexed by ordinal; read-only for callers. */
  get liveness(): Uint8Array<ArrayBuffer> {
    return this.live;
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

  nested(path: string): NestedIndex | undefined {
    return this.nestedIndexes.get(path);
  }

  nestedPaths(): IterableIterator<string> {
    return this.nestedIndexes.keys();
  }

  /**
   * The live ordinals, ascending, as one column shared by every caller until the next change of
   * liveness (so a match_all costs no allocation): read-only.
   */
  liveOrdinals(): Int32Array<ArrayBuffer> {
    if (this.liveColumn) return this.liveColumn;
    const out = new Int32Array(this.liveCount);
    const live = this.live;
    const max = this.ordToId.length;
    let n = 0;
    for (let ord = 0; ord < max; ord++) if (live[ord] === LIVE) out[n++] = ord;
    this.liveColumn = out;
    return out;
  }

  /** Live ordinals in index order. */
  *liveOrds(): IterableIterator<number> {
    const live = this.live;
    const max = this.ordToId.length;
    for (let ord = 0; ord < max; ord++) if (live[ord] === 1) yield ord;
  }

  /**
   * The bytes the index takes, never under-counted: its typed arrays' allocated lengths (exact; they
   * live outside the JS heap) and an upper estimate of its maps, lists and strings (the point-in-time
   * budget charges a view this much).
   */
  memoryBytes(charBytes: CharBytes): number {
    let n = this.live.byteLength + (this.liveColumn?.byteLength ?? 0);
    n += arraySlotBytes(this.ordToId.length) + this.idToOrd.size * MAP_ENTRY_BYTES;
    // an id is one string, held by both the ordinal list and the map
    for (const id of this.idToOrd.keys()) n += stringBytes(id, charBytes);
    for (const fi of this.distinct) n += fi.memoryBytes(charBytes);
    for (const name of this.fieldIndexes.keys()) n += stringBytes(name, charBytes) + MAP_ENTRY_BYTES;
    for (const ni of this.nestedIndexes.values()) n += ni.memoryBytes(charBytes);
    return n;
  }

  /** The whole index as a snapshot header (its columns go to `w`). */
  toSnapshot(w: SnapshotWriter): InvertedIndexSnapshot {
    this.finishCompaction();
    const ids: string[] = [];
    const ords = new Int32Array(this.idToOrd.size);
    for (const [id, ord] of this.idToOrd) {
      ords[ids.length] = ord;
      ids.push(id);
    }
    const fields: Array<[string, number]> = [];
    for (const [name, fi] of this.fieldIndexes) fields.push([name, this.distinct.indexOf(fi)]);
    const retired = this.readers.retired;
    return {
      ordToId: this.ordToId.map((id, ord) => (retired.has(ord) ? null : id ?? null)),
      ids,
      ords: w.column(ords),
      live: w.column(this.live.subarray(0, this.ordToId.length)),
      liveCount: this.liveCount,
      dead: this.dead,
      distinct: this.distinct.map((fi) => fi.toSnapshot(w, this.ordToId.length)),
      fields,
      sharing: [...this.sharing],
      nested: [...this.nestedIndexes].map(([path, ni]) => [path, ni.toSnapshot(w)]),
    };
  }

  static fromSnapshot(r: SnapshotReader, s: InvertedIndexSnapshot): InvertedIndex {
    const inv = new InvertedIndex();
    for (const id of s.ordToId) inv.ordToId.push(id ?? undefined);
    const ords = r.i32(s.ords);
    for (let i = 0; i < s.ids.length; i++) inv.idToOrd.set(s.ids[i], ords[i]);
    inv.live = r.u8(s.live);
    inv.liveCount = s.liveCount;
    inv.dead = s.dead;
    for (const f of s.distinct) inv.distinct.push(FieldIndex.fromSnapshot(r, f));
    for (const [name, i] of s.fields) inv.fieldIndexes.set(name, inv.distinct[i]);
    for (const [name, twin] of s.sharing) inv.sharing.set(name, twin);
    for (const [path, n] of s.nested) inv.nestedIndexes.set(path, NestedIndex.fromSnapshot(r, n));
    return inv;
  }

  /**
   * Postings without the entries of dead documents, rewritten a field and a stretch of terms at a
   * time with a turn of the event loop between (as Lucene merges segments off the indexing thread):
   * rewriting every field at once held it for ~300 ms of CPU after a 50 MB `_bulk` that overwrote
   * 120,000 documents. Readers and writers use the field meanwhile (FieldIndex.startCompaction);
   * a stretch runs only between the stretches of a document being staged, as before.
   */
  private compact(): void {
    this.dead = 0;
    // Pending documents keep their postings: they become live when their write is durable; so do
    // the documents open readers still see.
    const live = (ord: number) => this.live[ord] !== DEAD || this.readers.retired.has(ord);
    if (this.compaction) {
      this.compaction.again = true; // the fields it has done have dead entries again
      return;
    }
    const fields = [...this.distinct];
    const compaction: Compaction = { fields, at: 0, started: false, again: false };
    this.compaction = compaction;
    const step = () => {
      if (this.compaction !== compaction) return; // finished in one piece meanwhile (finishCompaction)
      if (this.staging === 0) {
        const deadline = performance.now() + SLICE_MS;
        while (compaction.at < fields.length) {
          const fi = fields[compaction.at];
          if (!compaction.started) {
            fi.startCompaction(live);
            compaction.started = true;
          }
          if (!fi.compactSome(deadline)) break;
          compaction.at++;
          compaction.started = false;
        }
        if (compaction.at === fields.length) {
          this.compaction = undefined;
          if (compaction.again) this.compact();
          return;
        }
      }
      setImmediate(step);
    };
    setImmediate(step);
  }

  private compaction: Compaction | undefined;

  /** Ends a compaction under way in one piece (before a snapshot of the whole index). */
  finishCompaction(): void {
    const c = this.compaction;
    if (!c) return;
    this.compaction = undefined;
    const live = (ord: number) => this.live[ord] !== DEAD || this.readers.retired.has(ord);
    for (let i = c.at; i < c.fields.length; i++) {
      if (i > c.at || !c.started) c.fields[i].startCompaction(live);
      c.fields[i].compactSome(Infinity);
    }
  }
}

export interface NestedIndexSnapshot {
  index: InvertedIndexSnapshot;
  parentOf: ColumnRef;
  firstChild: ColumnRef;
  childCount: ColumnRef;
}

export interface InvertedIndexSnapshot {
  ordToId: Array<string | null>;
  ids: string[];
  ords: ColumnRef;
  live: ColumnRef;
  liveCount: number;
  dead: number;
  distinct: FieldIndexSnapshot[];
  fields: Array<[string, number]>;
  sharing: Array<[string, string]>;
  nested: Array<[string, NestedIndexSnapshot]>;
}
