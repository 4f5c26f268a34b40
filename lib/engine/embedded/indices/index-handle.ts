import { checkIndexBlocks } from './index-blocks.js';
import { EsError, errors } from '../../../errors/index.js';
import { createAnalysisRegistry, type ConfigFiles, type IndexAnalysisRegistry, type SynonymsSource } from '../analysis/index.js';
import { InvertedIndex, SnapshotReader, SnapshotWriter, type InvertedIndexSnapshot } from '../index/index.js';
import { TimeSlice } from '../../../cooperative/index.js';
import { stringify as stringifyExactly } from 'lossless-json';
import { exactJson, hasLongDigitRun, holdsBigInt, holdsRoundedInteger, jsonTextKeepingIntegers } from '../../../ndjson/index.js';
import { mappingLimitsOf, parseDocument, parseDocumentSteps, withExactUnsignedLongs, withRouting, type Mappings, type ParsedDocument } from '../mapping/index.js';
import type { UpdateInput } from '../painless/index.js';
import type { IndexMetadata, StoreWrite, StoredDocument, Store } from '../store/index.js';
import { deepEqual, deepMerge, isPlainObject, type JsonObject } from './deep.js';
import { IndexStats } from './index-stats.js';
import { checkNestedObjectsLimit } from './nested-limit.js';
import { nestSettings } from './settings.js';
import { nextVersion, validateConcurrencyParams, type ConcurrencyParams, type DocVersion } from './versioning.js';

export const PRIMARY_TERM = 1;

/** A source at least this long is prepared a stretch at a time (see IndexHandle.mayBeHeavy). */
const HEAVY_SOURCE_CHARS = 16 * 1024;
/** An ngram or shingle range past this many sizes can expand one value into thousands of terms. */
const WIDE_EXPANSION = 16;
/** How long a cooperative write's stretches run back to back before its time slice is looked at. */
const STRETCH_MS = 2;

/** Every synonyms set empty. */
const NO_SYNONYMS: SynonymsSource = { rules: () => [] };

export interface WriteParams extends ConcurrencyParams {
  routing?: string;
  /** A bulk item's `dynamic_templates`: a new field's path → the dynamic template it gets by name. */
  dynamicTemplates?: Readonly<Record<string, string>>;
}

/**
 * A write prepared in memory (versions assigned, realtime get sees it), waiting to be made durable:
 * `writes` go to the store; once they are durable `apply()` makes the write visible to searches,
 * if they fail `rollback()` restores the in-memory state as it was; `settle()` in both cases.
 */
export interface PreparedWrite {
  status: number;
  body: JsonObject;
  writes: StoreWrite[];
  settle(): void;
  /** Makes the write visible in the in-memory index (after the store commit). */
  apply?(): void;
  /** Undoes the in-memory effects of the write (when the store commit failed). */
  rollback?(): void;
}

export interface UpdateRequest {
  doc?: JsonObject;
  upsert?: JsonObject;
  docAsUpsert?: boolean;
  detectNoop?: boolean;
  /** A scripted update: decides, from the document, what becomes of it (see UpdateScript). */
  script?: UpdateScript;
  /** Run the script on the `upsert` document when the document is missing (op `create`). */
  scriptedUpsert?: boolean;
  /**
   * The update request's own text: the integers past 2^53 its `doc`, `upsert` or script `params`
   * hold are written into the document with their digits (see jsonTextKeepingIntegers).
   */
  text?: string;
}

/** What an update script is given: the document (or the upsert document, op `create`) and its metadata, as Painless takes them. */
export interface UpdateScriptInput extends UpdateInput {
  op: 'index' | 'create';
  /** The source, the script's to change. */
  source: JsonObject;
}

/**
 * Contract: returns `index` (store `source`), `create` (store the upsert `source`), `delete`, or
 * `noop`; may throw (the update fails with that error and nothing is written).
 */
export type UpdateScript = (input: UpdateScriptInput) => { op: 'index' | 'create' | 'delete' | 'noop'; source: JsonObject };

/** Versions of documents as they were before a write superseded them (undefined: the document had none). */
export type SupersededVersions = ReadonlyMap<string, StoredDocument | undefined>;

export interface LiveDocument {
  id: string;
  source: JsonObject;
  /** `source` as stored (JSON text). */
  sourceText?: string;
  version: number;
  seqNo: number;
  primaryTerm: number;
  routing?: string;
}

/**
 * A document's `_source` as an answer shows it: as stored, so with the integers past 2^53 of its
 * text exact (BigInts), as Elasticsearch answers the bytes it was given; else `source` itself.
 */
export function shownSource(doc: LiveDocument): JsonObject {
  const text = doc.sourceText;
  if (text === undefined || !hasLongDigitRun(text) || !holdsRoundedInteger(doc.source)) return doc.source;
  return exactJson(text) as JsonObject;
}

/** A translog operation's own bytes (its header, sequence number, term, version), besides its id and source. */
const TRANSLOG_OP_BYTES = 60;

/**
 * One index: its metadata, its documents' versions, and (while open) its in-memory search
 * structures. Writes are applied in memory synchronously — versions and sequence numbers are
 * assigned atomically there — and return the store writes that make them durable.
 */
export class IndexHandle {
  private readonly versions = new Map<string, DocVersion>();
  /** Documents written but not yet committed to the store: reads see them (realtime get). */
  private pendingWrites = 0;
  private maxSeqNo = -1;
  private sourceBytes = 0;
  private analysis: IndexAnalysisRegistry;
  /** The analysis was built with every synonyms set empty (see the constructor). */
  private withoutSynonyms = false;
  inverted: InvertedIndex | undefined;
  /**
   * The handle itself, which its views (a search's reader, a credential's field subset, runtime
   * fields) inherit: the index as stored, every field readable (index sorting orders by it).
   */
  readonly asStored: IndexHandle = this;
  /** Operation counters for the index stats API. */
  readonly stats = new IndexStats();
  /** It answers as OpenSearch 2 (its geo_shape queries score 0): set for an engine that answers every request as OpenSearch 2. */
  openSearch = false;

  constructor(
    public meta: IndexMetadata,
    private readonly store: Store,
    /** The synonyms sets `synonyms_set` filters read. */
    private readonly synonyms?: SynonymsSource,
    /** The config directory files named by analysis settings are read from. */
    private readonly configFiles?: ConfigFiles,
  ) {
    try {
      this.analysis = IndexHandle.analysisFor(meta.settings, synonyms, configFiles);
    } catch (err) {
      if (!synonyms) throw err;
      // A synonyms set whose rules no longer build with this index's analyzers (ES leaves such an
      // index unavailable) must not keep the engine from starting: the index loads without its
      // sets' rules until a reload builds them.
      this.analysis = IndexHandle.analysisFor(meta.settings, NO_SYNONYMS, configFiles);
      this.withoutSynonyms = true;
      console.error(`embedded engine: index [${meta.name}] loaded without its synonyms sets: ${(err as Error).message}`);
    }
  }

  static analysisSettings(meta: IndexMetadata): unknown {
    const nested = nestSettings(meta.settings) as { index?: { analysis?: unknown } };
    return nested.index?.analysis;
  }

  /** The analysis registry of an index with these (flat) settings; throws EsError 400 when invalid. */
  static analysisFor(settings: IndexMetadata['settings'], synonyms?: SynonymsSource, configFiles?: ConfigFiles): IndexAnalysisRegistry {
    const nested = nestSettings(settings) as { index?: { analysis?: unknown; max_ngram_diff?: unknown; max_shingle_diff?: unknown } };
    const limit = (v: unknown) => (v === undefined ? undefined : Number(v));
    return createAnalysisRegistry(nested.index?.analysis, {
      maxNgramDiff: limit(nested.index?.max_ngram_diff),
      maxShingleDiff: limit(nested.index?.max_shingle_diff),
      synonyms,
      configFiles,
    });
  }

  get name(): string {
    return this.meta.name;
  }

  get uuid(): string {
    return this.meta.uuid;
  }

  get isOpen(): boolean {
    return this.meta.state === 'open';
  }

  get registry(): IndexAnalysisRegistry {
    return this.analysis;
  }

  /**
   * Makes the index's search analyzers (those with `updateable` filters) read their synonyms
   * again, all or none (see IndexAnalysisRegistry.reloadSearchAnalyzers); the next search uses
   * them. Returns the reloaded analyzers' names.
   */
  reloadSearchAnalyzers(synonymsSet?: string): string[] {
    if (this.withoutSynonyms) this.setAnalysis(IndexHandle.analysisFor(this.meta.settings, this.synonyms, this.configFiles));
    return this.analysis.reloadSearchAnalyzers(synonymsSet);
  }

  /** Whether a filter of the index reads this synonyms set (which may then not be deleted). */
  usesSynonymsSet(set: string): boolean {
    return this.analysis.synonymsSets().has(set);
  }

  /** Installs a registry built from this index's settings now (an index being opened reads its synonyms anew). */
  setAnalysis(registry: IndexAnalysisRegistry): void {
    this.analysis = registry;
    this.withoutSynonyms = false;
  }

  get mappings(): Mappings {
    return this.meta.mappings;
  }

  /** Live document count. */
  /** The highest sequence number assigned (-1 before the first write): the shard's max_seq_no and checkpoints. */
  get lastSeqNo(): number {
    return this.maxSeqNo;
  }

  get docCount(): number {
    let n = 0;
    if (this.inverted) return this.inverted.docCount;
    for (const v of this.versions.values()) if (!v.deleted) n++;
    return n;
  }

  get storeBytes(): number {
    return this.sourceBytes;
  }

  /** Rebuilds versions (and, when open, the search structures) from the store. */
  load(): void {
    this.versions.clear();
    this.maxSeqNo = -1;
    this.sourceBytes = 0;
    this.inverted = undefined;
    // With a snapshot on disk: one pass for the versions (and their fingerprint), then the snapshot
    // if it matches, else a second pass that indexes. Without one: a single pass does both.
    const snapshot = this.isOpen ? this.store.readSnapshot(this.uuid) : undefined;
    const inverted = this.isOpen && !snapshot ? new InvertedIndex() : undefined;
    const fp = new Fingerprint();
    for (const { id, doc } of this.store.documents(this.meta)) {
      const deleted = doc.s === undefined;
      this.versions.set(id, { version: doc.v, seqNo: doc.q, primaryTerm: doc.t, deleted, pending: undefined });
      if (snapshot) fp.add(id, doc.v, doc.q, doc.t, deleted);
      if (doc.q > this.maxSeqNo) this.maxSeqNo = doc.q;
      if (doc.s !== undefined) {
        this.sourceBytes += doc.s.length;
        if (inverted) inverted.put(id, withRouting(this.parseForLoad(id, doc.s), doc.r));
      }
    }
    if (!this.isOpen) return;
    if (inverted) {
      this.inverted = inverted;
      return;
    }
    this.inverted = this.fromSnapshot(snapshot!, fp.value());
    if (this.inverted) return;
    const rebuilt = new InvertedIndex();
    for (const { id, doc } of this.store.documents(this.meta)) {
      if (doc.s !== undefined) rebuilt.put(id, withRouting(this.parseForLoad(id, doc.s), doc.r));
    }
    this.inverted = rebuilt;
  }

  /** What a snapshot must have been taken under to stand for the documents in the store now. */
  private snapshotKey(fingerprint: string): string {
    return JSON.stringify([fingerprint, this.meta.mappings, this.meta.settings]);
  }

  /** The index from the last snapshot, when it was taken from exactly the documents in the store. */
  private fromSnapshot(bytes: Buffer, fingerprint: string): InvertedIndex | undefined {
    try {
      const reader = SnapshotReader.open(bytes);
      const header = reader?.header as { key: string; index: InvertedIndexSnapshot } | undefined;
      if (!reader || header?.key !== this.snapshotKey(fingerprint)) return undefined;
      return InvertedIndex.fromSnapshot(reader, header.index);
    } catch {
      return undefined;
    }
  }

  /**
   * Saves the in-memory index so that the next start loads it instead of re-analysing every
   * document (at engine close). It is keyed by a fingerprint of every document's id and version
   * as this handle knows them: a store that ends up different (a write that failed, writes after
   * the snapshot) does not match, and the index is rebuilt from the store.
   */
  saveSnapshot(): void {
    if (!this.inverted || this.pendingWrites || this.preparing) return;
    const fp = new Fingerprint();
    for (const [id, v] of this.versions) fp.add(id, v.version, v.seqNo, v.primaryTerm, v.deleted);
    const w = new SnapshotWriter();
    const index = this.inverted.toSnapshot(w);
    this.store.writeSnapshot(this.uuid, w.toBuffers({ key: this.snapshotKey(fp.value()), index }));
  }

  private parseForLoad(id: string, text: string): ParsedDocument {
    try {
      return parseDocument(withExactUnsignedLongs(JSON.parse(text) as JsonObject, text, this.meta.mappings), this.meta.mappings, this.analysis, id);
    } catch {
      return { fields: new Map() };
    }
  }

  setMeta(meta: IndexMetadata): void {
    const analysisChanged = JSON.stringify(meta.settings) !== JSON.stringify(this.meta.settings);
    this.meta = meta;
    if (analysisChanged) this.setAnalysis(IndexHandle.analysisFor(meta.settings, this.synonyms, this.configFiles));
  }

  ensureOpen(): void {
    if (!this.isOpen) throw errors.indexClosed(this.name, this.uuid);
  }

  private stored(id: string): StoredDocument | undefined {
    return this.versions.get(id)?.pending ?? this.store.getDocument(this.meta, id);
  }

  /**
   * `get` for the reads Elasticsearch counts in an index's get stats (GET and its variants,
   * update, explain, terms lookup), timed and counted as found or missing.
   */
  getCounted(id: string): LiveDocument | undefined {
    checkIndexBlocks(this.name, this.meta.settings, 'read');
    const t0 = performance.now();
    const doc = this.get(id);
    this.stats.got(doc !== undefined, performance.now() - t0);
    return doc;
  }

  /** The routing a live document was written with, read from its stored record without parsing its source. */
  routingOf(id: string): string | undefined {
    const v = this.versions.get(id);
    return v && !v.deleted ? this.stored(id)?.r : undefined;
  }

  /**
   * Those who must see a document's version before a write replaces or deletes it: point-in-time
   * views being built (holdPointInTimeView) read their documents a time slice at a time, and keep
   * the version of a document that a write meanwhile supersedes.
   */
  private readonly supersededWatchers = new Set<(id: string, previous: StoredDocument | undefined) => void>();

  /** Calls `watcher` with a document's realtime version (none: it had none) before each write of it, until the returned stop. */
  watchSuperseded(watcher: (id: string, previous: StoredDocument | undefined) => void): () => void {
    this.supersededWatchers.add(watcher);
    return () => this.supersededWatchers.delete(watcher);
  }

  private supersede(id: string, previous: StoredDocument | undefined): void {
    for (const w of this.supersededWatchers) w(id, previous);
  }

  /**
   * The index as it is now, for a search that pauses between pieces of work: a view of this handle
   * (or of the view it is called on) that keeps reading the documents as they were — the in-memory
   * index's reader (InvertedIndex.openReader), and each document's version as it was before a
   * write superseded it meanwhile — until `release`, as an Elasticsearch search reads the reader it
   * opened. Memory: an entry per document written while it is open (its superseded version).
   */
  openReader(): { handle: IndexHandle; release(): void } {
    const inverted = this.inverted;
    if (!inverted) return { handle: this, release() {} };
    const reader = inverted.openReader();
    const superseded = new Map<string, StoredDocument | undefined>();
    const stop = this.watchSuperseded((id, previous) => {
      if (!superseded.has(id)) superseded.set(id, previous);
    });
    const base = this;
    const view = Object.create(base, { inverted: { value: reader.index, enumerable: true } }) as IndexHandle;
    view.get = (id: string) => base.get(id, superseded);
    view.seqNoOf = (id: string) => (superseded.has(id) ? superseded.get(id)?.q : base.seqNoOf(id));
    return {
      handle: view,
      release() {
        stop();
        reader.release();
      },
    };
  }

  /** The live document with this id as stored (realtime), its source left unparsed; none when deleted or absent. */
  storedVersion(id: string): StoredDocument | undefined {
    this.ensureOpen();
    const v = this.versions.get(id);
    if (!v || v.deleted) return undefined;
    const doc = this.stored(id);
    return doc?.s === undefined ? undefined : doc;
  }

  /**
   * The live document with this id (realtime: includes writes not yet committed). `asOf`: the
   * versions writes superseded since a reader began (openReader), which that reader reads instead.
   */
  get(id: string, asOf?: SupersededVersions): LiveDocument | undefined {
    this.ensureOpen();
    if (asOf?.has(id)) {
      const doc = asOf.get(id);
      return doc?.s === undefined ? undefined : { id, source: JSON.parse(doc.s) as JsonObject, sourceText: doc.s, version: doc.v, seqNo: doc.q, primaryTerm: doc.t, routing: doc.r };
    }
    const v = this.versions.get(id);
    if (!v || v.deleted) return undefined;
    const doc = this.stored(id);
    if (!doc || doc.s === undefined) return undefined;
    return { id, source: JSON.parse(doc.s) as JsonObject, sourceText: doc.s, version: doc.v, seqNo: doc.q, primaryTerm: doc.t, routing: doc.r };
  }

  /** `_shards` of a write's answer (one object per index and settings: answers only serialise it). */
  private shardsBody: { settings: IndexMetadata['settings']; body: JsonObject } | undefined;

  private shards(): JsonObject {
    const settings = this.meta.settings;
    if (this.shardsBody?.settings !== settings) {
      const replicas = Number(settings['index.number_of_replicas'] ?? '1');
      this.shardsBody = { settings, body: { total: 1 + replicas, successful: 1, failed: 0 } };
    }
    return this.shardsBody.body;
  }

  /** @internal Whether a later version of the document than `entry`'s is already visible. */
  isSuperseded(id: string, entry: DocVersion): boolean {
    const current = this.versions.get(id);
    return current !== undefined && current !== entry && current.visible === true && current.seqNo > entry.seqNo;
  }

  /** @internal A prepared write's version stops being pending (its store commit is over). */
  settlePending(entry: DocVersion): void {
    entry.pending = undefined;
    this.pendingWrites--;
  }

  /** Index (create or replace) a document. `sourceText` is the source as JSON, `source` its parse. */
  indexDocument(id: string, source: JsonObject, sourceText: string, params: WriteParams): PreparedWrite {
    this.finishPreparing();
    return runToEnd(this.indexSteps(id, source, sourceText, params, false));
  }

  /**
   * `indexDocument` a time slice at a time: parsing, analysis and indexing yield between top-level
   * fields and inside large analyses, and the event loop gets a turn whenever `slice` is used up,
   * so a heavy document (thousands of fields, a value through a wide ngram filter) does not hold
   * other requests back. The write is the same: versions and sequence number are assigned when its
   * preparation ends, in one go with its checks.
   *
   * Contract: one write at a time is prepared into an index. A cooperative write waits for the
   * one in progress; a synchronous write (`indexDocument`, `delete`, `update`) first finishes it,
   * at once. Searches run in between, and do not see the document before its write is durable.
   */
  async indexDocumentCooperatively(id: string, source: JsonObject, sourceText: string, params: WriteParams, slice: { pause(): Promise<void> } = new TimeSlice()): Promise<PreparedWrite> {
    while (this.preparing) await this.preparing.over;
    // most documents are light: prepared at once, as fast as a synchronous write
    if (!this.mayBeHeavy(sourceText)) return runToEnd(this.indexSteps(id, source, sourceText, params, false));
    const run = new SteppedWrite(this.indexSteps(id, source, sourceText, params, true));
    this.preparing = run;
    try {
      // stretches run back to back for a moment before `slice` is asked for a turn: a small
      // document (a `_bulk` item) is prepared without an await between its fields
      for (let until = performance.now() + STRETCH_MS; !run.step(); ) {
        if (performance.now() < until) continue;
        await slice.pause();
        until = performance.now() + STRETCH_MS;
      }
    } finally {
      this.preparing = undefined;
      run.end();
    }
    return run.result();
  }

  /**
   * Whether preparing a document may take long enough to be worth doing a stretch at a time: a
   * long source (many fields, long values), or any document of an index whose analysis may expand
   * a short value into many terms (`index.max_ngram_diff` or `index.max_shingle_diff` raised).
   */
  private mayBeHeavy(sourceText: string): boolean {
    if (sourceText.length >= HEAVY_SOURCE_CHARS) return true;
    const settings = this.meta.settings;
    return Number(settings['index.max_ngram_diff'] ?? 1) > WIDE_EXPANSION || Number(settings['index.max_shingle_diff'] ?? 3) > WIDE_EXPANSION;
  }

  /** The cooperative write being prepared into this index, if any (see indexDocumentCooperatively). */
  private preparing: SteppedWrite | undefined;

  /** Finishes the cooperative write in progress, at once (before a synchronous write). */
  private finishPreparing(): void {
    this.preparing?.finish();
  }

  private *indexSteps(id: string, source: JsonObject, sourceText: string, params: WriteParams, stepwise: boolean): Generator<void, PreparedWrite, void> {
    const t0 = performance.now();
    try {
      // a script's or pipeline's source may hold BigInts (longs past 2^53, written as digits in its
      // text): indexed from the text's parse, as a source read from a request is
      if (hasLongDigitRun(sourceText) && holdsBigInt(source)) source = JSON.parse(sourceText) as JsonObject;
      const write = yield* this.prepareIndex(id, source, sourceText, params, stepwise);
      this.stats.indexTotal++;
      this.stats.logged(TRANSLOG_OP_BYTES + id.length + sourceText.length);
      this.stats.indexMs += performance.now() - t0;
      return write;
    } catch (err) {
      this.stats.indexFailed++;
      throw err;
    }
  }

  private *prepareIndex(id: string, source: JsonObject, sourceText: string, params: WriteParams, stepwise: boolean): Generator<void, PreparedWrite, void> {
    this.ensureOpen();
    checkIndexBlocks(this.name, this.meta.settings, 'write');
    validateConcurrencyParams(params);
    // a version conflict is refused before the document is parsed
    nextVersion(this, id, this.versions.get(id), params);
    const mappings = this.meta.mappings;
    const inverted = this.inverted!;
    const limits = mappingLimitsOf(this.meta.settings);
    const indexed = withExactUnsignedLongs(source, sourceText, mappings);
    const named = params.dynamicTemplates;
    const doc = stepwise ? yield* parseDocumentSteps(indexed, mappings, this.analysis, id, limits, named) : parseDocument(indexed, mappings, this.analysis, id, limits, named);
    const parsed = withRouting(doc, params.routing);
    checkNestedObjectsLimit(parsed, this.meta.settings);
    // Indexed now (so nothing of the parse is kept waiting), visible once durable.
    const ord = stepwise ? yield* inverted.stageSteps(id, parsed) : inverted.stage(id, parsed);
    if (stepwise && (this.inverted !== inverted || this.meta.mappings !== mappings)) {
      // Closed and opened, or its mappings changed, while it was prepared: again, on what is now.
      inverted.discard(ord);
      return yield* this.prepareIndex(id, source, sourceText, params, false);
    }
    try {
      return this.assignIndexWrite(id, sourceText, params, parsed, inverted, ord);
    } catch (err) {
      inverted.discard(ord);
      throw err;
    }
  }

  /** A parsed and staged document's write: its version and sequence number, its store writes. */
  private assignIndexWrite(id: string, sourceText: string, params: WriteParams, parsed: ParsedDocument, inverted: InvertedIndex, ord: number): PreparedWrite {
    this.ensureOpen();
    checkIndexBlocks(this.name, this.meta.settings, 'write');
    const current = this.versions.get(id);
    const version = nextVersion(this, id, current, params);
    const metaBefore = this.meta;
    const created = !current || current.deleted;
    const seqNo = ++this.maxSeqNo;
    const doc: StoredDocument = { v: version, q: seqNo, t: PRIMARY_TERM, s: sourceText };
    if (params.routing !== undefined) doc.r = params.routing;
    const prev = !created ? this.stored(id) : undefined;
    const bytesDelta = sourceText.length - (prev?.s?.length ?? 0);
    this.sourceBytes += bytesDelta;
    const entry: DocVersion = { version, seqNo, primaryTerm: PRIMARY_TERM, deleted: false, pending: doc };
    this.supersede(id, prev);
    this.versions.set(id, entry);
    this.pendingWrites++;
    const docWrite: StoreWrite = { kind: 'doc', index: this.meta, id, doc };
    let writes: StoreWrite[];
    if (parsed.mappings) {
      // New fields: the mapping is durable with (before) the document.
      this.meta = { ...this.meta, mappings: parsed.mappings };
      writes = [{ kind: 'meta', meta: this.meta }, docWrite];
    } else writes = [docWrite];
    return new DocumentWrite(this, inverted, created ? 201 : 200, this.writeBody(id, version, created ? 'created' : 'updated', seqNo), writes, id, entry, current, bytesDelta, metaBefore, ord);
  }

  /** @internal Restores the in-memory state a failed write changed (unless a later write changed it again). */
  undo(id: string, entry: DocVersion, previous: DocVersion | undefined, bytesDelta: number, metaBefore: IndexMetadata): void {
    if (this.versions.get(id) === entry) {
      if (previous) this.versions.set(id, previous);
      else this.versions.delete(id);
    }
    this.sourceBytes -= bytesDelta;
    if (this.meta !== metaBefore && this.meta.mappings !== metaBefore.mappings) this.meta = { ...this.meta, mappings: metaBefore.mappings };
  }

  delete(id: string, params: WriteParams): PreparedWrite {
    this.finishPreparing();
    const t0 = performance.now();
    const write = this.prepareDelete(id, params);
    this.stats.deleteTotal++;
    this.stats.logged(TRANSLOG_OP_BYTES + id.length);
    this.stats.deleteMs += performance.now() - t0;
    return write;
  }

  private prepareDelete(id: string, params: WriteParams): PreparedWrite {
    this.ensureOpen();
    checkIndexBlocks(this.name, this.meta.settings, 'write');
    validateConcurrencyParams(params);
    const current = this.versions.get(id);
    const version = nextVersion(this, id, current, params, true);
    const found = !!current && !current.deleted;
    const seqNo = ++this.maxSeqNo;
    const doc: StoredDocument = { v: version, q: seqNo, t: PRIMARY_TERM };
    let bytesDelta = 0;
    const prev = found ? this.stored(id) : undefined;
    if (prev?.s) bytesDelta = -prev.s.length;
    this.sourceBytes += bytesDelta;
    const entry: DocVersion = { version, seqNo, primaryTerm: PRIMARY_TERM, deleted: true, pending: doc };
    this.supersede(id, prev);
    this.versions.set(id, entry);
    this.pendingWrites++;
    const writes: StoreWrite[] = [{ kind: 'doc', index: this.meta, id, doc }];
    return new DocumentWrite(this, this.inverted!, found ? 200 : 404, this.writeBody(id, version, found ? 'deleted' : 'not_found', seqNo), writes, id, entry, current, bytesDelta, this.meta, -1);
  }

  /** Partial or scripted update (`_update` with `doc` / `upsert` / `doc_as_upsert` / `script`). */
  update(id: string, req: UpdateRequest, params: WriteParams): PreparedWrite {
    this.finishPreparing();
    this.ensureOpen();
    checkIndexBlocks(this.name, this.meta.settings, 'write');
    const existing = this.getCounted(id);
    if (!existing) {
      const upsert = req.docAsUpsert ? req.doc : req.upsert;
      if (!upsert) {
        throw new EsError(404, 'document_missing_exception', `[${id}]: document missing`, { index_uuid: this.uuid, shard: '0', index: this.name });
      }
      if (params.ifSeqNo !== undefined) nextVersion(this, id, this.versions.get(id), params);
      if (req.script && req.scriptedUpsert && req.upsert) {
        const outcome = req.script({ op: 'create', source: structuredClone(req.upsert), index: this.name, id, version: -1, routing: params.routing, now: Date.now() });
        if (outcome.op !== 'create') return this.noop(id, undefined);
        return this.indexDocument(id, outcome.source, jsonTextKeepingIntegers(outcome.source, req.text), { routing: params.routing });
      }
      return this.indexDocument(id, upsert, jsonTextKeepingIntegers(upsert, req.text), { routing: params.routing });
    }
    if (params.ifSeqNo !== undefined) nextVersion(this, id, this.versions.get(id), params);
    if (req.script) {
      const outcome = req.script({
        op: 'index', source: existing.source, sourceText: existing.sourceText, index: this.name, id, version: existing.version, routing: existing.routing, now: Date.now(),
      });
      if (outcome.op === 'delete') return this.delete(id, { routing: existing.routing });
      if (outcome.op !== 'index') return this.noop(id, existing);
      return this.indexDocument(id, outcome.source, jsonTextKeepingIntegers(outcome.source, existing.sourceText, req.text), { routing: params.routing ?? existing.routing });
    }
    // merged into the source as stored: its integers past 2^53 stay as written
    const base = shownSource(existing);
    const merged = req.doc ? deepMerge(base, req.doc) : base;
    if (req.detectNoop !== false && deepEqual(merged, base)) return this.noop(id, existing);
    if (base === existing.source) return this.indexDocument(id, merged, jsonTextKeepingIntegers(merged, req.text), { routing: params.routing ?? existing.routing });
    const text = stringifyExactly(merged) ?? '{}';
    return this.indexDocument(id, JSON.parse(text) as JsonObject, text, { routing: params.routing ?? existing.routing });
  }

  /** An update that changes nothing: no write; a missing document answers version -1 and no seq_no. */
  private noop(id: string, existing: LiveDocument | undefined): PreparedWrite {
    this.stats.noopUpdateTotal++;
    const body: JsonObject = { _index: this.name, _type: '_doc', _id: id, _version: existing?.version ?? -1, result: 'noop', _shards: { total: 0, successful: 0, failed: 0 } };
    if (existing) {
      body._seq_no = existing.seqNo;
      body._primary_term = existing.primaryTerm;
    }
    return { status: 200, body, writes: [], settle: () => {} };
  }

  private writeBody(id: string, version: number, result: string, seqNo: number): JsonObject {
    return {
      _index: this.name, _type: '_doc', _id: id, _version: version, result,
      _shards: this.shards(), _seq_no: seqNo, _primary_term: PRIMARY_TERM,
    };
  }

  /** The sequence number of a live document (realtime, from the versions kept in memory: no store read). */
  seqNoOf(id: string): number | undefined {
    const v = this.versions.get(id);
    return v && !v.deleted ? v.seqNo : undefined;
  }

  /**
   * `_seq_no` as doc values: the sequence number of the document at `ord` of the in-memory index
   * (read through `seqNoOf`, so a reader's view answers as it was when it began).
   */
  seqNoAt(ord: number): number | undefined {
    const id = this.inverted?.idOf(ord);
    return id === undefined ? undefined : this.seqNoOf(id);
  }

  /** Ids of live documents, for searches that iterate (and for tests). */
  liveIds(): string[] {
    return [...this.versions.entries()].filter(([, v]) => !v.deleted).map(([id]) => id);
  }

  static isDocument(v: unknown): v is JsonObject {
    return isPlainObject(v);
  }
}

/**
 * An index or delete write of one document, prepared in memory and waiting for its store commit
 * (one object per write: a `_bulk` prepares thousands).
 */
class DocumentWrite implements PreparedWrite {
  constructor(
    private readonly handle: IndexHandle,
    /** The in-memory index the write was staged in (a close and reopen meanwhile makes another). */
    private readonly inverted: InvertedIndex,
    readonly status: number,
    readonly body: JsonObject,
    readonly writes: StoreWrite[],
    private readonly id: string,
    private readonly entry: DocVersion,
    private readonly previous: DocVersion | undefined,
    private readonly bytesDelta: number,
    private readonly metaBefore: IndexMetadata,
    /** The staged document's ordinal; -1 for a delete. */
    private readonly ord: number,
  ) {}

  settle(): void {
    this.handle.settlePending(this.entry);
  }

  /**
   * Store writes complete in the order they were issued, which is not always seqNo order (a
   * `_bulk` commits its items by chunks, a write of the same id between them at once): a write
   * whose id already shows a later version stays out of the index, as the store keeps that one.
   */
  apply(): void {
    if (this.handle.isSuperseded(this.id, this.entry)) {
      if (this.ord >= 0) this.inverted.discard(this.ord);
      return;
    }
    this.entry.visible = true;
    if (this.ord >= 0) this.inverted.reveal(this.id, this.ord);
    else this.inverted.delete(this.id);
  }

  rollback(): void {
    if (this.ord >= 0) this.inverted.discard(this.ord);
    this.handle.undo(this.id, this.entry, this.previous, this.bytesDelta, this.metaBefore);
  }
}

/** Runs work written as a generator to its end, at once. */
function runToEnd<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** A write being prepared a stretch at a time, which its driver or a synchronous write may finish. */
class SteppedWrite {
  private outcome: { value: PreparedWrite } | { error: unknown } | undefined;
  private ended!: () => void;
  /** Settles once the driver is done with it (the next cooperative write may start). */
  readonly over = new Promise<void>((resolve) => (this.ended = resolve));

  constructor(private readonly steps: Generator<void, PreparedWrite, void>) {}

  /** Runs the next stretch; true once the preparation is over (done or failed). */
  step(): boolean {
    if (this.outcome) return true;
    try {
      const next = this.steps.next();
      if (!next.done) return false;
      this.outcome = { value: next.value };
    } catch (error) {
      this.outcome = { error };
    }
    return true;
  }

  finish(): void {
    while (!this.step());
  }

  end(): void {
    this.ended();
  }

  result(): PreparedWrite {
    const outcome = this.outcome!;
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }
}

/**
 * An order-independent fingerprint of a set of document versions (two 32-bit sums and a count):
 * equal sets give equal fingerprints whatever order they are added in.
 */
class Fingerprint {
  private sum = 0;
  private xor = 0;
  private count = 0;

  add(id: string, version: number, seqNo: number, primaryTerm: number, deleted: boolean): void {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193 ^ id.length;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 + c, 0x5bd1e995) ^ (h2 >>> 15);
    }
    for (const n of [version, seqNo, primaryTerm, deleted ? 1 : 0]) {
      h1 = Math.imul(h1 ^ (n | 0), 0x01000193) ^ Math.floor(n / 4294967296);
      h2 = Math.imul(h2 + (n | 0), 0x5bd1e995) ^ (h2 >>> 13);
    }
    this.sum = (this.sum + (h1 >>> 0)) >>> 0;
    this.xor = (this.xor ^ h2) >>> 0;
    this.count++;
  }

  value(): string {
    return `${this.count}:${this.sum.toString(16)}:${this.xor.toString(16)}`;
  }
}
