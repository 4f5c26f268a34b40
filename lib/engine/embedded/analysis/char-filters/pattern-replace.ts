/**
 * `pattern_replace` char filter (Lucene PatternReplaceCharFilter): regex replacement over the
 * whole text, with Java's replacement syntax (`$1`, `${name}`, `\$`) and offsets corrected per
 * replaced match.
 */
import { findAll, InvalidPatternError, javaReplacement, type LinearRegex } from '../../regex/index.js';
import { illegalArgument, stringSetting, type Definition } from '../settings.js';
import { compileJavaPattern } from '../tokenizers/pattern.js';
import type { CharFilter, FilteredText } from '../types.js';
import { OffsetCorrection } from './offset-correction.js';

export class PatternReplaceCharFilter implements CharFilter {
  readonly normalizing = true;
  private readonly expand: (groups: ReadonlyArray<string | null | undefined>) => string;

  constructor(
    private readonly pattern: LinearRegex,
    replacement: string,
  ) {
    try {
      this.expand = javaReplacement(replacement, pattern);
    } catch (e) {
      if (e instanceof InvalidPatternError) throw illegalArgument(e.message);
      throw e;
    }
  }

  apply(text: string): FilteredText {
    const correction = new OffsetCorrection();
    const groupCount = this.pattern.groupCount();
    let out = '';
    let copyFrom = 0;
    for (const m of findAll(this.pattern, text)) {
      const groups = Array.from({ length: groupCount + 1 }, (_, g) => m.group(g));
      const replaced = this.expand(groups);
      const [start, end] = [m.start(), m.end()];
      out += text.slice(copyFrom, start) + replaced;
      copyFrom = end;
      correction.replaced(end, end - start, replaced.length);
    }
    out += text.slice(copyFrom);
    return { text: out, correct: (o) => correction.correct(o) };
  }
}

export function patternReplaceFromDefinition(def: Definition): PatternReplaceCharFilter {
  const pattern = stringSetting(def, 'pattern');
  if (pattern === undefined) throw illegalArgument('pattern is missing for [pattern_replace] char filter');
  return new PatternReplaceCharFilter(compileJavaPattern(pattern, stringSetting(def, 'flags'), (m) => illegalArgument(m)), stringSetting(def, 'replacement') ?? '');
}
