/**
 * Unicode UAX#29 Word_Break property classes, as Lucene's StandardTokenizer grammar uses them.
 *
 * JavaScript regexes cannot name Word_Break values, so each class is derived from the
 * properties UAX#29 defines it with (Alphabetic, Ideographic, Script, General_Category,
 * Grapheme_Extend, Line_Break=Complex_Context approximated by script) plus the short explicit
 * lists the annex gives. Classes are computed once per code point and cached in a table, so the
 * tokenizer's inner loop is an array read.
 */

export const WB_OTHER = 1;
export const WB_ALETTER = 2;
/** ALetter in the Hangul script (Lucene types these runs <HANGUL>). */
export const WB_HANGUL = 3;
export const WB_HEBREW = 4;
export const WB_NUMERIC = 5;
export const WB_KATAKANA = 6;
export const WB_MIDLETTER = 7;
export const WB_MIDNUM = 8;
export const WB_MIDNUMLET = 9;
export const WB_SINGLE_QUOTE = 10;
export const WB_DOUBLE_QUOTE = 11;
export const WB_EXTENDNUMLET = 12;
/** Extend or Format (absorbed after any character, UAX#29 WB4). */
export const WB_EXTEND = 13;
export const WB_ZWJ = 14;
/** U+FE0E / U+FE0F: Extend, but significant inside emoji sequences. */
export const WB_PRESENTATION = 15;
export const WB_HAN = 16;
export const WB_HIRAGANA = 17;
/** Line_Break=Complex_Context: Thai, Lao, Myanmar, Khmer… kept together as one token. */
export const WB_COMPLEX = 18;
export const WB_REGIONAL_INDICATOR = 19;

/** Emoji roles (bit flags), per the emoji macros of Lucene's grammar. */
export const EMOJI_CHAR = 1;
export const EMOJI_MODIFIER_BASE = 2;
export const EMOJI_MODIFIER = 4;
export const EMOJI_KEYCAP_BASE = 8;

const EXTEND_RE = /^[\p{Grapheme_Extend}\p{Mc}\p{Emoji_Modifier}]$/u;
const FORMAT_RE = /^\p{Cf}$/u;
const KATAKANA_RE = /^[\p{Script=Katakana}\u3031-\u3035\u309B\u309C\u30A0\u30FC\uFF70]$/u;
const HEBREW_LETTER_RE = /^(?=\p{Script=Hebrew})\p{Lo}$/u;
const HAN_RE = /^\p{Script=Han}$/u;
const HIRAGANA_RE = /^\p{Script=Hiragana}$/u;
const COMPLEX_RE =
  /^(?=[\p{Script=Thai}\p{Script=Lao}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Tai_Le}\p{Script=New_Tai_Lue}\p{Script=Tai_Tham}\p{Script=Tai_Viet}\p{Script=Ahom}])[\p{L}\p{M}]$/u;
const NUMERIC_RE = /^[\p{Nd}\u066B]$/u;
const ALPHABETIC_RE =
  /^[\p{Alphabetic}\u02C2-\u02C5\u02D2-\u02D7\u02DE\u02DF\u02E5-\u02EB\u02ED\u02EF-\u02FF\u055A-\u055C\u055E\u058A\u05F3\uA708-\uA716\uA720\uA721\uA789\uA78A\uAB5B]$/u;
const IDEOGRAPHIC_RE = /^\p{Ideographic}$/u;
const HANGUL_RE = /^\p{Script=Hangul}$/u;
const EXTENDNUMLET_RE = /^[\p{Pc}\u202F]$/u;
const RI_RE = /^\p{Regional_Indicator}$/u;

const MIDLETTER = new Set([0x3a, 0xb7, 0x387, 0x55f, 0x5f4, 0x2027, 0xfe13, 0xfe55, 0xff1a]);
const MIDNUM = new Set([0x2c, 0x3b, 0x37e, 0x589, 0x60c, 0x60d, 0x66c, 0x7f8, 0x2044, 0xfe10, 0xfe14, 0xfe50, 0xfe54, 0xff0c, 0xff1b]);
const MIDNUMLET = new Set([0x2e, 0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e]);

function computeClass(cp: number): number {
  if (cp === 0x200d) return WB_ZWJ;
  if (cp === 0xfe0e || cp === 0xfe0f) return WB_PRESENTATION;
  if (cp === 0x27) return WB_SINGLE_QUOTE;
  if (cp === 0x22) return WB_DOUBLE_QUOTE;
  if (MIDLETTER.has(cp)) return WB_MIDLETTER;
  if (MIDNUM.has(cp)) return WB_MIDNUM;
  if (MIDNUMLET.has(cp)) return WB_MIDNUMLET;
  const ch = String.fromCodePoint(cp);
  if (EXTEND_RE.test(ch)) return WB_EXTEND;
  if (cp !== 0x200b && FORMAT_RE.test(ch)) return WB_EXTEND;
  if (RI_RE.test(ch)) return WB_REGIONAL_INDICATOR;
  if (EXTENDNUMLET_RE.test(ch)) return WB_EXTENDNUMLET;
  if (NUMERIC_RE.test(ch) || (cp >= 0xff10 && cp <= 0xff19)) return WB_NUMERIC;
  if (KATAKANA_RE.test(ch)) return WB_KATAKANA;
  if (HEBREW_LETTER_RE.test(ch)) return WB_HEBREW;
  if (HIRAGANA_RE.test(ch)) return WB_HIRAGANA;
  if (COMPLEX_RE.test(ch)) return WB_COMPLEX;
  if (ALPHABETIC_RE.test(ch) && !IDEOGRAPHIC_RE.test(ch)) return HANGUL_RE.test(ch) ? WB_HANGUL : WB_ALETTER;
  if (HAN_RE.test(ch)) return WB_HAN;
  return WB_OTHER;
}

const EMOJI_RE = /^\p{Emoji}$/u;
const PICTOGRAPHIC_RE = /^\p{Extended_Pictographic}$/u;
const MODIFIER_BASE_RE = /^\p{Emoji_Modifier_Base}$/u;
const MODIFIER_RE = /^\p{Emoji_Modifier}$/u;

function computeEmoji(cp: number): number {
  const keycapBase = (cp >= 0x30 && cp <= 0x39) || cp === 0x23 || cp === 0x2a;
  if (cp < 0xa9 && !keycapBase) return 0;
  const ch = String.fromCodePoint(cp);
  let flags = keycapBase ? EMOJI_KEYCAP_BASE : 0;
  const modifier = MODIFIER_RE.test(ch);
  if (modifier) flags |= EMOJI_MODIFIER;
  if (MODIFIER_BASE_RE.test(ch)) flags |= EMOJI_MODIFIER_BASE;
  // "Accidental" emoji (digits, ©®™, wavy dash…) only count when they are also pictographic.
  const accidental = keycapBase || cp === 0xa9 || cp === 0xae || cp === 0x2122 || cp === 0x3030 || cp === 0x303d || RI_RE.test(ch) || modifier;
  if (PICTOGRAPHIC_RE.test(ch) || (EMOJI_RE.test(ch) && !accidental)) flags |= EMOJI_CHAR;
  return flags;
}

const bmpClass = new Uint8Array(0x10000);
const bmpEmoji = new Uint8Array(0x10000); // low 4 bits: flags; 0x80: computed
const astralClass = new Map<number, number>();
const astralEmoji = new Map<number, number>();

export function wordBreakClass(cp: number): number {
  if (cp < 0x10000) {
    const c = bmpClass[cp];
    if (c !== 0) return c;
    return (bmpClass[cp] = computeClass(cp));
  }
  let c = astralClass.get(cp);
  if (c === undefined) astralClass.set(cp, (c = computeClass(cp)));
  return c;
}

export function emojiFlags(cp: number): number {
  if (cp < 0x10000) {
    const e = bmpEmoji[cp];
    if (e !== 0) return e & 0x0f;
    const f = computeEmoji(cp);
    bmpEmoji[cp] = f | 0x80;
    return f;
  }
  let e = astralEmoji.get(cp);
  if (e === undefined) astralEmoji.set(cp, (e = computeEmoji(cp)));
  return e;
}

for (let cp = 0; cp < 0x100; cp++) {
  wordBreakClass(cp);
  emojiFlags(cp);
}
