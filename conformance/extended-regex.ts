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

/** Compiles a Java pattern as-is (used for `catch`, which is not in COMMENTS mode). */
export function compileJavaRegex(pattern: string): RegExp {
  // Java's inline "dot matches newline" flag has a JavaScript equivalent as a flag.
  if (pattern.startsWith('(?s)')) return new RegExp(pattern.slice(4), 's');
  return new RegExp(pattern);
}
