/**
 * German-specific filters: `german_normalization` (Lucene GermanNormalizationFilter) and the light
 * German stemmer (Lucene GermanLightStemmer, Savoy's "UniNE" algorithm), which the `german`
 * analyzer chains after its stop words and stem exclusions.
 */
import type { TokenFilter, TokenStream } from '../types.js';

/**
 * The German2 snowball normalization: ß → ss; ä, ö, ü → a, o, u; "ae" and "oe" → a, o; "ue" → u
 * unless the u follows a vowel or q (a small state machine over the characters, as Lucene's).
 * Applies to keywords too: it normalizes spelling, it does not stem.
 */
export function germanNormalize(term: string): string {
  // N: ordinary; U: after a, o or a u that may be an umlaut, so a following e is dropped; V: after
  // a vowel or q, so a following u is not an umlaut.
  let state: 'N' | 'U' | 'V' = 'N';
  let out = '';
  for (const c of term) {
    switch (c) {
      case 'a':
      case 'o':
        state = 'U';
        break;
      case 'u':
        state = state === 'N' ? 'U' : 'V';
        break;
      case 'e':
        if (state === 'U') {
          state = 'V';
          continue;
        }
        state = 'V';
        break;
      case 'i':
      case 'q':
      case 'y':
        state = 'V';
        break;
      case 'ä':
        out += 'a';
        state = 'V';
        continue;
      case 'ö':
        out += 'o';
        state = 'V';
        continue;
      case 'ü':
        out += 'u';
        state = 'V';
        continue;
      case 'ß':
        out += 'ss';
        state = 'N';
        continue;
      default:
        state = 'N';
    }
    out += c;
  }
  return out;
}

export const germanNormalizationFilter: TokenFilter = {
  normalizing: true,
  mapTerm: germanNormalize,
  filter(stream: TokenStream): void {
    for (const t of stream.tokens) t.term = germanNormalize(t.term);
  },
};

const ACCENTED: Record<string, string> = {
  ä: 'a', à: 'a', á: 'a', â: 'a',
  ö: 'o', ò: 'o', ó: 'o', ô: 'o',
  ï: 'i', ì: 'i', í: 'i', î: 'i',
  ü: 'u', ù: 'u', ú: 'u', û: 'u',
};

/** Consonants after which a final "s" or "st" is an inflection. */
const ST_ENDING = new Set(['b', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 't']);

/** Lucene's GermanLightStemmer: accents folded, then two suffix-stripping steps. */
export function germanLightStem(term: string): string {
  const s = term.replace(/[äàáâöòóôïìíîüùúû]/g, (c) => ACCENTED[c]);
  return stripStep2(stripStep1(s));
}

/** Plural and case endings: -ern, -em/-en/-er/-es, -e, -s after an st-ending consonant. */
function stripStep1(s: string): string {
  const n = s.length;
  if (n > 5 && s.endsWith('ern')) return s.slice(0, -3);
  if (n > 4 && s[n - 2] === 'e' && 'mnrs'.includes(s[n - 1])) return s.slice(0, -2);
  if (n > 3 && s[n - 1] === 'e') return s.slice(0, -1);
  if (n > 3 && s[n - 1] === 's' && ST_ENDING.has(s[n - 2])) return s.slice(0, -1);
  return s;
}

/** Comparative and superlative endings: -est, -er/-en, -st after an st-ending consonant. */
function stripStep2(s: string): string {
  const n = s.length;
  if (n > 5 && s.endsWith('est')) return s.slice(0, -3);
  if (n > 4 && s[n - 2] === 'e' && (s[n - 1] === 'r' || s[n - 1] === 'n')) return s.slice(0, -2);
  if (n > 4 && s.endsWith('st') && ST_ENDING.has(s[n - 3])) return s.slice(0, -2);
  return s;
}

export const germanLightStemFilter: TokenFilter = {
  filter(stream: TokenStream): void {
    for (const t of stream.tokens) if (!t.keyword) t.term = germanLightStem(t.term);
  },
};
