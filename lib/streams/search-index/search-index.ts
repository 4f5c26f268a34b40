import { fieldExists, type PreparedDocument } from '../../engine/embedded/index.js';
import { testOf, type DocumentTest } from './atom-tests.js';
import { Bucket, type Bucketed, type RangeAtom } from './bucket.js';
import type { Atom, Requirement } from './requirement.js';

/**
 * What the index keeps of each search it holds, on the search itself: a lookup that finds
 * thousands of searches reads one object for each — the one its caller reads next — rather than
 * a slot of the index's, then the caller's search (a write's cost is mostly reading memory). A
 * search is held by one index at a time.
 */
export interface Indexed {
  /** The last lookup that made the search a candidate (a search is one candidate, however many entries it has). */
  indexRound: number;
  /** A document that satisfies one of the entries matches (the requirement is exact). */
  indexExact: boolean;
  /** The search's entries while the index holds it (the index's own), undefined when it does not. */
  indexEntries: unknown[] | undefined;
}

/** The fields of `Indexed` for a search no index holds yet. */
export const NOT_INDEXED: Readonly<Indexed> = { indexRound: 0, indexExact: false, indexEntries: undefined };

type KeyAtom = Exclude<Atom, RangeAtom | { kind: 'not' }>;

/**
 * One conjunction of a search's requirement: in the bucket of its most selective atom (`key`;
 * none when it has only ranges), by interval when it has a range, and kept when the rest hold too.
 */
interface Entry<S> extends Bucketed {
  readonly search: S;
  readonly key?: KeyAtom;
  readonly rest: readonly DocumentTest[];
}

interface PrefixBuckets<S> {
  readonly byPrefix: Map<string, Bucket<Entry<S>>>;
  /** Prefix length → how many buckets have a prefix of that length; `lengths` lists the lengths ascending. */
  readonly counts: Map<number, number>;
  lengths: number[];
}

/**
 * The searches a document concerns, each once: the index's own buffers, read up to their counts
 * (a write found by thousands of searches copies none of them out), valid until the index's next
 * lookup or `release`.
 */
export interface Candidates<S> {
  /** Found through an exact requirement: the document matches them (`matching[0..matchingCount)`). */
  readonly matching: readonly S[];
  readonly matchingCount: number;
  /** The document may match them: the matcher decides (`possible[0..possibleCount)`). */
  readonly possible: readonly S[];
  readonly possibleCount: number;
}

/**
 * The tests of a conjunction with none left besides its key and range: one array for all of them,
 * so that a lookup finding thousands of such entries reads one array, not one each.
 */
const NO_TESTS: readonly DocumentTest[] = [];
const NO_SEARCHES: readonly never[] = [];

/** Which atom of a conjunction is its key: the one fewest documents are expected to satisfy. */
const SELECTIVITY: Record<KeyAtom['kind'], number> = { id: 0, term: 1, prefix: 2, exists: 3 };

function bucketIn<S>(buckets: Map<string, Bucket<Entry<S>>>, key: string): Bucket<Entry<S>> {
  let bucket = buckets.get(key);
  if (!bucket) buckets.set(key, (bucket = new Bucket()));
  return bucket;
}

/** Removes the entry from its bucket, and the bucket when it is left empty (false: it was not there). */
function leave<S>(buckets: Map<string, Bucket<Entry<S>>> | undefined, key: string, entry: Entry<S>): boolean {
  const bucket = buckets?.get(key);
  if (!bucket) return false;
  bucket.delete(entry);
  if (bucket.size > 0) return false;
  buckets!.delete(key);
  return true;
}

/**
 * Searches indexed by what a document must satisfy for them to match (`Requirement`), so that a
 * changed document is looked up against it rather than tested against every search: a search is
 * a candidate when one of its conjunctions holds — found by its most selective atom (the
 * document's id and terms, term prefixes, field existence) and, when it has a range, by an
 * interval tree of the ranges under that atom (or of a field's ranges), the conjunction's other
 * atoms (exclusions among them) then tested on the document. Every atom is tested as the matcher
 * tests its clause, so the candidates always include the searches that match, and a search whose
 * requirement is exact matches when it is found; searches without a requirement are candidates
 * for every document.
 */
export class SearchIndex<S extends Indexed> {
  private readonly always = new Set<S>();
  private readonly byId = new Map<string, Bucket<Entry<S>>>();
  private readonly byTerm = new Map<string, Map<string, Bucket<Entry<S>>>>();
  private readonly byPrefix = new Map<string, PrefixBuckets<S>>();
  private readonly byExists = new Map<string, Bucket<Entry<S>>>();
  /** Conjunctions of ranges only. */
  private readonly ranges = new Bucket<Entry<S>>();
  private round = 0;
  /** Where a lookup gathers its candidates, handed out as they are (`Candidates`). */
  private readonly found = { matching: [] as S[], possible: [] as S[], matchingCount: 0, possibleCount: 0 };

  add(search: S, requirement: Requirement): void {
    this.delete(search);
    const { alternatives, exact } = requirement;
    const entries: Array<Entry<S>> = [];
    search.indexEntries = entries;
    search.indexExact = exact;
    search.indexRound = 0;
    // a conjunction of no atoms always holds; one of exclusions only has nothing to be found by
    if (alternatives.some((conjunction) => conjunction.every((atom) => atom.kind === 'not'))) {
      this.always.add(search);
      return;
    }
    for (const conjunction of alternatives) {
      let key: KeyAtom | undefined;
      let range: RangeAtom | undefined;
      let keySize = 0;
      for (const atom of conjunction) {
        if (atom.kind === 'range') {
          range ??= atom;
          continue;
        }
        if (atom.kind === 'not' || (key && SELECTIVITY[atom.kind] > SELECTIVITY[key.kind])) continue;
        // of atoms of one kind, the one whose bucket holds fewest entries: every write with a
        // common word (one many searches ask for) would test each entry under it again
        const size = this.sizeUnder(atom);
        if (!key || SELECTIVITY[atom.kind] < SELECTIVITY[key.kind] || size < keySize) {
          key = atom;
          keySize = size;
        }
      }
      const tests = conjunction.filter((atom) => atom !== key && atom !== range).map(testOf);
      const rest = tests.length ? tests : NO_TESTS;
      // every field written out, those a stab and the lookup read first (a spread's fields would live apart, one more memory read per candidate)
      const bounds = range?.bounds;
      const entry: Entry<S> = {
        intervalLive: false, lo: bounds?.lo, hi: bounds?.hi, loOpen: bounds ? !bounds.loInc : false, hiOpen: bounds ? !bounds.hiInc : false,
        search, rest, key, range, at: -1,
      };
      entries.push(entry);
      this.bucketOf(entry).add(entry);
    }
  }

  delete(search: S): void {
    const entries = search.indexEntries as Array<Entry<S>> | undefined;
    if (!entries) return;
    search.indexEntries = undefined;
    this.always.delete(search);
    for (const entry of entries) this.leave(entry);
  }

  /**
   * The searches the document concerns, with `also[0..alsoCount)` (registered searches the matcher
   * must decide anyway). The answer is the index's buffers: read it before the next lookup.
   */
  candidates(doc: PreparedDocument | undefined, also: readonly S[] = NO_SEARCHES, alsoCount = also.length): Candidates<S> {
    const round = ++this.round;
    const found = this.found;
    this.release();
    if (doc) this.lookUp(doc, round);
    for (const search of this.always) this.mayMatch(search, round);
    for (let i = 0; i < alsoCount; i++) if (also[i].indexEntries !== undefined) this.mayMatch(also[i], round);
    return found;
  }

  /** Lets go of the last answer's searches (the buffers keep their room, not the searches). */
  release(): void {
    const found = this.found;
    found.matching.fill(undefined as unknown as S, 0, found.matchingCount);
    found.possible.fill(undefined as unknown as S, 0, found.possibleCount);
    found.matchingCount = 0;
    found.possibleCount = 0;
  }

  private mayMatch(search: S, round: number): void {
    if (search.indexRound === round) return;
    search.indexRound = round;
    const found = this.found;
    found.possible[found.possibleCount++] = search;
  }

  /** The searches found through their entries (first, so that an exact one counts as matching). */
  private lookUp(doc: PreparedDocument, round: number): void {
    const found = this.found;
    const take = (entry: Entry<S>) => {
      const search = entry.search;
      if (search.indexRound === round) return;
      const rest = entry.rest;
      for (let i = 0; i < rest.length; i++) if (!rest[i](doc)) return;
      search.indexRound = round;
      if (search.indexExact) found.matching[found.matchingCount++] = search;
      else found.possible[found.possibleCount++] = search;
    };
    if (this.byId.size) this.byId.get(doc.id)?.visit(doc, take);
    for (const [field, buckets] of this.byTerm) {
      const terms = doc.fields.get(field)?.terms;
      if (terms) for (const term of terms) buckets.get(term)?.visit(doc, take);
    }
    for (const [field, prefixes] of this.byPrefix) {
      const terms = doc.fields.get(field)?.terms;
      if (!terms) continue;
      for (const term of terms) {
        for (const length of prefixes.lengths) {
          if (length > term.length) break;
          prefixes.byPrefix.get(term.slice(0, length))?.visit(doc, take);
        }
      }
    }
    for (const [field, bucket] of this.byExists) if (fieldExists(doc.fields, field)) bucket.visit(doc, take);
    this.ranges.visit(doc, take);
  }

  /** How many entries the bucket of a key holds now (none made). */
  private sizeUnder(key: KeyAtom): number {
    switch (key.kind) {
      case 'id':
        return this.byId.get(key.id)?.size ?? 0;
      case 'term':
        return this.byTerm.get(key.field)?.get(key.term)?.size ?? 0;
      case 'prefix':
        return this.byPrefix.get(key.field)?.byPrefix.get(key.prefix)?.size ?? 0;
      case 'exists':
        return this.byExists.get(key.field)?.size ?? 0;
    }
  }

  private bucketOf(entry: Entry<S>): Bucket<Entry<S>> {
    const key = entry.key;
    switch (key?.kind) {
      case undefined:
        return this.ranges;
      case 'id':
        return bucketIn(this.byId, key.id);
      case 'term': {
        let buckets = this.byTerm.get(key.field);
        if (!buckets) this.byTerm.set(key.field, (buckets = new Map()));
        return bucketIn(buckets, key.term);
      }
      case 'prefix': {
        let prefixes = this.byPrefix.get(key.field);
        if (!prefixes) this.byPrefix.set(key.field, (prefixes = { byPrefix: new Map(), counts: new Map(), lengths: [] }));
        if (!prefixes.byPrefix.has(key.prefix)) {
          const n = prefixes.counts.get(key.prefix.length) ?? 0;
          prefixes.counts.set(key.prefix.length, n + 1);
          if (n === 0) prefixes.lengths = [...prefixes.counts.keys()].sort((a, b) => a - b);
        }
        return bucketIn(prefixes.byPrefix, key.prefix);
      }
      case 'exists':
        return bucketIn(this.byExists, key.field);
    }
  }

  private leave(entry: Entry<S>): void {
    const key = entry.key;
    switch (key?.kind) {
      case undefined:
        return this.ranges.delete(entry);
      case 'id':
        leave(this.byId, key.id, entry);
        return;
      case 'term': {
        const buckets = this.byTerm.get(key.field);
        if (leave(buckets, key.term, entry) && buckets!.size === 0) this.byTerm.delete(key.field);
        return;
      }
      case 'prefix': {
        const prefixes = this.byPrefix.get(key.field);
        if (!prefixes || !leave(prefixes.byPrefix, key.prefix, entry)) return;
        const n = prefixes.counts.get(key.prefix.length)! - 1;
        if (n > 0) prefixes.counts.set(key.prefix.length, n);
        else {
          prefixes.counts.delete(key.prefix.length);
          prefixes.lengths = [...prefixes.counts.keys()].sort((a, b) => a - b);
        }
        if (prefixes.byPrefix.size === 0) this.byPrefix.delete(key.field);
        return;
      }
      case 'exists':
        leave(this.byExists, key.field, entry);
        return;
    }
  }
}
