/**
 * `cjk_bigram`: Lucene's CJKBigramFilter. Han, Hiragana, Katakana and Hangul tokens that touch
 * (one's end offset is the next one's start) are cut into characters and re-joined as overlapping
 * bigrams (<DOUBLE>); a lone character is a <SINGLE>. With `output_unigrams`, every character is
 * a <SINGLE> too and each bigram stacks on its first character, spanning two positions. Other
 * tokens pass through. `ignored_scripts` leaves scripts out of bigramming.
 */
import { illegalArgument, boolSetting, listSetting, type Definition } from '../settings.js';
import { TYPE_HANGUL, TYPE_HIRAGANA, TYPE_IDEOGRAPHIC, TYPE_KATAKANA } from '../tokenizers/standard.js';
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';

const SCRIPT_TYPES: Record<string, string> = { han: TYPE_IDEOGRAPHIC, hiragana: TYPE_HIRAGANA, katakana: TYPE_KATAKANA, hangul: TYPE_HANGUL };

interface Char {
  text: string;
  start: number;
  end: number;
}

export class CjkBigramFilter implements TokenFilter {
  constructor(
    private readonly types: ReadonlySet<string>,
    private readonly outputUnigrams: boolean,
  ) {}

  filter(stream: TokenStream): void {
    const out: AnalysisToken[] = [];
    let run: Char[] = [];
    let runPosInc = 0;
    let lastEnd = -1;
    const flush = () => {
      if (run.length === 0) return;
      const first = out.length;
      if (run.length === 1) out.push(this.token(run[0], run[0], '<SINGLE>', 1, 1));
      else if (this.outputUnigrams) {
        for (let i = 0; i < run.length; i++) {
          out.push(this.token(run[i], run[i], '<SINGLE>', 1, 1));
          if (i + 1 < run.length) out.push(this.token(run[i], run[i + 1], '<DOUBLE>', 0, 2));
        }
      } else {
        for (let i = 0; i + 1 < run.length; i++) out.push(this.token(run[i], run[i + 1], '<DOUBLE>', 1, 1));
      }
      out[first].posInc = runPosInc;
      run = [];
    };
    for (const t of stream.tokens) {
      if (!this.types.has(t.type)) {
        flush();
        out.push(t);
        lastEnd = -1;
        continue;
      }
      if (t.start !== lastEnd) {
        flush();
        runPosInc = t.posInc;
      }
      // A term that is not as long as its offsets (changed by a filter) gives each character the token's offsets.
      const exact = t.end - t.start === t.term.length;
      let offset = t.start;
      for (const ch of t.term) {
        run.push(exact ? { text: ch, start: offset, end: offset + ch.length } : { text: ch, start: t.start, end: t.end });
        offset += ch.length;
      }
      lastEnd = t.end;
    }
    flush();
    stream.tokens = out;
  }

  private token(from: Char, to: Char, type: string, posInc: number, posLen: number): AnalysisToken {
    return { term: from === to ? from.text : from.text + to.text, start: from.start, end: to.end, type, posInc, posLen, keyword: false };
  }
}

export function cjkBigramFromDefinition(def: Definition): CjkBigramFilter {
  const ignored = new Set((listSetting(def, 'ignored_scripts') ?? []).map((s) => s.toLowerCase()));
  for (const s of ignored) if (!(s in SCRIPT_TYPES)) throw illegalArgument(`Unknown script [${s}] in ignored_scripts; one of [han, hiragana, katakana, hangul]`);
  const types = new Set(Object.entries(SCRIPT_TYPES).filter(([s]) => !ignored.has(s)).map(([, type]) => type));
  return new CjkBigramFilter(types, boolSetting(def, 'output_unigrams', false));
}
