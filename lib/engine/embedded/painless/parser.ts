/**
 * Recursive-descent parser for Painless (the grammar of Elasticsearch's PainlessParser.g4): a
 * script is its functions, then its statements; the last statement of a block may leave out its
 * semicolon. Names the lexer hack reads as types (`int`, `String`, `Math`…) start declarations,
 * casts and static calls. Errors are ES's parser messages at the offending token's offset.
 */
import type { Block, Expr, FunctionDecl, Program, Stmt, TypeRef } from './ast.js';
import { tokenize, type Token } from './lexer.js';
import { CompileError } from './script-error.js';
import { isTypeName } from './types.js';

const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '^=', '|=', '<<=', '>>=', '>>>=']);

/** Binary operators by precedence level, loosest first (after ?:, ternary and the boolean ones). */
const BINARY_LEVELS: string[][] = [
  ['||'],
  ['&&'],
  ['|'],
  ['^'],
  ['&'],
  ['==', '!=', '===', '!=='],
  ['instanceof'],
  ['<', '<=', '>', '>='],
  ['<<', '>>', '>>>'],
  ['=~', '==~'],
  ['+', '-'],
  ['*', '/', '%'],
];

function display(t: Token): string {
  return t.kind === 'eof' ? '<EOF>' : `'${t.text}'`;
}

class Parser {
  private pos = 0;
  private readonly statements: number[] = [];

  constructor(private readonly tokens: Token[]) {}

  private get tok(): Token {
    return this.tokens[this.pos];
  }

  private peek(n = 1): Token {
    return this.tokens[Math.min(this.pos + n, this.tokens.length - 1)];
  }

  private is(text: string, t: Token = this.tok): boolean {
    return (t.kind === 'op' || t.kind === 'id') && t.text === text;
  }

  private next(): Token {
    const t = this.tok;
    if (t.kind !== 'eof') this.pos++;
    return t;
  }

  private fail(expected?: string): never {
    const t = this.tok;
    if (t.kind === 'eof' && !expected) throw new CompileError('unexpected end of script.', t.start);
    if (expected) throw new CompileError(`unexpected token [${display(t)}] was expecting one of [${expected}].`, t.start);
    throw new CompileError(`invalid sequence of tokens near [${display(t)}].`, t.start);
  }

  private expect(text: string): Token {
    if (!this.is(text)) this.fail(`'${text}'`);
    return this.next();
  }

  private isType(t: Token = this.tok): boolean {
    return t.kind === 'id' && isTypeName(t.text);
  }

  program(): Program {
    const functions: FunctionDecl[] = [];
    while (this.isType() && this.peek().kind === 'id' && !isTypeName(this.peek().text) && this.is('(', this.peek(2))) functions.push(this.func());
    const body: Stmt[] = [];
    while (this.tok.kind !== 'eof') body.push(this.statement(true));
    return { functions, body, statements: [...new Set(this.statements)].sort((a, b) => a - b) };
  }

  private func(): FunctionDecl {
    const at = this.tok.start;
    const returns = this.declType();
    const name = this.next().text;
    this.expect('(');
    const params: FunctionDecl['params'] = [];
    if (!this.is(')')) {
      do {
        const type = this.declType();
        if (this.tok.kind !== 'id') this.fail();
        params.push({ type, name: this.next().text });
      } while (this.is(',') && this.next());
    }
    this.expect(')');
    return { at, returns, name, params, body: this.block() };
  }

  private declType(): TypeRef {
    if (!this.isType()) this.fail();
    let name = this.next().text;
    if (name === 'Map' && this.is('.') && this.peek().text === 'Entry') {
      this.next();
      this.next();
      name = 'Map.Entry';
    }
    let dims = 0;
    while (this.is('[') && this.is(']', this.peek())) {
      this.next();
      this.next();
      dims++;
    }
    return { name, dims };
  }

  private block(): Block {
    const at = this.expect('{').start;
    const body: Stmt[] = [];
    while (!this.is('}')) {
      if (this.tok.kind === 'eof') this.fail(`'}'`);
      body.push(this.statement(false));
    }
    this.next();
    return { kind: 'block', at, body };
  }

  /** A statement; `topLevel`: the script's own (where the last one may end at the end of the script). */
  private statement(topLevel: boolean): Stmt {
    const t = this.tok;
    this.statements.push(t.start);
    if (t.kind === 'id') {
      switch (t.text) {
        case 'if': {
          this.next();
          this.expect('(');
          const test = this.expression();
          this.expect(')');
          const then = this.trailer();
          let otherwise: Stmt | undefined;
          if (this.is('else')) {
            this.next();
            otherwise = this.trailer();
          }
          return { kind: 'if', at: t.start, test, then, otherwise };
        }
        case 'while': {
          this.next();
          this.expect('(');
          const test = this.expression();
          this.expect(')');
          if (this.is(';')) {
            this.next();
            return { kind: 'while', at: t.start, test };
          }
          return { kind: 'while', at: t.start, test, body: this.trailer() };
        }
        case 'for':
          return this.forStatement();
        case 'try': {
          this.next();
          const block = this.block();
          const catches: Extract<Stmt, { kind: 'try' }>['catches'] = [];
          while (this.is('catch')) {
            const at = this.next().start;
            this.expect('(');
            if (!this.isType()) this.fail();
            const type = this.next().text;
            if (this.tok.kind !== 'id') this.fail();
            const name = this.next().text;
            this.expect(')');
            catches.push({ type, name, block: this.block(), at });
          }
          if (!catches.length) this.fail(`'catch'`);
          return { kind: 'try', at: t.start, block, catches };
        }
      }
    }
    if (this.is('{')) return this.block();
    const s = this.dstatement();
    if (this.is(';')) this.next();
    else if (!(this.is('}') && !topLevel) && !(this.tok.kind === 'eof')) this.fail(topLevel ? `{<EOF>, ';'}` : `';'`);
    return s;
  }

  private trailer(): Stmt {
    return this.is('{') ? this.block() : this.statement(false);
  }

  private forStatement(): Stmt {
    const at = this.next().start;
    this.expect('(');
    if (this.isType() && this.peek().kind === 'id' && this.is(':', this.peek(2))) {
      const type = this.declType();
      const name = this.next().text;
      this.next();
      const iterable = this.expression();
      this.expect(')');
      return { kind: 'each', at, type, name, iterable, body: this.trailer() };
    }
    if (this.isType() && this.is('[', this.peek())) {
      // `for (int[] a : …)`
      const save = this.pos;
      const type = this.declType();
      if (this.tok.kind === 'id' && this.is(':', this.peek())) {
        const name = this.next().text;
        this.next();
        const iterable = this.expression();
        this.expect(')');
        return { kind: 'each', at, type, name, iterable, body: this.trailer() };
      }
      this.pos = save;
    }
    if (this.tok.kind === 'id' && !this.isType() && this.is('in', this.peek())) {
      const name = this.next().text;
      this.next();
      const iterable = this.expression();
      this.expect(')');
      return { kind: 'each', at, name, iterable, body: this.trailer() };
    }
    let init: Stmt | undefined;
    if (!this.is(';')) {
      const iat = this.tok.start;
      init = this.startsDeclaration() ? this.declaration() : { kind: 'expression', at: iat, expr: this.expression() };
    }
    this.expect(';');
    const test = this.is(';') ? undefined : this.expression();
    this.expect(';');
    const update = this.is(')') ? undefined : this.expression();
    this.expect(')');
    if (this.is(';')) {
      this.next();
      return { kind: 'for', at, init, test, update };
    }
    return { kind: 'for', at, init, test, update, body: this.trailer() };
  }

  private startsDeclaration(): boolean {
    if (!this.isType()) return false;
    let k = 1;
    if (this.tok.text === 'Map' && this.is('.', this.peek()) && this.peek(2).text === 'Entry') k = 3;
    while (this.is('[', this.peek(k)) && this.is(']', this.peek(k + 1))) k += 2;
    const after = this.peek(k);
    return after.kind === 'id' && !isTypeName(after.text);
  }

  private declaration(): Stmt {
    const at = this.tok.start;
    const type = this.declType();
    const vars: Extract<Stmt, { kind: 'declaration' }>['vars'] = [];
    do {
      if (this.tok.kind !== 'id' || isTypeName(this.tok.text)) this.fail();
      const v = this.next();
      let init: Expr | undefined;
      if (this.is('=')) {
        this.next();
        init = this.expression();
      }
      vars.push({ name: v.text, at: v.start, init });
    } while (this.is(',') && this.next());
    return { kind: 'declaration', at, type, vars };
  }

  private dstatement(): Stmt {
    const t = this.tok;
    if (t.kind === 'id') {
      switch (t.text) {
        case 'do': {
          this.next();
          const body = this.block();
          this.expect('while');
          this.expect('(');
          const test = this.expression();
          this.expect(')');
          return { kind: 'do', at: t.start, body, test };
        }
        case 'continue':
          this.next();
          return { kind: 'continue', at: t.start };
        case 'break':
          this.next();
          return { kind: 'break', at: t.start };
        case 'return': {
          this.next();
          if (this.is(';') || this.is('}') || this.tok.kind === 'eof') return { kind: 'return', at: t.start };
          return { kind: 'return', at: t.start, expr: this.expression() };
        }
        case 'throw':
          this.next();
          return { kind: 'throw', at: t.start, expr: this.expression() };
      }
      if (this.startsDeclaration()) return this.declaration();
    }
    return { kind: 'expression', at: t.start, expr: this.expression() };
  }

  expression(): Expr {
    const left = this.elvis();
    if (this.tok.kind === 'op' && ASSIGN_OPS.has(this.tok.text)) {
      const op = this.next();
      const value = this.expression();
      return { kind: 'assign', at: op.start, op: op.text, target: left, value };
    }
    return left;
  }

  private elvis(): Expr {
    const left = this.conditional();
    if (this.is('?:')) {
      const at = this.next().start;
      return { kind: 'elvis', at, left, right: this.elvis() };
    }
    return left;
  }

  private conditional(): Expr {
    const test = this.binary(0);
    if (this.is('?')) {
      const at = this.next().start;
      const then = this.expression();
      this.expect(':');
      const otherwise = this.conditionalBranch();
      return { kind: 'conditional', at, test, then, otherwise };
    }
    return test;
  }

  /** The else branch of `?:`: right-associative, and it may be an assignment (`a ? b : c = d` parses as in ANTLR). */
  private conditionalBranch(): Expr {
    const e = this.conditional();
    if (this.is('?:')) {
      const at = this.next().start;
      return { kind: 'elvis', at, left: e, right: this.elvis() };
    }
    return e;
  }

  private binary(level: number): Expr {
    if (level >= BINARY_LEVELS.length) return this.unary();
    const ops = BINARY_LEVELS[level];
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.tok;
      if (!((t.kind === 'op' || (t.kind === 'id' && t.text === 'instanceof')) && ops.includes(t.text))) return left;
      this.next();
      if (t.text === 'instanceof') {
        left = { kind: 'instanceof', at: t.start, expr: left, type: this.declType() };
        continue;
      }
      const right = this.binary(level + 1);
      left = { kind: 'binary', at: t.start, op: t.text, left, right };
    }
  }

  private unary(): Expr {
    const t = this.tok;
    if (this.is('++') || this.is('--')) {
      this.next();
      return { kind: 'increment', at: t.start, op: t.text as '++' | '--', prefix: true, target: this.chain() };
    }
    if (this.is('!') || this.is('~') || this.is('+') || this.is('-')) {
      this.next();
      return { kind: 'unary', at: t.start, op: t.text as '!' | '~' | '+' | '-', expr: this.unary() };
    }
    if (this.is('(') && this.isType(this.peek())) {
      // A cast: `(` type `)` (a type followed by `.` is a static access in parentheses).
      const save = this.pos;
      this.next();
      const type = this.declType();
      if (this.is(')')) {
        this.next();
        return { kind: 'cast', at: t.start, type, expr: this.unary() };
      }
      this.pos = save;
    }
    const e = this.chain();
    if (this.is('++') || this.is('--')) {
      const op = this.next();
      return { kind: 'increment', at: op.start, op: op.text as '++' | '--', prefix: false, target: e };
    }
    return e;
  }

  private chain(): Expr {
    return this.postfixes(this.primary());
  }

  private postfixes(e: Expr): Expr {
    for (;;) {
      const t = this.tok;
      if (this.is('.') || this.is('?.')) {
        this.next();
        const name = this.tok;
        if (name.kind !== 'dotid' && name.kind !== 'dotint') this.fail();
        this.next();
        const nullSafe = t.text === '?.';
        if (name.kind === 'dotid' && this.is('(')) e = { kind: 'call', at: name.start, target: e, name: name.text, args: this.args(), nullSafe };
        else e = { kind: 'field', at: name.start, target: e, name: name.text, nullSafe };
        continue;
      }
      if (this.is('[')) {
        this.next();
        const index = this.expression();
        this.expect(']');
        e = { kind: 'index', at: t.start, target: e, index };
        continue;
      }
      return e;
    }
  }

  private args(): Expr[] {
    this.expect('(');
    const out: Expr[] = [];
    if (!this.is(')')) {
      do out.push(this.argument());
      while (this.is(',') && this.next());
    }
    this.expect(')');
    return out;
  }

  private argument(): Expr {
    const t = this.tok;
    // lambda: `x -> …`, `(x, y) -> …`, `(def x) -> …`, `() -> …`
    if (t.kind === 'id' && !isTypeName(t.text) && this.is('->', this.peek())) {
      this.next();
      this.next();
      return { kind: 'lambda', at: t.start, params: [{ name: t.text }], body: this.lambdaBody() };
    }
    if (this.is('(')) {
      let depth = 0;
      let k = 0;
      for (;; k++) {
        const u = this.peek(k);
        if (u.kind === 'eof') break;
        if (this.is('(', u)) depth++;
        else if (this.is(')', u) && --depth === 0) break;
      }
      if (this.is('->', this.peek(k + 1))) return this.lambda();
    }
    // function references: `Type::method`, `Type::new`, `this::method`, `var::method`
    if (t.kind === 'id' && this.is('::', this.peek())) {
      this.next();
      this.next();
      const name = this.next();
      return { kind: 'funcref', at: t.start, type: t.text, name: name.text };
    }
    return this.expression();
  }

  private lambda(): Expr {
    const at = this.expect('(').start;
    const params: Array<{ type?: TypeRef; name: string }> = [];
    if (!this.is(')')) {
      do {
        const type = this.isType() ? this.declType() : undefined;
        if (this.tok.kind !== 'id') this.fail();
        params.push({ type, name: this.next().text });
      } while (this.is(',') && this.next());
    }
    this.expect(')');
    this.expect('->');
    return { kind: 'lambda', at, params, body: this.lambdaBody() };
  }

  private lambdaBody(): Block | Expr {
    return this.is('{') ? this.block() : this.expression();
  }

  private primary(): Expr {
    const t = this.tok;
    switch (t.kind) {
      case 'int':
      case 'decimal':
        this.next();
        return { kind: 'number', at: t.start, text: t.text, decimal: t.kind === 'decimal' };
      case 'string':
        this.next();
        return { kind: 'string', at: t.start, value: t.text };
      case 'regex': {
        this.next();
        const slash = t.text.lastIndexOf('/');
        return { kind: 'regex', at: t.start, pattern: t.text.slice(0, slash), flags: t.text.slice(slash + 1) };
      }
      case 'op':
        if (t.text === '(') {
          this.next();
          const e = this.expression();
          this.expect(')');
          return e;
        }
        if (t.text === '[') return this.initializer();
        return this.fail();
      case 'id':
        break;
      default:
        return this.fail();
    }
    switch (t.text) {
      case 'true':
      case 'false':
        this.next();
        return { kind: 'boolean', at: t.start, value: t.text === 'true' };
      case 'null':
        this.next();
        return { kind: 'null', at: t.start };
      case 'new':
        return this.newExpression();
      case 'this':
        throw new CompileError('invalid sequence of tokens near [\'this\'].', t.start);
    }
    if (this.isType()) {
      // A static access: `Math.max(…)`, `Integer.MAX_VALUE`, `Map.Entry` is only a type.
      this.next();
      if (!this.is('.')) throw new CompileError(`invalid sequence of tokens near [${display(this.tok)}].`, this.tok.start);
      this.next();
      const name = this.tok;
      if (name.kind !== 'dotid') this.fail();
      this.next();
      if (this.is('(')) return { kind: 'staticCall', at: name.start, type: t.text, name: name.text, args: this.args() };
      return { kind: 'staticField', at: name.start, type: t.text, name: name.text };
    }
    this.next();
    if (this.is('(')) return { kind: 'localCall', at: t.start, name: t.text, args: this.args() };
    return { kind: 'variable', at: t.start, name: t.text };
  }

  /** `[…]`: a list (`[]`, `[1, 2]`) or a map (`[:]`, `['a': 1]`). */
  private initializer(): Expr {
    const at = this.expect('[').start;
    if (this.is(']')) {
      this.next();
      return { kind: 'list', at, items: [] };
    }
    if (this.is(':') && this.is(']', this.peek())) {
      this.next();
      this.next();
      return { kind: 'map', at, entries: [] };
    }
    const first = this.expression();
    if (this.is(':')) {
      this.next();
      const entries: Array<[Expr, Expr]> = [[first, this.expression()]];
      while (this.is(',')) {
        this.next();
        const k = this.expression();
        this.expect(':');
        entries.push([k, this.expression()]);
      }
      this.expect(']');
      return { kind: 'map', at, entries };
    }
    const items = [first];
    while (this.is(',')) {
      this.next();
      items.push(this.expression());
    }
    this.expect(']');
    return { kind: 'list', at, items };
  }

  private newExpression(): Expr {
    const at = this.next().start;
    if (!this.isType()) this.fail();
    const typeTok = this.next();
    let name = typeTok.text;
    if (name === 'Map' && this.is('.') && this.peek().text === 'Entry') {
      this.next();
      this.next();
      name = 'Map.Entry';
    }
    if (this.is('[')) {
      if (this.is(']', this.peek())) {
        // new int[] {1, 2}
        let dims = 0;
        while (this.is('[') && this.is(']', this.peek())) {
          this.next();
          this.next();
          dims++;
        }
        this.expect('{');
        const items: Expr[] = [];
        if (!this.is('}')) {
          do items.push(this.expression());
          while (this.is(',') && this.next());
        }
        this.expect('}');
        return this.postfixes({ kind: 'arrayInit', at, type: { name, dims }, items });
      }
      const sizes: Expr[] = [];
      while (this.is('[')) {
        this.next();
        sizes.push(this.expression());
        this.expect(']');
      }
      return this.postfixes({ kind: 'newArray', at, type: { name, dims: sizes.length }, sizes });
    }
    return { kind: 'new', at, type: name, args: this.args() };
  }
}

export function parse(source: string): Program {
  return new Parser(tokenize(source)).program();
}
