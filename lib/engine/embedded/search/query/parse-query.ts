import { EsError } from '../../../../errors/index.js';
import type { Query } from './query.js';

function parsingError(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function boostOf(name: string, v: unknown): number {
  if (v === undefined) return 1;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw parsingError(`[${name}] query does not support [boost] with value [${String(v)}]`);
  if (n < 0) throw new EsError(400, 'illegal_argument_exception', `negative [boost] are not allowed in [${name}], but got [${n}]`);
  return n;
}

function scalar(name: string, v: unknown): string | number | boolean {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v === null) throw new EsError(400, 'illegal_argument_exception', 'field name is null or empty');
  throw parsingError(`[${name}] query does not support array of values`);
}

/** Only single-key objects: `{ "term": { … } }`. */
function singleEntry(q: Record<string, unknown>, context: string): [string, unknown] {
  const keys = Object.keys(q);
  if (keys.length === 0) return ['match_all', {}];
  if (keys.length > 1) throw parsingError(`[${keys[0]}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]`);
  void context;
  return [keys[0], q[keys[0]]];
}

function fieldAndBody(name: string, body: unknown): [string, unknown] {
  if (!isObject(body)) throw parsingError(`[${name}] query malformed, no start_object after query name`);
  const keys = Object.keys(body).filter((k) => k !== 'boost' && k !== '_name');
  if (keys.length === 0) throw new EsError(400, 'illegal_argument_exception', `field name is null or empty`);
  if (keys.length > 1) throw parsingError(`[${name}] query doesn't support multiple fields, found [${keys[0]}] and [${keys[1]}]`);
  return [keys[0], body[keys[0]]];
}

function clauses(v: unknown): unknown[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

const BOOL_KEYS = new Set(['must', 'filter', 'should', 'must_not', 'minimum_should_match', 'boost', '_name', 'adjust_pure_negative']);

/** Parses a query DSL object; throws ES's 400s (parsing_exception…) for what it cannot accept. */
export function parseQuery(input: unknown): Query {
  if (!isObject(input)) throw parsingError(`[_na] query malformed, must start with start_object`);
  const [name, body] = singleEntry(input, 'query');
  switch (name) {
    case 'match_all': {
      if (!isObject(body)) throw parsingError('[match_all] query malformed, no start_object after query name');
      return { type: 'match_all', boost: boostOf(name, body.boost) };
    }
    case 'match_none':
      return { type: 'match_none' };
    case 'term': {
      const [field, spec] = fieldAndBody(name, body);
      if (isObject(spec)) {
        for (const k of Object.keys(spec)) {
          if (!['value', 'boost', 'case_insensitive', '_name'].includes(k)) throw parsingError(`[term] query does not support [${k}]`);
        }
        return { type: 'term', field, value: scalar(name, spec.value), boost: boostOf(name, spec.boost), caseInsensitive: spec.case_insensitive === true };
      }
      return { type: 'term', field, value: scalar(name, spec), boost: boostOf(name, isObject(body) ? body.boost : undefined), caseInsensitive: false };
    }
    case 'terms': {
      const [field, values] = fieldAndBody(name, body);
      if (!Array.isArray(values)) throw parsingError(`[terms] query does not support [${field}]`);
      return { type: 'terms', field, values: values.map((v) => scalar(name, v)), boost: boostOf(name, (body as Record<string, unknown>).boost) };
    }
    case 'ids': {
      if (!isObject(body)) throw parsingError('[ids] query malformed, no start_object after query name');
      for (const k of Object.keys(body)) if (!['values', 'boost', '_name', 'type'].includes(k)) throw parsingError(`[ids] query does not support [${k}]`);
      const values = body.values === undefined ? [] : body.values;
      if (!Array.isArray(values)) throw parsingError('[ids] values doesn\'t support values of type: VALUE_STRING');
      return { type: 'ids', values: values.map((v) => String(v)), boost: boostOf(name, body.boost) };
    }
    case 'exists': {
      if (!isObject(body) || typeof body.field !== 'string') throw parsingError('[exists] must be provided with a [field]');
      return { type: 'exists', field: body.field, boost: boostOf(name, body.boost) };
    }
    case 'bool': {
      if (!isObject(body)) throw parsingError('[bool] query malformed, no start_object after query name');
      for (const k of Object.keys(body)) if (!BOOL_KEYS.has(k)) throw parsingError(`[bool] query does not support [${k}]`);
      const msm = body.minimum_should_match;
      if (msm !== undefined && typeof msm !== 'number' && typeof msm !== 'string') throw parsingError('[bool] query does not support [minimum_should_match]');
      return {
        type: 'bool',
        must: clauses(body.must).map(parseQuery),
        filter: clauses(body.filter).map(parseQuery),
        should: clauses(body.should).map(parseQuery),
        mustNot: clauses(body.must_not).map(parseQuery),
        minimumShouldMatch: msm as string | number | undefined,
        boost: boostOf(name, body.boost),
      };
    }
    default:
      throw new EsError(400, 'parsing_exception', `unknown query [${name}]`, {
        line: 1,
        col: 1,
        caused_by: { type: 'named_object_not_found_exception', reason: `[1:1] unknown field [${name}]` },
      });
  }
}
