import { arraySlotBytes, stringBytes, type CharBytes } from './memory-bytes.js';

/**
 * A field's term dictionary: term → term id (ids are dense, in order of first appearance). Open
 * addressing over Int32Arrays of (hash, id) pairs, so a probe reads one cache line and compares a
 * string only when the hashes agree — about twice as fast as a Map on dictionaries of 10⁴–10⁵
 * fresh token strings, and a fraction of its memory.
 *
 * A small dictionary is one table. Past SPLIT_AT terms it becomes SHARDS tables, chosen by the
 * hash's top bits, each growing on its own: a table doubles by rehashing what it holds, and one
 * table of millions of terms would hold the event loop for tens of milliseconds while it does.
 */
export class TermDict {
  /** Term id → term. */
  readonly terms: string[] = [];
  /** Per shard: slot p holds the term's hash at 2p and its id + 1 at 2p + 1 (0: empty slot). */
  private tables: Int32Array[] = [new Int32Array(256)];
  private masks: number[] = [127];
  /** Hash bits that choose the shard (0: one table). */
  private shardBits = 0;
  /** Whether the last `intern` added its term. */
  added = false;

  static readonly SPLIT_AT = 1 << 16;
  static readonly SHARD_BITS = 6;

  get size(): number {
    return this.terms.length;
  }

  /** The bytes its tables and term strings take (see InvertedIndex.memoryBytes). */
  memoryBytes(charBytes: CharBytes): number {
    let n = arraySlotBytes(this.terms.length);
    for (const t of this.tables) n += t.byteLength;
    for (const t of this.terms) n += stringBytes(t, charBytes);
    return n;
  }

  static hash(term: string): number {
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
    return h ^ (h >>> 16);
  }

  private shardOf(h: number): number {
    return this.shardBits === 0 ? 0 : h >>> (32 - this.shardBits);
  }

  /** The id of a term, -1 when absent. */
  get(term: string): number {
    const h = TermDict.hash(term);
    const s = this.shardOf(h);
    const table = this.tables[s];
    const mask = this.masks[s];
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const id = table[2 * p + 1] - 1;
      if (id === -1) return -1;
      if (table[2 * p] === h && this.terms[id] === term) return id;
    }
  }

  /**
   * A dictionary of distinct terms, ids in list order (a snapshot's term list): the tables sized
   * once, no lookups. The list becomes the dictionary's own.
   */
  static ofDistinct(terms: string[]): TermDict {
    const d = new TermDict();
    (d as { terms: string[] }).terms = terms;
    if (terms.length > TermDict.SPLIT_AT) d.split(terms.length);
    else d.build(capacityFor(terms.length));
    return d;
  }

  /** The id of a term, added when absent (`added` tells which). */
  intern(term: string): number {
    const h = TermDict.hash(term);
    const s = this.shardOf(h);
    const table = this.tables[s];
    const mask = this.masks[s];
    let p = h & mask;
    for (; ; p = (p + 1) & mask) {
      const id = table[2 * p + 1] - 1;
      if (id === -1) break;
      if (table[2 * p] === h && this.terms[id] === term) {
        this.added = false;
        return id;
      }
    }
    const id = this.terms.length;
    this.terms.push(term);
    table[2 * p] = h;
    table[2 * p + 1] = id + 1;
    this.added = true;
    if (this.shardBits === 0) {
      if (this.terms.length > TermDict.SPLIT_AT) this.split(this.terms.length);
      else if (this.terms.length * 2 > mask + 1) this.rehash(0, (mask + 1) * 2);
    } else if (++this.counts[s] * 2 > mask + 1) this.rehash(s, (mask + 1) * 2);
    return id;
  }

  /** Terms per shard, once split. */
  private counts: number[] = [];

  /** One table → SHARDS tables, each sized for its share of `expected` terms. */
  private split(expected: number): void {
    this.shardBits = TermDict.SHARD_BITS;
    const shards = 1 << this.shardBits;
    const capacity = capacityFor(Math.ceil(expected / shards) * 2);
    this.tables = [];
    this.masks = [];
    this.counts = new Array<number>(shards).fill(0);
    for (let s = 0; s < shards; s++) {
      this.tables.push(new Int32Array(2 * capacity));
      this.masks.push(capacity - 1);
    }
    const terms = this.terms;
    for (let id = 0; id < terms.length; id++) {
      const h = TermDict.hash(terms[id]);
      const s = this.shardOf(h);
      this.place(this.tables[s], this.masks[s], h, id + 1);
      this.counts[s]++;
    }
  }

  /** The one table of an unsplit dictionary, built from the term list. */
  private build(capacity: number): void {
    const table = new Int32Array(2 * capacity);
    for (let id = 0; id < this.terms.length; id++) this.place(table, capacity - 1, TermDict.hash(this.terms[id]), id + 1);
    this.tables = [table];
    this.masks = [capacity - 1];
  }

  private place(table: Int32Array, mask: number, h: number, id1: number): void {
    let p = h & mask;
    while (table[2 * p + 1] !== 0) p = (p + 1) & mask;
    table[2 * p] = h;
    table[2 * p + 1] = id1;
  }

  private rehash(s: number, capacity: number): void {
    const old = this.tables[s];
    const table = new Int32Array(2 * capacity);
    const mask = capacity - 1;
    for (let q = 0; q < old.length; q += 2) {
      const id1 = old[q + 1];
      if (id1 !== 0) this.place(table, mask, old[q], id1);
    }
    this.tables[s] = table;
    this.masks[s] = mask;
  }

  /** [term, id] pairs, in id order. */
  *entries(): IterableIterator<[string, number]> {
    for (let id = 0; id < this.terms.length; id++) yield [this.terms[id], id];
  }
}

/** Slots for `n` terms at most half full (a power of two, 128 at least). */
function capacityFor(n: number): number {
  let capacity = 128;
  while (n * 2 > capacity) capacity *= 2;
  return capacity;
}
