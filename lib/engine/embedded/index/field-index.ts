import type { IndexableField } from '../mapping/index.js';

/** Documents containing one term, in ordinal order, with in-document frequencies and positions. */
export interface Postings {
  ords: number[];
  freqs: number[];
  positions: number[][];
}

/**
 * The inverted index and doc values of one field. Postings of removed documents stay until
 * `compact` (like Lucene's deleted docs until a merge); readers check liveness.
 */
export class FieldIndex {
  readonly postings = new Map<string, Postings>();
  /** Field length (token count) per live document, for BM25 length normalisation. */
  readonly lengths = new Map<number, number>();
  /** Typed values per live document, for sorting, aggregations and ranges. */
  readonly docValues = new Map<number, Array<string | number | boolean>>();
  sumTotalTermFreq = 0;

  constructor(readonly type: string) {}

  /** Number of live documents that have this field. */
  get docCount(): number {
    return this.lengths.size;
  }

  add(ord: number, field: IndexableField): void {
    const perTerm = new Map<string, number[]>();
    field.terms.forEach((term, i) => {
      let pos = perTerm.get(term);
      if (!pos) perTerm.set(term, (pos = []));
      pos.push(field.positions[i]);
    });
    for (const [term, positions] of perTerm) {
      let p = this.postings.get(term);
      if (!p) this.postings.set(term, (p = { ords: [], freqs: [], positions: [] }));
      p.ords.push(ord);
      p.freqs.push(positions.length);
      p.positions.push(positions);
    }
    this.lengths.set(ord, field.terms.length);
    this.sumTotalTermFreq += field.terms.length;
    if (field.values.length) this.docValues.set(ord, field.values);
  }

  remove(ord: number): void {
    const len = this.lengths.get(ord);
    if (len === undefined) return;
    this.lengths.delete(ord);
    this.sumTotalTermFreq -= len;
    this.docValues.delete(ord);
  }

  /** Drops postings entries of documents that are no longer live. */
  compact(isLive: (ord: number) => boolean): void {
    for (const [term, p] of this.postings) {
      const keep: Postings = { ords: [], freqs: [], positions: [] };
      for (let i = 0; i < p.ords.length; i++) {
        if (!isLive(p.ords[i])) continue;
        keep.ords.push(p.ords[i]);
        keep.freqs.push(p.freqs[i]);
        keep.positions.push(p.positions[i]);
      }
      if (keep.ords.length) this.postings.set(term, keep);
      else this.postings.delete(term);
    }
  }
}
