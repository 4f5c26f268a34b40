import { expect } from 'chai';
import fc from 'fast-check';
import { NO_SLOT, TrackedIds, type Tracking } from '../../lib/streams/tracked-ids.js';

interface Search extends Tracking {
  name: number;
}

const searchOf = (name: number, keepsIds: boolean): Search => ({ name, trackedCount: 0, trackedIds: keepsIds ? [] : undefined, trackSlot: NO_SLOT, trackMark: 0, trackGone: false });

function trackersOf(tracked: TrackedIds<Search>, id: string): Search[] {
  const into: Search[] = [];
  into.length = tracked.trackers(id, into);
  return into;
}

type Op =
  | { op: 'add'; search: number; id: number; cap: number }
  | { op: 'expect'; searches: number[]; id: number; cap: number }
  | { op: 'delete'; search: number; id: number }
  | { op: 'forget'; search: number }
  | { op: 'ask'; search: number; id: number };

const SEARCHES = 6;
const IDS = 5;
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), search: fc.nat(SEARCHES - 1), id: fc.nat(IDS - 1), cap: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ op: fc.constant('expect' as const), searches: fc.uniqueArray(fc.nat(SEARCHES - 1), { maxLength: SEARCHES }), id: fc.nat(IDS - 1), cap: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ op: fc.constant('delete' as const), search: fc.nat(SEARCHES - 1), id: fc.nat(IDS - 1) }),
  fc.record({ op: fc.constant('forget' as const), search: fc.nat(SEARCHES - 1) }),
  fc.record({ op: fc.constant('ask' as const), search: fc.nat(SEARCHES - 1), id: fc.nat(IDS - 1) }),
);

/**
 * TrackedIds keeps the trackers of a document in a plain list with marks for the document in
 * focus, compacts lazily and sweeps forgotten searches in bulk: whatever the order of operations,
 * it answers as a map of id → set of searches would.
 */
describe('TrackedIds', () => {
  it('answers like a map of sets under any sequence of tracking, untracking and forgetting', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const tracked = new TrackedIds<Search>();
        // a forgotten search is replaced by a new one (a registration is never revived)
        const searches = Array.from({ length: SEARCHES }, (_, i) => searchOf(i, i % 2 === 0));
        const model = new Map<number, Set<Search>>();
        const modelCount = (s: Search) => [...model.values()].filter((set) => set.has(s)).length;
        for (const o of ops) {
          const s = searches['search' in o ? o.search : 0];
          if (o.op === 'add') {
            const already = model.get(o.id)?.has(s) ?? false;
            const room = modelCount(s) < o.cap;
            expect(tracked.add(s, String(o.id), o.cap)).to.equal(already || room);
            if (!already && room) model.set(o.id, (model.get(o.id) ?? new Set()).add(s));
          } else if (o.op === 'expect') {
            // a write's exact matches: the room told first, then one add each (the list grows once)
            tracked.expect(String(o.id), o.searches.length);
            for (const t of o.searches.map((k) => searches[k])) {
              const already = model.get(o.id)?.has(t) ?? false;
              const room = modelCount(t) < o.cap;
              expect(tracked.add(t, String(o.id), o.cap)).to.equal(already || room);
              if (!already && room) model.set(o.id, (model.get(o.id) ?? new Set()).add(t));
            }
          } else if (o.op === 'delete') {
            tracked.delete(s, String(o.id));
            model.get(o.id)?.delete(s);
          } else if (o.op === 'forget') {
            tracked.forget(s);
            for (const set of model.values()) set.delete(s);
            searches[o.search] = searchOf(o.search + SEARCHES * (ops.indexOf(o) + 1), o.search % 2 === 0);
          } else {
            expect(tracked.has(s, String(o.id))).to.equal(model.get(o.id)?.has(s) ?? false);
          }
          for (const search of searches) expect(search.trackedCount, `count of ${search.name}`).to.equal(modelCount(search));
        }
        for (let id = 0; id < IDS; id++) {
          const trackers = trackersOf(tracked, String(id));
          expect(new Set(trackers).size, 'each tracker listed once').to.equal(trackers.length);
          expect(trackers.map((s) => s.name).sort()).to.deep.equal([...(model.get(id) ?? [])].map((s) => s.name).sort());
        }
        for (const s of searches) {
          if (!s.trackedIds) continue;
          const ids = [...model].filter(([, set]) => set.has(s)).map(([id]) => String(id));
          expect(tracked.idsOf(s).sort()).to.deep.equal(ids.sort());
        }
      }),
      { numRuns: 500 },
    );
  });

  it('drops the entries of forgotten searches once they outnumber the others', () => {
    const tracked = new TrackedIds<Search>();
    const keeper = searchOf(-1, false);
    const ids = Array.from({ length: 3_000 }, (_, i) => String(i));
    const many = Array.from({ length: 3 }, (_, i) => searchOf(i, false));
    for (const s of many) for (const id of ids) tracked.add(s, id, 10_000);
    tracked.add(keeper, '7', 10_000);
    for (const s of many) tracked.forget(s);
    const lists = (tracked as unknown as { byId: Map<string, unknown[]> }).byId;
    expect(lists.size, 'lists left after the sweep').to.equal(1);
    expect(trackersOf(tracked, '7')).to.deep.equal([keeper]);
    // the forgotten searches' slots serve new searches, which track only what they track
    const next = Array.from({ length: 3 }, (_, i) => searchOf(10 + i, false));
    for (const s of next) tracked.add(s, '8', 10_000);
    expect(next.map((s) => s.trackSlot).sort()).to.deep.equal(many.map((_, i) => i).sort(), 'slots reused');
    expect(trackersOf(tracked, '7')).to.deep.equal([keeper]);
    expect(trackersOf(tracked, '8').map((s) => s.name)).to.deep.equal([10, 11, 12]);
    for (const id of ['0', '1', '2999']) expect(trackersOf(tracked, id)).to.deep.equal([]);
    expect(next.every((s) => tracked.has(s, '8') && !tracked.has(s, '7'))).to.equal(true);
  });
});
