/** What a search keeps of its own tracking (on the search itself: it is read on every match). */
export interface Tracking {
  /** The ids tracked, and some no longer tracked (dropped when they outnumber the others). */
  trackedIds: string[];
  trackedCount: number;
}

/**
 * The documents each live search knows to match, kept by document id: a change is told to the
 * searches that tracked its document (so they tell an update from a new match, and see it leave),
 * and those are found with one lookup whatever the number of searches. A search's tracking is
 * one entry in its document's set; its own list of ids serves only to forget it when it ends.
 */
export class TrackedIds<S extends Tracking> {
  private readonly byId = new Map<string, Set<S>>();

  /** The searches tracking a document (the set changes as searches track and untrack it). */
  trackers(id: string): ReadonlySet<S> | undefined {
    return this.byId.get(id);
  }

  /** Tracks a document for a search, unless the search tracks `cap` documents already (false then). */
  add(search: S, id: string, cap: number): boolean {
    let trackers = this.byId.get(id);
    if (trackers?.has(search)) return true;
    if (search.trackedCount >= cap) return false;
    if (!trackers) this.byId.set(id, (trackers = new Set()));
    trackers.add(search);
    search.trackedIds.push(id);
    search.trackedCount++;
    if (search.trackedIds.length > 2 * search.trackedCount + 16) {
      search.trackedIds = [...new Set(search.trackedIds)].filter((i) => this.byId.get(i)?.has(search));
    }
    return true;
  }

  /** The ids a search tracks now. */
  idsOf(search: S): string[] {
    return [...new Set(search.trackedIds)].filter((id) => this.byId.get(id)?.has(search));
  }

  delete(search: S, id: string): void {
    const trackers = this.byId.get(id);
    if (!trackers?.delete(search)) return;
    if (trackers.size === 0) this.byId.delete(id);
    search.trackedCount--;
  }

  /** Forgets every document the search tracks. */
  forget(search: S): void {
    for (const id of search.trackedIds) {
      const trackers = this.byId.get(id);
      trackers?.delete(search);
      if (trackers?.size === 0) this.byId.delete(id);
    }
    search.trackedIds = [];
    search.trackedCount = 0;
  }
}
