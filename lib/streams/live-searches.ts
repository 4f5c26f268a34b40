import type { Subscription } from 'rxjs';
import type { ChangeBus, ChangeEvent, DocumentChange } from '../changes/index.js';
import { prepareDocument, preparedMatches, rewriteQuery, type MatchContext, type Query } from '../engine/embedded/matching.js';
import { MatchContexts } from './match-contexts.js';
import { idKey, requiredTerms, termKey, type RequiredTerms } from './required-terms.js';

/** What a live search is told about one change: does the changed document match it now? */
export interface LiveVerdict {
  change: DocumentChange;
  /** undefined for a delete */
  matches: boolean;
}

/** One live search as the index of live searches sees it. */
export interface LiveSearch {
  readonly query: Query;
  /** App-addressed searches see only their type. */
  readonly type?: string;
  /** Ids this search currently knows to match (it tells updates and departures by them). */
  readonly tracked: Set<string>;
  /** False when the search matched more documents than it could track. */
  trackedComplete: boolean;
  /** At most this many ids are tracked. */
  readonly trackCap: number;
  /**
   * Set when the engine, not the local matcher, decides (a query the matcher cannot decide
   * exactly, on the HTTP backend): asked for every change of the index.
   */
  readonly decide?: (change: DocumentChange) => Promise<boolean>;
  onVerdict(verdict: LiveVerdict): void;
  onIndexEvent(event: ChangeEvent): void;
  onError(err: unknown): void;
}

interface Registered {
  search: LiveSearch;
  rewritten: Query;
  required: RequiredTerms;
}

/**
 * The live searches of one index on this node, with an index over them by required terms (the
 * percolator idea): a changed document is tested only against the searches whose required terms
 * it contains, the searches that cannot be indexed, and the searches that tracked it before.
 * One bus subscription per index, whatever the number of searches.
 */
export class IndexLiveSearches {
  private readonly searches = new Map<LiveSearch, Registered>();
  private readonly byKey = new Map<string, Set<Registered>>();
  private readonly unindexed = new Set<Registered>();
  private readonly byTrackedId = new Map<string, Set<Registered>>();
  private subscription?: Subscription;
  private ctx?: MatchContext;
  /** Events are handled strictly in order; this chain holds the one in progress. */
  private queue: Promise<void> = Promise.resolve();

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
          this.queue = this.queue.then(() => this.handle(event)).catch((err) => this.fail(err));
        },
        error: (err) => this.fail(err),
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
    const reg: Registered = search.decide || !ctx
      ? { search, rewritten: search.query, required: 'any' }
      : (() => {
          const rewritten = rewriteQuery(search.query, ctx);
          return { search, rewritten, required: requiredTerms(rewritten, ctx) };
        })();
    this.searches.set(search, reg);
    this.indexRequired(reg);
    return reg;
  }

  private indexRequired(reg: Registered): void {
    if (reg.required === 'any') this.unindexed.add(reg);
    else if (reg.required !== 'none') {
      for (const key of reg.required) {
        let set = this.byKey.get(key);
        if (!set) this.byKey.set(key, (set = new Set()));
        set.add(reg);
      }
    }
  }

  private unindexRequired(reg: Registered): void {
    this.unindexed.delete(reg);
    if (reg.required === 'any' || reg.required === 'none') return;
    for (const key of reg.required) {
      const set = this.byKey.get(key);
      set?.delete(reg);
      if (set?.size === 0) this.byKey.delete(key);
    }
  }

  private indexTracked(reg: Registered, id: string): void {
    let set = this.byTrackedId.get(id);
    if (!set) this.byTrackedId.set(id, (set = new Set()));
    set.add(reg);
  }

  private untrack(reg: Registered, id: string): void {
    reg.search.tracked.delete(id);
    const set = this.byTrackedId.get(id);
    set?.delete(reg);
    if (set?.size === 0) this.byTrackedId.delete(id);
  }

  private remove(reg: Registered): void {
    if (!this.searches.delete(reg.search)) return;
    this.unindexRequired(reg);
    for (const id of reg.search.tracked) {
      const set = this.byTrackedId.get(id);
      set?.delete(reg);
      if (set?.size === 0) this.byTrackedId.delete(id);
    }
    if (this.searches.size === 0) {
      this.subscription?.unsubscribe();
      this.subscription = undefined;
      this.onEmpty();
    }
  }

  private fail(err: unknown): void {
    for (const reg of [...this.searches.values()]) reg.search.onError(err);
  }

  /** The searches a change could concern, without testing the document yet. */
  private candidates(change: DocumentChange, doc: ReturnType<typeof prepareDocument>): Set<Registered> {
    const out = new Set<Registered>(this.unindexed);
    for (const reg of this.byTrackedId.get(change.id) ?? []) out.add(reg);
    if (doc) {
      for (const r of this.byKey.get(idKey(change.id)) ?? []) out.add(r);
      for (const [field, f] of doc.fields) {
        for (const term of f.terms) for (const r of this.byKey.get(termKey(field, term)) ?? []) out.add(r);
      }
    }
    return out;
  }

  private async handle(event: ChangeEvent): Promise<void> {
    if (event.kind === 'index') {
      for (const reg of [...this.searches.values()]) reg.search.onIndexEvent(event);
      if (event.op === 'delete') this.contexts.invalidate(this.index);
      return;
    }
    if (event.op === 'delete') {
      for (const reg of [...this.searches.values()]) {
        const s = reg.search;
        if (s.tracked.has(event.id) || !s.trackedComplete) {
          this.untrack(reg, event.id);
          s.onVerdict({ change: event, matches: false });
        }
      }
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
        for (const reg of this.searches.values()) {
          if (reg.search.decide) continue;
          this.unindexRequired(reg);
          reg.rewritten = rewriteQuery(reg.search.query, fresh);
          reg.required = requiredTerms(reg.rewritten, fresh);
          this.indexRequired(reg);
        }
      }
    }
    const doc = ctx ? prepareDocument({ id: event.id, source: (event.source ?? {}) as Record<string, unknown> }, ctx) : undefined;
    for (const reg of this.candidates(event, doc)) {
      const s = reg.search;
      const typeOk = s.type === undefined || s.type === event.type;
      const matches = typeOk && (s.decide ? await s.decide(event) : doc !== undefined && preparedMatches(reg.rewritten, doc));
      const wasTracked = s.tracked.has(event.id);
      if (matches) {
        s.onVerdict({ change: event, matches: true });
        if (!wasTracked) this.trackIfRoom(reg, event.id);
      } else if (wasTracked) {
        this.untrack(reg, event.id);
        s.onVerdict({ change: event, matches: false });
      }
    }
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
    const s = reg.search;
    if (s.tracked.has(id)) return;
    if (s.tracked.size >= s.trackCap) {
      s.trackedComplete = false;
      return;
    }
    s.tracked.add(id);
    this.indexTracked(reg, id);
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
