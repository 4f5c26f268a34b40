import { expect } from 'chai';
import path from 'node:path';
import { MemoryChangeBus, type NewChange } from '../../lib/changes/index.js';
import { openEmbeddedEngine, type EmbeddedEngine } from '../../lib/engine/embedded/index.js';
import { parseQuery, prepareDocument, preparedMatches, rewriteQuery, type MatchContext, type Query } from '../../lib/engine/embedded/matching.js';
import { readJson } from '../../lib/engine/index.js';
import { LiveSearches, type LiveSearch, type LiveVerdict } from '../../lib/streams/live-searches.js';
import { MatchContexts } from '../../lib/streams/match-contexts.js';
import { tempDir } from '../support/servers.js';
import { MAPPINGS, SETTINGS, randomDocument, randomQuery, seeded } from './support/random-searches.js';

const INDEX = 'items';
const END = '__end__';

/** A live search as the reference sees it: the brute-force matcher, and its own tracking by the same rules. */
interface Reference {
  rewritten: Query;
  type?: string;
  cap: number;
  tracked: Set<string>;
  complete: boolean;
  verdicts: string[];
}

const verdictText = (v: Pick<LiveVerdict, 'matches' | 'wasTracked'> & { id: string }) => `${v.id} ${v.matches ? 'matches' : 'left'}${v.wasTracked ? ' (tracked)' : ''}`;

function track(ref: Reference, id: string): void {
  if (ref.tracked.has(id)) return;
  if (ref.tracked.size >= ref.cap) ref.complete = false;
  else ref.tracked.add(id);
}

/** What each search must be told about a change: a match, or a departure of a document it tracked. */
function referenceVerdicts(ref: Reference, change: Extract<NewChange, { kind: 'document' }>, ctx: MatchContext): void {
  const wasTracked = ref.tracked.has(change.id);
  if (change.op === 'delete') {
    if (wasTracked || !ref.complete) {
      ref.tracked.delete(change.id);
      ref.verdicts.push(verdictText({ id: change.id, matches: false, wasTracked }));
    }
    return;
  }
  const doc = prepareDocument({ id: change.id, source: change.source as Record<string, unknown> }, ctx);
  const matches = (ref.type === undefined || ref.type === change.type) && doc !== undefined && preparedMatches(ref.rewritten, doc);
  if (matches) {
    ref.verdicts.push(verdictText({ id: change.id, matches, wasTracked }));
    track(ref, change.id);
  } else if (wasTracked) {
    ref.tracked.delete(change.id);
    ref.verdicts.push(verdictText({ id: change.id, matches, wasTracked }));
  }
}

describe('live search verdicts through the index of live searches', function () {
  this.timeout(60_000);
  let engine: EmbeddedEngine;
  let removeData: () => Promise<void>;
  let contexts: MatchContexts;
  let ctx: MatchContext;

  before(async () => {
    const data = await tempDir('live-verdicts-');
    removeData = data.remove;
    engine = await openEmbeddedEngine({ dataDir: path.join(data.dir, 'engine') });
    const created = await engine.request({
      method: 'PUT', path: `/${INDEX}`, headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { index: SETTINGS }, mappings: MAPPINGS }),
    });
    expect(created.status, JSON.stringify(await readJson(created))).to.equal(200);
    contexts = new MatchContexts(engine);
    ctx = (await contexts.get(INDEX))!;
  });
  after(async () => {
    await engine.close();
    await removeData();
  });

  it('tells every search what testing it alone would: new matches, updates, departures, deletes, types and tracking caps', async () => {
    const random = seeded(4242);
    const bus = new MemoryChangeBus();
    const live = new LiveSearches(bus, contexts).of(INDEX);
    const references = new Map<LiveSearch, Reference>();
    let ended!: () => void;
    const end = new Promise<void>((resolve) => (ended = resolve));
    const told = new Map<LiveSearch, string[]>();
    const searchOf = (dsl: unknown, fields: Partial<LiveSearch> = {}): LiveSearch => {
      const search: LiveSearch = {
        query: parseQuery(dsl), trackedComplete: true, trackCap: 1_000,
        onVerdict: (v) => {
          if (v.change.id === END) {
            if (search.query.type === 'ids') ended();
            return;
          }
          told.get(search)!.push(verdictText({ id: v.change.id, matches: v.matches, wasTracked: v.wasTracked }));
        },
        onIndexEvent: () => undefined,
        onError: (err) => {
          throw err;
        },
        ...fields,
      };
      told.set(search, []);
      return search;
    };

    // the documents before the searches start, and what each search knows to match of them
    const existing = new Map<string, Record<string, unknown>>();
    for (let i = 0; i < 20; i++) existing.set(String(i), randomDocument(random));
    for (let i = 0; i < 400; i++) {
      const type = random() < 0.1 ? 'book' : undefined;
      const cap = random() < 0.1 ? 2 : 1_000;
      const search = searchOf(randomQuery(random), { type, trackCap: cap });
      await live.add(search, ctx);
      const ref: Reference = { rewritten: rewriteQuery(search.query, ctx), type, cap, tracked: new Set(), complete: true, verdicts: [] };
      references.set(search, ref);
      for (const [id, source] of existing) {
        const doc = prepareDocument({ id, source }, ctx);
        if (type === undefined && doc && preparedMatches(ref.rewritten, doc)) {
          live.track(search, id);
          track(ref, id);
        }
      }
      search.trackedComplete = ref.complete;
    }
    await live.add(searchOf({ ids: { values: [END] } }), ctx);

    let seqNo = 0;
    for (let i = 0; i < 500; i++) {
      const id = String(Math.floor(random() * 40));
      const type = random() < 0.2 ? 'book' : '_doc';
      const roll = random();
      const change: Extract<NewChange, { kind: 'document' }> = roll < 0.15
        ? { kind: 'document', index: INDEX, type, id, op: 'delete', version: 2, seqNo: ++seqNo, primaryTerm: 1 }
        : { kind: 'document', index: INDEX, type, id, op: roll < 0.6 ? 'index' : 'update', version: 2, seqNo: ++seqNo, primaryTerm: 1, source: randomDocument(random) };
      for (const ref of references.values()) referenceVerdicts(ref, change, ctx);
      void bus.publish(change);
    }
    void bus.publish({ kind: 'document', index: INDEX, type: '_doc', id: END, op: 'index', version: 1, seqNo: ++seqNo, primaryTerm: 1, source: {} });
    await end;

    let verdicts = 0;
    let departures = 0;
    for (const [search, ref] of references) {
      expect(told.get(search), JSON.stringify(search.query)).to.deep.equal(ref.verdicts);
      verdicts += ref.verdicts.length;
      departures += ref.verdicts.filter((v) => v.includes('left')).length;
    }
    // the run saw enough of each kind of verdict to mean something
    expect(verdicts).to.be.above(5_000);
    expect(departures).to.be.above(500);
    await bus.close();
  });
});
