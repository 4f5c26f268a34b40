/**
 * Painless's lexer (after Elasticsearch's PainlessLexer.g4): identifiers, numbers, strings, regex
 * literals and operators, each with its offset in the source. A `/` starts a regex literal unless
 * the token before it ends an operand (SlashStrategy); after a `.` a number is a list shortcut
 * (`list.0`), not a decimal.
 */
import { CompileError } from './script-error.js';

export type TokenKind = 'id' | 'dotid' | 'dotint' | 'int' | 'decimal' | 'string' | 'regex' | 'op' | 'eof';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Offset of the token's first character. */
  start: number;
  end: number;
}

/** Longest first, so that `>>>=` wins over `>>>`, `>>` and `>`. */
const OPERATORS = [
  '>>>=', '===', '!==', '==~', '>>>', '<<=', '>>=', '?.', '?:',
  '==', '!=', '<=', '>=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '^=', '|=', '<<', '>>', '->', '::', '=~',
  '{', '}', '[', ']', '(', ')', '.', ',', ';', '!', '~', '*', '/', '%', '+', '-', '<', '>', '&', '^', '|', '?', ':', '=',
];

const KEYWORDS = new Set(['if', 'else', 'while', 'do', 'for', 'in', 'continue', 'break', 'return', 'new', 'try', 'catch', 'throw', 'this', 'instanceof',
  'true', 'false', 'null']);

/** Tokens after which a `/` divides (an operand ended); after any other a `/` opens a regex. */
function slashDivides(prev: Token | undefined): boolean {
  if (!prev) return false;
  if (prev.kind === 'op') return prev.text === ']' || prev.text === ')';
  if (prev.kind === 'id') return !KEYWORDS.has(prev.text);
  return prev.kind !== 'eof';
}

const ID_START = /[_a-zA-Z]/;
const ID_PART = /[_a-zA-Z0-9]/;

export function tokenize(source: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let afterDot = false;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n' && source[i] !== '\r') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) throw new CompileError('unterminated comment', i);
      i = end + 2;
      continue;
    }
    const start = i;
    if (afterDot) {
      afterDot = false;
      if (/[0-9]/.test(c)) {
        while (i < n && /[0-9]/.test(source[i])) i++;
        out.push({ kind: 'dotint', text: source.slice(start, i), start, end: i });
        continue;
      }
      if (ID_START.test(c)) {
        while (i < n && ID_PART.test(source[i])) i++;
        out.push({ kind: 'dotid', text: source.slice(start, i), start, end: i });
        continue;
      }
    }
    if (ID_START.test(c)) {
      while (i < n && ID_PART.test(source[i])) i++;
      out.push({ kind: 'id', text: source.slice(start, i), start, end: i });
      continue;
    }
    if (/[0-9]/.test(c)) {
      i = number(source, i, out);
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let text = '';
      while (j < n && source[j] !== c) {
        // Painless strings know two escapes, the quote and the backslash; any other stays as written.
        if (source[j] === '\\' && (source[j + 1] === c || source[j + 1] === '\\')) {
          text += source[j + 1];
          j += 2;
        } else text += source[j++];
      }
      if (j >= n) throw new CompileError(`unterminated string`, start);
      out.push({ kind: 'string', text, start, end: j + 1 });
      i = j + 1;
      continue;
    }
    if (c === '/' && !slashDivides(out[out.length - 1])) {
      let j = i + 1;
      while (j < n && source[j] !== '/' && source[j] !== '\n') j += source[j] === '\\' && j + 1 < n && source[j + 1] !== '\n' ? 2 : 1;
      if (j >= n || source[j] !== '/' || j === i + 1) throw new CompileError(`invalid sequence of tokens near ['/'].`, start);
      let k = j + 1;
      while (k < n && /[cilmsUux]/.test(source[k])) k++;
      out.push({ kind: 'regex', text: source.slice(i + 1, j) + '/' + source.slice(j + 1, k), start, end: k });
      i = k;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (!op) throw new CompileError(`unexpected character [${c}].`, start);
    i += op.length;
    out.push({ kind: 'op', text: op, start, end: i });
    if (op === '.' || op === '?.') afterDot = true;
  }
  out.push({ kind: 'eof', text: '<EOF>', start: n, end: n });
  return out;
}

/** A numeric literal at `i` (decimal, hex, octal, with Java's type suffixes); returns the end. */
function number(source: string, i: number, out: Token[]): number {
  const start = i;
  const n = source.length;
  if (source[i] === '0' && (source[i + 1] === 'x' || source[i + 1] === 'X')) {
    i += 2;
    while (i < n && /[0-9a-fA-F]/.test(source[i])) i++;
    if (/[lL]/.test(source[i] ?? '')) i++;
    out.push({ kind: 'int', text: source.slice(start, i), start, end: i });
    return i;
  }
  let decimal = false;
  while (i < n && /[0-9]/.test(source[i])) i++;
  if (source[i] === '.' && /[0-9]/.test(source[i + 1] ?? '')) {
    decimal = true;
    i++;
    while (i < n && /[0-9]/.test(source[i])) i++;
  }
  if ((source[i] === 'e' || source[i] === 'E') && /[0-9+-]/.test(source[i + 1] ?? '')) {
    decimal = true;
    i += 2;
    while (i < n && /[0-9]/.test(source[i])) i++;
  }
  if (/[lLfFdD]/.test(source[i] ?? '')) {
    if (/[fFdD]/.test(source[i])) decimal = true;
    i++;
  }
  if (ID_PART.test(source[i] ?? '')) throw new CompileError(`invalid number [${source.slice(start, i + 1)}].`, start);
  out.push({ kind: decimal ? 'decimal' : 'int', text: source.slice(start, i), start, end: i });
  return i;
}
