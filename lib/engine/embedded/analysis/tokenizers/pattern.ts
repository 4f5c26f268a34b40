/**
 * The `pattern` tokenizer: splits on a regular expression (group -1), or emits the matches of
 * one capture group (group ≥ 0), as Lucene's PatternTokenizer. The Java pattern runs on RE2
 * (linear time; see `regex/java-regex.ts` for what it cannot express).
 */
import { compileJavaRegex, findAll, InvalidPatternError, type LinearRegex } from '../../regex/index.js';
import { illegalArgument } from '../settings.js';
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';

export class PatternTokenizer implements Tokenizer {
  constructor(
    private readonly pattern: LinearRegex,
    private readonly group: number,
  ) {
    if (group > pattern.groupCount()) throw illegalArgument(`invalid group specified: pattern only has: ${pattern.groupCount()} capturing groups`);
  }

  tokenize(text: string): AnalysisToken[] {
    const out: AnalysisToken[] = [];
    if (this.group < 0) {
      // Lucene: the text before each match is a token, empty matches included.
      let start = 0;
      for (const m of findAll(this.pattern, text)) {
        if (m.start() > start) out.push(makeToken(text.slice(start, m.start()), start, m.start(), 'word'));
        start = m.end();
      }
      if (start < text.length) out.push(makeToken(text.slice(start), start, text.length, 'word'));
      return out;
    }
    for (const m of findAll(this.pattern, text)) {
      const start = m.start(this.group);
      const end = m.end(this.group);
      if (start < 0 || end <= start) continue;
      out.push(makeToken(text.slice(start, end), start, end, 'word'));
    }
    return out;
  }
}

/** A Java pattern with its flags ("CASE_INSENSITIVE|COMMENTS"); `onError` words a pattern that does not compile. */
export function compileJavaPattern(source: string, javaFlags: string | undefined, onError: (msg: string) => Error): LinearRegex {
  try {
    return compileJavaRegex(source, javaFlags);
  } catch (e) {
    if (e instanceof InvalidPatternError) throw onError(e.message);
    throw e;
  }
}
