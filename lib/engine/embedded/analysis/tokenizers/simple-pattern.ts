/**
 * `simple_pattern` (tokens are the pattern's matches) and `simple_pattern_split` (tokens are the
 * text between matches), as Lucene's SimplePatternTokenizer / SimplePatternSplitTokenizer. Lucene
 * reads the pattern as a Lucene regular expression (no anchors, no lookaround); its common
 * constructs (classes, repetition, alternation) read the same as JavaScript's.
 */
import { illegalArgument } from '../settings.js';
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';

function compile(pattern: string, name: string): RegExp {
  try {
    return new RegExp(pattern, 'gu');
  } catch (e) {
    throw illegalArgument(`Invalid pattern [${pattern}] for tokenizer [${name}]: ${(e as Error).message}`);
  }
}

export class SimplePatternTokenizer implements Tokenizer {
  private readonly re: RegExp;
  constructor(pattern: string, name: string, private readonly split: boolean) {
    this.re = compile(pattern, name);
  }

  tokenize(text: string): AnalysisToken[] {
    const out: AnalysisToken[] = [];
    const re = this.re;
    re.lastIndex = 0;
    let start = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      if (!this.split) out.push(makeToken(m[0], m.index, m.index + m[0].length, 'word'));
      else if (m.index > start) out.push(makeToken(text.slice(start, m.index), start, m.index, 'word'));
      start = m.index + m[0].length;
    }
    if (this.split && start < text.length) out.push(makeToken(text.slice(start), start, text.length, 'word'));
    return out;
  }
}
