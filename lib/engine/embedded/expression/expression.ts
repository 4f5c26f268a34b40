/**
 * The `expression` script language (Elasticsearch's lang-expression module, Lucene expressions):
 * a numeric formula over the document's doc values, `_score`, `_value` and numeric params, always a
 * double. It runs where Elasticsearch runs it (score, field, sort, aggregation and filter scripts:
 * EXPRESSION_CONTEXTS); elsewhere (update, ingest, runtime fields, string sorts…) it is refused as
 * Elasticsearch does. The source is read by parse.ts into a tree and walked here: no JavaScript is
 * generated, and the only data reached is the current document's fields of the index searched.
 *
 * Variables, as Elasticsearch binds them: `_score`, `_value`, a param by its name (numeric only),
 * and `doc['field']` with `.value` (the least value, the default), `.empty`, `.length`, `.lat`/
 * `.lon` (geo points), `.date.year`… (dates), or a method: `getValue() isEmpty() size() min() max()
 * avg() median() sum() count()`, `getYear() getMonth() getDayOfMonth() getHourOfDay() getMinutes()
 * getSeconds()` (dates), `getLat() getLon()`. A document without a value reads 0.
 */
import { EsError } from '../../../errors/index.js';
import type { CompiledScript, ContextDefinition, DocMap } from '../painless/index.js';
import { MAX_SOURCE_LENGTH, boxDouble } from '../painless/index.js';
import { ExpressionParseError, parseExpression, type Node, type VariablePart } from './parse.js';

/**
 * Script contexts the expression engine compiles for (ES's ExpressionScriptEngine's table; its
 * terms_set script is not served: that query reads its own small formula language).
 */
export const EXPRESSION_CONTEXTS: ReadonlySet<string> = new Set(['score', 'field', 'number_sort', 'aggs', 'filter', 'aggs_bucket_script', 'aggs_bucket_selector']);

/** The refusal of a context the engine does not compile for. */
export function expressionContextRefused(context: string): EsError {
  return new EsError(400, 'illegal_argument_exception', `expression engine does not know how to handle script context [${context}]`);
}

interface Env {
  doc: DocMap | undefined;
  score: number;
  value: number;
}
type Eval = (env: Env) => number;

const FUNCTIONS: Record<string, { arity: number; fn: (...a: number[]) => number }> = {
  abs: { arity: 1, fn: Math.abs }, acos: { arity: 1, fn: Math.acos }, acosh: { arity: 1, fn: Math.acosh }, asin: { arity: 1, fn: Math.asin },
  asinh: { arity: 1, fn: Math.asinh }, atan: { arity: 1, fn: Math.atan }, atan2: { arity: 2, fn: Math.atan2 }, atanh: { arity: 1, fn: Math.atanh },
  ceil: { arity: 1, fn: Math.ceil }, cos: { arity: 1, fn: Math.cos }, cosh: { arity: 1, fn: Math.cosh }, exp: { arity: 1, fn: Math.exp },
  floor: { arity: 1, fn: Math.floor }, haversin: { arity: 4, fn: haversin }, ln: { arity: 1, fn: Math.log }, log10: { arity: 1, fn: Math.log10 },
  logn: { arity: 2, fn: (base, x) => Math.log(x) / Math.log(base) }, max: { arity: 2, fn: Math.max }, min: { arity: 2, fn: Math.min },
  pow: { arity: 2, fn: Math.pow }, sin: { arity: 1, fn: Math.sin }, sinh: { arity: 1, fn: Math.sinh }, sqrt: { arity: 1, fn: Math.sqrt },
  tan: { arity: 1, fn: Math.tan }, tanh: { arity: 1, fn: Math.tanh },
};

/** Lucene's SloppyMath.haversinMeters, in kilometres as its `haversin` function answers. */
function haversin(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6371.0087714 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A double as Java's (long) cast: truncated, clamped, NaN → 0. */
function toLong(x: number): bigint {
  if (Number.isNaN(x)) return 0n;
  if (x >= 9.223372036854776e18) return 9223372036854775807n;
  if (x <= -9.223372036854776e18) return -9223372036854775808n;
  return BigInt(Math.trunc(x));
}
const long = (x: bigint): number => Number(BigInt.asIntN(64, x));
const bool = (b: boolean): number => (b ? 1 : 0);

const BINARY: Record<string, (a: number, b: number) => number> = {
  '+': (a, b) => a + b, '-': (a, b) => a - b, '*': (a, b) => a * b, '/': (a, b) => a / b, '%': (a, b) => a % b,
  '<': (a, b) => bool(a < b), '<=': (a, b) => bool(a <= b), '>': (a, b) => bool(a > b), '>=': (a, b) => bool(a >= b),
  '==': (a, b) => bool(a === b), '!=': (a, b) => bool(a !== b),
  '&': (a, b) => long(toLong(a) & toLong(b)), '|': (a, b) => long(toLong(a) | toLong(b)), '^': (a, b) => long(toLong(a) ^ toLong(b)),
  '<<': (a, b) => long(toLong(a) << (toLong(b) & 63n)), '>>': (a, b) => long(toLong(a) >> (toLong(b) & 63n)),
  '>>>': (a, b) => long(BigInt.asUintN(64, toLong(a)) >> (toLong(b) & 63n)),
};

/** A binding mistake (unknown variable, field or member): ES's ParseException behind a "link error". */
class LinkError extends Error {}

const NUMERIC_TYPES = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long', 'double', 'float', 'half_float', 'scaled_float', 'boolean', 'date', 'date_nanos', 'geo_point']);

type FieldRead = (values: number[], type: string) => number;

const AGGREGATES: Record<string, FieldRead> = {
  value: (v) => (v.length ? v[0] : 0),
  getValue: (v) => (v.length ? v[0] : 0),
  empty: (v) => bool(v.length === 0),
  isEmpty: (v) => bool(v.length === 0),
  length: (v) => v.length,
  size: (v) => v.length,
  count: (v) => v.length,
  min: (v) => (v.length ? v[0] : 0),
  max: (v) => (v.length ? v[v.length - 1] : 0),
  sum: (v) => v.reduce((a, b) => a + b, 0),
  avg: (v) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0),
  median: (v) => (v.length === 0 ? 0 : v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2),
};

const DATE_METHODS: Record<string, (d: Date) => number> = {
  getYear: (d) => d.getUTCFullYear(), getMonth: (d) => d.getUTCMonth(), getDayOfMonth: (d) => d.getUTCDate(),
  getHourOfDay: (d) => d.getUTCHours(), getMinutes: (d) => d.getUTCMinutes(), getSeconds: (d) => d.getUTCSeconds(),
};
const DAY = 86_400_000;
const DATE_OBJECT: Record<string, (d: Date) => number> = {
  year: (d) => d.getUTCFullYear(), monthOfYear: (d) => d.getUTCMonth() + 1, dayOfMonth: (d) => d.getUTCDate(),
  dayOfWeek: (d) => ((d.getUTCDay() + 6) % 7) + 1, dayOfYear: (d) => Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY) + 1,
  hourOfDay: (d) => d.getUTCHours(), minuteOfHour: (d) => d.getUTCMinutes(), secondOfMinute: (d) => d.getUTCSeconds(),
  millisOfSecond: (d) => d.getUTCMilliseconds(), millisOfDay: (d) => ((d.getTime() % DAY) + DAY) % DAY,
  minuteOfDay: (d) => d.getUTCHours() * 60 + d.getUTCMinutes(), secondOfDay: (d) => d.getUTCHours() * 3600 + d.getUTCMinutes() * 60 + d.getUTCSeconds(),
};

function numbers(values: readonly unknown[], type: string): number[] {
  const out = values.map((v) => {
    if (typeof v === 'bigint') return type === 'date_nanos' ? Number(v / 1_000_000n) : Number(v);
    if (typeof v === 'boolean') return bool(v);
    if (v === 'true' || v === 'false') return bool(v === 'true');
    return typeof v === 'string' && type.startsWith('date') && !/^-?\d+$/.test(v) ? Date.parse(v) : Number(v);
  });
  return out.sort((a, b) => a - b);
}

/** How one `doc['field']…` variable reads the field, once its mapping type is known. */
function fieldReader(variable: string, field: string, rest: VariablePart[]): (type: string, values: readonly unknown[]) => number {
  const [member, sub] = rest;
  return (type, raw) => {
    if (type === 'geo_point') {
      const lats: number[] = [];
      const lons: number[] = [];
      for (let i = 0; i + 1 < raw.length; i += 2) {
        lats.push(Number(raw[i]));
        lons.push(Number(raw[i + 1]));
      }
      const name = member === undefined ? 'value' : member.kind === 'key' ? '' : member.name;
      if (name === 'empty' || name === 'isEmpty') return bool(lats.length === 0);
      if (name === 'lat' || name === 'getLat') return lats[0] ?? 0;
      if (name === 'lon' || name === 'getLon') return lons[0] ?? 0;
      throw new LinkError(`Member variable [${name}] does not exist for geo_point fields.`);
    }
    const values = numbers(raw, type);
    if (member === undefined) return AGGREGATES.value(values, type);
    if (member.kind === 'key') throw new LinkError(`Unknown variable [${variable}]`);
    const isDate = type === 'date' || type === 'date_nanos';
    if (isDate && member.kind === 'name' && member.name === 'date') {
      if (sub === undefined || sub.kind !== 'name' || !(sub.name in DATE_OBJECT)) throw new LinkError(`Member variable [${sub && sub.kind !== 'key' ? sub.name : ''}] does not exist for date object on field [${field}].`);
      return values.length ? DATE_OBJECT[sub.name](new Date(values[0])) : 0;
    }
    if (sub !== undefined) throw new LinkError(`Unknown variable [${variable}]`);
    if (isDate && member.kind === 'method' && member.name in DATE_METHODS) return values.length ? DATE_METHODS[member.name](new Date(values[0])) : 0;
    const read = AGGREGATES[member.name];
    const isMethod = member.kind === 'method';
    const known = read !== undefined && (isMethod ? !['value', 'empty', 'length'].includes(member.name) : ['value', 'empty', 'length'].includes(member.name));
    if (!known) {
      const what = isDate ? 'date' : 'numeric';
      throw new LinkError(isMethod ? `Member method [${member.name}] does not exist for ${what} fields.` : `Member variable [${member.name}] does not exist for ${what} fields.`);
    }
    return read(values, type);
  };
}

function bindVariable(node: Node & { kind: 'variable' }, params: Record<string, unknown>): Eval {
  const { text, parts } = node;
  if (text === '_score') return (env) => env.score;
  if (text === '_value') return (env) => env.value;
  if (Object.prototype.hasOwnProperty.call(params, text)) {
    const p = params[text];
    if (typeof p !== 'number') throw new LinkError(`Parameter [${text}] must be a numeric type`);
    return () => p;
  }
  const [head, key, ...rest] = parts;
  if (head.kind !== 'name' || head.name !== 'doc' || key?.kind !== 'key') throw new LinkError(`Unknown variable [${text}]`);
  const field = key.key;
  const read = fieldReader(text, field, rest);
  return (env) => {
    if (!env.doc) throw new LinkError(`Unknown variable [${text}]`);
    const { type, values } = env.doc.rawField(field);
    if (type === undefined) throw new LinkError(`Field [${field}] does not exist in mappings`);
    if (!NUMERIC_TYPES.has(type)) throw new LinkError(`Field [${field}] must be numeric, date, or geopoint`);
    return read(type, values);
  };
}

function build(node: Node, params: Record<string, unknown>, source: string): Eval {
  switch (node.kind) {
    case 'number': {
      const v = node.value;
      return () => v;
    }
    case 'variable':
      return bindVariable(node, params);
    case 'unary': {
      const arg = build(node.arg, params, source);
      if (node.op === '-') return (env) => -arg(env);
      if (node.op === '!') return (env) => bool(arg(env) === 0);
      return (env) => long(~toLong(arg(env)));
    }
    case 'binary': {
      const left = build(node.left, params, source);
      const right = build(node.right, params, source);
      if (node.op === '&&') return (env) => bool(left(env) !== 0 && right(env) !== 0);
      if (node.op === '||') return (env) => bool(left(env) !== 0 || right(env) !== 0);
      const op = BINARY[node.op];
      return (env) => op(left(env), right(env));
    }
    case 'conditional': {
      const test = build(node.test, params, source);
      const then = build(node.then, params, source);
      const otherwise = build(node.otherwise, params, source);
      return (env) => (test(env) !== 0 ? then(env) : otherwise(env));
    }
    case 'call': {
      const f = Object.prototype.hasOwnProperty.call(FUNCTIONS, node.name) ? FUNCTIONS[node.name] : undefined;
      if (!f) throw new ExpressionParseError(`Invalid expression '${source}': Unrecognized function call (${node.name}).`, 0);
      if (node.args.length !== f.arity) {
        throw new ExpressionParseError(`Invalid expression '${source}': Expected (${f.arity}) arguments for function call (${node.name}), but found (${node.args.length}).`, 0);
      }
      const args = node.args.map((a) => build(a, params, source));
      return (env) => f.fn(...args.map((a) => a(env)));
    }
  }
}

/** ES's ScriptException for an expression: `compile error` or `link error`, caused by a parse_exception. */
function scriptError(message: 'compile error' | 'link error', source: string, name: string, reason: string): EsError {
  return new EsError(400, 'script_exception', message, {
    script_stack: [source, '^---- HERE'], script: name, lang: 'expression',
    caused_by: { type: 'parse_exception', reason },
  });
}

/**
 * Compiles an expression for a script context (refused outside EXPRESSION_CONTEXTS) with its
 * params bound; what it answers is a CompiledScript the search runs as it runs Painless ones.
 */
export function compileExpression(source: string, context: ContextDefinition, params: Record<string, unknown>, name: string = source): CompiledScript {
  if (!EXPRESSION_CONTEXTS.has(context.name)) throw expressionContextRefused(context.name);
  if (source.length > MAX_SOURCE_LENGTH) {
    throw scriptError('compile error', source, name, `Scripts may be no longer than ${MAX_SOURCE_LENGTH} characters.  The passed in script is ${source.length} characters.`);
  }
  let evaluate: Eval;
  try {
    evaluate = build(parseExpression(source), params, source);
  } catch (err) {
    if (err instanceof ExpressionParseError) throw scriptError('compile error', source, name, err.message);
    // nesting deeper than the parser's stack (thousands of parentheses)
    if (err instanceof RangeError) throw scriptError('compile error', source, name, 'expression nests too deeply');
    if (err instanceof LinkError) throw scriptError('link error', source, name, err.message);
    throw err;
  }
  const usesScore = /(^|[^\w$.])_score(?![\w$])/.test(source);
  return {
    source,
    usesScore,
    run(globals: Record<string, unknown>): unknown {
      const value = globals._value;
      const env: Env = {
        doc: globals.doc as DocMap | undefined,
        score: typeof globals._score === 'number' ? globals._score : 0,
        value: typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : 0,
      };
      let result: number;
      try {
        result = evaluate(env);
      } catch (err) {
        if (err instanceof LinkError) throw scriptError('link error', source, name, err.message);
        throw err;
      }
      if (context.returns === 'boolean') return result !== 0;
      return context.returns === 'def' ? boxDouble(result) : result;
    },
  };
}
