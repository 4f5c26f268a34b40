import { defer, EMPTY, map, merge, Observable, type Subscriber } from 'rxjs';
import { comparePositions, type ChangeBus, type ChangeEvent, type DocumentChange } from '../changes/index.js';
import { EsError } from '../errors/index.js';
import { filterSource, type Query, type SourceFilter } from '../engine/embedded/index.js';
import { stateData, type AggregationFeed, type FeedEvent } from './aggregation-feeds.js';
import type { LiveSearch, LiveSearches, LiveVerdict } from './live-searches.js';
import { gapFree } from './gap-free.js';
import { changedMessage, deletedMessage, indexEndedMessage } from './messages.js';
import type { StreamMessage } from './transports/index.js';

export interface SearchStreamSpec {
  index: string;
  /** App-addressed searches see only their type. */
  type?: string;
  /** The search's query as the matcher reads it, parsed once when the stream was asked for (match_all when the engine decides). */
  query: Query;
  source: SourceFilter;
  streamOnly: boolean;
  since?: string;
  trackCap: number;
  /** The search response, as the plain search would answer it, and the `_seq_no` of its hits. */
  readInitial(): Promise<{ body: Record<string, unknown>; seqNos: Map<string, number> }>;
  /** Ids matching the query now (at most `cap`), and whether that is all of them. */
  readMatchingIds(cap: number): Promise<{ ids: string[]; complete: boolean }>;
  /** When set, the engine decides whether a changed document matches (see LiveSearch.decide). */
  engineDecides?: (change: DocumentChange) => Promise<boolean>;
  /** When set, the engine runs the search again after every change (see LiveSearch.rerun). */
  rerun?: LiveSearch['rerun'];
  /**
   * A search with aggregations: after its first message, the stream pushes
   * `{aggregations, hits: {total}}` when they change (the shared computation `feed`);
   * `hits: false` (a search of `size: 0`) pushes no documents.
   */
  aggregations?: { feed: AggregationFeed; hits: boolean };
}

/** What reaches a search stream: a verdict on a changed document, its index's end, or a state of its aggregations. */
type SearchChange =
  | { kind: 'verdict'; verdict: LiveVerdict }
  | { kind: 'index'; event: ChangeEvent }
  | { kind: 'feed'; event: FeedEvent };

/**
 * A search stream: the search result, then each change to a document that matches the query
 * (`_updated: true` when it matched before) or stopped matching (`_deleted: true`), and, for a
 * search with aggregations, `{aggregations, hits: {total}}` when they change (the shared feed).
 * Matching is the engine's own (the document matcher), through the node's index of live searches.
 * Gap-free (`gapFree`): the search is registered (and the feed joined) before the result is read.
 */
export function searchStream(bus: ChangeBus, live: LiveSearches, spec: SearchStreamSpec): Observable<StreamMessage> {
  return defer(() => {
    const shownType = spec.type ?? '_doc';
    const index = live.of(spec.index);
    const aggs = spec.aggregations;
    const hits = aggs?.hits ?? true;
    let lastPosition: string | undefined;
    /** `_seq_no` of documents in the initial result: changes they already reflect are dropped. */
    const reflected = new Map<string, number>();
    // aggregations: what this stream showed last, and the runs of the shared computation that
    // started before its own answer was read (their states may be older than it: never shown)
    let shownState: string | undefined;
    let runsBefore = Infinity;

    /** The subscriber of `verdicts` (subscribed once, by the stream's gap-free run). */
    let verdictsOut: Subscriber<SearchChange> | undefined;
    const search: LiveSearch = {
      query: spec.query,
      type: spec.type,
      trackedComplete: true,
      trackCap: spec.trackCap,
      decide: spec.engineDecides,
      rerun: spec.rerun,
      onVerdict: (verdict) => verdictsOut?.next({ kind: 'verdict', verdict }),
      onIndexEvent: (event) => verdictsOut?.next({ kind: 'index', event }),
      onError: (err) => verdictsOut?.error(err),
    };
    /** Resolves once the search is in the index of live searches (at once without hits to follow). */
    let registered: Promise<void> = Promise.resolve();
    const verdicts = new Observable<SearchChange>((subscriber) => {
      let remove: (() => void) | undefined;
      let stopped = false;
      verdictsOut = subscriber;
      registered = (async () => {
        const ctx = spec.engineDecides ? undefined : await live.contexts.get(spec.index);
        if (!ctx && !spec.engineDecides) throw new EsError(404, 'index_not_found_exception', `no such index [${spec.index}]`, { index: spec.index });
        remove = await index.add(search, ctx);
        if (stopped) remove();
      })();
      registered.catch(() => {}); // the stream's start awaits it and fails with it
      return () => {
        stopped = true;
        remove?.();
      };
    });
    const changes = merge(hits ? verdicts : EMPTY, aggs ? aggs.feed.events.pipe(map((event): SearchChange => ({ kind: 'feed', event }))) : EMPTY);

    const verdictMessage = (verdict: LiveVerdict): StreamMessage | undefined => {
      const { change } = verdict;
      if (verdict.untouched) {
        // another document that joined or left the search through the change (its position, the
        // change's own verdict may have been shown at it): its `_seq_no` says nothing of the change
        if (lastPosition !== undefined && comparePositions(change.position, lastPosition) < 0) return undefined;
        lastPosition = change.position;
      } else {
        if (lastPosition !== undefined && comparePositions(change.position, lastPosition) <= 0) return undefined;
        lastPosition = change.position;
        const seen = reflected.get(change.id);
        if (seen !== undefined && change.seqNo <= seen) return undefined;
      }
      if (!verdict.matches) return deletedMessage(change, shownType);
      const source = filterSource((change.source ?? {}) as Record<string, unknown>, spec.source);
      const updated = verdict.wasTracked || (!search.trackedComplete && change.version > 1);
      return changedMessage(change, shownType, source, updated);
    };
    const feedMessage = (event: Extract<FeedEvent, { kind: 'state' }>): StreamMessage | undefined => {
      if (event.run <= runsBefore || event.text === shownState) return undefined;
      shownState = event.text;
      return stateMessage(event);
    };
    const render = (change: SearchChange): { message: StreamMessage; end?: boolean } | undefined => {
      if (change.kind === 'index') return { message: indexEndedMessage(change.event), end: true };
      if (change.kind === 'feed') {
        if (change.event.kind === 'ended') return { message: indexEndedMessage(change.event.event), end: true };
        const message = feedMessage(change.event);
        return message && { message };
      }
      const message = verdictMessage(change.verdict);
      return message && { message };
    };

    return gapFree(changes, async (emit, closed) => {
      if (aggs) await aggs.feed.live;
      await registered;
      await bus.subscribed(spec.index);
      runsBefore = aggs?.feed.runs ?? Infinity;
      if (spec.since !== undefined) {
        // the client has its state: it cannot be told which documents it holds, so updates and
        // departures are reported for every change of a document that matches, or may have
        search.trackedComplete = false;
        lastPosition = spec.since;
        for (const event of await bus.history(spec.index, spec.since)) {
          if (closed()) return;
          if (event.kind === 'index') return emit(indexEndedMessage(event), true);
          lastPosition = event.position;
          if (!hits) continue;
          const matches = event.op !== 'delete' && (await index.matches(search, event));
          if (matches || event.op === 'delete') {
            const source = matches ? filterSource((event.source ?? {}) as Record<string, unknown>, spec.source) : undefined;
            emit(matches ? changedMessage(event, shownType, source, event.version > 1) : deletedMessage(event, shownType));
          }
        }
        // the client holds a state: it is told the current aggregations
        aggs?.feed.refresh();
        return;
      }
      // which documents match now, before the client is shown anything: a change the client
      // causes after seeing the result is then never mistaken for one it already knew
      if (hits) {
        const { ids, complete } = await spec.readMatchingIds(spec.trackCap);
        for (const id of ids) index.track(search, id);
        if (!complete) search.trackedComplete = false;
      }
      if (spec.streamOnly) return;
      const head = await bus.head(spec.index);
      const initial = await spec.readInitial();
      for (const [id, seqNo] of initial.seqNos) reflected.set(id, seqNo);
      const answered = initial.body as { aggregations?: unknown; hits?: { total?: unknown } };
      if (aggs) shownState = JSON.stringify(stateData({ aggregations: answered.aggregations, total: answered.hits?.total }));
      emit({ data: initial.body, id: head, initial: true });
    }, render);
  });
}

/**
 * A state's message, one object for every stream of the feed that pushes it (they all receive
 * the same event), its data already serialized by the feed: the transport frames it once for them
 * all (`frameBytes`) without serializing it again.
 */
const stateMessages = new WeakMap<FeedEvent, StreamMessage>();
function stateMessage(event: Extract<FeedEvent, { kind: 'state' }>): StreamMessage {
  let message = stateMessages.get(event);
  if (!message) stateMessages.set(event, (message = { data: event.data, id: event.position, encoded: { json: event.text } }));
  return message;
}
