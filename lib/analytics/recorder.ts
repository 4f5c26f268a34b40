import { entryBoundedCache } from '../breakers/index.js';
import { v7 as timeOrderedId } from 'uuid';
import { callJson, type Backend } from '../engine/index.js';
import { BackgroundRecords } from './batch-writer.js';
import { ANALYTICS_INDEX, ANALYTICS_INDEX_BODY, EMPTY_QUERY, MERGE_WINDOW_MS, type AnalyticsEvent } from './events.js';

export interface RecorderOptions {
  /** Events waiting to be written at most: more are dropped and counted. */
  maxQueued: number;
  /** Events older than this many days are purged (daily). */
  retentionDays: number;
  /** Events are written at least this often (ms). */
  flushMs?: number;
  log?: (line: string) => void;
}

/** What is known of a search when it is recorded. */
export interface SearchRecord {
  index: string;
  /** The text typed; '' or absent for an empty search. */
  query?: string;
  /** Record an empty search (as EMPTY_QUERY) instead of skipping it. */
  emptyQuery?: boolean;
  /** Selected filter values by key. */
  filters?: Record<string, string | readonly string[]>;
  hits?: number;
  hitIds?: string[];
  took?: number;
  status?: number;
  kind?: 'search' | 'suggestion';
  userId?: string;
  ip: string;
  customEvents?: Record<string, unknown>;
  credential: string;
  /** A search id given by the client (the events API's `query_id`). */
  id?: string;
}

export interface ClickRecord {
  searchId: string;
  /** The index the event was sent to (the search's, when it is known). */
  index?: string;
  /** Document id → position (1-based). */
  clicks: Record<string, number>;
  clickType?: 'result' | 'suggestion';
  userId?: string;
  ip: string;
  customEvents?: Record<string, unknown>;
  credential: string;
}

export interface ConversionRecord {
  searchId: string;
  index?: string;
  docIds: string[];
  userId?: string;
  ip: string;
  customEvents?: Record<string, unknown>;
  credential: string;
}

/** The search a click or conversion names, as remembered. */
interface KnownSearch {
  index: string;
  query: string;
  user: string;
  /** Its custom events: a click or conversion sent without its own counts under the search's. */
  custom: string[];
}

/** The last search of one user on one index, for search-as-you-type merging. */
interface LastSearch {
  id: string;
  query: string;
  time: number;
}

const MAX_TEXT = 1024;
const clip = (s: string) => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) : s);
/** `{k: v}` → `['k=v']` (arrays: one pair per value). */
const pairs = (o: Record<string, unknown> | undefined): string[] => {
  const out: string[] = [];
  for (const [k, v] of Object.entries(o ?? {})) {
    for (const value of Array.isArray(v) ? v : [v]) if (value !== undefined && value !== null && value !== '') out.push(clip(`${k}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`));
  }
  return out.slice(0, 100);
};
const normalized = (q: string) => q.trim().toLowerCase();
/** Do two keystrokes of a search box extend each other (b → bo → book, or a correction back)? */
const extends_ = (a: string, b: string) => a !== '' && b !== '' && (a.startsWith(b) || b.startsWith(a));

/**
 * Search analytics recorded in the background: `recordSearch`, `recordClick` and
 * `recordConversion` queue events (a BatchWriter of ANALYTICS_INDEX, through the Backend) and
 * return at once — recording never slows or fails a search; a full queue drops and counts.
 *
 * A search that extends the same user's previous search on the same index within MERGE_WINDOW_MS
 * (search-as-you-type keystrokes) takes that search's id and replaces its record: one search, the
 * last one. Clicks and conversions carry the query, index and user of the search they name (from
 * this node's memory of recent searches, else from the stored record). Nothing of a request's
 * Authorization header or cookies is ever recorded: only the credential's username.
 */
export class AnalyticsRecorder extends BackgroundRecords<AnalyticsEvent> {
  private readonly last = entryBoundedCache<string, LastSearch>(100_000);
  private readonly searches = entryBoundedCache<string, KnownSearch>(100_000);

  constructor(private readonly backend: Backend, options: RecorderOptions) {
    super(backend, {
      index: ANALYTICS_INDEX, indexBody: ANALYTICS_INDEX_BODY, maxQueued: options.maxQueued, maxBatch: 500, flushMs: options.flushMs ?? 1_000,
      retentionDays: options.retentionDays, log: options.log,
    });
  }

  /** Records one search; answers its search id (undefined when nothing was recorded: no text and no emptyQuery). */
  recordSearch(s: SearchRecord, now = Date.now()): string | undefined {
    const text = clip((s.query ?? '').trim());
    if (!text && !s.emptyQuery) return undefined;
    const query = text || EMPTY_QUERY;
    const user = clip(s.userId || s.ip);
    let id = s.id;
    if (id === undefined) {
      const key = `${user}\u0000${s.index}`;
      const previous = this.last.get(key);
      // time-ordered (UUIDv7), as request log ids: cheap to append to the store
      id = previous && now - previous.time <= MERGE_WINDOW_MS && extends_(normalized(previous.query), normalized(query)) ? previous.id : timeOrderedId();
      this.last.set(key, { id, query, time: now });
    }
    const custom = pairs(s.customEvents);
    this.searches.set(id, { index: s.index, query, user, custom });
    this.writer.add({
      type: 'search', time: now, search_id: id, index: s.index, query, user_id: user,
      filters: pairs(s.filters as Record<string, unknown> | undefined), custom, credential: s.credential,
      hits: s.hits, hit_ids: s.hitIds?.slice(0, 10), took: s.took, status: s.status ?? 200, kind: s.kind ?? 'search',
    }, id);
    return id;
  }

  async recordClick(c: ClickRecord, now = Date.now()): Promise<void> {
    const search = await this.searchOf(c.searchId, c.index);
    for (const [docId, position] of Object.entries(c.clicks).slice(0, 100)) {
      this.writer.add({
        type: 'click', time: now, search_id: c.searchId, index: search.index, query: search.query, user_id: clip(c.userId || search.user || c.ip),
        filters: [], custom: this.customOf(c.customEvents, search), credential: c.credential, doc_id: clip(docId), position, click_type: c.clickType ?? 'result',
      });
    }
  }

  async recordConversion(c: ConversionRecord, now = Date.now()): Promise<void> {
    const search = await this.searchOf(c.searchId, c.index);
    for (const docId of c.docIds.slice(0, 100)) {
      this.writer.add({
        type: 'conversion', time: now, search_id: c.searchId, index: search.index, query: search.query, user_id: clip(c.userId || search.user || c.ip),
        filters: [], custom: this.customOf(c.customEvents, search), credential: c.credential, doc_id: clip(docId),
      });
    }
  }


  /**
   * Whether events sent to `index` may name the search `id`: a recorded search is its index's. An
   * id this node does not know and the store does not hold (yet) is a new search's, anyone's.
   */
  async isSearchOf(id: string, index: string): Promise<boolean> {
    const known = this.searches.get(id) ?? (await this.storedSearch(id));
    return known === undefined || known.index === index;
  }

  /** The search a click or conversion names: remembered, else read back, else only the index it was sent to. */
  private async searchOf(id: string, index: string | undefined): Promise<KnownSearch> {
    const known = this.searches.get(id) ?? (await this.storedSearch(id));
    return known ?? { index: index ?? '', query: '', user: '', custom: [] };
  }

  /** A search as its stored record holds it (then remembered), or undefined. */
  private async storedSearch(id: string): Promise<KnownSearch | undefined> {
    const res = await callJson<{ found?: boolean; _source?: AnalyticsEvent }>(this.backend, 'GET', `/${ANALYTICS_INDEX}/_doc/${encodeURIComponent(id)}`).catch(() => undefined);
    const source = res?.status === 200 ? res.body._source : undefined;
    if (!source) return undefined;
    const found = { index: source.index, query: source.query, user: source.user_id, custom: source.custom ?? [] };
    this.searches.set(id, found);
    return found;
  }

  /** An event's own custom events, else those of its search. */
  private customOf(own: Record<string, unknown> | undefined, search: KnownSearch): string[] {
    const mine = pairs(own);
    return mine.length ? mine : search.custom;
  }
}
