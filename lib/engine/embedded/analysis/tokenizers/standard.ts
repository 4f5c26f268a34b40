/**
 * The `standard` tokenizer: Lucene's StandardTokenizer (UAX#29 word boundaries, JFlex grammar).
 *
 * The grammar's rules are matched by hand in one left-to-right pass: at each position the
 * emoji rule and the word rule (which subsumes the numeric, Hangul and Katakana rules) are tried,
 * the longest match wins and, on a tie, the rule listed first in the grammar gives the type
 * (emoji, then <NUM>, <HANGUL>, <KATAKANA>, then <ALPHANUM>). Runs of Complex_Context
 * characters are one <SOUTHEAST_ASIAN> token; each Han or Hiragana character is its own token;
 * anything else is skipped. A match never extends past `max_token_length` chars from its
 * start (Lucene's scanner buffer), which is how long words are split at that interval.
 */
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';
import {
  EMOJI_CHAR,
  EMOJI_KEYCAP_BASE,
  EMOJI_MODIFIER,
  emojiFlags,
  WB_ALETTER,
  WB_COMPLEX,
  WB_DOUBLE_QUOTE,
  WB_EXTEND,
  WB_EXTENDNUMLET,
  WB_HAN,
  WB_HANGUL,
  WB_HEBREW,
  WB_HIRAGANA,
  WB_KATAKANA,
  WB_MIDLETTER,
  WB_MIDNUM,
  WB_MIDNUMLET,
  WB_NUMERIC,
  WB_PRESENTATION,
  WB_REGIONAL_INDICATOR,
  WB_SINGLE_QUOTE,
  WB_ZWJ,
  wordBreakClass,
} from './word-break.js';

export const TYPE_ALPHANUM = '<ALPHANUM>';
export const TYPE_NUM = '<NUM>';
export const TYPE_SOUTHEAST_ASIAN = '<SOUTHEAST_ASIAN>';
export const TYPE_IDEOGRAPHIC = '<IDEOGRAPHIC>';
export const TYPE_HIRAGANA = '<HIRAGANA>';
export const TYPE_KATAKANA = '<KATAKANA>';
export const TYPE_HANGUL = '<HANGUL>';
export const TYPE_EMOJI = '<EMOJI>';

// Previous unit kinds while matching the word rule.
const NONE = 0;
const AH = 1; // ALetter / Hebrew_Letter (incl. Hangul)
const NUM = 2;
const KAT = 3;
const ENL = 4;
const HEB_SQ = 5; // Hebrew_Letter Single_Quote: a complete unit that may be followed directly

// Type evidence bits collected while matching.
const SAW_LETTER = 1;
const SAW_NON_HANGUL = 2;
const SAW_KATAKANA = 4;
const SAW_NON_KATAKANA = 8;
const SAW_NUMERIC_ONLY_BREAKER = 16; // anything that disqualifies <NUM>

const MAX_ALLOWED_TOKEN_LENGTH = 1024 * 1024;

function cpAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

function isExtendClass(cls: number): boolean {
  return cls === WB_EXTEND || cls === WB_ZWJ || cls === WB_PRESENTATION;
}

/** Skips Extend | Format | ZWJ (UAX#29 WB4). */
function skipExtend(text: string, i: number, limit: number): number {
  while (i < limit) {
    const cp = cpAt(text, i);
    if (!isExtendClass(wordBreakClass(cp))) break;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

/** Skips Extend | Format | ZWJ except the presentation selectors (emoji macros). */
function skipExtendSansPresentation(text: string, i: number, limit: number): number {
  while (i < limit) {
    const cp = cpAt(text, i);
    const cls = wordBreakClass(cp);
    if (cls !== WB_EXTEND && cls !== WB_ZWJ) break;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

function isLetterClass(cls: number): boolean {
  return cls === WB_ALETTER || cls === WB_HANGUL || cls === WB_HEBREW;
}

/**
 * ASCII characters after a run of ASCII letters and digits that may continue the word (MidLetter
 * `:`, MidNum `,` `;`, MidNumLet `.`, the quotes, ExtendNumLet `_`): the fast path hands those to
 * the word rule.
 */
const ASCII_MAY_CONTINUE = new Uint8Array(128);
for (const ch of ":,;.'\"_") ASCII_MAY_CONTINUE[ch.charCodeAt(0)] = 1;
/** 1 for ASCII letters, 2 for ASCII digits. */
const ASCII_ALNUM = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) ASCII_ALNUM[c] = 1;
  else if (c >= 0x30 && c <= 0x39) ASCII_ALNUM[c] = 2;
}
/** ASCII characters that start no token (neither word, emoji keycap nor ExtendNumLet): skipped at once. */
const ASCII_SKIP = new Uint8Array(128);
for (let c = 0; c < 128; c++) if (!ASCII_ALNUM[c] && c !== 0x5f && c !== 0x23 && c !== 0x2a) ASCII_SKIP[c] = 1;

export class StandardTokenizer implements Tokenizer {
  private matchType = TYPE_ALPHANUM;

  /**
   * `asciiFastPath: false` runs every character through the full rules (the fast path's tests
   * compare the two).
   */
  constructor(
    private readonly maxTokenLength = 255,
    private readonly asciiFastPath = true,
  ) {
    if (maxTokenLength < 1 || maxTokenLength > MAX_ALLOWED_TOKEN_LENGTH) {
      throw new RangeError(`maxTokenLength must be greater than 0 and less than ${MAX_ALLOWED_TOKEN_LENGTH} passed: ${maxTokenLength}`);
    }
  }

  tokenize(text: string): AnalysisToken[] {
    const out: AnalysisToken[] = [];
    this.scan(text, (start, end, type) => out.push(makeToken(text.slice(start, end), start, end, type)));
    return out;
  }

  /** Every token's offsets and type, in order (each token's position increment is 1). */
  scan(text: string, onToken: (start: number, end: number, type: string) => void): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (this.asciiFastPath) {
        // ASCII text (most of it, in most corpora): a run of letters and digits ended by a character
        // that cannot continue a word is the whole token, as the rules below would find it.
        const c = text.charCodeAt(i);
        if (c < 128) {
          if (ASCII_SKIP[c]) {
            i++;
            continue;
          }
          let kinds = ASCII_ALNUM[c];
          if (kinds !== 0) {
            const limit = Math.min(n, i + this.maxTokenLength);
            let j = i + 1;
            let d = 0;
            while (j < limit && (d = text.charCodeAt(j)) < 128 && ASCII_ALNUM[d] !== 0) {
              kinds |= ASCII_ALNUM[d];
              j++;
            }
            if (j === limit || (d < 128 && !ASCII_MAY_CONTINUE[d])) {
              onToken(i, j, kinds & 1 ? TYPE_ALPHANUM : TYPE_NUM);
              i = j;
              continue;
            }
          }
        }
      }
      const cp = cpAt(text, i);
      const width = cp > 0xffff ? 2 : 1;
      const cls = wordBreakClass(cp);
      const limit = Math.min(n, i + this.maxTokenLength);
      const emoji = emojiFlags(cp);
      const emojiEnd = emoji !== 0 || cls === WB_REGIONAL_INDICATOR || cls === WB_ZWJ ? this.matchEmoji(text, i, limit, cp, cls) : -1;
      const wordEnd =
        isLetterClass(cls) || cls === WB_NUMERIC || cls === WB_KATAKANA || cls === WB_EXTENDNUMLET ? this.matchWord(text, i, limit) : -1;
      if (emojiEnd > i && emojiEnd >= wordEnd) {
        onToken(i, emojiEnd, TYPE_EMOJI);
        i = emojiEnd;
      } else if (wordEnd > i) {
        onToken(i, wordEnd, this.matchType);
        i = wordEnd;
      } else if (cls === WB_COMPLEX) {
        let j = i;
        while (j < limit) {
          const c = cpAt(text, j);
          if (wordBreakClass(c) !== WB_COMPLEX) break;
          j = skipExtend(text, j + (c > 0xffff ? 2 : 1), limit);
        }
        onToken(i, j, TYPE_SOUTHEAST_ASIAN);
        i = j;
      } else if (cls === WB_HAN || cls === WB_HIRAGANA) {
        const j = skipExtend(text, i + width, limit);
        onToken(i, j, cls === WB_HAN ? TYPE_IDEOGRAPHIC : TYPE_HIRAGANA);
        i = j;
      } else {
        i += width;
      }
    }
  }

  /**
   * The word rule (UAX#29 WB5–WB13b as Lucene writes it). Returns the end of the longest match
   * or -1, and leaves the token type in `matchType`.
   */
  private matchWord(text: string, start: number, limit: number): number {
    let i = start;
    let prev = NONE;
    let lastHebrew = false;
    let end = -1;
    let evidence = 0;
    let sawBase = false;
    while (i < limit) {
      const cp = cpAt(text, i);
      const cls = wordBreakClass(cp);
      const next = i + (cp > 0xffff ? 2 : 1);
      if (isLetterClass(cls)) {
        if (prev === KAT) break;
        evidence |= SAW_LETTER | SAW_NON_KATAKANA | SAW_NUMERIC_ONLY_BREAKER | (cls === WB_HANGUL ? 0 : SAW_NON_HANGUL);
        prev = AH;
        lastHebrew = cls === WB_HEBREW;
      } else if (cls === WB_NUMERIC) {
        if (prev === KAT) break;
        evidence |= SAW_NON_HANGUL | SAW_NON_KATAKANA;
        prev = NUM;
        lastHebrew = false;
      } else if (cls === WB_KATAKANA) {
        if (prev === AH || prev === NUM || prev === HEB_SQ) break;
        evidence |= SAW_KATAKANA | SAW_NON_HANGUL | SAW_NUMERIC_ONLY_BREAKER;
        prev = KAT;
        lastHebrew = false;
      } else if (cls === WB_EXTENDNUMLET) {
        evidence |= SAW_NON_HANGUL | SAW_NON_KATAKANA;
        prev = ENL;
        lastHebrew = false;
      } else if (cls === WB_MIDLETTER || cls === WB_MIDNUM || cls === WB_MIDNUMLET || cls === WB_SINGLE_QUOTE || cls === WB_DOUBLE_QUOTE) {
        const after = skipExtend(text, next, limit);
        const nextClass = after < limit ? wordBreakClass(cpAt(text, after)) : 0;
        const letterMid = cls === WB_MIDLETTER || cls === WB_MIDNUMLET || cls === WB_SINGLE_QUOTE;
        const numberMid = cls === WB_MIDNUM || cls === WB_MIDNUMLET || cls === WB_SINGLE_QUOTE;
        if (prev === AH && letterMid && isLetterClass(nextClass)) {
          evidence |= SAW_NON_HANGUL | SAW_NON_KATAKANA;
        } else if (prev === NUM && numberMid && nextClass === WB_NUMERIC) {
          evidence |= SAW_NON_HANGUL | SAW_NON_KATAKANA;
        } else if (prev === AH && lastHebrew && cls === WB_DOUBLE_QUOTE && nextClass === WB_HEBREW) {
          evidence |= SAW_NON_HANGUL | SAW_NON_KATAKANA;
        } else if (prev === AH && lastHebrew && cls === WB_SINGLE_QUOTE) {
          // WB7a: the quote ends a unit of its own and the token may stop right after it.
          evidence |= SAW_NON_HANGUL | SAW_NON_KATAKANA;
          prev = HEB_SQ;
          lastHebrew = false;
          i = after;
          end = i;
          continue;
        } else {
          break;
        }
        i = after; // the following letter/digit is accepted on the next turn
        continue;
      } else {
        break;
      }
      i = skipExtend(text, next, limit);
      // Leading ExtendNumLet alone is no token; once a letter/digit was seen every unit may end one.
      if (prev !== ENL) sawBase = true;
      if (sawBase) end = i;
    }
    if (end < 0) return -1;
    if (!(evidence & SAW_NUMERIC_ONLY_BREAKER)) this.matchType = TYPE_NUM;
    else if (!(evidence & SAW_NON_HANGUL) && evidence & SAW_LETTER) this.matchType = TYPE_HANGUL;
    else if (!(evidence & SAW_NON_KATAKANA) && evidence & SAW_KATAKANA) this.matchType = TYPE_KATAKANA;
    else this.matchType = TYPE_ALPHANUM;
    return end;
  }

  /** The emoji rule (UTS#51 emoji_sequence, keycaps, flag pairs); -1 when it does not match. */
  private matchEmoji(text: string, start: number, limit: number, cp: number, cls: number): number {
    const flags = emojiFlags(cp);
    const width = cp > 0xffff ? 2 : 1;
    if (flags & EMOJI_KEYCAP_BASE) {
      const extEnd = skipExtendSansPresentation(text, start + width, limit);
      if (extEnd < limit && text.charCodeAt(extEnd) === 0xfe0f && extEnd + 1 < limit && text.charCodeAt(extEnd + 1) === 0x20e3) {
        return skipExtendSansPresentation(text, extEnd + 2, limit);
      }
      return text.slice(start + width, extEnd).includes('\u20e3') ? extEnd : -1;
    }
    if (cls === WB_REGIONAL_INDICATOR) {
      const second = skipExtend(text, start + width, limit);
      if (second >= limit) return -1;
      const cp2 = cpAt(text, second);
      if (wordBreakClass(cp2) !== WB_REGIONAL_INDICATOR) return -1;
      return skipExtend(text, second + (cp2 > 0xffff ? 2 : 1), limit);
    }
    let end = this.emojiUnit(text, start, limit);
    if (end < 0) return -1;
    for (;;) {
      let nextStart = -1;
      if (end < limit && text.charCodeAt(end) === 0x200d) nextStart = end + 1;
      else if (text.charCodeAt(end - 1) === 0x200d) nextStart = end;
      if (nextStart < 0 || nextStart >= limit) break;
      const nextEnd = this.emojiUnit(text, nextStart, limit);
      if (nextEnd < 0) break;
      end = nextEnd;
    }
    return end;
  }

  /** ZWJ* EmojiChar Ext* FE0F?  |  Emoji_Modifier Ext*  — one element of a ZWJ sequence. */
  private emojiUnit(text: string, start: number, limit: number): number {
    let i = start;
    while (i < limit && text.charCodeAt(i) === 0x200d) i++;
    if (i >= limit) return -1;
    const cp = cpAt(text, i);
    const flags = emojiFlags(cp);
    const next = i + (cp > 0xffff ? 2 : 1);
    if (flags & EMOJI_CHAR) {
      let end = skipExtendSansPresentation(text, next, limit);
      if (end < limit && text.charCodeAt(end) === 0xfe0f) end++;
      return end;
    }
    if (flags & EMOJI_MODIFIER && i === start) return skipExtendSansPresentation(text, next, limit);
    return -1;
  }
}
