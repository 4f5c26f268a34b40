/**
 * Lucene expressions' grammar (the `expression` script language): JavaScript's numeric operators
 * with their precedence (?:, ||, &&, |, ^, &, == !=, < <= > >=, << >> >>>, + -, * / %, unary - ! ~),
 * decimal, hexadecimal (0x1F) and octal (017) numbers, function calls (`sqrt(x)`) and variables:
 * names with `.member`, `['key']` and a last `method()` (`doc['price'].min()`). Nothing else: no
 * assignment, no strings outside brackets, no statements. The text is only ever read into this
 * tree, never handed to the JavaScript engine.
 */

export type Node =
  | { kind: 'number'; value: number }
  | { kind: 'unary'; op: string; arg: Node }
  | { kind: 'binary'; op: string; left: Node; right: Node }
  | { kind: 'conditional'; test: Node; then: Node; otherwise: Node }
  | { kind: 'call'; name: string; args: Node[] }
  | { kind: 'variable'; text: string; parts: VariablePart[] };

export type VariablePart = { kind: 'name'; name: string } | { kind: 'key'; key: string } | { kind: 'method'; name: string };

/** A mistake in the text, at a character offset (ES's ParseException). */
export class ExpressionParseError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const BINARY_LEVELS: readonly (readonly string[])[] = [
  ['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '<=', '>', '>='], ['<<', '>>', '>>>'], ['+', '-'], ['*', '/', '%'],
];
const OPERATORS = ['>>>', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '+', '-', '*', '/', '%', '<', '>', '!', '~', '&', '|', '^', '?', ':', '(', ')', ',', '.', '[', ']'];

type Token = { type: 'number'; value: number; at: number } | { type: 'id' | 'op' | 'string'; text: string; at: number } | { type: 'end'; at: number };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i;
    const hex = /^0[xX][0-9a-fA-F]+/.exec(source.slice(i));
    const oct = hex ? null : /^0[0-7]+(?![.\d eE])/.exec(source.slice(i));
    const dec = hex || oct ? null : /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(source.slice(i));
    if (hex || oct || dec) {
      const text = (hex ?? oct ?? dec)![0];
      tokens.push({ type: 'number', value: hex ? parseInt(text.slice(2), 16) : oct ? parseInt(text.slice(1), 8) : Number(text), at });
      i += text.length;
      continue;
    }
    const id = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(source.slice(i));
    if (id) {
      tokens.push({ type: 'id', text: id[0], at });
      i += id[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== c) {
        if (source[j] === '\\' && j + 1 < source.length) j++;
        text += source[j++];
      }
      if (j >= source.length) throw new ExpressionParseError(`unterminated string at position ${at}`, at);
      tokens.push({ type: 'string', text, at });
      i = j + 1;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (!op) throw new ExpressionParseError(`unexpected character '${c}' on line (1) position (${i})`, i);
    tokens.push({ type: 'op', text: op, at });
    i += op.length;
  }
  tokens.push({ type: 'end', at: source.length });
  return tokens;
}

export function parseExpression(source: string): Node {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = (): Token => tokens[pos];
  const isOp = (text: string): boolean => {
    const t = peek();
    return t.type === 'op' && t.text === text;
  };
  const fail = (t: Token = peek()): never => {
    const what = t.type === 'end' ? '<EOF>' : t.type === 'number' ? String(t.value) : t.text;
    throw new ExpressionParseError(`unexpected token '${what}' on line (1) position (${t.at})`, t.at);
  };
  const expect = (text: string): void => {
    if (!isOp(text)) fail();
    pos++;
  };

  const conditional = (): Node => {
    const test = binary(0);
    if (!isOp('?')) return test;
    pos++;
    const then = conditional();
    expect(':');
    return { kind: 'conditional', test, then, otherwise: conditional() };
  };
  const binary = (level: number): Node => {
    if (level === BINARY_LEVELS.length) return unary();
    let left = binary(level + 1);
    for (;;) {
      const t = peek();
      if (t.type !== 'op' || !BINARY_LEVELS[level].includes(t.text)) return left;
      pos++;
      left = { kind: 'binary', op: t.text, left, right: binary(level + 1) };
    }
  };
  const unary = (): Node => {
    const t = peek();
    if (t.type === 'op' && (t.text === '-' || t.text === '!' || t.text === '~' || t.text === '+')) {
      pos++;
      const arg = unary();
      return t.text === '+' ? arg : { kind: 'unary', op: t.text, arg };
    }
    return primary();
  };
  const primary = (): Node => {
    const t = peek();
    if (t.type === 'number') {
      pos++;
      return { kind: 'number', value: t.value };
    }
    if (t.type === 'op' && t.text === '(') {
      pos++;
      const inner = conditional();
      expect(')');
      return inner;
    }
    if (t.type !== 'id') return fail();
    pos++;
    if (isOp('(')) {
      pos++;
      const args: Node[] = [];
      if (!isOp(')')) {
        args.push(conditional());
        while (isOp(',')) {
          pos++;
          args.push(conditional());
        }
      }
      expect(')');
      return { kind: 'call', name: t.text, args };
    }
    return variable(t as Token & { type: 'id' });
  };
  const variable = (first: { text: string; at: number }): Node => {
    const parts: VariablePart[] = [{ kind: 'name', name: first.text }];
    let end = first.at + first.text.length;
    for (;;) {
      if (isOp('[')) {
        pos++;
        const key = peek();
        if (key.type !== 'string') return fail(key);
        pos++;
        parts.push({ kind: 'key', key: key.text });
        end = peek().at + 1;
        expect(']');
      } else if (isOp('.')) {
        pos++;
        const name = peek();
        if (name.type !== 'id') return fail(name);
        pos++;
        end = name.at + name.text.length;
        if (isOp('(') && tokens[pos + 1]?.type === 'op' && (tokens[pos + 1] as { text: string }).text === ')') {
          end = tokens[pos + 1].at + 1;
          pos += 2;
          parts.push({ kind: 'method', name: name.text });
          break;
        }
        parts.push({ kind: 'name', name: name.text });
      } else break;
    }
    return { kind: 'variable', text: source.slice(first.at, end), parts };
  };

  const tree = conditional();
  if (peek().type !== 'end') fail();
  return tree;
}
