/**
 * Liang's hyphenation algorithm over a grammar of character classes, exceptions and patterns, with
 * the rules of Lucene's HyphenationTree (the FOP hyphenator Elasticsearch's
 * `hyphenation_decompounder` uses):
 *
 * - a word is first mapped through the character classes; characters outside every class that
 *   lead the word are skipped, one after a letter ends the letters, and a letter after that makes
 *   the word unhyphenable;
 * - an exception (the mapped word, listed with its breaks) wins over the patterns;
 * - otherwise every pattern found in `.word.` raises the inter-letter values it covers (the
 *   highest value wins) and an odd value is a break;
 * - the answer is the breaks (letters before each) framed by 0 and the word's length, or nothing
 *   when there is no break at all.
 */

export class HyphenationTree {
  /** Character → its class's character (the first of its group: usually the lowercase letter). */
  private readonly classes = new Map<string, string>();
  /** Mapped word → its breaks, as counts of letters before each. */
  private readonly exceptions = new Map<string, readonly number[]>();
  /** Pattern letters (with `.` for a word edge) → the values before, between and after them. */
  private readonly patterns = new Map<string, Uint8Array>();
  private longestPattern = 0;

  /** A group of characters that are one letter; the group's first character stands for them all. */
  addClass(group: string): void {
    if (group.length === 0) return;
    // By UTF-16 unit, as words are read.
    for (let i = 0; i < group.length; i++) this.classes.set(group[i], group[0]);
  }

  addException(word: string, breaks: readonly number[]): void {
    this.exceptions.set(word, breaks);
  }

  /** `values` has one entry more than `letters`: the value before each letter, then after the last. */
  addPattern(letters: string, values: Uint8Array): void {
    this.patterns.set(letters, values);
    this.longestPattern = Math.max(this.longestPattern, letters.length);
  }

  get patternCount(): number {
    return this.patterns.size;
  }

  /**
   * The hyphenation points of `word`: [0, …breaks, length], each break leaving at least
   * `remainCharCount` letters before it and `pushCharCount` after it; undefined when there is none.
   */
  hyphenate(word: string, remainCharCount = 1, pushCharCount = 1): number[] | undefined {
    let ignoredAtStart = 0;
    let letters = '';
    let lettersEnded = false;
    for (let i = 0; i < word.length; i++) {
      const letter = this.classes.get(word[i]);
      if (letter === undefined) {
        if (letters.length === 0) ignoredAtStart++;
        else lettersEnded = true;
      } else {
        if (lettersEnded) return undefined;
        letters += letter;
      }
    }
    const len = letters.length;
    if (len < remainCharCount + pushCharCount) return undefined;

    const breaks: number[] = [];
    const exception = this.exceptions.get(letters);
    if (exception) {
      // Lucene keeps an exception's break only strictly before the last `pushCharCount` letters.
      for (const at of exception) if (at >= remainCharCount && at < len - pushCharCount) breaks.push(at + ignoredAtStart);
    } else {
      const dotted = `.${letters}.`;
      // values[k] is the value of the gap before dotted[k].
      const values = new Uint8Array(len + 3);
      for (let start = 0; start <= len; start++) {
        const last = Math.min(dotted.length, start + this.longestPattern);
        for (let end = start + 1; end <= last; end++) {
          const pattern = this.patterns.get(dotted.slice(start, end));
          if (!pattern) continue;
          for (let k = 0; k < pattern.length && start + k < values.length; k++) {
            if (pattern[k] > values[start + k]) values[start + k] = pattern[k];
          }
        }
      }
      for (let i = 0; i < len; i++) {
        if ((values[i + 1] & 1) === 1 && i >= remainCharCount && i <= len - pushCharCount) breaks.push(i + ignoredAtStart);
      }
    }
    if (breaks.length === 0) return undefined;
    // As Lucene: the closing point is the letter count, whatever was skipped at the start.
    return [0, ...breaks, len];
  }
}
