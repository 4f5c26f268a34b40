/**
 * Lucene's SnowballProgram (org.tartarus.snowball), ported: the runtime that Snowball-generated
 * stemmers run on — a buffer with a cursor, limits and a bracketed slice, and the primitives the
 * generated code calls (groupings, string tests, among-table searches, slice edits). Used by the
 * Snowball programs no npm library provides (Estonian, Kp, Lovins), ported from Lucene's classes.
 */

/** One entry of an among table: a string, the entry it extends (-1: none), the result, and an optional condition. */
export interface Among<P extends SnowballProgram = SnowballProgram> {
  s: string;
  substring_i: number;
  result: number;
  method?: (program: P) => boolean;
}

export function among<P extends SnowballProgram>(s: string, substring_i: number, result: number, method?: (program: P) => boolean): Among<P> {
  return { s, substring_i, result, method };
}

export abstract class SnowballProgram {
  protected current = '';
  protected cursor = 0;
  protected limit = 0;
  protected limit_backward = 0;
  protected bra = 0;
  protected ket = 0;

  abstract stem(): boolean;

  setCurrent(value: string): void {
    this.current = value;
    this.cursor = 0;
    this.limit = value.length;
    this.limit_backward = 0;
    this.bra = this.cursor;
    this.ket = this.limit;
  }

  getCurrent(): string {
    return this.current.slice(0, this.limit);
  }

  /** Stems a term (the stemmer's whole run, as SnowballFilter calls it). */
  stemTerm(term: string): string {
    this.setCurrent(term);
    this.stem();
    return this.getCurrent();
  }

  private grouped(s: readonly number[], min: number, max: number, at: number): boolean {
    let ch = this.current.charCodeAt(at);
    if (ch > max || ch < min) return false;
    ch -= min;
    return (s[ch >> 3] & (1 << (ch & 7))) !== 0;
  }

  protected in_grouping(s: readonly number[], min: number, max: number): boolean {
    if (this.cursor >= this.limit || !this.grouped(s, min, max, this.cursor)) return false;
    this.cursor++;
    return true;
  }

  protected in_grouping_b(s: readonly number[], min: number, max: number): boolean {
    if (this.cursor <= this.limit_backward || !this.grouped(s, min, max, this.cursor - 1)) return false;
    this.cursor--;
    return true;
  }

  protected out_grouping(s: readonly number[], min: number, max: number): boolean {
    if (this.cursor >= this.limit || this.grouped(s, min, max, this.cursor)) return false;
    this.cursor++;
    return true;
  }

  protected out_grouping_b(s: readonly number[], min: number, max: number): boolean {
    if (this.cursor <= this.limit_backward || this.grouped(s, min, max, this.cursor - 1)) return false;
    this.cursor--;
    return true;
  }

  protected eq_s(s_size: number, s: string): boolean {
    if (this.limit - this.cursor < s_size) return false;
    for (let i = 0; i !== s_size; i++) if (this.current.charCodeAt(this.cursor + i) !== s.charCodeAt(i)) return false;
    this.cursor += s_size;
    return true;
  }

  protected eq_s_b(s_size: number, s: string): boolean {
    if (this.cursor - this.limit_backward < s_size) return false;
    for (let i = 0; i !== s_size; i++) if (this.current.charCodeAt(this.cursor - s_size + i) !== s.charCodeAt(i)) return false;
    this.cursor -= s_size;
    return true;
  }

  protected find_among(v: ReadonlyArray<Among<this>>, v_size = v.length): number {
    let i = 0;
    let j = v_size;
    const c = this.cursor;
    const l = this.limit;
    let common_i = 0;
    let common_j = 0;
    let first_key_inspected = false;
    for (;;) {
      const k = i + ((j - i) >> 1);
      let diff = 0;
      let common = common_i < common_j ? common_i : common_j;
      const w = v[k];
      for (let i2 = common; i2 < w.s.length; i2++) {
        if (c + common === l) {
          diff = -1;
          break;
        }
        diff = this.current.charCodeAt(c + common) - w.s.charCodeAt(i2);
        if (diff !== 0) break;
        common++;
      }
      if (diff < 0) {
        j = k;
        common_j = common;
      } else {
        i = k;
        common_i = common;
      }
      if (j - i <= 1) {
        if (i > 0 || j === i || first_key_inspected) break;
        first_key_inspected = true;
      }
    }
    for (;;) {
      const w = v[i];
      if (common_i >= w.s.length) {
        this.cursor = c + w.s.length;
        if (!w.method) return w.result;
        const res = w.method(this);
        this.cursor = c + w.s.length;
        if (res) return w.result;
      }
      i = w.substring_i;
      if (i < 0) return 0;
    }
  }

  protected find_among_b(v: ReadonlyArray<Among<this>>, v_size = v.length): number {
    let i = 0;
    let j = v_size;
    const c = this.cursor;
    const lb = this.limit_backward;
    let common_i = 0;
    let common_j = 0;
    let first_key_inspected = false;
    for (;;) {
      const k = i + ((j - i) >> 1);
      let diff = 0;
      let common = common_i < common_j ? common_i : common_j;
      const w = v[k];
      for (let i2 = w.s.length - 1 - common; i2 >= 0; i2--) {
        if (c - common === lb) {
          diff = -1;
          break;
        }
        diff = this.current.charCodeAt(c - 1 - common) - w.s.charCodeAt(i2);
        if (diff !== 0) break;
        common++;
      }
      if (diff < 0) {
        j = k;
        common_j = common;
      } else {
        i = k;
        common_i = common;
      }
      if (j - i <= 1) {
        if (i > 0 || j === i || first_key_inspected) break;
        first_key_inspected = true;
      }
    }
    for (;;) {
      const w = v[i];
      if (common_i >= w.s.length) {
        this.cursor = c - w.s.length;
        if (!w.method) return w.result;
        const res = w.method(this);
        this.cursor = c - w.s.length;
        if (res) return w.result;
      }
      i = w.substring_i;
      if (i < 0) return 0;
    }
  }

  /** Replaces [c_bra, c_ket) by `s`; returns the change in length. */
  protected replace_s(c_bra: number, c_ket: number, s: string): number {
    const adjustment = s.length - (c_ket - c_bra);
    this.current = this.current.slice(0, c_bra) + s + this.current.slice(c_ket);
    this.limit += adjustment;
    if (this.cursor >= c_ket) this.cursor += adjustment;
    else if (this.cursor > c_bra) this.cursor = c_bra;
    return adjustment;
  }

  protected slice_check(): void {
    if (this.bra < 0 || this.bra > this.ket || this.ket > this.limit) {
      throw new Error(`faulty slice operation: bra=${this.bra},ket=${this.ket},limit=${this.limit}`);
    }
  }

  protected slice_from(s: string): void {
    this.slice_check();
    this.replace_s(this.bra, this.ket, s);
  }

  protected slice_del(): void {
    this.slice_from('');
  }

  protected insert(c_bra: number, c_ket: number, s: string): void {
    const adjustment = this.replace_s(c_bra, c_ket, s);
    if (c_bra <= this.bra) this.bra += adjustment;
    if (c_bra <= this.ket) this.ket += adjustment;
  }

  /** The bracketed slice (Java's slice_to into a StringBuilder). */
  protected slice_to(): string {
    this.slice_check();
    return this.current.slice(this.bra, this.ket);
  }
}
