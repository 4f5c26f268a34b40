/**
 * `path_hierarchy`: every ancestor path of a delimited path as a token, all at one position, as
 * Lucene's PathHierarchyTokenizer ("a/b/c" → a, a/b, a/b/c) and, with `reverse`,
 * ReversePathHierarchyTokenizer (→ a/b/c, b/c, c). `replacement` replaces the delimiter in the
 * tokens, `skip` drops the first (or, reversed, last) components.
 */
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';

export class PathHierarchyTokenizer implements Tokenizer {
  constructor(
    private readonly delimiter: string,
    private readonly replacement: string,
    private readonly skip: number,
    private readonly reverse: boolean,
  ) {}

  tokenize(text: string): AnalysisToken[] {
    if (text.length === 0) return [];
    const d = this.delimiter;
    // Cut points: the index of every delimiter.
    const cuts: number[] = [];
    for (let i = text.indexOf(d); i >= 0; i = text.indexOf(d, i + d.length)) cuts.push(i);
    const spans: Array<[number, number]> = [];
    if (!this.reverse) {
      // A component starts at its delimiter (the first at 0); a leading delimiter ends nothing.
      const boundaries = cuts.filter((c) => c > 0);
      const starts = [0, ...boundaries];
      if (this.skip >= starts.length) return [];
      const from = starts[this.skip];
      for (const end of [...boundaries.filter((c) => c > from), text.length]) if (end > from) spans.push([from, end]);
    } else {
      const starts = [0, ...cuts.filter((c) => c + d.length < text.length).map((c) => c + d.length)];
      const ends = [...cuts.filter((c) => c > 0), text.length];
      const end = this.skip > 0 ? (ends.length - 1 - this.skip >= 0 ? ends[ends.length - 1 - this.skip] : 0) : text.length;
      for (const s of starts) if (s < end) spans.push([s, end]);
    }
    const out: AnalysisToken[] = [];
    spans.forEach(([s, e], i) => {
      const term = text.slice(s, e).split(d).join(this.replacement);
      out.push(makeToken(term, s, e, 'word', i === 0 ? 1 : 0));
    });
    return out;
  }
}
