/**
 * Java regular expressions (what the `pattern` tokenizer and analyzer, `pattern_replace`,
 * `keyword_marker`'s `keywords_pattern` and dynamic templates' `match_pattern: regex` take) on
 * RE2, which reads most of Java's syntax alike. Translated: `\uXXXX`, Java's `\p{Alpha}`-style
 * and `\p{IsX}` property names, `\h`, and the COMMENTS and LITERAL flags. Lookbehind runs
 * (re2js evaluates it in linear time); lookahead, atomic groups, possessive quantifiers and
 * backreferences are refused (see `compileLinear`).
 */
import { RE2JS } from 're2js';
import { compileLinear, InvalidPatternError, type LinearRegex } from './linear-regex.js';

const FLAG_BITS: Record<string, number> = {
  CASE_INSENSITIVE: RE2JS.CASE_INSENSITIVE,
  MULTILINE: RE2JS.MULTILINE,
  DOTALL: RE2JS.DOTALL,
};

/** Java's POSIX and java.lang.Character properties, as RE2 class items (valid inside `[…]`). */
const JAVA_PROPERTIES: Record<string, string> = {
  Lower: '[:lower:]',
  Upper: '[:upper:]',
  ASCII: '[:ascii:]',
  Alpha: '[:alpha:]',
  Digit: '[:digit:]',
  Alnum: '[:alnum:]',
  Punct: '[:punct:]',
  Graph: '[:graph:]',
  Print: '[:print:]',
  Blank: '[:blank:]',
  Cntrl: '[:cntrl:]',
  XDigit: '[:xdigit:]',
  Space: '[:space:]',
  javaLowerCase: '\\p{Ll}',
  javaUpperCase: '\\p{Lu}',
  javaWhitespace: '\\s',
  javaDigit: '\\p{Nd}',
  javaLetter: '\\pL',
  javaLetterOrDigit: '\\pL\\p{Nd}',
  IsAlphabetic: '\\pL\\p{Nl}',
  IsLetter: '\\pL',
  IsDigit: '\\p{Nd}',
  IsUppercase: '\\p{Lu}',
  IsLowercase: '\\p{Ll}',
  IsWhite_Space: '\\s\\x{85}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}',
  IsPunctuation: '\\pP',
};

const HORIZONTAL_SPACE = ' \\t\\x{a0}\\x{1680}\\x{180e}\\x{2000}-\\x{200a}\\x{202f}\\x{205f}\\x{3000}';

/** Java Pattern flags (`"CASE_INSENSITIVE|COMMENTS"`) and source → a linear-time regex. */
export function compileJavaRegex(source: string, javaFlags?: string): LinearRegex {
  let flags = RE2JS.LOOKBEHINDS;
  let literal = false;
  let comments = false;
  for (const f of (javaFlags ?? '').split('|').map((s) => s.trim())) {
    flags |= FLAG_BITS[f] ?? 0;
    if (f === 'LITERAL') literal = true;
    else if (f === 'COMMENTS') comments = true;
  }
  return compileLinear(literal ? RE2JS.quote(source) : javaToRe2(source, comments), flags, source);
}

function javaToRe2(source: string, comments: boolean): string {
  let out = '';
  let inClass = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1];
      if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) {
        out += `\\x{${source.slice(i + 2, i + 6)}}`;
        i += 5;
      } else if ((next === 'p' || next === 'P') && source[i + 2] === '{') {
        const close = source.indexOf('}', i + 3);
        const name = close < 0 ? '' : source.slice(i + 3, close);
        const item = JAVA_PROPERTIES[name] ?? (name.startsWith('Is') ? `\\p{${name.slice(2)}}` : `\\p{${name}}`);
        const negated = next === 'P';
        if (inClass > 0) out += negated ? negateItem(item, name) : item;
        else out += `[${negated ? '^' : ''}${item}]`;
        i = close < 0 ? source.length : close;
      } else if (next === 'h') {
        out += inClass > 0 ? HORIZONTAL_SPACE : `[${HORIZONTAL_SPACE}]`;
        i++;
      } else {
        out += c + (next ?? '');
        i++;
      }
    } else if (c === '[') {
      inClass++;
      out += c;
      if (source[i + 1] === '^') out += source[++i];
      if (source[i + 1] === ']') out += `\\${source[++i]}`;
    } else if (c === ']' && inClass > 0) {
      inClass--;
      out += c;
    } else if (comments && inClass === 0 && /\s/.test(c)) {
      continue;
    } else if (comments && inClass === 0 && c === '#') {
      while (i + 1 < source.length && source[i + 1] !== '\n') i++;
    } else {
      out += c;
    }
  }
  return out;
}

function negateItem(item: string, name: string): string {
  if (item.startsWith('[:')) return `[:^${item.slice(2)}`;
  if (/^\\p\{\w+\}$|^\\p\w$/.test(item)) return item.replace('\\p', '\\P');
  throw new InvalidPatternError(`\\P{${name}} inside a character class is not supported`);
}

/**
 * A `replacement` with Java's `Matcher.replaceAll` syntax: `$n` (as many digits as still name a
 * group), `${name}`, `\` escaping the next character. Parsed once against the pattern's groups;
 * a reference to a missing group is refused up front, as Java would at the first match.
 */
export function javaReplacement(replacement: string, re: LinearRegex): (groups: ReadonlyArray<string | null | undefined>) => string {
  const parts: Array<string | number> = [];
  const groupCount = re.groupCount();
  const named = re.namedGroups();
  let literal = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i];
    if (c === '\\') {
      if (i + 1 >= replacement.length) throw new InvalidPatternError('character to be escaped is missing');
      literal += replacement[++i];
    } else if (c === '$') {
      if (i + 1 >= replacement.length) throw new InvalidPatternError('Illegal group reference: group index is missing');
      let ref: number;
      if (replacement[i + 1] === '{') {
        const close = replacement.indexOf('}', i + 2);
        const name = close < 0 ? '' : replacement.slice(i + 2, close);
        if (!(name in named)) throw new InvalidPatternError(`No group with name {${name}}`);
        ref = named[name];
        i = close;
      } else {
        if (!/[0-9]/.test(replacement[i + 1])) throw new InvalidPatternError('Illegal group reference');
        ref = Number(replacement[++i]);
        if (ref > groupCount) throw new InvalidPatternError(`No group ${ref}`);
        while (/[0-9]/.test(replacement[i + 1] ?? '') && ref * 10 + Number(replacement[i + 1]) <= groupCount) ref = ref * 10 + Number(replacement[++i]);
      }
      if (literal) parts.push(literal);
      literal = '';
      parts.push(ref);
    } else {
      literal += c;
    }
  }
  if (literal) parts.push(literal);
  return (groups) => parts.map((p) => (typeof p === 'number' ? groups[p] ?? '' : p)).join('');
}
