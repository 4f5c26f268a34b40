/** What a search keeps of its own tracking (on the search itself: it is read on every match). */
export interface Tracking {
  /** How many documents the search tracks. */
  trackedCount: number;
  /**
   * The ids tracked, and some no longer tracked (dropped when they outnumber the others): kept
   * only for a search whose ids are asked for (`idsOf`), undefined for the others.
   */
  trackedIds?: string[];
  /** `TrackedIds`' number for the search while it tracks documents (`NO_SLOT` before, and once forgotten). */
  trackSlot: number;
  /** `TrackedIds`' mark: equal to its stamp when the search tracks the document in focus (on the search: read with it). */
  trackMark: number;
  /** Set once the search is forgotten: its entries are dropped from the lists lazily. */
  trackGone: boolean;
}

export const NO_SLOT = -1;

/**
 * The documents each live search knows to match, kept by document id: a change is told to the
 * searches that tracked its document (so they tell an update from a new match, and see it leave),
 * and those are found with one lookup whatever the number of searches.
 *
 * A write that matches thousands of searches makes each of them track its document, and those
 * lists are kept: they are typed arrays of the searches' numbers (slots), four bytes an entry
 * outside the JavaScript heap — not arrays of pointers, which every young-generation collection
 * copies once or twice before they settle (most of a collection's pause when each write adds
 * thousands), nor hash sets, which cost several times as much. A list is `[n, slot1..slotN, room]`.
 * Whether a search tracks a document is a mark on the search, set for the trackers of one id at a
 * time — the id "in focus", the changed document while a change is handled — so membership is
 * one comparison; focusing on another id marks its trackers (linear in their number) and compacts
 * the previous list. A forgotten search's slot is emptied, and its entries are dropped from every
 * list in one sweep once the dropped outnumber the kept; its slot is reused after that.
 */
export class TrackedIds<S extends Tracking> {
  private readonly byId = new Map<string, Int32Array>();
  /** Slot → its search; undefined once forgotten (until the sweep frees the slot). */
  private readonly slots: Array<S | undefined> = [];
  private readonly freeSlots: number[] = [];
  /** Forgotten searches' slots whose entries may still be in lists. */
  private readonly goneSlots: number[] = [];
  private focusId?: string;
  private focusList?: Int32Array;
  /** The focused list holds entries that no longer count (deleted, forgotten, duplicated). */
  private focusDirty = false;
  /** How many more entries the list in focus is about to take (`expect`): room made at its next growth. */
  private expected = 0;
  private stamp = 0;
  /** Entries in every list, and those of forgotten searches among them. */
  private entries = 0;
  private gone = 0;

  /**
   * Writes the searches tracking a document into `into` (from 0) and answers how many: a caller's
   * buffer, so that an update matched by thousands of searches allocates nothing for them.
   */
  trackers(id: string, into: S[]): number {
    this.focus(id);
    if (this.focusDirty) this.compactFocus();
    const list = this.focusList;
    if (!list) return 0;
    const n = list[0];
    const slots = this.slots;
    for (let i = 0; i < n; i++) into[i] = slots[list[i + 1]]!;
    return n;
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
    const slot = this.slotOf(search);
    let list = this.focusList;
    const n = list ? list[0] : 0;
    if (!list || n + 2 > list.length) list = this.grown(id, list, n + 1, n + Math.max(n >> 1, this.expected) + 8);
    list[n + 1] = slot;
    list[0] = n + 1;
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
   * Tells that `id` is about to be tracked for up to `more` searches, one `add` each (a write
   * matching thousands of searches): its list grows once for them all, not step by step.
   */
  expect(id: string, more: number): void {
    this.focus(id);
    this.expected = more;
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
    const slot = search.trackSlot;
    search.trackSlot = NO_SLOT;
    const count = search.trackedCount;
    search.trackedCount = 0;
    search.trackedIds = search.trackedIds && [];
    if (slot !== NO_SLOT && count === 0) {
      // its entries, if any, are stale ones in the list in focus: dropped now, and the slot is free at once
      if (this.focusDirty) this.compactFocus();
      this.slots[slot] = undefined;
      this.freeSlots.push(slot);
    } else if (slot !== NO_SLOT) {
      if (search.trackMark === this.stamp) {
        search.trackMark = 0;
        this.focusDirty = true;
      }
      this.slots[slot] = undefined;
      this.goneSlots.push(slot);
      this.gone += count;
    }
    if (this.gone > 1024 && 2 * this.gone > this.entries) this.sweep();
  }

  /** The search's slot, given on its first tracked document. */
  private slotOf(search: S): number {
    let slot = search.trackSlot;
    if (slot !== NO_SLOT) return slot;
    slot = this.freeSlots.pop() ?? this.slots.length;
    this.slots[slot] = search;
    search.trackSlot = slot;
    return slot;
  }

  /** The focused list (of `id`), made or moved to a room of `room` entries (at least `needed`). */
  private grown(id: string, list: Int32Array | undefined, needed: number, room: number): Int32Array {
    this.expected = 0;
    const next = new Int32Array(Math.max(needed, room) + 1);
    if (list) next.set(list.subarray(0, list[0] + 1));
    this.byId.set(id, next);
    this.focusList = next;
    return next;
  }

  /** Marks the trackers of `id` (after compacting the list in focus before). */
  private focus(id: string): void {
    if (this.focusId === id) return;
    if (this.focusDirty) this.compactFocus();
    this.expected = 0;
    const stamp = ++this.stamp;
    const list = this.byId.get(id);
    this.focusId = id;
    this.focusList = list;
    if (!list) return;
    const slots = this.slots;
    const n = list[0];
    for (let i = 1; i <= n; i++) {
      const search = slots[list[i]];
      if (search === undefined) this.focusDirty = true;
      else search.trackMark = stamp;
    }
  }

  /** Drops the focused list's entries that no longer count, duplicates among them (a search untracked, then tracked again). */
  private compactFocus(): void {
    this.focusDirty = false;
    const list = this.focusList;
    if (!list) return;
    const before = this.stamp;
    const kept = ++this.stamp;
    const slots = this.slots;
    const n = list[0];
    let w = 0;
    for (let i = 1; i <= n; i++) {
      const search = slots[list[i]];
      if (search === undefined) this.gone--;
      else if (search.trackMark === before) {
        search.trackMark = kept;
        list[++w] = list[i];
      }
    }
    this.entries -= n - w;
    list[0] = w;
    if (w === 0) {
      this.byId.delete(this.focusId!);
      this.focusList = undefined;
    }
  }

  /** Drops every forgotten search's entries, and frees their slots. */
  private sweep(): void {
    if (this.focusDirty) this.compactFocus();
    const slots = this.slots;
    for (const [id, list] of this.byId) {
      const n = list[0];
      let w = 0;
      for (let i = 1; i <= n; i++) if (slots[list[i]] !== undefined) list[++w] = list[i];
      this.entries -= n - w;
      list[0] = w;
      if (w === 0) {
        this.byId.delete(id);
        if (id === this.focusId) this.focusList = undefined;
      }
    }
    for (const slot of this.goneSlots) this.freeSlots.push(slot);
    this.goneSlots.length = 0;
    this.gone = 0;
  }
}
