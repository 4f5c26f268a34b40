/**
 * Offset correction as Lucene's BaseCharFilter keeps it: a sorted list of (output offset,
 * cumulative diff) points; an output offset maps back to `offset + diff` of the last point at
 * or before it. Replacements register a point where the shift changes, so a token's offsets
 * in the filtered text map back to the original text.
 */
export class OffsetCorrection {
  private readonly offsets: number[] = [];
  private readonly diffs: number[] = [];

  get lastDiff(): number {
    return this.diffs.length === 0 ? 0 : this.diffs[this.diffs.length - 1];
  }

  add(offset: number, cumulativeDiff: number): void {
    const n = this.offsets.length;
    if (n > 0 && this.offsets[n - 1] === offset) this.diffs[n - 1] = cumulativeDiff;
    else {
      this.offsets.push(offset);
      this.diffs.push(cumulativeDiff);
    }
  }

  /**
   * Records that `inputLength` input chars ending at `inputEnd` became `outputLength` output
   * chars (MappingCharFilter's bookkeeping): a shorter output shifts everything from its end;
   * a longer one maps its extra chars onto the last input char.
   */
  replaced(inputEnd: number, inputLength: number, outputLength: number): void {
    const diff = inputLength - outputLength;
    if (diff === 0) return;
    const previous = this.lastDiff;
    if (diff > 0) this.add(inputEnd - diff - previous, previous + diff);
    else {
      const outputStart = inputEnd - previous;
      for (let extra = 0; extra < -diff; extra++) this.add(outputStart + extra, previous - extra - 1);
    }
  }

  correct(offset: number): number {
    const offsets = this.offsets;
    let lo = 0;
    let hi = offsets.length - 1;
    if (hi < 0 || offset < offsets[0]) return offset;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (offsets[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return offset + this.diffs[lo];
  }
}
