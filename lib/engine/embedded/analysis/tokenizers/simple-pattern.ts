/**
 * `simple_pattern` (tokens are the pattern's matches) and `simple_pattern_split` (tokens are the
 * text between matches), as Lucene's SimplePatternTokenizer / SimplePatternSplitTokenizer: the
 * pattern is a Lucene regular expression, matched longest-first at the leftmost position that
 * matches, in linear time.
 */
import { compileLuceneRegExp, findAll, InvalidPatternError, type LinearRegex } from '../../regex/index.js';
import { illegalArgument } from '../settings.js';
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';

function compile(pattern: string, name: string): LinearRegex {
  try {
    return compileLuceneRegExp(pattern, { longest: true });
  } catch (e) {
    if (e instanceof InvalidPatternError) throw illegalArgument(`Invalid pattern [${pattern}] for tokenizer [${name}]: ${e.message}`);
    throw e;
  }
}

export class SimplePatternTokenizer implements Tokenizer {
  private readonly re: LinearRegex;
  constructor(pattern: string, name: string, private readonly split: boolean) {
    this.re = compile(pattern, name);
  }

  tokenize(text: string): AnalysisToken[] {
    const out: AnalysisToken[] = [];
    let start = 0;
    for (const m of findAll(this.re, text)) {
      if (m.end() === m.start()) continue;
      if (!this.split) out.push(makeToken(m.group()!, m.start(), m.end(), 'word'));
      else if (m.start() > start) out.push(makeToken(text.slice(start, m.start()), start, m.start(), 'word'));
      start = m.end();
    }
    if (this.split && start < text.length) out.push(makeToken(text.slice(start), start, text.length, 'word'));
    return out;
  }
}
