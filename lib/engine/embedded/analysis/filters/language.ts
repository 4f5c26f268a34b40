/**
 * Per-language token filters that rewrite each term (Lucene's, ported): `elision`, `apostrophe`,
 * `decimal_digit`, `cjk_width`, `lowercase` with `language` (greek, irish, turkish), the
 * normalization filters (`arabic_normalization`, `persian_normalization`, `hindi_normalization`,
 * `indic_normalization`, `bengali_normalization`, `sorani_normalization`,
 * `scandinavian_normalization`, `scandinavian_folding`, `serbian_normalization`) and `classic`.
 */
import { codePointAt, isDigit, lowerCase, lowerCodePoint } from '../char-classes.js';
import { listSetting, boolSetting, type Definition } from '../settings.js';
import { arabicNormalize, bengaliNormalize, hindiNormalize, indicNormalize, persianNormalize, soraniNormalize } from '../stemmers/index.js';
import type { TokenFilter, TokenStream } from '../types.js';
import { lowercaseFilter } from './case.js';

/** A filter that rewrites every term (keywords too) by `map`; usable in normalizers when `normalizing`. */
export function termMapFilter(map: (term: string) => string, normalizing = true): TokenFilter {
  return {
    normalizing,
    mapTerm: map,
    filter(stream: TokenStream): void {
      for (const t of stream.tokens) t.term = map(t.term);
    },
  };
}

/** Lucene's FrenchAnalyzer.DEFAULT_ARTICLES, the `elision` filter's default. */
export const FRENCH_ARTICLES = ['l', 'm', 't', 'qu', 'n', 's', 'j', 'd', 'c', 'jusqu', 'quoiqu', 'lorsqu', 'puisqu'];

/** Lucene's ElisionFilter: drops an article and the apostrophe (' or ’) after it from the token's start. */
export function elisionFilter(articles: readonly string[], ignoreCase: boolean): TokenFilter {
  const set = new Set(ignoreCase ? articles.map(lowerCase) : articles);
  return termMapFilter((term) => {
    let index = -1;
    for (let i = 0; i < term.length; i++) {
      const c = term.charCodeAt(i);
      if (c === 0x27 || c === 0x2019) {
        index = i;
        break;
      }
    }
    if (index < 0) return term;
    const prefix = term.slice(0, index);
    return set.has(ignoreCase ? lowerCase(prefix) : prefix) ? term.slice(index + 1) : term;
  }, false);
}

export function elisionFromDefinition(def: Definition): TokenFilter {
  return elisionFilter(listSetting(def, 'articles', false) ?? FRENCH_ARTICLES, boolSetting(def, 'articles_case', false));
}

/** Lucene's ApostropheFilter (Turkish): everything from the first apostrophe on is dropped. */
export const apostropheFilter = termMapFilter((term) => {
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c === 0x27 || c === 0x2019) return term.slice(0, i);
  }
  return term;
}, false);

const digitValues = new Map<number, number>();
/** Character.digit for a decimal digit: Unicode's decimal digits come in runs of ten, 0 to 9. */
function digitValue(cp: number): number {
  let v = digitValues.get(cp);
  if (v === undefined) {
    let run = 0;
    while (isDigit(cp - run - 1)) run++;
    v = run % 10;
    digitValues.set(cp, v);
  }
  return v;
}

/** Lucene's DecimalDigitFilter: any Unicode decimal digit becomes its ASCII digit. */
export const decimalDigitFilter = termMapFilter((term) => {
  if (/^[\x00-\x7f]*$/.test(term)) return term;
  let out = '';
  for (let i = 0; i < term.length; ) {
    const cp = codePointAt(term, i);
    const n = cp > 0xffff ? 2 : 1;
    out += cp > 0x7f && isDigit(cp) ? String.fromCharCode(0x30 + digitValue(cp)) : term.slice(i, i + n);
    i += n;
  }
  return out;
});

/** Halfwidth Katakana U+FF65…U+FF9F and their fullwidth forms (NFKC's mapping). */
function fullwidthKana(c: number): string {
  return String.fromCharCode(c).normalize('NFKC');
}

/**
 * Lucene's CJKWidthFilter: fullwidth ASCII → ASCII, halfwidth Katakana → fullwidth, a halfwidth
 * (semi-)voiced sound mark combined with the Katakana before it when they compose.
 */
export const cjkWidthFilter = termMapFilter((term) => {
  if (!/[\uff01-\uff5e\uff65-\uff9f]/.test(term)) return term;
  const s = term.split('');
  for (let i = 0; i < s.length; i++) {
    const c = s[i].charCodeAt(0);
    if (c >= 0xff01 && c <= 0xff5e) s[i] = String.fromCharCode(c - 0xfee0);
    else if (c >= 0xff65 && c <= 0xff9f) {
      if ((c === 0xff9e || c === 0xff9f) && i > 0) {
        const prev = s[i - 1].charCodeAt(0);
        if (prev >= 0x30a6 && prev <= 0x30fd) {
          const composed = (s[i - 1] + (c === 0xff9e ? '\u3099' : '\u309a')).normalize('NFC');
          if (composed.length === 1) {
            s[i - 1] = composed;
            s.splice(i--, 1);
            continue;
          }
        }
      }
      s[i] = fullwidthKana(c);
    }
  }
  return s.join('');
});

const GREEK_LOWER: Record<number, number> = {
  0x03c2: 0x03c3, 0x0386: 0x03b1, 0x03ac: 0x03b1, 0x0388: 0x03b5, 0x03ad: 0x03b5, 0x0389: 0x03b7, 0x03ae: 0x03b7,
  0x038a: 0x03b9, 0x03aa: 0x03b9, 0x03af: 0x03b9, 0x03ca: 0x03b9, 0x0390: 0x03b9,
  0x038e: 0x03c5, 0x03ab: 0x03c5, 0x03cd: 0x03c5, 0x03cb: 0x03c5, 0x03b0: 0x03c5,
  0x038c: 0x03bf, 0x03cc: 0x03bf, 0x038f: 0x03c9, 0x03ce: 0x03c9, 0x03a2: 0x03c2,
};

/** Lucene's GreekLowerCaseFilter: lower case, final sigma as sigma, tonos and dialytika dropped. */
export const greekLowercaseFilter = termMapFilter((term) => {
  let out = '';
  for (const ch of term) {
    const cp = ch.codePointAt(0)!;
    out += String.fromCodePoint(GREEK_LOWER[cp] ?? lowerCodePoint(cp));
  }
  return out;
});

/** Lucene's IrishLowerCaseFilter: n/t before an upper-case vowel gets a hyphen (nAthair → n-athair). */
export const irishLowercaseFilter = termMapFilter((term) => {
  if (term.length > 1 && (term[0] === 'n' || term[0] === 't') && 'AEIOUÁÉÍÓÚ'.includes(term[1])) {
    return term[0] + '-' + lowerCase(term.slice(1));
  }
  return lowerCase(term);
});

const NON_SPACING_MARK = /^\p{Mn}$/u;

/** Lucene's TurkishLowerCaseFilter: I → ı, İ and I + combining dot above → i. */
export const turkishLowercaseFilter = termMapFilter((term) => {
  const chars = Array.from(term);
  let out = '';
  let iOrAfter = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    iOrAfter = ch === 'I' || (iOrAfter && NON_SPACING_MARK.test(ch));
    if (iOrAfter) {
      if (ch === '\u0307') continue;
      if (ch === 'I') {
        let dotFollows = false;
        for (let j = i + 1; j < chars.length && NON_SPACING_MARK.test(chars[j]); j++) {
          if (chars[j] === '\u0307') {
            dotFollows = true;
            break;
          }
        }
        out += dotFollows ? 'i' : 'ı';
        if (!dotFollows) iOrAfter = false;
        continue;
      }
    }
    out += String.fromCodePoint(lowerCodePoint(ch.codePointAt(0)!));
  }
  return out;
});

/** The `lowercase` filter's `language` variants (others: plain lowercase). */
export function lowercaseForLanguage(language: string | undefined): TokenFilter {
  switch (language?.toLowerCase()) {
    case 'greek':
      return greekLowercaseFilter;
    case 'irish':
      return irishLowercaseFilter;
    case 'turkish':
      return turkishLowercaseFilter;
    default:
      return lowercaseFilter;
  }
}

export const arabicNormalizationFilter = termMapFilter(arabicNormalize);
export const persianNormalizationFilter = termMapFilter(persianNormalize);
export const hindiNormalizationFilter = termMapFilter(hindiNormalize);
export const indicNormalizationFilter = termMapFilter(indicNormalize);
export const bengaliNormalizationFilter = termMapFilter(bengaliNormalize);
export const soraniNormalizationFilter = termMapFilter(soraniNormalize);

/** Lucene's ScandinavianNormalizationFilter: ä/ö → æ/ø; aa, ao → å; ae → æ; oe, oo → ø (case kept). */
export const scandinavianNormalizationFilter = termMapFilter((term) => {
  const s = term.split('');
  let len = s.length;
  for (let i = 0; i < len; i++) {
    const c = s[i];
    if (c === 'ä') s[i] = 'æ';
    else if (c === 'Ä') s[i] = 'Æ';
    else if (c === 'ö') s[i] = 'ø';
    else if (c === 'Ö') s[i] = 'Ø';
    else if (len - 1 > i) {
      const n = s[i + 1];
      let to: string | undefined;
      if (c === 'a' && 'aoAO'.includes(n)) to = 'å';
      else if (c === 'A' && 'aAoO'.includes(n)) to = 'Å';
      else if (c === 'a' && 'eE'.includes(n)) to = 'æ';
      else if (c === 'A' && 'eE'.includes(n)) to = 'Æ';
      else if (c === 'o' && 'eEoO'.includes(n)) to = 'ø';
      else if (c === 'O' && 'eEoO'.includes(n)) to = 'Ø';
      if (to !== undefined) {
        s.splice(i + 1, 1);
        len--;
        s[i] = to;
      }
    }
  }
  return s.join('');
});

/** Lucene's ScandinavianFoldingFilter: å, ä, æ → a; ö, ø → o; aa, ae, ao → a; oe, oo → o (case kept). */
export const scandinavianFoldingFilter = termMapFilter((term) => {
  const s = term.split('');
  let len = s.length;
  for (let i = 0; i < len; i++) {
    const c = s[i];
    if (c === 'å' || c === 'ä' || c === 'æ') s[i] = 'a';
    else if (c === 'Å' || c === 'Ä' || c === 'Æ') s[i] = 'A';
    else if (c === 'ø' || c === 'ö') s[i] = 'o';
    else if (c === 'Ø' || c === 'Ö') s[i] = 'O';
    else if (len - 1 > i) {
      const n = s[i + 1];
      if (((c === 'a' || c === 'A') && 'aAeEoO'.includes(n)) || ((c === 'o' || c === 'O') && 'eEoO'.includes(n))) {
        s.splice(i + 1, 1);
        len--;
      }
    }
  }
  return s.join('');
});

const SERBIAN: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', ђ: 'dj', е: 'e', ж: 'z', з: 'z', и: 'i', ј: 'j', к: 'k', л: 'l', љ: 'lj', м: 'm', н: 'n', њ: 'nj',
  о: 'o', п: 'p', р: 'r', с: 's', т: 't', ћ: 'c', у: 'u', ф: 'f', х: 'h', ц: 'c', ч: 'c', џ: 'dz', ш: 's',
  đ: 'dj', ž: 'z', ć: 'c', č: 'c', š: 's',
};

/** Romanian's s and t with a cedilla (ş ţ, as legacy encodings wrote them) as the comma-below letters (ș ț). */
export function romanianCommaBelow(term: string): string {
  return /[\u015e\u015f\u0162\u0163]/.test(term)
    ? term.replace(/[\u015e\u015f\u0162\u0163]/g, (c) => ({ '\u015e': '\u0218', '\u015f': '\u0219', '\u0162': '\u021a', '\u0163': '\u021b' })[c]!)
    : term;
}

/** Lucene's RomanianNormalizationFilter, which its Romanian analyzer runs: the cedilla forms as the comma-below letters. */
export const romanianNormalizationFilter = termMapFilter(romanianCommaBelow);

/**
 * Lucene's SerbianNormalizationFilter ("bald" Latin): lower-case Cyrillic to Latin, diacritics
 * dropped, đ → dj (it runs after lowercase; upper case is left as it is).
 */
export const serbianNormalizationFilter = termMapFilter((term) => {
  let out = '';
  for (const ch of term) out += SERBIAN[ch] ?? ch;
  return out;
});

/** Lucene's ClassicFilter: drops 's from <APOSTROPHE> tokens and dots from <ACRONYM> tokens. */
export const classicFilter: TokenFilter = {
  filter(stream: TokenStream): void {
    for (const t of stream.tokens) {
      if (t.type === '<APOSTROPHE>' && /'[sS]$/.test(t.term)) t.term = t.term.slice(0, -2);
      else if (t.type === '<ACRONYM>') t.term = t.term.replace(/\./g, '');
    }
  },
};
