/** `lowercase` / `uppercase` token filters: Java's per-code-point case mapping (LowerCaseFilter). */
import { lowerCase, upperCase } from '../char-classes.js';
import type { TokenFilter, TokenStream } from '../types.js';

export const lowercaseFilter: TokenFilter = {
  normalizing: true,
  mapTerm: lowerCase,
  filter(stream: TokenStream): void {
    for (const t of stream.tokens) t.term = lowerCase(t.term);
  },
};

export const uppercaseFilter: TokenFilter = {
  normalizing: true,
  mapTerm: upperCase,
  filter(stream: TokenStream): void {
    for (const t of stream.tokens) t.term = upperCase(t.term);
  },
};
