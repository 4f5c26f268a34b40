/**
 * English-specific filters: `english_possessive` (Lucene EnglishPossessiveFilter: drops a
 * trailing 's / ’s / ＇s) and the minimal English stemmer (plural "s" removal).
 */
import type { TokenFilter, TokenStream } from '../types.js';

export const englishPossessiveFilter: TokenFilter = {
  filter(stream: TokenStream): void {
    for (const t of stream.tokens) {
      const s = t.term;
      const n = s.length;
      if (n >= 2) {
        const q = s.charCodeAt(n - 2);
        const last = s.charCodeAt(n - 1);
        if ((q === 0x27 || q === 0x2019 || q === 0xff07) && (last === 0x73 || last === 0x53)) t.term = s.slice(0, n - 2);
      }
    }
  },
};

/** Lucene's EnglishMinimalStemmer (Harman's S-stemmer). */
export function minimalEnglishStem(s: string): string {
  const n = s.length;
  if (n < 3 || s[n - 1] !== 's') return s;
  switch (s[n - 2]) {
    case 'u':
    case 's':
      return s;
    case 'e':
      if (n > 3 && s[n - 3] === 'i' && s[n - 4] !== 'a' && s[n - 4] !== 'e') return s.slice(0, n - 3) + 'y';
      if (s[n - 3] === 'i' || s[n - 3] === 'a' || s[n - 3] === 'o' || s[n - 3] === 'e') return s;
      return s.slice(0, n - 1);
    default:
      return s.slice(0, n - 1);
  }
}

export const minimalEnglishStemFilter: TokenFilter = {
  filter(stream: TokenStream): void {
    for (const t of stream.tokens) if (!t.keyword) t.term = minimalEnglishStem(t.term);
  },
};
