/**
 * ES's script contexts this engine runs: what each gives its scripts (variables, functions) and
 * what it expects back. The places that run scripts pick one and fill its variables.
 */
import type { ContextDefinition } from './codegen.js';
import { DocMap, GeoPoint } from './doc-values.js';
import { Instant, ZonedDateTime } from './java-time.js';
import { ScriptRuntimeError } from './script-error.js';
import { javaToString, unbox } from './values.js';
import { VECTOR_FUNCTIONS, VECTOR_FUNCTION_IMPLEMENTATIONS } from './vector-functions.js';

/** `_update` and `_update_by_query`: `ctx` (with `_source` and `op`) and `params`; returns nothing. */
export const UPDATE_CONTEXT: ContextDefinition = { name: 'update', variables: { params: 'Map', ctx: 'Map' }, returns: 'void' };

/** `_scripts/painless/_execute` without a context: `params` in, anything out. */
export const TEST_CONTEXT: ContextDefinition = { name: 'painless_test', variables: { params: 'Map' }, returns: 'def' };

/** What every context with a `doc` gives: ES 8's field API (`field('f').get(default)`). */
const DOC_FUNCTIONS: ContextDefinition['functions'] = { field: { params: ['String'], ret: 'def' } };

/** The `script` query: a document's `doc` values, returns whether it matches. */
export const FILTER_CONTEXT: ContextDefinition = { name: 'filter', variables: { params: 'Map', doc: 'Map' }, returns: 'boolean', functions: DOC_FUNCTIONS };

const SCORE_FUNCTIONS: ContextDefinition['functions'] = {
  ...DOC_FUNCTIONS,
  saturation: { params: ['double', 'double'], ret: 'double' },
  sigmoid: { params: ['double', 'double', 'double'], ret: 'double' },
  decayNumericLinear: { params: ['double', 'double', 'double', 'double', 'double'], ret: 'double' },
  decayNumericExp: { params: ['double', 'double', 'double', 'double', 'double'], ret: 'double' },
  decayNumericGauss: { params: ['double', 'double', 'double', 'double', 'double'], ret: 'double' },
  decayDateLinear: { params: ['def', 'def', 'def', 'double', 'def'], ret: 'double' },
  decayDateExp: { params: ['def', 'def', 'def', 'double', 'def'], ret: 'double' },
  decayDateGauss: { params: ['def', 'def', 'def', 'double', 'def'], ret: 'double' },
  decayGeoLinear: { params: ['def', 'def', 'def', 'double', 'def'], ret: 'double' },
  decayGeoExp: { params: ['def', 'def', 'def', 'double', 'def'], ret: 'double' },
  decayGeoGauss: { params: ['def', 'def', 'def', 'double', 'def'], ret: 'double' },
  randomScore: { params: ['int', 'def'], ret: 'double', minArgs: 1 },
  ...VECTOR_FUNCTIONS,
};

/** `script_score`: `_score`, `doc`, `params` and ES's score functions; returns the new score. */
export const SCORE_CONTEXT: ContextDefinition = {
  name: 'score', variables: { params: 'Map', doc: 'Map', _score: 'double', explanation: 'def' }, returns: 'double', functions: SCORE_FUNCTIONS,
};

/** `script_fields`: `doc`, `params` (with `params._source`); returns the field's value(s). */
export const FIELD_CONTEXT: ContextDefinition = { name: 'field', variables: { params: 'Map', doc: 'Map' }, returns: 'def', functions: DOC_FUNCTIONS };

/** `_script` sort: `type: number` returns a double, `type: string` a String. */
export const NUMBER_SORT_CONTEXT: ContextDefinition = { name: 'number_sort', variables: { params: 'Map', doc: 'Map', _score: 'double' }, returns: 'double', functions: DOC_FUNCTIONS };
export const STRING_SORT_CONTEXT: ContextDefinition = { name: 'string_sort', variables: { params: 'Map', doc: 'Map', _score: 'double' }, returns: 'String', functions: DOC_FUNCTIONS };

/** Aggregation scripts (`terms`, `sum`… with `script`): `doc`, `params`, `_value` for value scripts. */
export const AGGREGATION_CONTEXT: ContextDefinition = { name: 'aggs', variables: { params: 'Map', doc: 'Map', _score: 'double', _value: 'def' }, returns: 'def', functions: DOC_FUNCTIONS };

/**
 * `scripted_metric`'s four scripts: init and map fill the shard's `state` (map with each document's
 * `doc` and `_score`), combine turns the state into the shard's result, reduce the shards' results
 * (`states`) into the aggregation's value.
 */
export const METRIC_INIT_CONTEXT: ContextDefinition = { name: 'aggs_init', variables: { params: 'Map', state: 'Map' }, returns: 'void' };
export const METRIC_MAP_CONTEXT: ContextDefinition = { name: 'aggs_map', variables: { params: 'Map', state: 'Map', doc: 'Map', _score: 'double' }, returns: 'void', functions: DOC_FUNCTIONS };
export const METRIC_COMBINE_CONTEXT: ContextDefinition = { name: 'aggs_combine', variables: { params: 'Map', state: 'Map' }, returns: 'def' };
export const METRIC_REDUCE_CONTEXT: ContextDefinition = { name: 'aggs_reduce', variables: { params: 'Map', states: 'List' }, returns: 'def' };

/** An `intervals` rule's `script` filter: `interval` (start, end, gaps) and `params`; returns whether the interval is kept. */
export const INTERVAL_CONTEXT: ContextDefinition = { name: 'interval', variables: { params: 'Map', interval: 'Map' }, returns: 'boolean' };

/** `moving_fn`: the window of bucket values as `values` (a double[]), and MovingFunctions; returns the bucket's value. */
export const MOVING_FUNCTION_CONTEXT: ContextDefinition = { name: 'moving-function', variables: { params: 'Map', values: 'double[]' }, returns: 'double' };

/** `bucket_script` and `bucket_selector`: the `buckets_path` values in `params`. */
export const BUCKET_SCRIPT_CONTEXT: ContextDefinition = { name: 'aggs_bucket_script', variables: { params: 'Map' }, returns: 'def' };
export const BUCKET_SELECTOR_CONTEXT: ContextDefinition = { name: 'aggs_bucket_selector', variables: { params: 'Map' }, returns: 'boolean' };

/** A runtime field's script: `doc`, `params` (with `params._source`), and `emit` of values of the field's type. */
export function runtimeFieldContext(type: string): ContextDefinition {
  const emitted: Record<string, string[]> = { long: ['long'], double: ['double'], boolean: ['boolean'], date: ['long'], geo_point: ['double', 'double'], keyword: ['String'], ip: ['String'] };
  const functions: ContextDefinition['functions'] = { ...DOC_FUNCTIONS, emit: { params: emitted[type] ?? ['def'], ret: 'void' } };
  return { name: `${type}_field`, variables: { params: 'Map', doc: 'Map' }, returns: 'void', functions };
}

function decayNumeric(kind: 'linear' | 'exp' | 'gauss') {
  return (origin: number, scale: number, offset: number, decay: number, value: number): number => {
    const distance = Math.max(0, Math.abs(value - origin) - offset);
    if (kind === 'linear') {
      const scaling = scale / (1 - decay);
      return Math.max(0, (scaling - distance) / scaling);
    }
    if (kind === 'exp') return Math.exp((Math.log(decay) / scale) * distance);
    return Math.exp((0.5 * distance * distance) / ((0.5 * scale * scale) / Math.log(decay)));
  };
}

const DURATION_UNITS: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function durationMillis(v: unknown): number {
  const text = javaToString(unbox(v)).trim();
  if (text === '0' || text === '-1') return Number(text);
  const m = /^(\d+(?:\.\d+)?)\s*(nanos|micros|ms|s|m|h|d)$/.exec(text);
  if (!m) throw new ScriptRuntimeError('illegal_argument_exception', `failed to parse setting [scale] with value [${text}] as a time value: unit is missing or unrecognized`);
  return Number(m[1]) * DURATION_UNITS[m[2]];
}

const DISTANCE_UNITS: Record<string, number> = { mm: 0.001, cm: 0.01, m: 1, km: 1000, in: 0.0254, ft: 0.3048, yd: 0.9144, mi: 1609.344, nmi: 1852 };

function distanceMeters(v: unknown): number {
  const text = javaToString(unbox(v)).trim();
  const m = /^(-?\d+(?:\.\d+)?)\s*(mm|cm|m|km|in|ft|yd|mi|nmi|miles|meters|kilometers)?$/.exec(text);
  if (!m) throw new ScriptRuntimeError('illegal_argument_exception', `failed to parse distance [${text}]`);
  const unit = m[2] === 'miles' ? 'mi' : m[2] === 'kilometers' ? 'km' : m[2] === 'meters' ? 'm' : m[2] ?? 'm';
  return Number(m[1]) * DISTANCE_UNITS[unit];
}

/** A geo point as scripts give it: a GeoPoint, "lat, lon", or a map with lat and lon. */
function latLon(v: unknown): [number, number] {
  if (v instanceof GeoPoint) return [v.lat, v.lon];
  if (v instanceof Map) return [Number(unbox(v.get('lat'))), Number(unbox(v.get('lon')))];
  const parts = javaToString(v).split(',').map((x) => Number(x.trim()));
  if (parts.length !== 2 || parts.some(Number.isNaN)) throw new ScriptRuntimeError('illegal_argument_exception', `failed to parse geo point [${javaToString(v)}]`);
  return [parts[0], parts[1]];
}

function haversine([lat1, lon1]: [number, number], [lat2, lon2]: [number, number]): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371008.7714 * Math.asin(Math.min(1, Math.sqrt(a)));
}

function decayGeo(kind: 'linear' | 'exp' | 'gauss') {
  const numeric = decayNumeric(kind);
  return (origin: unknown, scale: unknown, offset: unknown, decay: number, value: unknown): number =>
    numeric(0, distanceMeters(scale), distanceMeters(offset), decay, haversine(latLon(origin), latLon(value)));
}

/** A uniform score in [0, 1) from a seed and a document (or one of its field values), stable across runs. */
function randomScore(this: { doc?: DocMap }, seed: number, field?: unknown): number {
  const doc = this.doc;
  let key = doc ? String(doc.documentKey()) : '';
  if (doc && field !== undefined && field !== null && field !== '_seq_no' && field !== '_id') {
    const values = doc.get(javaToString(field));
    key = values.items.length ? javaToString(values.items[0]) : '';
  }
  let h = seed ^ 0x9e3779b9;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x5bd1e995) ^ (h >>> 15);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 0x100000000;
}

function dateMillis(v: unknown): number {
  if (v instanceof ZonedDateTime) return v.instant.millis;
  if (v instanceof Instant) return v.millis;
  const n = Number(unbox(v));
  if (Number.isFinite(n)) return n;
  const parsed = Date.parse(String(v));
  if (Number.isNaN(parsed)) throw new Error(`failed to parse date [${String(v)}]`);
  return parsed;
}

function decayDate(kind: 'linear' | 'exp' | 'gauss') {
  const numeric = decayNumeric(kind);
  return (origin: unknown, scale: unknown, offset: unknown, decay: number, value: unknown): number =>
    numeric(dateMillis(origin), durationMillis(scale), durationMillis(offset), decay, dateMillis(value));
}

/** The implementations of SCORE_CONTEXT's functions, for a score script's globals. */
export const SCORE_FUNCTION_IMPLEMENTATIONS: Record<string, (this: { doc?: DocMap }, ...args: never[]) => number> = {
  saturation: (value: number, k: number) => value / (k + value),
  sigmoid: (value: number, k: number, a: number) => Math.pow(value, a) / (Math.pow(k, a) + Math.pow(value, a)),
  decayNumericLinear: decayNumeric('linear'),
  decayNumericExp: decayNumeric('exp'),
  decayNumericGauss: decayNumeric('gauss'),
  decayDateLinear: decayDate('linear'),
  decayDateExp: decayDate('exp'),
  decayDateGauss: decayDate('gauss'),
  decayGeoLinear: decayGeo('linear'),
  decayGeoExp: decayGeo('exp'),
  decayGeoGauss: decayGeo('gauss'),
  randomScore,
  ...VECTOR_FUNCTION_IMPLEMENTATIONS,
};
