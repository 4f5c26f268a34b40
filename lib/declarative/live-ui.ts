import { defer, map, merge, type Observable } from 'rxjs';
import type { ChangeBus } from '../changes/index.js';
import type { SharedRuns } from '../streams/index.js';
import { gapFree } from '../streams/index.js';
import type { StreamMessage } from '../streams/transports/index.js';
import type { DeclarativeResponse } from './shape-response.js';

export interface LiveUiOptions {
  /**
   * Equal for two UIs whose answers are equal (the credential, the request, its parameters):
   * they share one computation.
   */
  key: string;
  /** The concrete indices the UI's components read: a change to one of them may change an answer. */
  indices: string[];
  /** At most one computation per this many ms per UI (STREAM_AGG_INTERVAL_MS). */
  intervalMs: number;
  /** The engine shows a change this long after it (see CoalescedRunsOptions.settleMs). */
  settleMs: number;
  /** The declarative answer as it is now; `first`: this stream's first answer (a search someone made). */
  compute(first: boolean): Promise<DeclarativeResponse>;
}

/**
 * A whole declarative search UI, live: the answer keyed by component id, then, whenever a change
 * to an index the UI reads alters an answer, one message holding what changed, per component:
 *
 *   {"<id>": {"hits": {"total": …, "hits": [entering, {…, "_updated": true}, {"_id", "_deleted": true}]},
 *             "aggregations": {…}}, …}
 *
 * `hits` is there when the component's hits or total changed (its entering, updated and leaving
 * hits, by `_index` and `_id`; a hit whose `_source` changed is updated), `aggregations` when they
 * changed (whole, as the engine answers them), any other member (suggestions, an error) whole
 * when it changed. Components nothing changed for are left out; a change that alters no answer
 * pushes nothing.
 *
 * The answers after the first are computed once for every UI of the same key (`SharedRuns`:
 * changes of the UI's indices → coalesced runs, at most one per `intervalMs`), with the request's
 * own access rules (`compute` is the request); each stream tells its client what differs from
 * what it showed it last. Gap-free: the stream joins the shared computation and follows the
 * indices before its first answer is computed; a computation that started before that answer was
 * read is never shown (it may be older), and a change that arrives meanwhile computes it again.
 */
export function liveDeclarative(bus: ChangeBus, shared: SharedRuns, options: LiveUiOptions): Observable<StreamMessage> {
  return defer(() => {
    const feed = shared.join(options.key, () => ({
      // any change of an index, its deletion included (the components reading it then answer its error)
      triggers: merge(...options.indices.map((index) => bus.changes(index))).pipe(map((event) => event.position)),
      compute: () => options.compute(false),
      intervalMs: options.intervalMs,
      settleMs: options.settleMs,
    }));
    let shown: DeclarativeResponse | undefined;
    let runsBefore = Infinity;
    return gapFree(feed.values, async (emit) => {
      await Promise.all(options.indices.map((index) => bus.subscribed(index)));
      runsBefore = feed.runs;
      shown = await options.compute(true);
      emit({ data: shown, initial: true });
    }, ({ run, value, position }) => {
      if (run <= runsBefore || !shown) return undefined;
      const delta = sharedDelta(shown, value);
      shown = value;
      return delta && { message: deltaMessage(delta, position) };
    });
  });
}

/**
 * The streams of one shared computation show the same answers once past their first: the delta
 * between two answers is worked out once for them all, not once a stream.
 */
const deltas = new WeakMap<DeclarativeResponse, { after: DeclarativeResponse; delta: Record<string, Answer> | undefined }>();
function sharedDelta(before: DeclarativeResponse, after: DeclarativeResponse): Record<string, Answer> | undefined {
  const known = deltas.get(before);
  if (known?.after === after) return known.delta;
  const delta = uiDelta(before, after);
  deltas.set(before, { after, delta });
  return delta;
}

/** A delta's message, one object for the streams that push it: the transport encodes it once for them all (`frameBytes`). */
const deltaMessages = new WeakMap<Record<string, Answer>, StreamMessage>();
function deltaMessage(delta: Record<string, Answer>, position: string | undefined): StreamMessage {
  let message = deltaMessages.get(delta);
  if (!message || message.id !== position) deltaMessages.set(delta, (message = { data: delta, id: position }));
  return message;
}

type Answer = Record<string, unknown>;
type Hit = Record<string, unknown> & { _id?: unknown; _index?: unknown; _source?: unknown };

/** What changed between two answers of a UI, per component; undefined when nothing did. */
export function uiDelta(before: DeclarativeResponse, after: DeclarativeResponse): Record<string, Answer> | undefined {
  const delta: Record<string, Answer> = {};
  for (const id of Object.keys(after)) {
    if (id === 'settings') continue;
    const d = componentDelta(before[id], after[id]);
    if (d) delta[id] = d;
  }
  return Object.keys(delta).length ? delta : undefined;
}

/** What changed in one component's answer; undefined when nothing did. */
function componentDelta(before: Answer | undefined, after: Answer): Answer | undefined {
  if (!before) return after;
  const delta: Answer = {};
  for (const key of Object.keys(after)) {
    if (key === 'took') continue;
    if (key === 'hits') {
      const hits = hitsDelta(before.hits as Answer | undefined, after.hits as Answer);
      if (hits) delta.hits = hits;
    } else if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) delta[key] = after[key];
  }
  return Object.keys(delta).length ? delta : undefined;
}

const hitKey = (hit: Hit) => `${String(hit._index)}\u0000${String(hit._id)}`;

/** A result list's entering, updated and leaving hits, and its total when anything changed. */
function hitsDelta(before: Answer | undefined, after: Answer): Answer | undefined {
  const was = new Map(((before?.hits as Hit[] | undefined) ?? []).map((h) => [hitKey(h), h]));
  const now = (after.hits as Hit[] | undefined) ?? [];
  const changed: Hit[] = [];
  for (const hit of now) {
    const old = was.get(hitKey(hit));
    was.delete(hitKey(hit));
    if (!old) changed.push(hit);
    else if (JSON.stringify(old._source) !== JSON.stringify(hit._source)) changed.push({ ...hit, _updated: true });
  }
  for (const gone of was.values()) changed.push({ _index: gone._index, _id: gone._id, _deleted: true });
  const totalChanged = JSON.stringify(before?.total) !== JSON.stringify(after.total);
  if (!changed.length && !totalChanged) return undefined;
  return { total: after.total, hits: changed };
}
