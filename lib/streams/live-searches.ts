import type { Subscription } from 'rxjs';
import type { ChangeBus, ChangeEvent, DocumentChange } from '../changes/index.js';
import { prepareDocument, preparedMatches, rewriteQuery, type MatchContext, type Query } from '../engine/embedded/index.js';
import { MatchContexts } from './match-contexts.js';
import { ANY, SearchIndex, requirementOf, type Candidates, type Indexed } from './search-index/index.js';
import { NO_SLOT, TrackedIds, type Tracking } from './tracked-ids.js';

/**
 * What a live search is told about one change: does the changed document match it now? One
 * object for every search told the same (a write matches thousands): read, never changed.
 */
export interface LiveVerdict {
  readonly change: DocumentChange;
  /** undefined for a delete */
  readonly matches: boolean;
  /** Whether the search knew the document to match before this change (an update, or a departure). */
  readonly wasTracked: boolean;
  /**
   * Set when the verdict is about a document the change did not write: a search whose matches
   * depend on the rest of the index (`LiveSearch.rerun`) gained or lost it through the change.
   * `change` then describes that document as the engine shows it, at the position of the change.
   */
  readonly untouched?: true;
}

/** A document a search matches now, as the engine shows it. */
export interface MatchingDocument {
  source: Record<string, unknown>;
  seqNo: number;
  primaryTerm: number;
  version: number;
}

/** One live search as the index of live searches sees it. */
export interface LiveSearch {
  readonly query: Query;
  /** App-addressed searches see only their type. */
  readonly type?: string;
  /** False when the search matched more documents than it could track. */
  trackedComplete: boolean;
  /** At most this many ids are tracked (the documents it knows to match: it tells updates and departures by them). */
  readonly trackCap: number;
  /**
   * Set when the engine, not the local matcher, decides (a query the matcher cannot decide
   * exactly, on the HTTP backend): asked for every change of the index.
   */
  readonly decide?: (change: DocumentChange) => Promise<boolean>;
  /**
   * Set when a write can change whether *other* documents match (matchScope `index`: statistics,
   * a dictionary): the search is run again by the engine after every change of the index, once
   * the engine reflects it. Answers the documents matching now (at most `trackCap`) and whether
   * that is all of them; undefined when the engine does not show the change yet, or refuses the
   * search on the documents as they are now (a script reading a value they lack): the changed
   * document is then decided alone (`decide`), the others at the next change the engine answers.
   */
  readonly rerun?: (change: DocumentChange) => Promise<{ matching: Map<string, MatchingDocument>; complete: boolean } | undefined>;
  /** Told each verdict; read once, when the search is added (a write matching thousands of searches calls it from the registered search). */
  readonly onVerdict: (verdict: LiveVerdict) => void;
  readonly onIndexEvent: (event: ChangeEvent) => void;
  readonly onError: (err: unknown) => void;
}

interface Registered extends Tracking, Indexed {
  search: LiveSearch;
  rewritten: Query;
  /**
   * The search's own fields a change reads of every search it matches, copied here: a write
   * matching thousands of searches reads them from the object it has in hand, not from another.
   */
  readonly type: string | undefined;
  readonly rerun: boolean;
  readonly trackCap: number;
  readonly onVerdict: (verdict: LiveVerdict) => void;
}

/**
 * The live searches of one index on this node, with an index over them by what a document must
 * satisfy to match them (the percolator idea, `SearchIndex`): a changed document is tested only
 * against the searches whose requirement it meets, the searches that cannot be indexed, and the
 * searches that tracked it before. One bus subscription per index, whatever the number of searches.
 */
export class IndexLiveSearches {
  private readonly searches = new Map<LiveSearch, Registered>();
  /** The searches run again by the engine after every change (`LiveSearch.rerun`): found without a walk of every search. */
  private readonly rerunning = new Set<Registered>();
  private readonly byRequirement = new SearchIndex<Registered>();
  private readonly tracked = new TrackedIds<Registered>();
  private subscription?: Subscription;
  private ctx?: MatchContext;
  /** Events are handled strictly in order; this chain holds the one in progress. */
  private queue: Promise<void> = Promise.resolve();
  /**
   * Documents with changes received and not handled yet, by id (how many): a search run again
   * after an earlier change (`rerun`) leaves them to their own change, which comes after.
   */
  private readonly pending = new Map<string, number>();
  /** The searches tracking a change's document, as the lookup reads them (`TrackedIds.trackers`). */
  private readonly trackers: Registered[] = [];
  /** The verdicts told on `verdictsOn`, the change in hand: one object per answer (`verdict`). */
  private verdictsOn: DocumentChange | undefined;
  private readonly verdicts: Array<LiveVerdict | undefined> = [undefined, undefined, undefined, undefined];

  constructor(
    readonly index: string,
    private readonly bus: ChangeBus,
    private readonly contexts: MatchContexts,
    private readonly onEmpty: () => void,
  ) {}

  get size(): number {
    return this.searches.size;
  }

  /** Registers a search (subscribing this node to the index's changes if it is the first). */
  async add(search: LiveSearch, ctx: MatchContext | undefined): Promise<() => void> {
    if (ctx) this.ctx = ctx;
    const reg = this.register(search, ctx);
    if (!this.subscription) {
      this.subscription = this.bus.changes(this.index).subscribe({
        next: (event) => {
          const id = event.kind === 'document' ? event.id : undefined;
          if (id !== undefined) this.pending.set(id, (this.pending.get(id) ?? 0) + 1);
          this.queue = this.queue.then(() => {
            if (id !== undefined) this.unqueue(id);
            return this.handle(event);
          }).catch((err) => this.fail(err));
        },
        error: (err) => {
          // the next search registered subscribes afresh (a stream reset after this error does)
          this.subscription = undefined;
          this.fail(err);
        },
      });
    }
    return () => this.remove(reg);
  }

  /** Starts tracking an id for a search (its initial result, or a later match). */
  track(search: LiveSearch, id: string): void {
    const reg = this.searches.get(search);
    if (reg) this.trackIfRoom(reg, id);
  }

  private register(search: LiveSearch, ctx: MatchContext | undefined): Registered {
    // Every field written out, in the order a write reads them of each search it matches (the
    // lookup's, then the verdict's, then the tracking's): a literal's spread fields, and those
    // past its own, live in a second array, one more memory read per match; the first ones share
    // a cache line. Only a search run again by the engine asks for the ids it tracks (`idsOf`).
    const reg: Registered = {
      indexRound: 0, indexExact: false, rerun: search.rerun !== undefined, type: search.type, trackMark: 0, onVerdict: search.onVerdict,
      trackGone: false, trackSlot: NO_SLOT, trackedCount: 0, trackCap: search.trackCap, trackedIds: search.rerun ? [] : undefined,
      search, rewritten: search.query, indexEntries: undefined,
    };
    this.searches.set(search, reg);
    if (search.rerun) this.rerunning.add(reg);
    this.indexSearch(reg, ctx);
    return reg;
  }

  /** (Re)indexes a search against the mappings in `ctx`; the engine's searches are asked about every change. */
  private indexSearch(reg: Registered, ctx: MatchContext | undefined): void {
    let requirement = ANY;
    if (!reg.search.decide && ctx) {
      reg.rewritten = rewriteQuery(reg.search.query, ctx);
      requirement = requirementOf(reg.rewritten, ctx);
    }
    this.byRequirement.add(reg, requirement);
  }

  /**
   * Indexes a search again against new mappings. A query the new mappings make invalid (a nested
   * query whose path is now an object) is that search's error alone: it ends, the others go on.
   */
  private reindex(reg: Registered, ctx: MatchContext): void {
    this.byRequirement.delete(reg);
    try {
      this.indexSearch(reg, ctx);
    } catch (err) {
      this.remove(reg);
      reg.search.onError(err);
    }
  }

  private remove(reg: Registered): void {
    if (!this.searches.delete(reg.search)) return;
    this.rerunning.delete(reg);
    this.byRequirement.delete(reg);
    this.tracked.forget(reg);
    if (this.searches.size === 0) {
      this.subscription?.unsubscribe();
      this.subscription = undefined;
      this.onEmpty();
    }
  }

  private unqueue(id: string): void {
    const n = this.pending.get(id) ?? 0;
    if (n <= 1) this.pending.delete(id);
    else this.pending.set(id, n - 1);
  }

  private fail(err: unknown): void {
    for (const reg of [...this.searches.values()]) reg.search.onError(err);
  }

  /**
   * The searches a change concerns: those it matches, and those the matcher must decide (it may
   * match them, or they tracked it). The index's buffers: read before the next lookup.
   */
  private candidates(change: DocumentChange, doc: ReturnType<typeof prepareDocument>): Candidates<Registered> {
    const count = this.tracked.trackers(change.id, this.trackers);
    const found = this.byRequirement.candidates(doc, this.trackers, count);
    // the buffer keeps its room, not the searches
    this.trackers.fill(undefined as unknown as Registered, 0, count);
    return found;
  }

  private async handle(event: ChangeEvent): Promise<void> {
    if (event.kind === 'index') {
      for (const reg of [...this.searches.values()]) reg.search.onIndexEvent(event);
      if (event.op === 'delete') this.contexts.invalidate(this.index);
      return;
    }
    if (this.rerunning.size) for (const reg of [...this.rerunning]) await this.rerun(reg, event);
    if (event.op === 'delete') {
      // a Map's iteration goes on past searches removed meanwhile (a verdict may end a stream)
      for (const reg of this.searches.values()) if (!reg.search.rerun) this.departed(reg, event);
      return;
    }
    let ctx = this.ctx ?? (await this.contexts.get(this.index).catch(() => undefined));
    if (ctx && MatchContexts.bringsNewFields(ctx, event.source as Record<string, unknown>)) {
      // the write may have added fields to the mappings: queries are rewritten against the new ones
      this.contexts.invalidate(this.index);
      const fresh = await this.contexts.get(this.index);
      if (fresh && fresh !== ctx) {
        ctx = fresh;
        this.ctx = fresh;
        for (const reg of [...this.searches.values()]) if (!reg.search.decide) this.reindex(reg, fresh);
      }
    }
    const doc = ctx ? prepareDocument({ id: event.id, source: (event.source ?? {}) as Record<string, unknown> }, ctx) : undefined;
    const found = this.candidates(event, doc);
    const { matching, matchingCount, possible, possibleCount } = found;
    // the searches found exact start to track the document: its list grows once for them all
    if (matchingCount) this.tracked.expect(event.id, matchingCount);
    try {
      for (let i = 0; i < matchingCount; i++) {
        const reg = matching[i];
        if (!reg.rerun) this.decided(reg, event, reg.type === undefined || reg.type === event.type);
      }
      for (let i = 0; i < possibleCount; i++) {
        const reg = possible[i];
        const s = reg.search;
        if (reg.rerun) continue;
        const typeOk = reg.type === undefined || reg.type === event.type;
        let matches: boolean;
        try {
          if (s.decide && typeOk) {
            // the engine answers later (the lookup's buffers stay as they are: changes are handled one at a time)
            matches = await s.decide(event);
          } else matches = typeOk && doc !== undefined && preparedMatches(reg.rewritten, doc);
        } catch (err) {
          // the query fails on this document (a script reading a value it lacks), as a search would: that search's error alone
          this.remove(reg);
          s.onError(err);
          continue;
        }
        this.decided(reg, event, matches);
      }
    } finally {
      this.byRequirement.release();
    }
  }

  /**
   * A search whose matches depend on the rest of the index, after a change: run again by the
   * engine, its verdict on the changed document, then on every other document that joined or
   * left it. Departures of other documents are told only when the answer is complete (a document
   * past the cap may still match).
   */
  private async rerun(reg: Registered, change: DocumentChange): Promise<void> {
    const { search } = reg;
    const answer = await search.rerun!(change);
    if (!this.searches.has(search)) return;
    if (!answer) {
      if (change.op === 'delete') this.departed(reg, change);
      else {
        this.decided(reg, change, (search.type === undefined || search.type === change.type) && search.decide !== undefined && (await search.decide(change)));
      }
      return;
    }
    const { matching, complete } = answer;
    if (change.op === 'delete') this.departed(reg, change);
    else {
      this.decided(reg, change, matching.has(change.id));
    }
    const untouched = (id: string, doc?: MatchingDocument): DocumentChange => ({
      kind: 'document', index: change.index, type: change.type, id, op: 'index', position: change.position, time: change.time,
      version: doc?.version ?? 0, seqNo: doc?.seqNo ?? 0, primaryTerm: doc?.primaryTerm ?? 0, source: doc?.source,
    });
    for (const [id, doc] of matching) {
      if (id === change.id || this.pending.has(id) || this.tracked.has(reg, id)) continue;
      search.onVerdict({ change: untouched(id, doc), matches: true, wasTracked: false, untouched: true });
      this.trackIfRoom(reg, id);
    }
    if (!complete) return;
    for (const id of this.tracked.idsOf(reg)) {
      if (id === change.id || this.pending.has(id) || matching.has(id)) continue;
      this.tracked.delete(reg, id);
      search.onVerdict({ change: untouched(id), matches: false, wasTracked: true, untouched: true });
    }
  }

  /**
   * Tells a search that a document was deleted: when it tracked it, or when it may have matched
   * it without tracking it (it matched more than it could track).
   */
  private departed(reg: Registered, change: DocumentChange): void {
    const wasTracked = this.tracked.has(reg, change.id);
    if (wasTracked || !reg.search.trackedComplete) {
      this.tracked.delete(reg, change.id);
      reg.onVerdict(this.verdict(change, false, wasTracked));
    }
  }

  /**
   * Tells a search whether a changed document matches it (a departure only when it tracked the
   * document), and tracks or untracks the document.
   */
  private decided(reg: Registered, change: DocumentChange, matches: boolean): void {
    const wasTracked = this.tracked.has(reg, change.id);
    if (matches) {
      reg.onVerdict(this.verdict(change, true, wasTracked));
      // tracked at once, the search still in hand (a write matching thousands reads each once more, not in a later walk)
      if (!wasTracked) this.trackIfRoom(reg, change.id);
    } else if (wasTracked) {
      this.tracked.delete(reg, change.id);
      reg.onVerdict(this.verdict(change, false, true));
    }
  }

  /** The verdict on a change, one object for every search told the same. */
  private verdict(change: DocumentChange, matches: boolean, wasTracked: boolean): LiveVerdict {
    const verdicts = this.verdicts;
    if (this.verdictsOn !== change) {
      this.verdictsOn = change;
      verdicts.fill(undefined);
    }
    const at = (matches ? 2 : 0) + (wasTracked ? 1 : 0);
    return (verdicts[at] ??= { change, matches, wasTracked });
  }

  /** Does this changed document match the search now? (Used to replay history on resume.) */
  async matches(search: LiveSearch, change: DocumentChange): Promise<boolean> {
    const reg = this.searches.get(search);
    if (!reg) return false;
    if (search.type !== undefined && search.type !== change.type) return false;
    if (search.decide) return search.decide(change);
    const ctx = this.ctx ?? (await this.contexts.get(this.index));
    if (!ctx) return false;
    const doc = prepareDocument({ id: change.id, source: (change.source ?? {}) as Record<string, unknown> }, ctx);
    return doc !== undefined && preparedMatches(reg.rewritten, doc);
  }

  private trackIfRoom(reg: Registered, id: string): void {
    if (!this.tracked.add(reg, id, reg.trackCap)) reg.search.trackedComplete = false;
  }
}


/** The live searches of every index on this node. */
export class LiveSearches {
  private readonly byIndex = new Map<string, IndexLiveSearches>();

  constructor(private readonly bus: ChangeBus, readonly contexts: MatchContexts) {}

  of(index: string): IndexLiveSearches {
    let live = this.byIndex.get(index);
    if (!live) {
      live = new IndexLiveSearches(index, this.bus, this.contexts, () => this.byIndex.delete(index));
      this.byIndex.set(index, live);
    }
    return live;
  }

  get count(): number {
    let n = 0;
    for (const l of this.byIndex.values()) n += l.size;
    return n;
  }
}
