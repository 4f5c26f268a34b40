import { seededRandom } from '../../support/seeded-random.js';

/**
 * Random documents and live searches over one mapping, for specs that hold the index of live
 * searches to the matcher: small vocabularies so that terms, ranges and existence often agree,
 * and query shapes of every kind the index knows (and some it does not).
 */

export const MAPPINGS = {
  properties: {
    title: { type: 'text' },
    tag: { type: 'keyword' },
    code: { type: 'keyword', normalizer: 'lower' },
    n: { type: 'long' },
    price: { type: 'double' },
    when: { type: 'date' },
    flag: { type: 'boolean' },
    user: { properties: { name: { type: 'keyword' }, age: { type: 'integer' } } },
  },
};

export const SETTINGS = { analysis: { normalizer: { lower: { type: 'custom', filter: ['lowercase'] } } } };

export type Random = () => number;

/** A seeded generator, so a failure can be replayed. */
export const seeded: (seed: number) => Random = seededRandom;

const WORDS = ['red', 'green', 'blue', 'apple', 'apples', 'pear', 'fast', 'slow', 'big', 'car'];
const TAGS = ['a', 'b', 'c', 'd', 'e'];
const CODES = ['Ab', 'aB', 'cd', 'EF', 'x'];
const NAMES = ['ann', 'bob', 'cid'];

const day = (k: number) => new Date(Date.UTC(2020, 0, 1 + k)).toISOString().slice(0, 10);

export function randomDocument(random: Random): Record<string, unknown> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const maybe = (p = 0.75) => random() < p;
  const doc: Record<string, unknown> = {};
  if (maybe()) doc.title = Array.from({ length: int(1, 5) }, () => pick(WORDS)).join(' ');
  if (maybe()) doc.tag = random() < 0.3 ? Array.from({ length: int(0, 3) }, () => pick(TAGS)) : pick(TAGS);
  if (maybe(0.5)) doc.code = pick(CODES);
  if (maybe()) doc.n = random() < 0.2 ? [int(-5, 20), int(-5, 20)] : int(-5, 20);
  if (maybe(0.6)) doc.price = Math.round(random() * 10_000) / 100;
  if (maybe(0.6)) doc.when = day(int(0, 60));
  if (maybe(0.5)) doc.flag = random() < 0.5;
  if (maybe(0.6)) {
    const user: Record<string, unknown> = {};
    if (maybe()) user.name = pick(NAMES);
    if (maybe()) user.age = int(10, 60);
    doc.user = user;
  }
  return doc;
}

/** A search's `query`: any shape, nested up to `depth` bools deep. */
export function randomQuery(random: Random, depth = 2): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const bounds = (lo: () => unknown, hi: () => unknown) => {
    const out: Record<string, unknown> = {};
    const low = random();
    if (low < 0.4) out.gte = lo();
    else if (low < 0.75) out.gt = lo();
    const high = random();
    if (high < 0.4) out.lte = hi();
    else if (high < 0.75) out.lt = hi();
    return out;
  };
  const leaves: Array<() => unknown> = [
    () => ({ term: { tag: pick(TAGS) } }),
    () => ({ term: { 'user.name': pick(NAMES) } }),
    () => ({ term: { code: pick(CODES) } }),
    () => ({ term: { n: int(-5, 20) } }),
    () => ({ terms: { tag: [pick(TAGS), pick(TAGS)] } }),
    () => ({ ids: { values: [String(int(0, 30)), String(int(0, 30))] } }),
    () => ({ match: { title: pick(WORDS) } }),
    () => ({ match: { title: { query: `${pick(WORDS)} ${pick(WORDS)}`, operator: pick(['and', 'or']) } } }),
    () => ({ match_phrase: { title: `${pick(WORDS)} ${pick(WORDS)}` } }),
    () => ({ match_phrase_prefix: { title: `${pick(WORDS)} ${pick(WORDS).slice(0, int(1, 3))}` } }),
    () => ({ multi_match: { query: pick(WORDS), fields: ['title', 'tag'] } }),
    () => ({ range: { n: bounds(() => int(-5, 20), () => int(-5, 20)) } }),
    () => ({ range: { price: bounds(() => random() * 100, () => random() * 100) } }),
    () => ({ range: { when: bounds(() => day(int(0, 60)), () => day(int(0, 60))) } }),
    () => ({ range: { when: { gte: 'now-3000d/d' } } }),
    () => ({ range: { tag: bounds(() => pick(TAGS), () => pick(TAGS)) } }),
    () => ({ range: { code: bounds(() => pick(CODES), () => pick(CODES)) } }),
    () => ({ range: { flag: bounds(() => pick([true, false]), () => pick([true, false])) } }),
    () => ({ range: { 'user.age': bounds(() => int(10, 60), () => int(10, 60)) } }),
    () => ({ range: { nope: { gte: 1 } } }),
    () => ({ exists: { field: pick(['tag', 'user', 'user.name', 'price', 'title', 'nope']) } }),
    () => ({ prefix: { tag: pick(TAGS) } }),
    () => ({ prefix: { title: pick(WORDS).slice(0, int(1, 3)) } }),
    () => ({ prefix: { code: { value: pick(CODES).slice(0, 1), case_insensitive: random() < 0.5 } } }),
    () => ({ wildcard: { tag: `${pick(TAGS)}*` } }),
    () => ({ match_all: {} }),
    () => ({ match_none: {} }),
  ];
  const leaf = () => pick(leaves)();
  const child = () => (depth > 0 && random() < 0.3 ? randomQuery(random, depth - 1) : leaf());
  const clauses = (max: number) => Array.from({ length: int(0, max) }, child);
  const roll = random();
  if (depth === 0 || roll < 0.45) return leaf();
  if (roll < 0.85) {
    const bool: Record<string, unknown> = { must: clauses(2), filter: clauses(2), should: clauses(3), must_not: clauses(1) };
    const msm = pick([undefined, undefined, 1, 2, '50%', -1, '-50%']);
    if (msm !== undefined) bool.minimum_should_match = msm;
    return { bool };
  }
  if (roll < 0.9) return { constant_score: { filter: child() } };
  if (roll < 0.95) return { dis_max: { queries: [child(), child()] } };
  return { boosting: { positive: child(), negative: child(), negative_boost: 0.5 } };
}
