/**
 * The `terms_set` query (Elasticsearch's TermsSetQueryBuilder over Lucene's CoveringQuery): the
 * documents that have at least as many of the terms as their own required number — a numeric
 * field of the document (`minimum_should_match_field`), a fixed `minimum_should_match`, or a
 * `minimum_should_match_script` of the one shape its documentation shows: arithmetic over
 * `params.num_terms`, `params.<name>`, `doc['<field>'].value` and `Math.min`/`Math.max`. Other
 * scripts are refused with a 400. Scores are the sum of the matching terms' scores.
 */
import { EsError } from '../../../../errors/index.js';
import { isObject } from './query-fields.js';
import type { Scalar } from './query.js';

/** A `minimum_should_match_script` expression, parsed. */
export type MsmExpression =
  | { kind: 'number'; value: number }
  | { kind: 'param'; name: string }
  | { kind: 'doc'; field: string }
  | { kind: 'call'; fn: 'min' | 'max'; args: MsmExpression[] }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/'; left: MsmExpression; right: MsmExpression }
  | { kind: 'negate'; operand: MsmExpression };

export type TermsSetMinimum =
  | { kind: 'field'; field: string }
  | { kind: 'script'; expression: MsmExpression; params: Record<string, unknown> }
  | { kind: 'fixed'; spec: string | number };

function parsing(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function unsupportedScript(source: string): EsError {
  return new EsError(400, 'illegal_argument_exception',
    `[terms_set] minimum_should_match_script [${source}] is not supported by the embedded engine: only arithmetic over params.num_terms, params.<name>, doc['<field>'].value, Math.min and Math.max`);
}

/** A recursive-descent reader of the script shapes `terms_set` documents. */
function parseExpression(source: string): MsmExpression {
  const tokens = source.match(/\s*(doc\s*\[\s*'[^']*'\s*\]\s*\.\s*value|doc\s*\[\s*"[^"]*"\s*\]\s*\.\s*value|params\s*\.\s*[A-Za-z_][A-Za-z0-9_]*|Math\s*\.\s*(?:min|max)|\d+(?:\.\d+)?|[-+*/(),])\s*/gy);
  if (!tokens || tokens.join('').length !== source.length) throw unsupportedScript(source);
  const list = tokens.map((t) => t.trim().replace(/\s+/g, ''));
  let i = 0;
  const peek = () => list[i];
  const next = () => list[i++];
  const expect = (t: string) => {
    if (next() !== t) throw unsupportedScript(source);
  };
  const primary = (): MsmExpression => {
    const t = next();
    if (t === undefined) throw unsupportedScript(source);
    if (t === '(') {
      const e = sum();
      expect(')');
      return e;
    }
    if (t === '-') return { kind: 'negate', operand: primary() };
    if (/^\d/.test(t)) return { kind: 'number', value: Number(t) };
    if (t.startsWith('params.')) return { kind: 'param', name: t.slice('params.'.length) };
    if (t.startsWith('doc[')) return { kind: 'doc', field: t.slice(5, t.indexOf(']') - 1) };
    if (t === 'Math.min' || t === 'Math.max') {
      expect('(');
      const args = [sum()];
      while (peek() === ',') {
        next();
        args.push(sum());
      }
      expect(')');
      if (args.length !== 2) throw unsupportedScript(source);
      return { kind: 'call', fn: t === 'Math.min' ? 'min' : 'max', args };
    }
    throw unsupportedScript(source);
  };
  const product = (): MsmExpression => {
    let e = primary();
    while (peek() === '*' || peek() === '/') e = { kind: 'binary', op: next() as '*' | '/', left: e, right: primary() };
    return e;
  };
  const sum = (): MsmExpression => {
    let e = product();
    while (peek() === '+' || peek() === '-') e = { kind: 'binary', op: next() as '+' | '-', left: e, right: product() };
    return e;
  };
  const e = sum();
  if (i !== list.length) throw unsupportedScript(source);
  return e;
}

/** The value of an expression for one document; undefined when a field it reads has no value there. */
export function evaluateMsm(e: MsmExpression, params: Record<string, unknown>, docValue: (field: string) => number | undefined): number | undefined {
  switch (e.kind) {
    case 'number':
      return e.value;
    case 'param': {
      const v = params[e.name];
      return typeof v === 'number' ? v : Number(v);
    }
    case 'doc':
      return docValue(e.field);
    case 'negate': {
      const v = evaluateMsm(e.operand, params, docValue);
      return v === undefined ? undefined : -v;
    }
    case 'call': {
      const [a, b] = e.args.map((x) => evaluateMsm(x, params, docValue));
      if (a === undefined || b === undefined) return undefined;
      return e.fn === 'min' ? Math.min(a, b) : Math.max(a, b);
    }
    case 'binary': {
      const a = evaluateMsm(e.left, params, docValue);
      const b = evaluateMsm(e.right, params, docValue);
      if (a === undefined || b === undefined) return undefined;
      switch (e.op) {
        case '+': return a + b;
        case '-': return a - b;
        case '*': return a * b;
        case '/': return b === 0 ? undefined : Math.trunc(a / b);
      }
    }
  }
}

/** The fields an expression reads from the document. */
export function msmFields(e: MsmExpression): string[] {
  switch (e.kind) {
    case 'doc': return [e.field];
    case 'negate': return msmFields(e.operand);
    case 'call': return e.args.flatMap(msmFields);
    case 'binary': return [...msmFields(e.left), ...msmFields(e.right)];
    default: return [];
  }
}

function scalar(v: unknown): Scalar {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  throw parsing('[terms_set] query does not support array of values');
}

/** `{"terms_set": {"<field>": {"terms": […], "minimum_should_match_field" | "…_script" | "minimum_should_match"}}}`. */
export function parseTermsSetQuery(body: unknown, boostOf: (v: unknown) => number): { field: string; terms: Scalar[]; minimum?: TermsSetMinimum; boost: number } {
  if (!isObject(body)) throw parsing('[terms_set] unknown token [VALUE_STRING]');
  const fields = Object.keys(body);
  if (fields.length === 0) throw parsing('[terms_set] unknown token [END_OBJECT]');
  if (fields.length > 1) throw parsing('[terms_set] unknown token [FIELD_NAME]');
  const field = fields[0];
  const spec = body[field];
  if (!isObject(spec)) throw parsing('[terms_set] unknown token [VALUE_STRING]');
  let terms: Scalar[] = [];
  let minimum: TermsSetMinimum | undefined;
  for (const [k, v] of Object.entries(spec)) {
    switch (k) {
      case 'terms':
        if (!Array.isArray(v)) throw parsing(`[terms_set] query does not support [${k}]`);
        terms = v.map(scalar);
        break;
      case 'minimum_should_match_field':
        if (typeof v !== 'string') throw parsing(`[terms_set] query does not support [${k}]`);
        if (minimum?.kind === 'script') throw new EsError(400, 'illegal_argument_exception', 'A script has already been specified. Cannot specify both a field and script');
        minimum = { kind: 'field', field: v };
        break;
      case 'minimum_should_match_script': {
        if (!isObject(v) && typeof v !== 'string') throw parsing(`[terms_set] query does not support [${k}]`);
        if (minimum?.kind === 'field') throw new EsError(400, 'illegal_argument_exception', 'A field has already been specified. Cannot specify both a field and script');
        const source = typeof v === 'string' ? v : typeof v.source === 'string' ? v.source : typeof v.inline === 'string' ? v.inline : undefined;
        if (source === undefined) throw new EsError(400, 'illegal_argument_exception', '[terms_set] stored scripts are not supported by the embedded engine');
        if (isObject(v) && v.lang !== undefined && v.lang !== 'painless') throw unsupportedScript(source);
        minimum = { kind: 'script', expression: parseExpression(source), params: isObject(v) && isObject(v.params) ? v.params : {} };
        break;
      }
      case 'minimum_should_match':
        if (typeof v !== 'string' && typeof v !== 'number') throw parsing(`[terms_set] query does not support [${k}]`);
        minimum = { kind: 'fixed', spec: v };
        break;
      case 'boost':
      case '_name':
        break;
      default:
        throw parsing(`[terms_set] query does not support [${k}]`);
    }
  }
  return { field, terms, minimum, boost: boostOf(spec.boost) };
}
