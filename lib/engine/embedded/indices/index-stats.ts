/** The search statistics of one group (a search request's `stats` names the groups it counts in), and of a whole index. */
export class GroupSearchStats {
  queryTotal = 0;
  queryMs = 0;
  fetchTotal = 0;
  fetchMs = 0;
  scrollTotal = 0;
  scrollMs = 0;
  suggestTotal = 0;
  suggestMs = 0;
}

/** The search groups an index keeps statistics of (a group is about 0.2 KB with its name). */
export const MAX_SEARCH_GROUPS = 1_000;

const NO_GROUPS: readonly GroupSearchStats[] = [];

/**
 * Operation counters of one index since the engine started (or the index was created), as
 * Elasticsearch's index stats report them: indexing, get and search totals with their time.
 * Kept in memory only, as Elasticsearch's are (they restart from zero with the node).
 */
export class IndexStats extends GroupSearchStats {
  indexTotal = 0;
  indexMs = 0;
  indexFailed = 0;
  deleteTotal = 0;
  deleteMs = 0;
  noopUpdateTotal = 0;
  getExistsTotal = 0;
  getExistsMs = 0;
  getMissingTotal = 0;
  getMissingMs = 0;
  /** Flushes asked of the index (`_flush`): each is one, as Elasticsearch counts a shard's flush whether or not it had anything to commit. */
  flushTotal = 0;
  flushMs = 0;
  /** Writes since the last flush, as a shard's translog holds them: operations, bytes, and when the first was made. */
  translogOps = 0;
  translogBytes = 0;
  translogSince = 0;
  /** Shard request cache lookups of cacheable searches (request-cache.ts). */
  requestCacheHits = 0;
  requestCacheMisses = 0;

  /** A write (index or delete) of so many bytes, into the translog until the next flush. */
  logged(bytes: number): void {
    if (this.translogOps++ === 0) this.translogSince = Date.now();
    this.translogBytes += bytes;
  }

  /** A flush commits the translog's operations: it is trimmed to its header. */
  flushed(): void {
    this.translogOps = 0;
    this.translogBytes = 0;
  }

  /** The search groups named by requests' `stats`, by name: at most MAX_SEARCH_GROUPS. */
  readonly groups = new Map<string, GroupSearchStats>();

  /**
   * The stats of the groups a search names (made when first named). Names are the client's: an
   * index keeps the first MAX_SEARCH_GROUPS it is given, and a search naming another past them
   * counts in those it has — else searches naming new groups would grow the engine's heap
   * without bound (200,000 names a request held 34 MB a request, kept) and make the stats
   * answer that lists them too long to write.
   */
  searchGroups(names: readonly string[] | undefined): readonly GroupSearchStats[] {
    if (!names?.length) return NO_GROUPS;
    const out: GroupSearchStats[] = [];
    for (const n of names) {
      let g = this.groups.get(n);
      if (!g) {
        if (this.groups.size >= MAX_SEARCH_GROUPS) continue;
        this.groups.set(n, (g = new GroupSearchStats()));
      }
      out.push(g);
    }
    return out;
  }

  /** A query phase on this index, counted here and in the groups the search names. */
  queried(ms: number, groups: readonly string[] | undefined): void {
    this.queryTotal++;
    this.queryMs += ms;
    for (const g of this.searchGroups(groups)) {
      g.queryTotal++;
      g.queryMs += ms;
    }
  }

  /** Time fetching one hit of this index (a search's fetch phase is counted once, by `fetched`). */
  fetchedHit(ms: number, groups: readonly string[] | undefined): void {
    this.fetchMs += ms;
    for (const g of this.searchGroups(groups)) g.fetchMs += ms;
  }

  /** A search's fetch phase on this index. */
  fetched(groups: readonly string[] | undefined): void {
    this.fetchTotal++;
    for (const g of this.searchGroups(groups)) g.fetchTotal++;
  }

  got(found: boolean, ms: number): void {
    if (found) {
      this.getExistsTotal++;
      this.getExistsMs += ms;
    } else {
      this.getMissingTotal++;
      this.getMissingMs += ms;
    }
  }
}
