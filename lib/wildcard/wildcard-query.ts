import { foldCase, foldCodePoint } from './case-fold.js';

/** A compiled `wildcard` query pattern. */
export interface WildcardQueryMatcher {
  /** Every matching text starts with this (empty when case-insensitive). */
  readonly literalPrefix: string;
  test(text: string): boolean;
}

const STAR = -1;
const ANY = -2;

/**
 * Lucene's `WildcardQuery` syntax, as the `wildcard` query reads its value: `*` matches any run
 * of code points, `?` exactly one, `\` makes the next character literal (a trailing `\` is
 * itself). `caseInsensitive` compares case-folded code points.
 *
 * Safe on user input: no RegExp is built. Matching walks pattern and text once, returning to
 * the last star on a mismatch (greedy two-pointer), so any pattern costs at most
 * O(pattern × text).
 */
export function compileWildcardQuery(pattern: string, caseInsensitive: boolean): WildcardQueryMatcher {
  const tokens: number[] = [];
  let literalPrefix = '';
  let inPrefix = true;
  for (let i = 0; i < pattern.length; ) {
    let cp = pattern.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    if (cp === 0x2a /* * */) {
      if (tokens[tokens.length - 1] !== STAR) tokens.push(STAR);
      inPrefix = false;
      continue;
    }
    if (cp === 0x3f /* ? */) {
      tokens.push(ANY);
      inPrefix = false;
      continue;
    }
    if (cp === 0x5c /* \ */ && i < pattern.length) {
      cp = pattern.codePointAt(i)!;
      i += cp > 0xffff ? 2 : 1;
    }
    if (inPrefix) literalPrefix += String.fromCodePoint(cp);
    tokens.push(caseInsensitive ? foldCodePoint(cp) : cp);
  }
  const normalize = caseInsensitive ? foldCase : (text: string) => text;
  if (inPrefix) {
    const literal = normalize(literalPrefix);
    return { literalPrefix: caseInsensitive ? '' : literalPrefix, test: (text) => normalize(text) === literal };
  }
  if (tokens.length > 0 && tokens.indexOf(STAR) === tokens.length - 1 && !tokens.includes(ANY)) {
    const head = normalize(literalPrefix);
    return { literalPrefix: caseInsensitive ? '' : literalPrefix, test: (text) => normalize(text).startsWith(head) };
  }
  const compiled = Int32Array.from(tokens);
  return { literalPrefix: caseInsensitive ? '' : literalPrefix, test: (text) => matchTokens(compiled, normalize(text)) };
}

function matchTokens(tokens: Int32Array, text: string): boolean {
  let p = 0;
  let t = 0;
  let lastStar = -1;
  let resumeAt = 0;
  while (t < text.length) {
    const cp = text.codePointAt(t)!;
    if (p < tokens.length && (tokens[p] === cp || tokens[p] === ANY)) {
      p++;
      t += cp > 0xffff ? 2 : 1;
    } else if (p < tokens.length && tokens[p] === STAR) {
      lastStar = p++;
      resumeAt = t;
    } else if (lastStar >= 0) {
      // The last star absorbs one more code point; everything after it is matched again from there.
      p = lastStar + 1;
      resumeAt += text.codePointAt(resumeAt)! > 0xffff ? 2 : 1;
      t = resumeAt;
    } else {
      return false;
    }
  }
  while (p < tokens.length && tokens[p] === STAR) p++;
  return p === tokens.length;
}
