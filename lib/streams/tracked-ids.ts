/** What a search keeps of its own tracking (on the search itself: it is read on every match). */
export interface Tracking {
  /** How many documents the search tracks. */
  trackedCount: number;
  /**
   * The ids tracked, and some no longer tracked (dropped when they outnumber the others): kept
   * only for a search whose ids are asked for (`idsOf`), undefined for the others.
   */
  trackedIds?: string[];
  /** `TrackedIds`' mark: equal to its stamp when the search tracks the document in focus. */
  trackMark: number;
  /** Set once the search is forgotten: its entries are dropped from the lists lazily. */
  trackGone: boolean;
}

/**
 * The documents each live search knows to match, kept by document id: a change is told to the
 * searches that tracked its document (so they tell an update from a new match, and see it leave),
 * and those are found with one lookup whatever the number of searches.
 *
 * A write that matches thousands of searches makes each of them track its document: the trackers
 * of an id are a plain array (a pointer each, grown by appending; not a hash set, whose tables
 * cost several times as much and, all kept, make every young-generation collection copy them).
 * Whether a search tracks a document is a mark on the search, set for the trackers of one id at a
 * time — the id "in focus", the changed document while a change is handled — so membership is
 * one comparison; focusing on another id marks its trackers (linear in their number) and compacts
 * the previous list. A search forgotten is flagged, and its entries are dropped from every list in
 * one sweep once the dropped outnumber the kept.
 */
export class TrackedIds<S extends Tracking> {
  private readonly byId = new Map<string, S[]>();
  private focusId?: string;
  private focusList?: S[];
  /** The focused list holds entries that no longer count (deleted, forgotten, duplicated). */
  private focusDirty = false;
  private stamp = 0;
  /** Entries in every list, and those of forgotten searches among them. */
  private entries = 0;
  private gone = 0;

  /**
   * The searches tracking a document; valid until the next call to this object (the array is
   * its own, it changes as searches track and untrack the document).
   */
  trackers(id: string): readonly S[] | undefined {
    this.focus(id);
    if (this.focusDirty) this.compactFocus();
    return this.focusList;
  }

  /** Whether a search tracks a document. */
  has(search: S, id: string): boolean {
    this.focus(id);
    return search.trackMark === this.stamp;
  }

  /** Tracks a document for a search, unless the search tracks `cap` documents already (false then). */
  add(search: S, id: string, cap: number): boolean {
    if (search.trackGone) return false;
    this.focus(id);
    if (search.trackMark === this.stamp) return true;
    if (search.trackedCount >= cap) return false;
    let list = this.focusList;
    if (!list) this.byId.set(id, (list = this.focusList = []));
    list.push(search);
    this.entries++;
    search.trackMark = this.stamp;
    search.trackedCount++;
    const ids = search.trackedIds;
    if (ids) {
      ids.push(id);
      if (ids.length > 2 * search.trackedCount + 16) search.trackedIds = this.idsOf(search);
    }
    return true;
  }

  /**
   * Tracks a document for `searches[0..count)` at once, as `add` would for each (a search that
   * tracks `capOf(search)` documents already is refused: told to `refused`); the list grows once
   * for them all rather than step by step (a write matching thousands of searches).
   */
  addAll(id: string, searches: readonly S[], count: number, capOf: (search: S) => number, refused: (search: S) => void): void {
    if (count === 0) return;
    this.focus(id);
    let list = this.focusList;
    const start = list?.length ?? 0;
    if (!list) this.byId.set(id, (list = this.focusList = new Array<S>(count)));
    else list.length = start + count;
    const stamp = this.stamp;
    let w = start;
    for (let i = 0; i < count; i++) {
      const search = searches[i];
      if (search.trackGone || search.trackMark === stamp) continue;
      if (search.trackedCount >= capOf(search)) {
        refused(search);
        continue;
      }
      list[w++] = search;
      search.trackMark = stamp;
      search.trackedCount++;
      const ids = search.trackedIds;
      if (ids) ids.push(id);
    }
    list.length = w;
    this.entries += w - start;
    if (w === 0) {
      this.byId.delete(id);
      this.focusList = undefined;
    }
    for (let i = 0; i < count; i++) {
      const search = searches[i];
      const ids = search.trackedIds;
      if (ids && ids.length > 2 * search.trackedCount + 16) search.trackedIds = this.idsOf(search);
    }
  }

  /** The ids a search tracks now (only for a search that keeps `trackedIds`). */
  idsOf(search: S): string[] {
    const ids = [...new Set(search.trackedIds ?? [])];
    return ids.filter((id) => this.has(search, id));
  }

  delete(search: S, id: string): void {
    this.focus(id);
    if (search.trackMark !== this.stamp) return;
    search.trackMark = 0;
    search.trackedCount--;
    this.focusDirty = true;
  }

  /** Forgets every document the search tracks (it tracks none after). */
  forget(search: S): void {
    if (search.trackGone) return;
    search.trackGone = true;
    if (search.trackMark === this.stamp) {
      search.trackMark = 0;
      this.focusDirty = true;
    }
    this.gone += search.trackedCount;
    search.trackedCount = 0;
    search.trackedIds = search.trackedIds && [];
    if (this.gone > 1024 && 2 * this.gone > this.entries) this.sweep();
  }

  /** Marks the trackers of `id` (after compacting the list in focus before). */
  private focus(id: string): void {
    if (this.focusId === id) return;
    if (this.focusDirty) this.compactFocus();
    const stamp = ++this.stamp;
    const list = this.byId.get(id);
    this.focusId = id;
    this.focusList = list;
    if (!list) return;
    for (let i = 0; i < list.length; i++) {
      const s = list[i];
      if (s.trackGone) this.focusDirty = true;
      else s.trackMark = stamp;
    }
  }

  /** Drops the focused list's entries that no longer count, duplicates among them (a search untracked, then tracked again). */
  private compactFocus(): void {
    this.focusDirty = false;
    const list = this.focusList;
    if (!list) return;
    const before = this.stamp;
    const kept = ++this.stamp;
    let w = 0;
    for (let i = 0; i < list.length; i++) {
      const s = list[i];
      if (s.trackGone) this.gone--;
      else if (s.trackMark === before) {
        s.trackMark = kept;
        list[w++] = s;
      }
    }
    this.entries -= list.length - w;
    list.length = w;
    if (w === 0) {
      this.byId.delete(this.focusId!);
      this.focusList = undefined;
    }
  }

  /** Drops every forgotten search's entries. */
  private sweep(): void {
    if (this.focusDirty) this.compactFocus();
    for (const [id, list] of this.byId) {
      let w = 0;
      for (let i = 0; i < list.length; i++) if (!list[i].trackGone) list[w++] = list[i];
      this.entries -= list.length - w;
      list.length = w;
      if (w === 0) {
        this.byId.delete(id);
        if (id === this.focusId) this.focusList = undefined;
      }
    }
    this.gone = 0;
  }
}
