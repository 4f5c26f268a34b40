/**
 * Painless → JavaScript. One pass over the syntax tree checks names and static types (Java's
 * rules: integer division and overflow for int, string concatenation, implicit widening but no
 * implicit narrowing, `def` deciding at run time) and emits JS whose only free name is `rt`, the
 * runtime (runtime.ts), and `$g`, the values the context hands the script (params, ctx, doc…).
 * Script variables become `v_<name>`, temporaries `$t<n>`; every member access is an `rt` call;
 * every loop iteration and every call counts against the run's step budget ($b, run-bounds.ts),
 * which checks the clock every 1024 steps. Nothing a script writes becomes a JS
 * identifier or property name of its own.
 */
import type { Block, Expr, FunctionDecl, Program, Stmt, TypeRef } from './ast.js';
import { membersOfClass, staticField, staticMethod, type Members, type Method } from './members.js';
import { CompileError } from './script-error.js';
import { longLiteral } from './long-arithmetic.js';
import {
  BOXED, DEF, UNBOXED, canonicalName, defaultValueCode, elementType, isArray, isIntegral, isNumeric, isPrimitive, isStaticOnly, isSubtype, isTypeName, promote,
  promoteUnary, type Type,
} from './types.js';
import { compileJavaRegex } from '../regex/index.js';

/** What a script context gives its scripts (ES's script contexts: update, filter, score…). */
export interface ContextDefinition {
  name: string;
  /** Variables with their static types (params: Map, ctx: Map, doc: Map, _score: double). */
  variables: Record<string, Type>;
  /** Functions the context provides (emit, saturation…), by name: parameter and return types (the last `params.length - minArgs` optional). */
  functions?: Record<string, { params: Type[]; ret: Type; minArgs?: number }>;
  /** What `execute` returns: void, boolean, double, def… */
  returns: Type;
}

interface R {
  code: string;
  type: Type;
  /** A literal's value (constant folding of `-1`, implicit narrowing of int constants). */
  literal?: number | string | boolean | null;
}

interface Local {
  js: string;
  type: Type;
  readonly?: boolean;
}

class Scope {
  readonly vars = new Map<string, Local>();
  constructor(
    readonly parent: Scope | undefined,
    readonly fn: FnContext,
  ) {}

  lookup(name: string): Local | undefined {
    return this.vars.get(name) ?? this.parent?.lookup(name);
  }
}

interface FnContext {
  temps: number;
  returns: Type;
  kind: 'main' | 'function' | 'lambda';
  loops: number;
  /** Where the context's variables and functions are reachable (the main body and its lambdas). */
  seesContext: boolean;
}

const STATEMENT_EXPRESSIONS = new Set(['assign', 'increment', 'call', 'localCall', 'staticCall', 'new']);

function err(message: string, at: number): CompileError {
  return new CompileError(message, at);
}

function typeName(t: TypeRef): Type {
  return t.name + '[]'.repeat(t.dims);
}

function jsString(s: string): string {
  return JSON.stringify(s);
}

/** A number as JS source, safe in any position (negative in parentheses; no NaN/Infinity globals). */
function jsNumber(n: number): string {
  if (Number.isNaN(n)) return '(0/0)';
  if (n === Infinity) return '(1/0)';
  if (n === -Infinity) return '(-1/0)';
  if (Object.is(n, -0)) return '(-0)';
  return n < 0 ? `(${n})` : String(n);
}

/** The member table a static type is checked against; undefined for `def` (dispatched at run time). */
function membersOfType(t: Type): Members | undefined {
  if (t === DEF) return undefined;
  if (isArray(t)) return membersOfClass('Array');
  if (isPrimitive(t)) return membersOfClass(BOXED[t]);
  return membersOfClass(t);
}

const CONSTRUCTIBLE = new Set(['ArrayList', 'LinkedList', 'HashMap', 'LinkedHashMap', 'TreeMap', 'HashSet', 'LinkedHashSet', 'TreeSet', 'StringBuilder',
  'Exception', 'RuntimeException', 'IllegalArgumentException', 'IllegalStateException', 'NullPointerException', 'ArithmeticException',
  'UnsupportedOperationException', 'NumberFormatException', 'ClassCastException', 'IndexOutOfBoundsException']);

export class CodeGenerator {
  private readonly hoisted: string[] = [];
  private readonly userFunctions = new Map<string, FunctionDecl>();

  constructor(
    private readonly program: Program,
    private readonly context: ContextDefinition,
  ) {
    for (const f of program.functions) {
      const key = `${f.name}/${f.params.length}`;
      if (this.userFunctions.has(key)) throw err(`Illegal duplicate functions [${key}].`, f.at);
      this.userFunctions.set(key, f);
    }
  }

  /** The JS source of a factory `(rt) => (g) => result`. */
  generate(): string {
    const fns = this.program.functions.map((f) => this.userFunction(f));
    const main = this.mainFunction();
    return `"use strict";\nconst $b = rt.budget;\n${this.hoisted.join('\n')}\n${fns.join('\n')}\nreturn ${main};`;
  }

  private hoist(code: string): string {
    const name = `$h${this.hoisted.length}`;
    this.hoisted.push(`const ${name} = ${code};`);
    return name;
  }

  private mainFunction(): string {
    const fn: FnContext = { temps: 0, returns: this.context.returns, kind: 'main', loops: 0, seesContext: true };
    const scope = new Scope(undefined, fn);
    const prologue: string[] = [];
    for (const [name, type] of Object.entries(this.context.variables)) {
      const js = `v_${name}`;
      scope.vars.set(name, { js, type, readonly: true });
      prologue.push(`const ${js} = $g[${jsString(name)}];`);
    }
    const body = this.statements(this.program.body, new Scope(scope, fn), true);
    const fallthrough = this.context.returns === 'void' ? '' : `return ${defaultValueCode(this.context.returns)};`;
    return `function ($g) {\n${this.frame(fn)}${prologue.join('\n')}\n${body}\n${fallthrough}\n}`;
  }

  /** Declarations every JS function of the script starts with: its temporaries. */
  private frame(fn: FnContext): string {
    const temps = Array.from({ length: fn.temps }, (_, i) => `$t${i}`);
    return temps.length ? `let ${temps.join(', ')};\n` : '';
  }

  private userFunction(f: FunctionDecl): string {
    const returns = typeName(f.returns);
    const fn: FnContext = { temps: 0, returns, kind: 'function', loops: 0, seesContext: false };
    const scope = new Scope(undefined, fn);
    const params = f.params.map((p) => {
      if (scope.vars.has(p.name)) throw err(`Duplicate parameter [${p.name}] in function [${f.name}].`, f.at);
      const js = `v_${p.name}`;
      scope.vars.set(p.name, { js, type: typeName(p.type) });
      return js;
    });
    const body = this.statements(f.body.body, new Scope(scope, fn), false);
    const fallthrough = returns === 'void' ? '' : `return ${defaultValueCode(returns)};`;
    const budget = `if (--rt.calls.left < 0) rt.callLimit(${f.at});\n${this.loopCheck(f.at)}\n`;
    return `function f_${f.name}$${f.params.length}(${params.join(', ')}) {\n${budget}${this.frame(fn)}${body}\n${fallthrough}\n}`;
  }

  private temp(scope: Scope): string {
    return `$t${scope.fn.temps++}`;
  }

  // ------------------------------------------------------------ statements

  private statements(list: Stmt[], scope: Scope, last: boolean): string {
    return list.map((s, i) => this.statement(s, scope, last && i === list.length - 1)).join('\n');
  }

  private loopCheck(at: number): string {
    return `if (--$b.steps < 0) rt.loopLimit(${at}); else if (($b.steps & 1023) === 0) rt.tick(${at});`;
  }

  /** `last`: the script's final statement, whose value is what a non-void script returns. */
  private statement(s: Stmt, scope: Scope, last: boolean): string {
    switch (s.kind) {
      case 'block':
        return `{\n${this.statements(s.body, new Scope(scope, scope.fn), last)}\n}`;
      case 'declaration':
        return `let ${this.declarators(s, scope).join(', ')};`;
      case 'expression': {
        const returnsValue = last && scope.fn.kind === 'main' && this.context.returns !== 'void';
        if (!returnsValue && !STATEMENT_EXPRESSIONS.has(s.expr.kind)) throw err('Not a statement.', s.at);
        const r = this.expr(s.expr, scope);
        if (returnsValue && r.type !== 'void') return `return ${this.coerce(r, this.context.returns, false, s.at)};`;
        if (returnsValue) return `${r.code};\nreturn ${defaultValueCode(this.context.returns)};`;
        return `${r.code};`;
      }
      case 'if': {
        const test = this.condition(s.test, scope);
        const then = this.branch(s.then, scope, last);
        const otherwise = s.otherwise ? ` else ${this.branch(s.otherwise, scope, last)}` : '';
        return `if (${test}) ${then}${otherwise}`;
      }
      case 'while': {
        const test = this.condition(s.test, scope);
        const body = s.body ? this.loopBody(s.body, scope) : '';
        return `while (${test}) {\n${this.loopCheck(s.at)}\n${body}\n}`;
      }
      case 'do': {
        const body = this.loopBody(s.body, scope);
        const test = this.condition(s.test, scope);
        return `do {\n${this.loopCheck(s.at)}\n${body}\n} while (${test});`;
      }
      case 'for': {
        const inner = new Scope(scope, scope.fn);
        let init = '';
        if (s.init) {
          if (s.init.kind === 'declaration') init = `let ${this.declarators(s.init, inner).join(', ')}`;
          else init = this.expr((s.init as Extract<Stmt, { kind: 'expression' }>).expr, inner).code;
        }
        const test = s.test ? this.condition(s.test, inner) : '';
        const update = s.update ? this.expr(s.update, inner).code : '';
        const body = s.body ? this.loopBody(s.body, inner) : '';
        return `for (${init}; ${test}; ${update}) {\n${this.loopCheck(s.at)}\n${body}\n}`;
      }
      case 'each': {
        const iterable = this.expr(s.iterable, scope);
        const inner = new Scope(scope, scope.fn);
        if (scope.lookup(s.name)) throw err(`variable [${s.name}] is already defined`, s.at);
        const type = s.type ? this.resolveType(s.type, s.at) : DEF;
        const element = this.temp(scope);
        inner.vars.set(s.name, { js: `v_${s.name}`, type });
        const value = this.coerce({ code: element, type: iterable.type.endsWith('[]') ? elementType(iterable.type) : DEF }, type, false, s.at);
        const body = this.loopBody(s.body, inner);
        return `for (${element} of rt.iterate(${iterable.code}, ${s.iterable.at})) {\n${this.loopCheck(s.at)}\nlet v_${s.name} = ${value};\n${body}\n}`;
      }
      case 'return': {
        const returns = scope.fn.returns;
        if (!s.expr) {
          if (returns !== 'void' && scope.fn.kind !== 'lambda') {
            if (scope.fn.kind === 'main') return `return ${defaultValueCode(returns)};`;
            throw err(`Must return a value of type [${canonicalName(returns)}].`, s.at);
          }
          return 'return;';
        }
        const r = this.expr(s.expr, scope);
        if (returns === 'void') throw err(`Cannot cast from [${canonicalName(r.type)}] to [void].`, s.at);
        return `return ${this.coerce(r, returns, false, s.expr.at)};`;
      }
      case 'break':
      case 'continue':
        if (!scope.fn.loops) throw err(`${s.kind === 'break' ? 'Break' : 'Continue'} statement outside of a loop.`, s.at);
        return `${s.kind};`;
      case 'throw':
        return `rt.throwValue(${this.toDef(this.expr(s.expr, scope))}, ${s.at});`;
      case 'try': {
        const block = this.branch(s.block, scope, last);
        const e = this.temp(scope);
        const handlers = s.catches.map((c, i) => {
          if (!isTypeName(c.type) || !/Exception$/.test(c.type)) throw err(`Not a type [${c.type}].`, c.at);
          if (scope.lookup(c.name)) throw err(`variable [${c.name}] is already defined`, c.at);
          const inner = new Scope(scope, scope.fn);
          inner.vars.set(c.name, { js: `v_${c.name}`, type: c.type });
          const body = this.statements(c.block.body, inner, last);
          return `${i ? 'else ' : ''}if ((v_${c.name} = rt.caught(${e}, ${jsString(c.type)})) !== undefined) {\n${body}\n}`;
        });
        const names = [...new Set(s.catches.map((c) => `v_${c.name}`))];
        return `try ${block} catch (${e}) {\nlet ${names.join(', ')};\n${handlers.join('\n')}\nelse throw ${e};\n}`;
      }
    }
  }

  /** `name = value` of each variable a declaration introduces (in its scope from then on). */
  private declarators(s: Extract<Stmt, { kind: 'declaration' }>, scope: Scope): string[] {
    const type = this.resolveType(s.type, s.at);
    return s.vars.map((v) => {
      if (scope.lookup(v.name)) throw err(`variable [${v.name}] is already defined`, v.at);
      const init = v.init ? this.coerce(this.expr(v.init, scope), type, false, v.init.at) : defaultValueCode(type);
      scope.vars.set(v.name, { js: `v_${v.name}`, type });
      return `v_${v.name} = ${init}`;
    });
  }

  private branch(s: Stmt, scope: Scope, last: boolean): string {
    const inner = new Scope(scope, scope.fn);
    if (s.kind === 'block') return `{\n${this.statements(s.body, inner, last)}\n}`;
    return `{\n${this.statement(s, inner, last)}\n}`;
  }

  private loopBody(s: Stmt, scope: Scope): string {
    scope.fn.loops++;
    try {
      const inner = new Scope(scope, scope.fn);
      return s.kind === 'block' ? this.statements(s.body, inner, false) : this.statement(s, inner, false);
    } finally {
      scope.fn.loops--;
    }
  }

  private condition(e: Expr, scope: Scope): string {
    return this.coerce(this.expr(e, scope), 'boolean', false, e.at);
  }

  private resolveType(t: TypeRef, at: number): Type {
    if (!isTypeName(t.name) || t.name === 'void' || isStaticOnly(t.name)) throw err(`cannot resolve symbol [${t.name}]`, at);
    return typeName(t);
  }

  // ------------------------------------------------------------ conversions

  /** A value as a `def` (boxes doubles whose value is integral; see values.ts). */
  private toDef(r: R): string {
    if (r.type === 'double' || r.type === 'float') {
      if (typeof r.literal === 'number' && !Number.isInteger(r.literal)) return r.code;
      return `rt.boxD(${r.code})`;
    }
    // a long keeps its type as a def value (values.ts' JLong)
    if (r.type === 'long') return `rt.boxL(${r.code})`;
    return r.code;
  }

  /** A primitive numeric value as a JS number (chars are one-char strings). */
  private numeric(r: R): string {
    return r.type === 'char' ? `rt.c2i(${r.code})` : r.code;
  }

  /** Converts `r` to `to`, implicitly (assignment, arguments) or by an explicit cast; refuses what Painless refuses. */
  private coerce(r: R, to: Type, explicit: boolean, at: number): string {
    const from = r.type;
    if (from === to) return r.code;
    const refuse = (): never => {
      throw err(`Cannot cast from [${canonicalName(from)}] to [${canonicalName(to)}].`, at);
    };
    if (to === 'void') return refuse();
    if (from === 'null') {
      if (isPrimitive(to)) throw err(`Cannot cast null to a primitive type [${to}].`, at);
      return 'null';
    }
    if (from === 'void') throw err(`Cannot cast from [void] to [${canonicalName(to)}].`, at);
    if (to === DEF || to === 'Object') return this.toDef(r);
    if (from === DEF || ((from === 'Object' || from === 'Number' || from === 'Comparable') && explicit)) {
      switch (to) {
        case 'int':
        case 'short':
        case 'byte':
          return explicit ? `rt.castNumber(${r.code}, ${jsString(to)}, ${at})` : `rt.toInt(${r.code}, ${at})`;
        case 'long':
          return explicit ? `rt.castNumber(${r.code}, "long", ${at})` : `rt.toLong(${r.code}, ${at})`;
        case 'double':
          return `rt.toDouble(${r.code}, ${at})`;
        case 'float':
          return `rt.toFloat(${r.code}, ${at})`;
        case 'boolean':
          return `rt.toBool(${r.code}, ${at})`;
        case 'char':
          return explicit ? `rt.castNumber(${r.code}, "char", ${at})` : `rt.toChar(${r.code}, ${at})`;
        default:
          return `rt.toRef(${r.code}, ${jsString(to)}, ${at})`;
      }
    }
    if (isNumeric(from) && isNumeric(to)) {
      if (from === 'char' && to !== 'char') return this.coerce({ code: this.numeric(r), type: 'int' }, to, explicit, at);
      if (widens(from, to)) {
        const code = from === 'long' && (to === 'float' || to === 'double') ? `rt.l2d(${r.code})` : r.code;
        return to === 'float' ? `rt.convert(${code}, "float")` : code;
      }
      if (!explicit) {
        // An int constant narrows implicitly when it fits (Java's assignment conversion).
        if (typeof r.literal === 'number' && from === 'int' && fits(r.literal, to)) return to === 'char' ? jsString(String.fromCharCode(r.literal)) : r.code;
        return refuse();
      }
      // a constant past 2^53 as a long is left to the run time's conversion (it saturates, as a BigInt)
      if (typeof r.literal === 'number' && !(to === 'long' && !Number.isSafeInteger(Math.trunc(r.literal)))) {
        const v = convertConstant(r.literal, to);
        return typeof v === 'string' ? jsString(v) : jsNumber(v);
      }
      return `rt.convert(${r.code}, ${jsString(to)})`;
    }
    if (from === 'String' && to === 'char') {
      if (typeof r.literal === 'string' && r.literal.length === 1) return r.code;
      if (explicit) return `rt.toChar(${r.code}, ${at})`;
      return refuse();
    }
    if (from === 'char' && to === 'String' && explicit) return r.code;
    // boxing and unboxing
    if (isPrimitive(from) && UNBOXED[to]) {
      const target = UNBOXED[to];
      if (target === from || (isNumeric(from) && isNumeric(target) && (explicit || widens(from, target)))) {
        return this.toDef({ code: this.coerce(r, target, explicit, at), type: target, literal: r.literal });
      }
      return refuse();
    }
    if (isPrimitive(from) && (to === 'Number' || to === 'Comparable')) return this.toDef(r);
    if (UNBOXED[from] && isPrimitive(to)) {
      const unboxed: R = { code: this.coerce({ code: r.code, type: DEF }, UNBOXED[from], false, at), type: UNBOXED[from] };
      return this.coerce(unboxed, to, explicit, at);
    }
    if (!isPrimitive(from) && !isPrimitive(to)) {
      if (isSubtype(from, to)) return r.code;
      if (isSubtype(to, from) || (explicit && !isArray(to) && !isArray(from))) {
        if (!explicit) return refuse();
        return `rt.toRef(${r.code}, ${jsString(to)}, ${at})`;
      }
    }
    return refuse();
  }

  // ------------------------------------------------------------ expressions

  private expr(e: Expr, scope: Scope): R {
    switch (e.kind) {
      case 'number':
        return this.number(e.text, e.decimal, false, e.at);
      case 'string':
        return { code: jsString(e.value), type: 'String', literal: e.value };
      case 'boolean':
        return { code: String(e.value), type: 'boolean', literal: e.value };
      case 'null':
        return { code: 'null', type: 'null', literal: null };
      case 'regex': {
        try {
          compileJavaRegex(e.pattern, '');
        } catch (x) {
          throw err(`invalid regular expression [${e.pattern}]: ${(x as Error).message}`, e.at);
        }
        return { code: this.hoist(`rt.regex(${jsString(e.pattern)}, ${jsString(e.flags)}, ${e.at})`), type: 'Pattern' };
      }
      case 'variable': {
        const local = scope.lookup(e.name);
        if (!local) throw err(`cannot resolve symbol [${e.name}]`, e.at);
        return { code: local.js, type: local.type };
      }
      case 'list':
        return { code: `[${e.items.map((i) => this.toDef(this.expr(i, scope))).join(', ')}]`, type: 'ArrayList' };
      case 'map':
        return {
          code: `rt.mapOf([${e.entries.map(([k, v]) => `[${this.toDef(this.expr(k, scope))}, ${this.toDef(this.expr(v, scope))}]`).join(', ')}])`,
          type: 'HashMap',
        };
      case 'new': {
        if (!CONSTRUCTIBLE.has(e.type)) throw err(`constructor [${canonicalName(e.type)}, <init>/${e.args.length}] not found`, e.at);
        const args = e.args.map((a) => this.toDef(this.expr(a, scope)));
        return { code: `rt.newObject(${jsString(e.type)}, [${args.join(', ')}], ${e.at})`, type: e.type };
      }
      case 'newArray': {
        const element = this.resolveType({ name: e.type.name, dims: 0 }, e.at);
        const sizes = e.sizes.map((s) => this.coerce(this.expr(s, scope), 'int', false, s.at));
        return { code: `rt.newArray(${jsString(element)}, [${sizes.join(', ')}], ${e.at})`, type: typeName(e.type) };
      }
      case 'arrayInit': {
        const type = this.resolveType(e.type, e.at);
        const element = elementType(type);
        const items = e.items.map((i) => this.coerce(this.expr(i, scope), element, false, i.at));
        return { code: `rt.javaArray([${items.join(', ')}], ${jsString(element)})`, type };
      }
      case 'call':
        return this.call(e, scope);
      case 'localCall':
        return this.localCall(e, scope);
      case 'field':
        return this.field(e, scope);
      case 'index': {
        const target = this.expr(e.target, scope);
        return this.index(target, this.expr(e.index, scope), e.index.at, e.at);
      }
      case 'staticCall':
        return this.staticCall(e, scope);
      case 'staticField': {
        const f = staticField(e.type, e.name);
        if (!f) throw err(`static field [${canonicalName(e.type)}, ${e.name}] not found`, e.at);
        if (typeof f.value === 'number' && isPrimitive(f.type)) return { code: jsNumber(f.value), type: f.type, literal: f.value };
        if (typeof f.value === 'boolean') return { code: String(f.value), type: f.type };
        return { code: this.hoist(`rt.staticValue(${jsString(e.type)}, ${jsString(e.name)})`), type: f.type };
      }
      case 'unary':
        return this.unary(e, scope);
      case 'cast': {
        const to = this.resolveType(e.type, e.at);
        const r = this.expr(e.expr, scope);
        const code = this.coerce(r, to, true, e.at);
        const literal = typeof r.literal === 'number' && isNumeric(r.type) && isNumeric(to) ? convertConstant(r.literal, to) : undefined;
        return { code, type: to, literal };
      }
      case 'binary':
        return this.binary(e.op, this.expr(e.left, scope), this.expr(e.right, scope), e.at);
      case 'instanceof': {
        const r = this.expr(e.expr, scope);
        const type = this.resolveType(e.type, e.at);
        if (isPrimitive(r.type)) return { code: String(r.type === type || BOXED[r.type] === type || type === 'Object' || type === DEF), type: 'boolean' };
        return { code: `rt.isInstance(${r.code}, ${jsString(type)})`, type: 'boolean' };
      }
      case 'conditional': {
        const test = this.condition(e.test, scope);
        const [a, b, type] = this.unify(this.expr(e.then, scope), this.expr(e.otherwise, scope), e.at);
        return { code: `(${test} ? ${a} : ${b})`, type };
      }
      case 'elvis': {
        const left = this.expr(e.left, scope);
        if (isPrimitive(left.type)) throw err(`Extraneous elvis operator. LHS is a primitive.`, e.at);
        const t = this.temp(scope);
        const [a, b, type] = this.unify({ code: t, type: left.type }, this.expr(e.right, scope), e.at);
        return { code: `((${t} = ${left.code}) != null ? ${a} : ${b})`, type };
      }
      case 'assign':
        return this.assign(e, scope);
      case 'increment':
        return this.increment(e, scope);
      case 'lambda':
        return this.lambda(e, scope);
      case 'funcref':
        return this.funcref(e, scope);
    }
  }

  private number(text: string, decimal: boolean, negative: boolean, at: number): R {
    const sign = negative ? '-' : '';
    const suffix = text[text.length - 1];
    if (/[lL]$/.test(text)) return this.longNumber(text.slice(0, -1), negative, at);
    if (/^0[xX]/.test(text)) {
      const long = /[lL]$/.test(text);
      let v = Number(BigInt(text.replace(/[lL]$/, '')));
      if (!long) {
        if (v > 0xffffffff) throw err(`Invalid int constant [${sign}${text}].`, at);
        v = v | 0;
      }
      v = negative ? -v : v;
      return { code: jsNumber(v), type: long ? 'long' : 'int', literal: v };
    }
    if (!decimal && /^0[0-7]+[lL]?$/.test(text)) {
      const v = (negative ? -1 : 1) * parseInt(text.replace(/[lL]$/, ''), 8);
      return { code: jsNumber(v), type: /[lL]$/.test(text) ? 'long' : 'int', literal: v };
    }
    const digits = /[lLfFdD]$/.test(text) ? text.slice(0, -1) : text;
    const v = Number(sign + digits);
    if (/[fF]/.test(suffix) && !/^0[xX]/.test(text)) return { code: jsNumber(Math.fround(v)), type: 'float', literal: Math.fround(v) };
    if (decimal || /[dD]/.test(suffix)) return { code: jsNumber(v), type: 'double', literal: v };
    if (/[lL]/.test(suffix)) return { code: jsNumber(v), type: 'long', literal: v };
    if (v > 2147483647 || v < -2147483648) throw err(`Invalid int constant [${sign}${text}].`, at);
    return { code: jsNumber(v), type: 'int', literal: v };
  }

  /** A long literal: a JS number while it is a safe integer, a BigInt past that (see long-arithmetic.ts). */
  private longNumber(digits: string, negative: boolean, at: number): R {
    const v = longLiteral(digits, negative);
    if (v === undefined) throw err(`Invalid long constant [${negative ? '-' : ''}${digits}L].`, at);
    return typeof v === 'bigint' ? { code: `${v}n`, type: 'long' } : { code: jsNumber(v), type: 'long', literal: v };
  }

  private unary(e: Extract<Expr, { kind: 'unary' }>, scope: Scope): R {
    if (e.op === '-' && e.expr.kind === 'number') return this.number(e.expr.text, e.expr.decimal, true, e.at);
    const r = this.expr(e.expr, scope);
    switch (e.op) {
      case '!':
        return { code: `(!${this.coerce(r, 'boolean', false, e.at)})`, type: 'boolean' };
      case '-':
      case '+': {
        if (r.type === DEF || r.type === 'Object' || UNBOXED[r.type]) return { code: `rt.${e.op === '-' ? 'neg' : 'plus'}(${this.toDef(r)}, ${e.at})`, type: DEF };
        if (!isNumeric(r.type)) throw err(`Cannot apply [${e.op}] operation to type [${canonicalName(r.type)}].`, e.at);
        const t = promoteUnary(r.type);
        const n = this.numeric(r);
        if (e.op === '+') return { code: n, type: t };
        return { code: t === 'int' ? `((-${n}) | 0)` : t === 'long' ? `rt.lneg(${n})` : `(-${n})`, type: t };
      }
      case '~': {
        if (r.type === DEF || r.type === 'Object' || UNBOXED[r.type]) return { code: `rt.bnot(${this.toDef(r)}, ${e.at})`, type: DEF };
        if (!isIntegral(r.type)) throw err(`Cannot apply [~] operation to type [${canonicalName(r.type)}].`, e.at);
        const t = promoteUnary(r.type);
        return { code: t === 'long' ? `rt.long64("^", ${this.numeric(r)}, -1)` : `(~${this.numeric(r)})`, type: t };
      }
    }
  }

  /** The two branches of `?:` / `?:`(elvis) converted to one type. */
  private unify(a: R, b: R, at: number): [string, string, Type] {
    if (a.type === b.type) return [a.code, b.code, a.type];
    if (isNumeric(a.type) && isNumeric(b.type)) {
      const t = promote(a.type, b.type);
      return [this.coerce(a, t, false, at), this.coerce(b, t, false, at), t];
    }
    if (a.type === 'null' && !isPrimitive(b.type)) return ['null', b.code, b.type];
    if (b.type === 'null' && !isPrimitive(a.type)) return [a.code, 'null', a.type];
    if (!isPrimitive(a.type) && !isPrimitive(b.type) && isSubtype(a.type, b.type)) return [a.code, b.code, b.type];
    if (!isPrimitive(a.type) && !isPrimitive(b.type) && isSubtype(b.type, a.type)) return [a.code, b.code, a.type];
    return [this.toDef(a), this.toDef(b), DEF];
  }

  private isDynamic(t: Type): boolean {
    return t === DEF || t === 'Object' || t === 'Number' || !!UNBOXED[t];
  }

  private binary(op: string, a: R, b: R, at: number): R {
    switch (op) {
      case '&&':
      case '||':
        return { code: `(${this.coerce(a, 'boolean', false, at)} ${op} ${this.coerce(b, 'boolean', false, at)})`, type: 'boolean' };
      case '=~':
      case '==~': {
        if (b.type !== 'Pattern' && b.type !== DEF) throw err(`Cannot apply [${op}] operation to types [${canonicalName(a.type)}] and [${canonicalName(b.type)}].`, at);
        return { code: `rt.${op === '=~' ? 'findIn' : 'matchesAll'}(${this.toDef(a)}, ${b.code}, ${at})`, type: 'boolean' };
      }
      case '==':
      case '!=':
        return this.equality(op, a, b, at);
      case '===':
      case '!==': {
        const code = isPrimitive(a.type) && isPrimitive(b.type) ? `(${this.numericOrSelf(a)} === ${this.numericOrSelf(b)})` : `rt.same(${this.toDef(a)}, ${this.toDef(b)})`;
        return { code: op === '===' ? code : `(!${code})`, type: 'boolean' };
      }
      case '<':
      case '<=':
      case '>':
      case '>=': {
        if (isNumeric(a.type) && isNumeric(b.type)) {
          const t = promote(a.type, b.type);
          return { code: `(${this.promoted(a, t)} ${op} ${this.promoted(b, t)})`, type: 'boolean' };
        }
        if ((this.isDynamic(a.type) || isNumeric(a.type)) && (this.isDynamic(b.type) || isNumeric(b.type))) {
          return { code: `rt.compare(${jsString(op)}, ${this.toDef(a)}, ${this.toDef(b)}, ${at})`, type: 'boolean' };
        }
        throw err(`Cannot apply [${op}] operation to types [${canonicalName(a.type)}] and [${canonicalName(b.type)}].`, at);
      }
      case '+':
        if (a.type === 'String' || b.type === 'String') return { code: `rt.concat(${this.stringOf(a)}, ${this.stringOf(b)}, ${at})`, type: 'String' };
        return this.arithmetic(op, a, b, at);
      case '-':
      case '*':
      case '/':
      case '%':
        return this.arithmetic(op, a, b, at);
      case '<<':
      case '>>':
      case '>>>': {
        if (this.isDynamic(a.type) || this.isDynamic(b.type)) return { code: `rt.bitwise(${jsString(op)}, ${this.toDef(a)}, ${this.toDef(b)}, ${at})`, type: DEF };
        if (!isIntegral(a.type) || !isIntegral(b.type)) throw err(`Cannot apply [${op}] operation to types [${canonicalName(a.type)}] and [${canonicalName(b.type)}].`, at);
        const t = promoteUnary(a.type);
        const x = this.numeric(a);
        const y = this.numeric(b);
        if (t === 'long') return { code: `rt.long64(${jsString(op)}, ${x}, ${y})`, type: t };
        return { code: op === '>>>' ? `((${x} >>> ${y}) | 0)` : `(${x} ${op} ${y})`, type: t };
      }
      case '&':
      case '|':
      case '^': {
        if (a.type === 'boolean' && b.type === 'boolean') {
          return { code: op === '^' ? `(${a.code} !== ${b.code})` : `((${a.code} ${op} ${b.code}) !== 0)`, type: 'boolean' };
        }
        if (this.isDynamic(a.type) || this.isDynamic(b.type)) return { code: `rt.bitwise(${jsString(op)}, ${this.toDef(a)}, ${this.toDef(b)}, ${at})`, type: DEF };
        if (!isIntegral(a.type) || !isIntegral(b.type)) throw err(`Cannot apply [${op}] operation to types [${canonicalName(a.type)}] and [${canonicalName(b.type)}].`, at);
        const t = promote(a.type, b.type);
        if (t === 'long') return { code: `rt.long64(${jsString(op)}, ${this.numeric(a)}, ${this.numeric(b)})`, type: t };
        return { code: `(${this.numeric(a)} ${op} ${this.numeric(b)})`, type: t };
      }
    }
    throw err(`unexpected operator [${op}]`, at);
  }

  private numericOrSelf(r: R): string {
    return isNumeric(r.type) ? this.numeric(r) : r.code;
  }

  private stringOf(r: R): string {
    switch (r.type) {
      case 'String':
        return r.literal !== undefined ? r.code : `rt.str(${r.code})`;
      case 'char':
      case 'int':
      case 'long':
      case 'short':
      case 'byte':
      case 'boolean':
        return `(""+${r.code})`;
      case 'double':
      case 'float':
        return `rt.dstr(${r.code})`;
      default:
        return `rt.str(${this.toDef(r)})`;
    }
  }

  private arithmetic(op: string, a: R, b: R, at: number): R {
    if (this.isDynamic(a.type) || this.isDynamic(b.type)) {
      // `def + x` may be a string concatenation: only the run time knows.
      if (op !== '+' && (!(this.isDynamic(a.type) || isNumeric(a.type)) || !(this.isDynamic(b.type) || isNumeric(b.type)))) {
        throw err(`Cannot apply [${op}] operation to types [${canonicalName(a.type)}] and [${canonicalName(b.type)}].`, at);
      }
      const name = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'rem' }[op]!;
      return { code: `rt.${name}(${this.toDef(a)}, ${this.toDef(b)}, ${at})`, type: DEF };
    }
    if (!isNumeric(a.type) || !isNumeric(b.type)) throw err(`Cannot apply [${op}] operation to types [${canonicalName(a.type)}] and [${canonicalName(b.type)}].`, at);
    const t = promote(a.type, b.type);
    const x = this.promoted(a, t);
    const y = this.promoted(b, t);
    switch (t) {
      case 'int':
        if (op === '*') return { code: `rt.imul(${x}, ${y})`, type: t };
        if (op === '/') return { code: `rt.idiv(${x}, ${y}, ${at})`, type: t };
        if (op === '%') return { code: `rt.irem(${x}, ${y}, ${at})`, type: t };
        return { code: `((${x} ${op} ${y}) | 0)`, type: t };
      case 'long': {
        const name = { '+': 'ladd', '-': 'lsub', '*': 'lmul', '/': 'ldiv', '%': 'lrem' }[op]!;
        return { code: op === '/' || op === '%' ? `rt.${name}(${x}, ${y}, ${at})` : `rt.${name}(${x}, ${y})`, type: t };
      }
      case 'float':
        return { code: `rt.fround(${x} ${op} ${y})`, type: t };
      default:
        return { code: `(${x} ${op} ${y})`, type: t };
    }
  }

  /** A primitive numeric operand as a JS value of the promoted type `t` (a long widened to a double is converted). */
  private promoted(r: R, t: Type): string {
    if (r.type === 'long' && (t === 'double' || t === 'float')) return `rt.l2d(${r.code})`;
    return this.numeric(r);
  }

  private equality(op: '==' | '!=', a: R, b: R, at: number): R {
    let code: string;
    if (isNumeric(a.type) && isNumeric(b.type)) {
      const t = promote(a.type, b.type);
      code = `(${this.promoted(a, t)} === ${this.promoted(b, t)})`;
    } else if (a.type === 'boolean' && b.type === 'boolean') code = `(${a.code} === ${b.code})`;
    else if (a.type === 'null' || b.type === 'null') {
      const other = a.type === 'null' ? b : a;
      if (isPrimitive(other.type)) throw err(`Cannot compare a primitive [${other.type}] with null.`, at);
      code = `(${other.code} == null)`;
    } else if ((isPrimitive(a.type) && !isPrimitive(b.type) && !this.isDynamic(b.type)) || (isPrimitive(b.type) && !isPrimitive(a.type) && !this.isDynamic(a.type))) {
      throw err(`Cannot apply [${op}] operation to types [${canonicalName(a.type)}] and [${canonicalName(b.type)}].`, at);
    } else code = `rt.eq(${this.toDef(a)}, ${this.toDef(b)})`;
    return { code: op === '==' ? code : `(!${code})`, type: 'boolean' };
  }

  // ------------------------------------------------------------ members

  private argumentsFor(method: Method, args: Expr[], scope: Scope): string[] {
    return args.map((a, i) => {
      const r = this.expr(a, scope);
      const p = method.params[i];
      return isPrimitive(p) ? this.coerce(r, p, false, a.at) : this.toDef(r);
    });
  }

  /** The result of a method with this declared type, as the compiler holds it (doubles raw). */
  private resultOf(code: string, ret: Type): R {
    if (ret === 'double' || ret === 'float') return { code: `rt.num(${code})`, type: ret };
    return { code, type: ret === 'void' ? 'void' : ret === 'Collection' || ret === 'Iterable' ? 'List' : ret };
  }

  private call(e: Extract<Expr, { kind: 'call' }>, scope: Scope): R {
    const target = this.expr(e.target, scope);
    const key = `${e.name}/${e.args.length}`;
    if (target.type === 'null') throw err('Cannot call a method on null.', e.at);
    if (target.type === 'void') throw err(`Cannot call a method on void.`, e.at);
    const members = membersOfType(target.type);
    if (e.nullSafe || !members || isPrimitive(target.type) || UNBOXED[target.type]) {
      if (members && !members.get(key) && !isPrimitive(target.type)) throw err(`member method [${canonicalName(target.type)}, ${key}] not found`, e.at);
      const args = e.args.map((a) => this.toDef(this.expr(a, scope)));
      if (e.nullSafe) return { code: `rt.nsCall(${this.toDef(target)}, ${jsString(key)}, () => [${args.join(', ')}], ${e.at})`, type: DEF };
      return { code: `rt.call(${this.toDef(target)}, ${jsString(key)}, [${args.join(', ')}], ${e.at})`, type: DEF };
    }
    const method = members.get(key);
    if (!method) throw err(`member method [${canonicalName(target.type)}, ${key}] not found`, e.at);
    const args = this.argumentsFor(method, e.args, scope);
    return this.resultOf(`rt.invoke(${target.code}, ${jsString(key)}, [${args.join(', ')}], ${e.at})`, method.ret);
  }

  private field(e: Extract<Expr, { kind: 'field' }>, scope: Scope): R {
    const target = this.expr(e.target, scope);
    if (target.type === 'null' || isPrimitive(target.type) || target.type === 'void') throw err(`Cannot access field [${e.name}] on type [${canonicalName(target.type)}].`, e.at);
    const helper = e.nullSafe ? 'rt.nsGet' : 'rt.get';
    const code = `${helper}(${target.code}, ${jsString(e.name)}, ${e.at})`;
    const members = membersOfType(target.type);
    if (!members || e.nullSafe || isSubtype(target.type, 'Map') || UNBOXED[target.type]) return { code, type: DEF };
    if (isArray(target.type)) {
      if (e.name !== 'length') throw err(`member field [${canonicalName(target.type)}, ${e.name}] not found`, e.at);
      return { code, type: 'int' };
    }
    if (isSubtype(target.type, 'List') && /^\d+$/.test(e.name)) return { code, type: DEF };
    const cap = e.name[0].toUpperCase() + e.name.slice(1);
    const getter = members.get(`get${cap}/0`) ?? members.get(`is${cap}/0`);
    if (!getter) throw err(`member field [${canonicalName(target.type)}, ${e.name}] not found`, e.at);
    return this.resultOf(code, getter.ret);
  }

  private index(target: R, key: R, keyAt: number, at: number): R {
    if (target.type === 'String' || isPrimitive(target.type) || target.type === 'null') {
      throw err(`Attempting to address a non-array-like type [${canonicalName(target.type)}] as an array.`, at);
    }
    if (isArray(target.type)) {
      const element = elementType(target.type);
      const i = this.coerce(key, 'int', false, keyAt);
      return this.resultOf(`rt.idx(${target.code}, ${i}, ${at})`, element);
    }
    if (isSubtype(target.type, 'List')) return { code: `rt.idx(${target.code}, ${this.coerce(key, 'int', false, keyAt)}, ${at})`, type: DEF };
    return { code: `rt.idx(${target.code}, ${this.toDef(key)}, ${at})`, type: DEF };
  }

  private localCall(e: Extract<Expr, { kind: 'localCall' }>, scope: Scope): R {
    const key = `${e.name}/${e.args.length}`;
    const f = this.userFunctions.get(key);
    if (f) {
      const args = e.args.map((a, i) => this.coerce(this.expr(a, scope), typeName(f.params[i].type), false, a.at));
      return { code: `f_${f.name}$${f.params.length}(${args.join(', ')})`, type: typeName(f.returns) };
    }
    const functions = this.context.functions;
    const provided = functions && Object.hasOwn(functions, e.name) ? functions[e.name] : undefined;
    if (provided && e.args.length <= provided.params.length && e.args.length >= (provided.minArgs ?? provided.params.length)) {
      if (!scope.fn.seesContext) throw err(`Unknown call [${e.name}] with [${e.args.length}] arguments.`, e.at);
      const args = e.args.map((a, i) => {
        const r = this.expr(a, scope);
        return provided.params[i] === DEF ? this.toDef(r) : this.coerce(r, provided.params[i], false, a.at);
      });
      return { code: `$g[${jsString(e.name)}](${args.join(', ')})`, type: provided.ret };
    }
    throw err(`Unknown call [${e.name}] with [${e.args.length}] arguments.`, e.at);
  }

  private staticCall(e: Extract<Expr, { kind: 'staticCall' }>, scope: Scope): R {
    const key = `${e.name}/${e.args.length}`;
    if (e.type === 'Debug' && key === 'explain/1') return { code: `rt.explain(${this.toDef(this.expr(e.args[0], scope))}, ${e.at})`, type: 'void' };
    const m = staticMethod(e.type, key);
    if (!m) throw err(`static method [${canonicalName(e.type)}, ${key}] not found`, e.at);
    const ref = this.hoist(`rt.staticMember(${jsString(e.type)}, ${jsString(key)})`);
    const args = this.argumentsFor(m, e.args, scope);
    return { code: `${ref}.fn(null${args.map((a) => ', ' + a).join('')})`, type: m.ret === 'void' ? 'void' : m.ret === 'Collection' ? 'List' : m.ret };
  }

  // ------------------------------------------------------------ assignment

  /** A place a value can be stored: a variable, a field (`x.f`), an element (`x[i]`). */
  private lvalue(target: Expr, scope: Scope, at: number): { type: Type; setup: string[]; read: string; write: (v: string) => string } {
    switch (target.kind) {
      case 'variable': {
        const local = scope.lookup(target.name);
        if (!local) throw err(`cannot resolve symbol [${target.name}]`, target.at);
        if (local.readonly) throw err(`Variable [${target.name}] is read-only.`, target.at);
        return { type: local.type, setup: [], read: local.js, write: (v) => `${local.js} = ${v}` };
      }
      case 'field': {
        const obj = this.expr(target.target, scope);
        if (isPrimitive(obj.type) || obj.type === 'null') throw err(`Cannot access field [${target.name}] on type [${canonicalName(obj.type)}].`, target.at);
        if (isArray(obj.type)) throw err(`Cannot write to read-only field [length] for an array.`, target.at);
        const t = this.temp(scope);
        const name = jsString(target.name);
        return {
          type: DEF, setup: [`${t} = ${obj.code}`], read: `rt.get(${t}, ${name}, ${target.at})`,
          write: (v) => `rt.set(${t}, ${name}, ${v}, ${target.at})`,
        };
      }
      case 'index': {
        const obj = this.expr(target.target, scope);
        const key = this.expr(target.index, scope);
        const probe = this.index(obj, key, target.index.at, target.at);
        const t = this.temp(scope);
        const k = this.temp(scope);
        const keyCode = isArray(obj.type) || isSubtype(obj.type, 'List') ? this.coerce(key, 'int', false, target.index.at) : this.toDef(key);
        const read = probe.type === 'double' || probe.type === 'float' ? `rt.num(rt.idx(${t}, ${k}, ${target.at}))` : `rt.idx(${t}, ${k}, ${target.at})`;
        return { type: probe.type, setup: [`${t} = ${obj.code}`, `${k} = ${keyCode}`], read, write: (v) => `rt.setIdx(${t}, ${k}, ${v}, ${target.at})` };
      }
      default:
        throw err('Left-hand side cannot be assigned a value.', at);
    }
  }

  /** A value stored into a place of this type (a def place holds the def form). */
  private stored(r: R, type: Type, explicit: boolean, at: number): string {
    return type === DEF ? this.toDef(r) : this.coerce(r, type, explicit, at);
  }

  private assign(e: Extract<Expr, { kind: 'assign' }>, scope: Scope): R {
    const lv = this.lvalue(e.target, scope, e.at);
    const value = this.expr(e.value, scope);
    let code: string;
    if (e.op === '=') code = lv.write(this.stored(value, lv.type, false, e.value.at));
    else {
      const combined = this.binary(e.op.slice(0, -1), { code: lv.read, type: lv.type }, value, e.at);
      code = lv.write(this.stored(combined, lv.type, true, e.at));
    }
    return { code: `(${[...lv.setup, code].join(', ')})`, type: lv.type };
  }

  private increment(e: Extract<Expr, { kind: 'increment' }>, scope: Scope): R {
    const lv = this.lvalue(e.target, scope, e.at);
    const op = e.op === '++' ? '+' : '-';
    const one: R = { code: '1', type: 'int', literal: 1 };
    if (e.prefix) {
      const next = this.binary(op, { code: lv.read, type: lv.type }, one, e.at);
      return { code: `(${[...lv.setup, lv.write(this.stored(next, lv.type, true, e.at))].join(', ')})`, type: lv.type };
    }
    const old = this.temp(scope);
    const next = this.binary(op, { code: old, type: lv.type }, one, e.at);
    return { code: `(${[...lv.setup, `${old} = ${lv.read}`, lv.write(this.stored(next, lv.type, true, e.at)), old].join(', ')})`, type: lv.type };
  }

  // ------------------------------------------------------------ lambdas and references

  private lambda(e: Extract<Expr, { kind: 'lambda' }>, scope: Scope): R {
    const fn: FnContext = { temps: 0, returns: DEF, kind: 'lambda', loops: 0, seesContext: scope.fn.seesContext };
    const inner = new Scope(scope, fn);
    const params: string[] = [];
    const conversions: string[] = [];
    for (const p of e.params) {
      if (scope.lookup(p.name) || inner.vars.has(p.name)) throw err(`variable [${p.name}] is already defined`, e.at);
      const type = p.type ? this.resolveType(p.type, e.at) : DEF;
      const js = `v_${p.name}`;
      inner.vars.set(p.name, { js, type });
      params.push(js);
      if (type !== DEF) conversions.push(`${js} = ${this.coerce({ code: js, type: DEF }, type, false, e.at)};`);
    }
    let body: string;
    if (e.body.kind === 'block') body = this.statements((e.body as Block).body, new Scope(inner, fn), false);
    else body = `return ${this.toDef(this.expr(e.body as Expr, inner))};`;
    return { code: `((${params.join(', ')}) => {\n${this.loopCheck(e.at)}\n${this.frame(fn)}${conversions.join('\n')}\n${body}\n})`, type: DEF };
  }

  private funcref(e: Extract<Expr, { kind: 'funcref' }>, scope: Scope): R {
    if (e.type === 'this') {
      const candidates = [...this.userFunctions.values()].filter((f) => f.name === e.name);
      if (!candidates.length) throw err(`Unknown function [${e.name}].`, e.at);
      const f = candidates[0];
      const params = f.params.map((_, i) => `$a${i}`);
      const args = f.params.map((p, i) => this.coerce({ code: `$a${i}`, type: DEF }, typeName(p.type), false, e.at));
      return { code: `((${params.join(', ')}) => ${this.toDef({ code: `f_${f.name}$${f.params.length}(${args.join(', ')})`, type: typeName(f.returns) })})`, type: DEF };
    }
    if (isTypeName(e.type)) {
      if (e.name === 'new') {
        if (!CONSTRUCTIBLE.has(e.type)) throw err(`constructor [${canonicalName(e.type)}, <init>] not found`, e.at);
        return { code: `((...$a) => rt.newObject(${jsString(e.type)}, $a, ${e.at}))`, type: DEF };
      }
      const statics = [0, 1, 2, 3].some((n) => staticMethod(e.type, `${e.name}/${n}`));
      if (statics) return { code: `((...$a) => rt.callStatic(${jsString(e.type)}, ${jsString(e.name)}, $a, ${e.at}))`, type: DEF };
      const members = membersOfType(e.type);
      if (!members || ![0, 1, 2].some((n) => members.get(`${e.name}/${n}`))) throw err(`function reference [${e.type}::${e.name}] not found`, e.at);
      // An instance method of the type: the first argument is the receiver (String::length).
      return { code: `((r, ...$a) => rt.call(r, ${jsString(e.name)} + "/" + $a.length, $a, ${e.at}))`, type: DEF };
    }
    const local = scope.lookup(e.type);
    if (!local) throw err(`cannot resolve symbol [${e.type}]`, e.at);
    return { code: `((...$a) => rt.call(${this.toDef({ code: local.js, type: local.type })}, ${jsString(e.name)} + "/" + $a.length, $a, ${e.at}))`, type: DEF };
  }
}

function widens(from: Type, to: Type): boolean {
  const order = ['byte', 'short', 'int', 'long', 'float', 'double'];
  if (from === 'char') return to === 'int' || to === 'long' || to === 'float' || to === 'double';
  if (to === 'char') return false;
  return order.indexOf(from) >= 0 && order.indexOf(from) <= order.indexOf(to);
}

function fits(v: number, to: Type): boolean {
  switch (to) {
    case 'byte':
      return v >= -128 && v <= 127;
    case 'short':
      return v >= -32768 && v <= 32767;
    case 'char':
      return v >= 0 && v <= 65535;
    default:
      return true;
  }
}

function convertConstant(v: number, to: Type): number | string {
  switch (to) {
    case 'int':
      return Number.isInteger(v) ? v | 0 : Math.trunc(Math.max(Math.min(v, 2147483647), -2147483648));
    case 'long':
      return Math.trunc(v);
    case 'short':
      return (Math.trunc(v) << 16) >> 16;
    case 'byte':
      return (Math.trunc(v) << 24) >> 24;
    case 'char':
      return String.fromCharCode(Math.trunc(v) & 0xffff);
    case 'float':
      return Math.fround(v);
    default:
      return v;
  }
}
