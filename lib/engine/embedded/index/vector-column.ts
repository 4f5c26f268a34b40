import type { ColumnRef, SnapshotReader, SnapshotWriter } from './snapshot.js';

export interface VectorColumnSnapshot {
  ords: ColumnRef;
  lengths: ColumnRef;
  /** The vectors' components one after another, as doubles (a float widens exactly). */
  data: ColumnRef;
}

/**
 * The vectors of a dense_vector (knn_vector) field, one Float32Array per document ordinal: what a
 * kNN search reads, kept apart from doc values (numbers one by one) and from `_source`.
 */
export class VectorColumn {
  private readonly byOrd: Array<Float32Array | undefined> = [];

  get(ord: number): Float32Array | undefined {
    return this.byOrd[ord];
  }

  set(ord: number, v: Float32Array): void {
    this.byOrd[ord] = v;
  }

  delete(ord: number): void {
    if (ord < this.byOrd.length) this.byOrd[ord] = undefined;
  }

  get size(): number {
    return this.byOrd.length;
  }

  memoryBytes(): number {
    let n = this.byOrd.length * 8;
    for (const v of this.byOrd) if (v) n += v.byteLength + 64;
    return n;
  }

  clone(): VectorColumn {
    const c = new VectorColumn();
    this.byOrd.forEach((v, ord) => v && c.set(ord, v));
    return c;
  }

  toSnapshot(w: SnapshotWriter): VectorColumnSnapshot {
    const ords: number[] = [];
    const lengths: number[] = [];
    let total = 0;
    this.byOrd.forEach((v, ord) => {
      if (!v) return;
      ords.push(ord);
      lengths.push(v.length);
      total += v.length;
    });
    const data = new Float64Array(total);
    let at = 0;
    for (const ord of ords) {
      data.set(this.byOrd[ord]!, at);
      at += this.byOrd[ord]!.length;
    }
    return { ords: w.column(Int32Array.from(ords)), lengths: w.column(Int32Array.from(lengths)), data: w.column(data) };
  }

  static fromSnapshot(r: SnapshotReader, s: VectorColumnSnapshot): VectorColumn {
    const c = new VectorColumn();
    const ords = r.i32(s.ords);
    const lengths = r.i32(s.lengths);
    const data = r.f64(s.data);
    let at = 0;
    for (let i = 0; i < ords.length; i++) {
      c.set(ords[i], Float32Array.from(data.subarray(at, at + lengths[i])));
      at += lengths[i];
    }
    return c;
  }
}
