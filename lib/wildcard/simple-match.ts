import { foldCase } from './case-fold.js';

/**
 * Elasticsearch's `Regex.simpleMatch`: `*` matches any run of characters (dots and newlines
 * included), every other character stands for itself, and the pattern must cover the whole text.
 * `caseInsensitive` compares case-folded (see `foldCodePoint`).
 *
 * Safe on user input: no RegExp is built. The literal runs between stars are found leftmost
 * first with `indexOf` (which leftmost run a star absorbs never matters), so any pattern costs at
 * most O(pattern × text). A pattern without `*` is an equality test and `prefix*` a `startsWith`.
 */
export function simpleMatch(pattern: string, text: string, caseInsensitive = false): boolean {
  if (caseInsensitive) return simpleMatch(foldCase(pattern), foldCase(text));
  const first = pattern.indexOf('*');
  if (first < 0) return pattern === text;
  const last = pattern.lastIndexOf('*');
  const tailLength = pattern.length - last - 1;
  const end = text.length - tailLength;
  if (end < first || !text.startsWith(pattern.slice(0, first))) return false;
  if (tailLength > 0 && !text.endsWith(pattern.slice(last + 1))) return false;
  let from = first;
  for (let star = first; star < last; ) {
    const next = pattern.indexOf('*', star + 1);
    if (next > star + 1) {
      const run = pattern.slice(star + 1, next);
      const at = text.indexOf(run, from);
      if (at < 0 || at + run.length > end) return false;
      from = at + run.length;
    }
    star = next;
  }
  return true;
}
