/**
 * The scripts of `condition` and `predicate_token_filter` (ES's AnalysisPredicateScript), for the
 * simple Painless expressions these filters are given: comparisons, `&&`, `||`, `!`, parentheses,
 * numbers, strings, and the token's properties — `token.term` / `token.getTerm()` (with
 * `.length()`, `.equals(s)`, `.startsWith(s)`, `.endsWith(s)`, `.contains(s)`), `token.position`,
 * `token.positionIncrement`, `token.positionLength`, `token.startOffset`, `token.endOffset`,
 * `token.type`, `token.keyword` (and their getters). Anything else is refused with a
 * `script_exception` (full Painless is not available to analysis).
 */
import { EsError } from '../../../../errors/index.js';

export interface ScriptToken {
  term: string;
  position: number;
  positionIncrement: number;
  positionLength: number;
  startOffset: number;
  endOffset: number;
  type: string;
  keyword: boolean;
}

type Value = string | number | boolean;
type Expr = (token: ScriptToken) => Value;

const PROPERTIES: Record<string, keyof ScriptToken> = {
  term: 'term', getTerm: 'term', position: 'position', getPosition: 'position',
  positionIncrement: 'positionIncrement', getPositionIncrement: 'positionIncrement',
  positionLength: 'positionLength', getPositionLength: 'positionLength',
  startOffset: 'startOffset', getStartOffset: 'startOffset', endOffset: 'endOffset', getEndOffset: 'endOffset',
  type: 'type', getType: 'type', keyword: 'keyword', isKeyword: 'keyword',
};

const TOKEN_RE = /\s*(?:(\d+)|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(&&|\|\||[<>]=?|==|!=|[!().,])|([A-Za-z_]\w*))/y;

function scriptError(source: string, reason: string): EsError {
  return new EsError(400, 'script_exception', `compile error: ${reason} in [${source}]`);
}

/** Compiles `source` to a predicate on a token; throws a 400 script_exception for what it cannot evaluate. */
export function compileTokenPredicate(source: string): (token: ScriptToken) => boolean {
  const tokens: string[] = [];
  const kinds: Array<'num' | 'str' | 'op' | 'id'> = [];
  TOKEN_RE.lastIndex = 0;
  let pos = 0;
  const trimmed = source.trim().replace(/;$/, '').replace(/^return\s+/, '');
  while (pos < trimmed.length) {
    TOKEN_RE.lastIndex = pos;
    const m = TOKEN_RE.exec(trimmed);
    if (!m || m[0].length === 0) throw scriptError(source, `unexpected character at ${pos}`);
    pos = TOKEN_RE.lastIndex;
    if (m[1] !== undefined) (tokens.push(m[1]), kinds.push('num'));
    else if (m[2] !== undefined || m[3] !== undefined) (tokens.push((m[2] ?? m[3]).replace(/\\(.)/g, '$1')), kinds.push('str'));
    else if (m[4] !== undefined) (tokens.push(m[4]), kinds.push('op'));
    else (tokens.push(m[5]), kinds.push('id'));
  }
  let i = 0;
  const peek = (v?: string) => (v === undefined ? tokens[i] : kinds[i] === 'op' && tokens[i] === v);
  const expect = (v: string) => {
    if (!peek(v)) throw scriptError(source, `expected [${v}]`);
    i++;
  };

  const parseOr = (): Expr => {
    let left = parseAnd();
    while (peek('||')) {
      i++;
      const l = left, r = parseAnd();
      left = (t) => Boolean(l(t)) || Boolean(r(t));
    }
    return left;
  };
  const parseAnd = (): Expr => {
    let left = parseComparison();
    while (peek('&&')) {
      i++;
      const l = left, r = parseComparison();
      left = (t) => Boolean(l(t)) && Boolean(r(t));
    }
    return left;
  };
  const parseComparison = (): Expr => {
    const left = parseUnary();
    const op = tokens[i];
    if (kinds[i] === 'op' && ['<', '<=', '>', '>=', '==', '!='].includes(op)) {
      i++;
      const right = parseUnary();
      switch (op) {
        case '<': return (t) => (left(t) as number) < (right(t) as number);
        case '<=': return (t) => (left(t) as number) <= (right(t) as number);
        case '>': return (t) => (left(t) as number) > (right(t) as number);
        case '>=': return (t) => (left(t) as number) >= (right(t) as number);
        case '==': return (t) => left(t) === right(t);
        default: return (t) => left(t) !== right(t);
      }
    }
    return left;
  };
  const parseUnary = (): Expr => {
    if (peek('!')) {
      i++;
      const inner = parseUnary();
      return (t) => !inner(t);
    }
    return parsePrimary();
  };
  const parseArgs = (): Expr[] => {
    expect('(');
    const args: Expr[] = [];
    while (!peek(')')) {
      args.push(parseOr());
      if (peek(',')) i++;
    }
    expect(')');
    return args;
  };
  const parsePrimary = (): Expr => {
    const tok = tokens[i];
    const kind = kinds[i];
    if (tok === undefined) throw scriptError(source, 'unexpected end of script');
    i++;
    if (kind === 'num') {
      const n = Number(tok);
      return () => n;
    }
    if (kind === 'str') return () => tok;
    if (kind === 'op' && tok === '(') {
      const inner = parseOr();
      expect(')');
      return inner;
    }
    if (kind === 'id' && (tok === 'true' || tok === 'false')) {
      const b = tok === 'true';
      return () => b;
    }
    if (kind !== 'id' || tok !== 'token') throw scriptError(source, `cannot resolve symbol [${tok}]`);
    expect('.');
    const name = tokens[i++];
    const property = PROPERTIES[name];
    if (property === undefined) throw scriptError(source, `unknown token property [${name}]`);
    if (name.startsWith('get') || name === 'isKeyword') expect('('), expect(')');
    let expr: Expr = (t) => t[property];
    while (peek('.')) {
      i++;
      const method = tokens[i++];
      const args = parseArgs();
      const target = expr;
      const arg = args[0];
      switch (method) {
        case 'length':
          expr = (t) => String(target(t)).length;
          break;
        case 'equals':
          expr = (t) => target(t) === arg(t);
          break;
        case 'startsWith':
          expr = (t) => String(target(t)).startsWith(String(arg(t)));
          break;
        case 'endsWith':
          expr = (t) => String(target(t)).endsWith(String(arg(t)));
          break;
        case 'contains':
          expr = (t) => String(target(t)).includes(String(arg(t)));
          break;
        default:
          throw scriptError(source, `unknown method [${method}]`);
      }
      if (method !== 'length' && arg === undefined) throw scriptError(source, `[${method}] needs an argument`);
    }
    return expr;
  };

  const expr = parseOr();
  if (i < tokens.length) throw scriptError(source, `unexpected [${tokens[i]}]`);
  return (token) => {
    const v = expr(token);
    if (typeof v !== 'boolean') throw new EsError(400, 'script_exception', `runtime error: script [${source}] did not return a boolean`);
    return v;
  };
}
