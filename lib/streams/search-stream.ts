import { Observable } from 'rxjs';
import { comparePositions, type ChangeBus, type ChangeEvent, type DocumentChange } from '../changes/index.js';
import { EsError } from '../errors/index.js';
import { filterSource, type Query, type SourceFilter } from '../engine/embedded/matching.js';
import type { AggregationFeed, AggregationState, FeedEvent } from './aggregation-feeds.js';
import type { LiveSearch, LiveSearches, LiveVerdict } from './live-searches.js';
import { changedMessage, deletedMessage, indexEndedMessage, liveMessage } from './messages.js';
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
  /**
   * A search with aggregations: after its first message, the stream pushes
   * `{aggregations, hits: {total}}` when they change (the shared computation `feed`);
   * `hits: false` (a search of `size: 0`) pushes no documents.
   */
  aggregations?: { feed: AggregationFeed; hits: boolean };
}

/**
 * A search stream: the search result, then each change to a document that matches the query
 * (`_updated: true` when it matched before) or stopped matching (`_deleted: true`).
 * Matching is the engine's own (the document matcher), through the node's index of live searches.
 */
export function searchStream(bus: ChangeBus, live: LiveSearches, spec: SearchStreamSpec): Observable<StreamMessage> {
  return new Observable<StreamMessage>((subscriber) => {
    const query = spec.query;
    const shownType = spec.type ?? '_doc';
    const held: Array<() => void> = [];
    let started = false;
    let lastPosition: string | undefined;
    /** `_seq_no` of documents in the initial result: changes they already reflect are dropped. */
    const reflected = new Map<string, number>();

    const deliver = (verdict: LiveVerdict, wasTracked: boolean) => {
      const { change } = verdict;
      if (lastPosition !== undefined && comparePositions(change.position, lastPosition) <= 0) return;
      lastPosition = change.position;
      const seen = reflected.get(change.id);
      if (seen !== undefined && change.seqNo <= seen) return;
      if (!verdict.matches) {
        subscriber.next(deletedMessage(change, shownType));
        return;
      }
      const source = filterSource((change.source ?? {}) as Record<string, unknown>, spec.source);
      const updated = wasTracked || (!search.trackedComplete && change.version > 1);
      subscriber.next(changedMessage(change, shownType, source, updated));
    };
    const onIndex = (event: ChangeEvent) => {
      if (subscriber.closed) return;
      subscriber.next(indexEndedMessage(event));
      subscriber.complete();
    };

    // aggregations: what this stream showed last, and the runs of the shared computation that
    // started before its own answer was read (their states may be older than it: never shown)
    const aggs = spec.aggregations;
    let shownState: string | undefined;
    let runsBefore = Infinity;
    const onFeed = (event: FeedEvent) => {
      if (event.kind === 'ended') return onIndex(event.event);
      if (event.run <= runsBefore) return;
      const text = stateText(event.state);
      if (text === shownState) return;
      shownState = text;
      subscriber.next({ data: { aggregations: event.state.aggregations, hits: { total: event.state.total } }, id: event.position });
    };
    const feedSubscription = aggs?.feed.events.subscribe({
      next: (event) => (started ? onFeed(event) : held.push(() => onFeed(event))),
      error: (err) => subscriber.error(err),
    });

    const search: LiveSearch = {
      query,
      type: spec.type,
      tracked: new Set(),
      trackedComplete: true,
      trackCap: spec.trackCap,
      decide: spec.engineDecides,
      onVerdict: (verdict) => {
        const wasTracked = search.tracked.has(verdict.change.id);
        if (started) deliver(verdict, wasTracked);
        else held.push(() => deliver(verdict, wasTracked));
      },
      onIndexEvent: (event) => (started ? onIndex(event) : held.push(() => onIndex(event))),
      onError: (err) => subscriber.error(err),
    };

    let remove: (() => void) | undefined;
    const index = live.of(spec.index);
    const hits = aggs?.hits ?? true;
    (async () => {
      if (aggs) await aggs.feed.live;
      if (hits) {
        const ctx = spec.engineDecides ? undefined : await live.contexts.get(spec.index);
        if (!ctx && !spec.engineDecides) throw new EsError(404, 'index_not_found_exception', `no such index [${spec.index}]`, { index: spec.index });
        remove = await index.add(search, ctx);
        if (subscriber.closed) return remove();
      }
      await bus.subscribed(spec.index);
      runsBefore = aggs?.feed.runs ?? Infinity;
      if (spec.since !== undefined) {
        // the client has its state: it cannot be told which documents it holds, so updates and
        // departures are reported for every change of a document that matches, or may have
        search.trackedComplete = false;
        lastPosition = spec.since;
        for (const event of await bus.history(spec.index, spec.since)) {
          if (subscriber.closed) return;
          if (event.kind === 'index') return onIndex(event);
          lastPosition = event.position;
          if (!hits) continue;
          const matches = event.op !== 'delete' && (await index.matches(search, event));
          if (matches || event.op === 'delete') {
            const source = matches ? filterSource((event.source ?? {}) as Record<string, unknown>, spec.source) : undefined;
            subscriber.next(matches ? changedMessage(event, shownType, source, event.version > 1) : deletedMessage(event, shownType));
          }
        }
        // the client holds a state: it is told the current aggregations
        aggs?.feed.refresh();
      } else {
        // which documents match now, before the client is shown anything: a change the client
        // causes after seeing the result is then never mistaken for one it already knew
        if (hits) {
          const { ids, complete } = await spec.readMatchingIds(spec.trackCap);
          for (const id of ids) index.track(search, id);
          if (!complete) search.trackedComplete = false;
        }
        if (!spec.streamOnly) {
          const head = await bus.head(spec.index);
          const initial = await spec.readInitial();
          for (const [id, seqNo] of initial.seqNos) reflected.set(id, seqNo);
          const answered = initial.body as { aggregations?: unknown; hits?: { total?: unknown } };
          if (aggs) shownState = stateText({ aggregations: answered.aggregations, total: answered.hits?.total });
          subscriber.next({ data: initial.body, id: head, initial: true });
        }
      }
      started = true;
      for (const run of held.splice(0)) {
        if (subscriber.closed) return;
        run();
      }
      if (!subscriber.closed) subscriber.next(liveMessage());
    })().catch((err) => subscriber.error(err));

    return () => {
      remove?.();
      feedSubscription?.unsubscribe();
    };
  });
}

/** A state as text, to tell whether it differs from the one shown before. */
const stateText = (state: AggregationState): string => JSON.stringify([state.aggregations ?? null, state.total ?? null]);
