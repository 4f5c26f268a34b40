/**
 * The suites write regexes between slashes (`/^foo\s+bar$/`) and, for `match`, in Java's
 * COMMENTS mode: unescaped whitespace is ignored and `#` starts a comment to end of line.
 * JavaScript has no such flag, so the pattern is rewritten before compiling.
 */

/** The pattern inside `/.../` (after trimming), or undefined when `text` is not one. */
export function slashedPattern(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length > 2 && trimmed.startsWith('/') && trimmed.endsWith('/')) {
    return trimmed.slice(1, -1);
  }
  return undefined;
}

/** Compiles a Java COMMENTS-mode pattern. */
export function compileExtendedRegex(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\' && i + 1 < pattern.length) {
      out += ch + pattern[i + 1];
      i++;
    } else if (ch === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i++;
    } else if (!/\s/.test(ch)) {
      out += ch;
    }
  }
  return compileJavaRegex(out);
}

/** Compiles a Java pattern (used as-is for `catch`, which is not in COMMENTS mode). */
export function compileJavaRegex(pattern: string): RegExp {
  // Java's inline "dot matches newline" flag has a JavaScript equivalent as a flag.
  if (pattern.startsWith('(?s)')) return new RegExp(javaDollars(pattern.slice(4)), 's');
  return new RegExp(javaDollars(pattern));
}

/** Where Java's `$` matches by default: at the end of the input, or before a line terminator that ends it. */
const JAVA_END = '(?=(?:\\r\\n|[\\n\\r\\u0085\\u2028\\u2029])?$)';

/**
 * Java's `$` (without MULTILINE) also matches before a final line terminator (`/^(foo)$/` matches a
 * _cat table's `foo\n`); JavaScript's only at the very end. Each unescaped `$` outside a character
 * class becomes a lookahead with Java's meaning.
 */
function javaDollars(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\' && i + 1 < pattern.length) {
      out += ch + pattern[++i];
    } else if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
    } else if (ch === '[') {
      inClass = true;
      out += ch;
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') out += pattern[++i]; // a ] first in a class is a literal
    } else out += ch === '$' ? JAVA_END : ch;
  }
  return out;
}
