/**
 * Lucene's RegExp syntax (what `regexp` queries, query_string `/…/`, terms `include`/`exclude`
 * and `simple_pattern` tokenizers take) translated to RE2 syntax: `.` any char, `@` any string,
 * `#` the empty language, `"…"` literal strings, `[…]` classes, `<n-m>` numeric intervals,
 * `?*+{n,m}` (stackable, as Lucene allows `a**`), `|`, `()`. Every other character, `^ $ ~ &`
 * included, stands for itself, and so does an operator with nothing to repeat.
 */
import { RE2JS } from 're2js';
import { compileLinear, InvalidPatternError, type LinearRegex } from './linear-regex.js';

/** RE2 has no lookahead for `(?!)`; an empty class matches nothing too. */
const EMPTY_LANGUAGE = '[^\\x00-\\x{10FFFF}]';

export function luceneRegExpSource(value: string): string {
  let out = '';
  let atom = -1; // where the last atom starts in `out`; -1 when there is nothing to repeat
  let repeated = false;
  const groups: number[] = [];
  const emitAtom = (source: string): void => {
    atom = out.length;
    repeated = false;
    out += source === '' ? '(?:)' : source;
  };
  const quantify = (q: string): void => {
    if (atom < 0) return emitAtom(RE2JS.quote(q));
    if (repeated) out = `${out.slice(0, atom)}(?:${out.slice(atom)})`;
    out += q;
    repeated = true;
  };
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    switch (c) {
      case '.':
        emitAtom('(?s:.)');
        break;
      case '@':
        emitAtom('(?s:.*)');
        break;
      case '#':
        emitAtom(EMPTY_LANGUAGE);
        break;
      case '\\': {
        if (i + 1 >= value.length) throw new InvalidPatternError('unexpected end-of-string');
        const ch = String.fromCodePoint(value.codePointAt(i + 1)!);
        emitAtom(RE2JS.quote(ch));
        i += ch.length;
        break;
      }
      case '"': {
        const end = value.indexOf('"', i + 1);
        if (end < 0) throw new InvalidPatternError('expected \'"\'');
        emitAtom(RE2JS.quote(value.slice(i + 1, end)));
        i = end;
        break;
      }
      case '(':
        groups.push(out.length);
        out += '(?:';
        atom = -1;
        break;
      case ')': {
        const start = groups.pop();
        if (start === undefined) throw new InvalidPatternError(`end-of-string expected at position ${i}`);
        out += ')';
        atom = start;
        repeated = false;
        break;
      }
      case '|':
        out += '|';
        atom = -1;
        break;
      case '?':
      case '*':
      case '+':
        quantify(c);
        break;
      case '{': {
        const m = /^\{(\d+)(,\d*)?\}/.exec(value.slice(i));
        if (atom < 0) emitAtom('\\{');
        else if (!m) throw new InvalidPatternError(`integer expected at position ${i + 1}`);
        else {
          quantify(m[0]);
          i += m[0].length - 1;
        }
        break;
      }
      case '<': {
        const m = /^<(\d+)-(\d+)>/.exec(value.slice(i));
        if (!m) {
          emitAtom('<');
          break;
        }
        emitAtom(decimalIntervalSource(m[1], m[2]));
        i += m[0].length - 1;
        break;
      }
      case '[': {
        const end = classEnd(value, i);
        emitAtom(classSource(value.slice(i + 1, end)));
        i = end;
        break;
      }
      default: {
        const ch = String.fromCodePoint(value.codePointAt(i)!);
        emitAtom(RE2JS.quote(ch));
        i += ch.length - 1;
      }
    }
  }
  if (groups.length > 0) throw new InvalidPatternError(`expected ')' at position ${value.length}`);
  return out;
}

/** Index of the `]` closing the class opened at `open` (its first member may be `]`). */
function classEnd(value: string, open: number): number {
  let i = open + 1;
  if (value[i] === '^') i++;
  for (let first = true; i < value.length; i++, first = false) {
    if (value[i] === '\\') i++;
    else if (value[i] === ']' && !first) return i;
  }
  throw new InvalidPatternError(`expected ']' at position ${value.length}`);
}

/** A Lucene class body (`^` negation, `a-z` ranges, `\` escapes) as an RE2 class. */
function classSource(body: string): string {
  let out = '[';
  let i = 0;
  if (body[0] === '^' && body.length > 1) {
    out += '^';
    i = 1;
  }
  for (let members = 0; i < body.length; i++, members++) {
    if (body[i] === '-' && members > 0 && i + 1 < body.length) {
      out += '-';
      continue;
    }
    if (body[i] === '\\' && i + 1 < body.length) i++;
    const ch = String.fromCodePoint(body.codePointAt(i)!);
    out += /[\p{L}\p{N}]/u.test(ch) ? ch : `\\x{${ch.codePointAt(0)!.toString(16)}}`;
    i += ch.length - 1;
  }
  return `${out}]`;
}

/**
 * Lucene's `<n-m>`: the decimal numbers from n to m, written with exactly as many digits as n
 * and m when those are written with the same number of digits, else with any leading zeros.
 */
function decimalIntervalSource(lo: string, hi: string): string {
  let [min, max] = [BigInt(lo), BigInt(hi)];
  if (min > max) [min, max] = [max, min];
  if (lo.length === hi.length) return fixedWidthRange(min.toString().padStart(lo.length, '0'), max.toString().padStart(lo.length, '0'));
  const alts: string[] = [];
  for (let width = min.toString().length; width <= max.toString().length; width++) {
    const from = width === 1 ? min : bigMax(min, 10n ** BigInt(width - 1));
    const to = bigMin(max, 10n ** BigInt(width) - 1n);
    if (from <= to) alts.push(fixedWidthRange(from.toString(), to.toString()));
  }
  return `0*(?:${alts.join('|')})`;
}

const bigMax = (a: bigint, b: bigint): bigint => (a > b ? a : b);
const bigMin = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** Digit strings of one width from `lo` to `hi` (both that wide), in O(width²) program size. */
function fixedWidthRange(lo: string, hi: string): string {
  if (lo === hi) return lo;
  const rest = lo.length - 1;
  if (lo[0] === hi[0]) return lo[0] + fixedWidthRange(lo.slice(1), hi.slice(1));
  if (/^0*$/.test(lo.slice(1)) && /^9*$/.test(hi.slice(1))) return `[${lo[0]}-${hi[0]}]${rest > 0 ? `[0-9]{${rest}}` : ''}`;
  const alts = [lo[0] + fixedWidthRange(lo.slice(1), '9'.repeat(rest))];
  const [a, b] = [Number(lo[0]) + 1, Number(hi[0]) - 1];
  if (a <= b) alts.push(`[${a}-${b}]${rest > 0 ? `[0-9]{${rest}}` : ''}`);
  alts.push(hi[0] + fixedWidthRange('0'.repeat(rest), hi.slice(1)));
  return `(?:${alts.join('|')})`;
}

export interface LuceneRegExpOptions {
  caseInsensitive?: boolean;
  /** Leftmost-longest matches (Lucene's automaton tokenizers) instead of leftmost-first. */
  longest?: boolean;
}

/**
 * A Lucene regular expression compiled for linear-time matching; `testExact` is Lucene's
 * (always anchored) match. Throws `InvalidPatternError` or the too-complex 400.
 */
export function compileLuceneRegExp(value: string, options: LuceneRegExpOptions = {}): LinearRegex {
  const flags = (options.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0) | (options.longest ? RE2JS.LONGEST_MATCH : 0);
  return compileLinear(luceneRegExpSource(value), flags, value);
}
