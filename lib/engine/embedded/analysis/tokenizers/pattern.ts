/**
 * The `pattern` tokenizer: splits on a regular expression (group -1), or emits the matches of
 * one capture group (group ≥ 0), as Lucene's PatternTokenizer. Java regex syntax is taken as
 * JavaScript syntax, which agrees for the common constructs.
 */
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';

export class PatternTokenizer implements Tokenizer {
  constructor(
    private readonly pattern: RegExp,
    private readonly group: number,
  ) {}

  tokenize(text: string): AnalysisToken[] {
    const out: AnalysisToken[] = [];
    const re = this.pattern;
    re.lastIndex = 0;
    if (this.group < 0) {
      let start = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0].length === 0) {
          re.lastIndex++;
          continue;
        }
        if (m.index > start) out.push(makeToken(text.slice(start, m.index), start, m.index, 'word'));
        start = m.index + m[0].length;
      }
      if (start < text.length) out.push(makeToken(text.slice(start), start, text.length, 'word'));
      return out;
    }
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) re.lastIndex++;
      const g = m[this.group];
      if (g === undefined || g.length === 0) continue;
      const start = m.indices ? m.indices[this.group]![0] : m.index + m[0].indexOf(g);
      out.push(makeToken(g, start, start + g.length, 'word'));
    }
    return out;
  }
}

/** Java Pattern flags ("CASE_INSENSITIVE|COMMENTS") → JS flags; unknown ones are ignored. */
export function compileJavaPattern(source: string, javaFlags: string | undefined, onError: (msg: string) => Error): RegExp {
  let flags = 'gd';
  for (const f of (javaFlags ?? '').split('|').map((s) => s.trim())) {
    if (f === 'CASE_INSENSITIVE') flags += 'i';
    else if (f === 'MULTILINE') flags += 'm';
    else if (f === 'DOTALL') flags += 's';
  }
  try {
    return new RegExp(source, flags);
  } catch (e) {
    throw onError((e as Error).message);
  }
}
