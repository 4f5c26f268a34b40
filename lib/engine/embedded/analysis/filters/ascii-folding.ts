/**
 * `asciifolding` token filter: Lucene's ASCIIFoldingFilter maps letters, digits and symbols
 * outside Basic Latin to their ASCII equivalents ("Fóx" → "Fox", "Æ" → "AE", "½" → "1/2").
 *
 * The table is built once: characters with a compatibility decomposition to ASCII (accented
 * letters, fullwidth forms, super/subscripts, enclosed alphanumerics, ligatures) fold to it with
 * the marks dropped; the letters and punctuation Lucene folds without a decomposition (ø, ß, đ,
 * ł, smart quotes, dashes…) come from an explicit list. With preserve_original the folded token
 * is followed by the original at the same position.
 */
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';

/** Lucene's foldings that Unicode decomposition does not give. */
const EXPLICIT: Record<string, string> = {
  Æ: 'AE', Ð: 'D', Ø: 'O', Þ: 'TH', ß: 'ss', æ: 'ae', ð: 'd', ø: 'o', þ: 'th',
  Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', ĸ: 'q', Ŀ: 'L', ŀ: 'l', Ł: 'L', ł: 'l', Ŋ: 'N', ŋ: 'n',
  Œ: 'OE', œ: 'oe', Ŧ: 'T', ŧ: 't',
  ƀ: 'b', Ɓ: 'B', Ƃ: 'B', ƃ: 'b', Ɔ: 'O', Ƈ: 'C', ƈ: 'c', Ɖ: 'D', Ɗ: 'D', Ƌ: 'D', ƌ: 'd', Ǝ: 'E', Ɛ: 'E',
  Ƒ: 'F', ƒ: 'f', Ɠ: 'G', ƕ: 'hv', Ɩ: 'I', Ɨ: 'I', Ƙ: 'K', ƙ: 'k', ƚ: 'l', Ɯ: 'M', Ɲ: 'N', ƞ: 'n', Ɵ: 'O',
  Ƣ: 'OI', ƣ: 'oi', Ƥ: 'P', ƥ: 'p', ƫ: 't', Ƭ: 'T', ƭ: 't', Ʈ: 'T', Ʋ: 'V', Ƴ: 'Y', ƴ: 'y', Ƶ: 'Z', ƶ: 'z',
  Ǥ: 'G', ǥ: 'g', ǝ: 'e', Ȣ: 'OU', ȣ: 'ou', Ȥ: 'Z', ȥ: 'z', ȡ: 'd', ȴ: 'l', ȵ: 'n', ȶ: 't', ȷ: 'j', ȸ: 'db',
  ȹ: 'qp', Ⱥ: 'A', Ȼ: 'C', ȼ: 'c', Ƚ: 'L', Ⱦ: 'T', ȿ: 's', ɀ: 'z', Ƀ: 'B', Ʉ: 'U', Ʌ: 'V', Ɇ: 'E', ɇ: 'e',
  Ɉ: 'J', ɉ: 'j', Ɋ: 'Q', ɋ: 'q', Ɍ: 'R', ɍ: 'r', Ɏ: 'Y', ɏ: 'y',
  ɐ: 'a', ɓ: 'b', ɔ: 'o', ɕ: 'c', ɖ: 'd', ɗ: 'd', ɘ: 'e', ə: 'e', ɚ: 'e', ɛ: 'e', ɜ: 'e', ɝ: 'e', ɞ: 'e',
  ɟ: 'j', ɠ: 'g', ɡ: 'g', ɢ: 'G', ɥ: 'h', ɦ: 'h', ɨ: 'i', ɪ: 'I', ɫ: 'l', ɬ: 'l', ɭ: 'l', ɯ: 'm', ɰ: 'm',
  ɱ: 'm', ɲ: 'n', ɳ: 'n', ɴ: 'N', ɵ: 'o', ɶ: 'OE', ɼ: 'r', ɽ: 'r', ɾ: 'r', ɿ: 'r', ʀ: 'R', ʁ: 'R', ʂ: 's',
  ʄ: 'j', ʇ: 't', ʈ: 't', ʉ: 'u', ʋ: 'v', ʌ: 'v', ʍ: 'w', ʎ: 'y', ʏ: 'Y', ʐ: 'z', ʑ: 'z', ʗ: 'C', ʙ: 'B',
  ʚ: 'e', ʛ: 'G', ʜ: 'H', ʝ: 'j', ʞ: 'k', ʟ: 'L', ʠ: 'q', ʣ: 'dz', ʥ: 'dz', ʦ: 'ts', ʨ: 'tc', ʪ: 'ls',
  ʫ: 'lz', ʮ: 'h', ʯ: 'h',
  ᴀ: 'A', ᴁ: 'AE', ᴃ: 'B', ᴄ: 'C', ᴅ: 'D', ᴆ: 'D', ᴇ: 'E', ᴊ: 'J', ᴋ: 'K', ᴌ: 'L', ᴍ: 'M', ᴏ: 'O',
  ᴘ: 'P', ᴛ: 'T', ᴜ: 'U', ᴠ: 'V', ᴡ: 'W', ᴢ: 'Z',
  ẞ: 'SS', Ỻ: 'LL', ỻ: 'll',
  Ꜳ: 'AA', ꜳ: 'aa', Ꜵ: 'AO', ꜵ: 'ao', Ꜷ: 'AU', ꜷ: 'au', Ꜹ: 'AV', ꜹ: 'av', Ꜻ: 'AV', ꜻ: 'av', Ꜽ: 'AY', ꜽ: 'ay',
  Ꝏ: 'OO', ꝏ: 'oo', Ꝡ: 'VY', ꝡ: 'vy',
  '\u00ab': '"', '\u00bb': '"', '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"', '\u2036': '"',
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'", '\u2035': "'", '\u2039': "'", '\u203a': "'",
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2212': '-',
  '\u2044': '/', '\u204e': '*', '\u204f': ';', '\u2052': '%', '\u2053': '~', '\u2045': '[', '\u2046': ']',
  '\u2768': '(', '\u276a': '(', '\u2769': ')', '\u276b': ')', '\u276c': '<', '\u2770': '<', '\u276d': '>', '\u2771': '>',
  '\u2772': '[', '\u2773': ']', '\u2774': '{', '\u2775': '}', '\u2e28': '((', '\u2e29': '))',
};

/** Blocks whose compatibility decompositions Lucene's table follows. */
const DECOMPOSING_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00a0, 0x02ff], // Latin-1 Supplement, Latin Extended-A/B, IPA, spacing modifier letters
  [0x1d00, 0x1dbf], // phonetic extensions
  [0x1e00, 0x1eff], // Latin Extended Additional
  [0x203c, 0x2049], // ‼ ⁇ ⁈ ⁉
  [0x2070, 0x209f], // superscripts and subscripts
  [0x2460, 0x24ff], // enclosed alphanumerics
  [0x2c60, 0x2c7f], // Latin Extended-C
  [0xa720, 0xa7ff], // Latin Extended-D
  [0xfb00, 0xfb06], // Latin ligatures
  [0xff01, 0xff5e], // fullwidth ASCII
];

const MARKS = /\p{M}/gu;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

function buildTable(): Map<number, string> {
  const table = new Map<number, string>();
  for (const [from, to] of DECOMPOSING_RANGES) {
    for (let cp = from; cp <= to; cp++) {
      const ch = String.fromCodePoint(cp);
      const folded = ch.normalize('NFKD').replace(MARKS, '').replace(/\u2044/g, '/').replace(/\u02bc/g, "'");
      if (folded !== ch && PRINTABLE_ASCII.test(folded)) table.set(cp, folded);
    }
  }
  for (const [ch, folded] of Object.entries(EXPLICIT)) table.set(ch.codePointAt(0)!, folded);
  return table;
}

const TABLE = buildTable();
const NON_ASCII = /[^\x00-\x7f]/;

/** The ASCII form of `term`, or `term` itself when nothing folds. */
export function foldToAscii(term: string): string {
  if (!NON_ASCII.test(term)) return term;
  let out = '';
  let changed = false;
  for (const ch of term) {
    const cp = ch.codePointAt(0)!;
    const f = cp < 0x80 ? undefined : TABLE.get(cp);
    if (f === undefined) out += ch;
    else {
      out += f;
      changed = true;
    }
  }
  return changed ? out : term;
}

export class AsciiFoldingFilter implements TokenFilter {
  readonly normalizing = true;

  readonly mapTerm: ((term: string) => string) | undefined;

  constructor(private readonly preserveOriginal: boolean) {
    this.mapTerm = preserveOriginal ? undefined : foldToAscii;
  }

  filter(stream: TokenStream): void {
    if (!this.preserveOriginal) {
      for (const t of stream.tokens) t.term = foldToAscii(t.term);
      return;
    }
    const out: AnalysisToken[] = [];
    for (const t of stream.tokens) {
      const folded = foldToAscii(t.term);
      if (folded === t.term) out.push(t);
      else out.push({ ...t, term: folded }, { ...t, posInc: 0 });
    }
    stream.tokens = out;
  }
}
