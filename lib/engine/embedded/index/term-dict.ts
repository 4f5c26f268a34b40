/**
 * A field's term dictionary: term → term id (ids are dense, in order of first appearance). Open
 * addressing over an Int32Array with each term's hash kept by id, so a lookup touches two int
 * columns and compares a string only when the hashes agree — about twice as fast as a Map on
 * dictionaries of 10⁴–10⁵ fresh token strings, and a fraction of its memory.
 */
export class TermDict {
  /** Term id → term. */
  readonly terms: string[] = [];
  private hashes = new Int32Array(64);
  private slots = new Int32Array(128).fill(-1);
  private mask = 127;
  /** Whether the last `intern` added its term. */
  added = false;

  get size(): number {
    return this.terms.length;
  }

  static hash(term: string): number {
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
    return h ^ (h >>> 16);
  }

  /** The id of a term, -1 when absent. */
  get(term: string): number {
    const h = TermDict.hash(term);
    const slots = this.slots;
    const mask = this.mask;
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const id = slots[p];
      if (id === -1) return -1;
      if (this.hashes[id] === h && this.terms[id] === term) return id;
    }
  }

  /** The id of a term, added when absent (`added` tells which). */
  intern(term: string): number {
    const h = TermDict.hash(term);
    const slots = this.slots;
    const mask = this.mask;
    let p = h & mask;
    for (; ; p = (p + 1) & mask) {
      const id = slots[p];
      if (id === -1) break;
      if (this.hashes[id] === h && this.terms[id] === term) {
        this.added = false;
        return id;
      }
    }
    const id = this.terms.length;
    this.terms.push(term);
    if (id >= this.hashes.length) {
      const next = new Int32Array(this.hashes.length * 2);
      next.set(this.hashes);
      this.hashes = next;
    }
    this.hashes[id] = h;
    slots[p] = id;
    if (this.terms.length * 2 > slots.length) this.rehash(slots.length * 2);
    this.added = true;
    return id;
  }

  private rehash(capacity: number): void {
    const mask = capacity - 1;
    const slots = new Int32Array(capacity).fill(-1);
    const hashes = this.hashes;
    for (let id = 0; id < this.terms.length; id++) {
      let p = hashes[id] & mask;
      while (slots[p] !== -1) p = (p + 1) & mask;
      slots[p] = id;
    }
    this.slots = slots;
    this.mask = mask;
  }

  /** [term, id] pairs, in id order. */
  *entries(): IterableIterator<[string, number]> {
    for (let id = 0; id < this.terms.length; id++) yield [this.terms[id], id];
  }
}
