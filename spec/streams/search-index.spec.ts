import { expect } from 'chai';
import { createAnalysisRegistry, inRange, parseQuery, prepareDocument, preparedMatches, rewriteQuery, type MatchContext, type Query } from '../../lib/engine/embedded/matching.js';
import { IntervalIndex, type Bound, type IntervalItem } from '../../lib/streams/search-index/interval-index.js';
import { NOT_INDEXED, SearchIndex, requirementOf, type Indexed } from '../../lib/streams/search-index/index.js';
import { MAPPINGS, SETTINGS, randomDocument, randomQuery, seeded, type Random } from './support/random-searches.js';

const ctx: MatchContext = { mappings: MAPPINGS, registry: createAnalysisRegistry(SETTINGS.analysis) };

interface Search extends Indexed {
  dsl: unknown;
  rewritten: Query;
}

const searchOf = (dsl: unknown): Search => ({ dsl, rewritten: rewriteQuery(parseQuery(dsl), ctx), ...NOT_INDEXED });

/** A lookup's answer, copied out of the index's buffers (read up to their counts). */
function answerOf(index: SearchIndex<Search>, doc: Parameters<SearchIndex<Search>['candidates']>[0], also?: Search[]) {
  const found = index.candidates(doc, also);
  return { matching: found.matching.slice(0, found.matchingCount), possible: found.possible.slice(0, found.possibleCount) };
}

/**
 * Holds the index to the matcher for every document: each search the document matches is a
 * candidate, and each search the index says it matches (an exact requirement) does match. A few
 * searches are named by the caller too (those tracking the document): each is a candidate, once.
 */
function expectSameVerdicts(index: SearchIndex<Search>, searches: Iterable<Search>, random: Random, documents: number) {
  let candidates = 0;
  let matching = 0;
  let matches = 0;
  for (let d = 0; d < documents; d++) {
    const source = randomDocument(random);
    const doc = prepareDocument({ id: String(d % 31), source }, ctx)!;
    const also = [...searches].filter(() => random() < 0.02);
    const found = answerOf(index, doc, also);
    const matchingSet = new Set(found.matching);
    const all = new Set([...found.matching, ...found.possible]);
    expect(all.size, 'each search is a candidate once').to.equal(found.matching.length + found.possible.length);
    for (const search of also) expect(all.has(search), `${JSON.stringify(search.dsl)} named by the caller is a candidate`).to.equal(true);
    for (const search of searches) {
      const matches_ = preparedMatches(search.rewritten, doc);
      if (matches_) {
        matches++;
        expect(all.has(search), `${JSON.stringify(search.dsl)} matches ${JSON.stringify(source)} but is not a candidate`).to.equal(true);
      }
      if (matchingSet.has(search)) expect(matches_, `${JSON.stringify(search.dsl)} said to match ${JSON.stringify(source)}`).to.equal(true);
    }
    candidates += all.size;
    matching += found.matching.length;
  }
  return { candidates, matching, matches };
}

describe('the index of live searches (search-index)', () => {
  it('gives the same verdicts as testing every search, over random documents and query shapes', function () {
    this.timeout(60_000); // 1,500 searches × 400 documents: seconds of CPU, more on a busy machine
    const random = seeded(20_240_601);
    const searches = Array.from({ length: 1_500 }, () => searchOf(randomQuery(random)));
    const index = new SearchIndex<Search>();
    for (const s of searches) index.add(s, requirementOf(s.rewritten, ctx));
    const { candidates, matching, matches } = expectSameVerdicts(index, searches, random, 400);
    // the index narrows (a quarter of the searches are pure leaves it indexes exactly) and most matches need no matcher
    expect(candidates).to.be.below(searches.length * 400 * 0.6);
    expect(matching).to.be.above(matches * 0.3);
  });

  it('keeps the same verdicts as searches come and go (and come back)', () => {
    const random = seeded(7);
    const index = new SearchIndex<Search>();
    const live = new Set<Search>();
    const gone: Search[] = [];
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 150; i++) {
        const s = gone.length && random() < 0.2 ? gone.pop()! : searchOf(randomQuery(random));
        index.add(s, requirementOf(s.rewritten, ctx));
        live.add(s);
      }
      for (const s of [...live]) {
        if (random() < 0.4) {
          index.delete(s);
          live.delete(s);
          gone.push(s);
        }
      }
      const { candidates } = expectSameVerdicts(index, live, random, 30);
      expect(candidates, 'a search that left is never a candidate').to.be.at.most(live.size * 30);
      for (let d = 0; d < 5; d++) {
        const doc = prepareDocument({ id: 'x', source: randomDocument(random) }, ctx)!;
        const found = answerOf(index, doc);
        for (const s of [...found.matching, ...found.possible]) expect(live.has(s)).to.equal(true);
      }
    }
  });

  it('ranges of every kind: numbers, dates, keywords (normalized), booleans, open and closed ends', () => {
    const random = seeded(99);
    const searches: Search[] = [];
    for (let i = 0; i < 600; i++) {
      let dsl: unknown;
      do dsl = randomQuery(random, 0);
      while (!JSON.stringify(dsl).startsWith('{"range"'));
      searches.push(searchOf(dsl));
    }
    const index = new SearchIndex<Search>();
    let unindexed = 0;
    for (const s of searches) {
      const requirement = requirementOf(s.rewritten, ctx);
      if (!requirement.exact) unindexed++;
      index.add(s, requirement);
    }
    const { candidates, matching, matches } = expectSameVerdicts(index, searches, random, 300);
    // fixed ranges are exact, found only when they match; ranges from `now` or on unmapped fields go to the matcher
    expect(unindexed).to.be.below(searches.length / 4);
    expect(candidates).to.be.at.most(matches + unindexed * 300);
    expect(matching).to.be.at.least(matches - unindexed * 300);
  });

  it('the extra searches a caller names are candidates too, once', () => {
    const index = new SearchIndex<Search>();
    const a = searchOf({ term: { tag: 'a' } });
    const b = searchOf({ term: { tag: 'b' } });
    index.add(a, requirementOf(a.rewritten, ctx));
    index.add(b, requirementOf(b.rewritten, ctx));
    const doc = prepareDocument({ id: '1', source: { tag: 'a' } }, ctx)!;
    expect(answerOf(index, doc, [a, b])).to.deep.equal({ matching: [a], possible: [b] });
  });

  it('answers each lookup in its buffers up to their counts, and lets go of the searches on release', () => {
    const index = new SearchIndex<Search>();
    const tags = ['a', 'b', 'c', 'd'];
    const searches = tags.map((tag) => searchOf({ term: { tag } }));
    for (const s of searches) index.add(s, requirementOf(s.rewritten, ctx));
    const many = index.candidates(prepareDocument({ id: '1', source: { tag: tags } }, ctx)!);
    expect(many.matchingCount).to.equal(4);
    const one = index.candidates(prepareDocument({ id: '2', source: { tag: 'c' } }, ctx)!);
    expect(one.matching.slice(0, one.matchingCount)).to.deep.equal([searches[2]]);
    index.release();
    expect(one.matchingCount).to.equal(0);
    expect(one.matching.filter((s) => s !== undefined), 'the buffers hold no search').to.deep.equal([]);
  });
});

describe('interval index (stabbing)', () => {
  type Stored = [Bound | undefined, Bound | undefined, boolean, boolean];
  interface Item extends IntervalItem {
    id: number;
  }
  const itemOf = (id: number, lo: Bound | undefined, hi: Bound | undefined, loOpen: boolean, hiOpen: boolean): Item => ({ id, lo, hi, loOpen, hiOpen, intervalLive: false });
  // the matcher's own range test, open ends (gt, lt) included
  const brute = (intervals: Map<number, Stored>, v: Bound) =>
    [...intervals].filter(([, [lo, hi, loOpen, hiOpen]]) => inRange(v as number, { numeric: typeof v !== 'string', lo: lo as number, hi: hi as number, loInc: !loOpen, hiInc: !hiOpen }))
      .map(([k]) => k).sort((x, y) => x - y);

  for (const [kind, value] of [
    ['numbers', (r: Random) => Math.floor(r() * 100)],
    ['BigInts', (r: Random) => BigInt(Math.floor(r() * 100)) * 1_000_000n],
    ['strings', (r: Random) => String.fromCharCode(97 + Math.floor(r() * 26))],
  ] as const) {
    it(`finds exactly the intervals that contain a value, open ends as the matcher tests them, as intervals are added and deleted (${kind})`, () => {
      const random = seeded(kind.length);
      const index = new IntervalIndex<Item>();
      const intervals = new Map<number, Stored>();
      const items = new Map<number, Item>();
      for (let step = 0; step < 3_000; step++) {
        const roll = random();
        if (roll < 0.5) {
          const a = random() < 0.1 ? undefined : value(random);
          const b = random() < 0.1 ? undefined : value(random);
          const [lo, hi] = a !== undefined && b !== undefined && a > b ? [b, a] : [a, b];
          const id = Math.floor(random() * 400);
          const loOpen = random() < 0.3;
          const hiOpen = random() < 0.3;
          // an id given another interval: the item holding the old one leaves first
          const old = items.get(id);
          if (old) index.delete(old);
          const item = itemOf(id, lo, hi, loOpen, hiOpen);
          index.add(item);
          items.set(id, item);
          intervals.set(id, [lo, hi, loOpen, hiOpen]);
        } else if (roll < 0.7) {
          const id = Math.floor(random() * 400);
          const old = items.get(id);
          if (old) index.delete(old);
          items.delete(id);
          intervals.delete(id);
        } else {
          const v = value(random);
          const found: number[] = [];
          index.stab(v, (item) => found.push(item.id));
          expect(found.sort((x, y) => x - y), `stab ${String(v)}`).to.deep.equal(brute(intervals, v));
        }
        expect(index.size).to.equal(intervals.size);
      }
    });
  }

  it('NaN lies in every range (the matcher lets it through every bound)', () => {
    const index = new IntervalIndex<Item>();
    index.add(itemOf(1, 1, 2, false, false));
    index.add(itemOf(2, undefined, 0, false, true));
    const found: number[] = [];
    index.stab(NaN, (item) => found.push(item.id));
    expect(found.sort()).to.deep.equal([1, 2]);
  });
});
