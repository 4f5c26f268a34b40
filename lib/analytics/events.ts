/**
 * What search analytics stores: one document per event in ANALYTICS_INDEX, written through the
 * Backend (so on an Elasticsearch backend every node reads and writes the same records).
 *
 * A search event's `_id` is its search id (the `X-Search-Id` a client sends back with its clicks);
 * a search-as-you-type keystroke that extends the same user's previous search on the same index
 * within MERGE_WINDOW_MS takes that search's id and replaces its record. Clicks and conversions
 * carry the query, index and user of the search they name, so that every endpoint is one search
 * of the index, with aggregations.
 */
export const ANALYTICS_INDEX = '.gateway-analytics';

/** Keystrokes of one user on one index this close together that extend each other count as one search. */
export const MERGE_WINDOW_MS = 30_000;

/** The query text of a search recorded with an empty value (`settings.emptyQuery`). */
export const EMPTY_QUERY = '<empty_query>';

export type EventType = 'search' | 'click' | 'conversion';

export interface AnalyticsEvent {
  type: EventType;
  /** When it happened, epoch milliseconds. */
  time: number;
  /** The search id: the search's own (its `_id`), or the one a click or conversion names. */
  search_id: string;
  /** The index searched (for a click or conversion: the search's). */
  index: string;
  /** The query text as the user typed it, trimmed (EMPTY_QUERY for an empty one); '' when unknown. */
  query: string;
  /** The user: `userId`/`X-User-Id`/`user_id`, else the client's IP. */
  user_id: string;
  /** `key=value` for each selected filter value (a facet's value, X-Search-Filters). */
  filters: string[];
  /** `key=value` for each custom event (`customEvents`, X-Search-Custom-Event): what `?key=value` filters on. */
  custom: string[];
  /** The credential (username) that made the request; never a secret. */
  credential: string;
  /** Search: the total hits (0 = a no-result search). */
  hits?: number;
  /** Search: the top 10 hit ids, in order. */
  hit_ids?: string[];
  /** Search: the engine's `took`, milliseconds. */
  took?: number;
  /** Search: the HTTP status the search was answered with. */
  status?: number;
  /** Search: what the search was (`search`, `suggestion`). */
  kind?: 'search' | 'suggestion';
  /** Click: the document clicked. */
  doc_id?: string;
  /** Click: its position in the results (1-based). */
  position?: number;
  /** Click: `result` or `suggestion`. */
  click_type?: 'result' | 'suggestion';
}

/** The analytics index's settings and mappings: created by the first write. */
export const ANALYTICS_INDEX_BODY = {
  settings: { 'index.hidden': true, number_of_shards: 1, number_of_replicas: 0 },
  mappings: {
    dynamic: false,
    properties: {
      type: { type: 'keyword' },
      time: { type: 'date', format: 'epoch_millis' },
      search_id: { type: 'keyword' },
      index: { type: 'keyword' },
      query: { type: 'keyword' },
      user_id: { type: 'keyword' },
      filters: { type: 'keyword' },
      custom: { type: 'keyword' },
      credential: { type: 'keyword' },
      hits: { type: 'long' },
      hit_ids: { type: 'keyword' },
      took: { type: 'long' },
      status: { type: 'integer' },
      kind: { type: 'keyword' },
      doc_id: { type: 'keyword' },
      position: { type: 'integer' },
      click_type: { type: 'keyword' },
    },
  },
};
