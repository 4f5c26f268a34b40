/**
 * `pattern_replace` char filter (Lucene PatternReplaceCharFilter): regex replacement over the
 * whole text, with offsets corrected per replaced match.
 */
import { illegalArgument, stringSetting, type Definition } from '../settings.js';
import { compileJavaPattern } from '../tokenizers/pattern.js';
import type { CharFilter, FilteredText } from '../types.js';
import { OffsetCorrection } from './offset-correction.js';

export class PatternReplaceCharFilter implements CharFilter {
  readonly normalizing = true;

  constructor(
    private readonly pattern: RegExp,
    private readonly replacement: string,
  ) {}

  apply(text: string): FilteredText {
    const correction = new OffsetCorrection();
    let out = '';
    let copyFrom = 0;
    const re = this.pattern;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) re.lastIndex++;
      const replaced = m[0].replace(new RegExp(re.source, re.flags.replace('g', '')), this.replacement);
      out += text.slice(copyFrom, m.index) + replaced;
      copyFrom = m.index + m[0].length;
      correction.replaced(copyFrom, m[0].length, replaced.length);
    }
    out += text.slice(copyFrom);
    return { text: out, correct: (o) => correction.correct(o) };
  }
}

export function patternReplaceFromDefinition(def: Definition): PatternReplaceCharFilter {
  const pattern = stringSetting(def, 'pattern');
  if (pattern === undefined) throw illegalArgument('pattern is missing for [pattern_replace] char filter');
  // Java's "$1" group references are JavaScript's too.
  return new PatternReplaceCharFilter(compileJavaPattern(pattern, stringSetting(def, 'flags'), (m) => illegalArgument(m)), stringSetting(def, 'replacement') ?? '');
}
