import { exactJson, hasLongDigitRun, holdsRoundedInteger } from '../../../ndjson/index.js';
import { resolveFieldMapping } from './parse-document.js';
import { fieldType, type FieldMapping, type Mappings } from './types.js';

/**
 * unsigned_long holds integers up to 2^64 - 1, past what a JS number keeps exactly (2^53). Such a
 * value is a BigInt from the document's text to its term (the digits), its doc value and its sort
 * value; a value a number holds exactly stays a number, so that every other reader (aggregations,
 * scripts) sees what it always saw.
 */
export const UNSIGNED_LONG_MAX = 18446744073709551615n;

const mapsUnsignedLong = new WeakMap<Mappings, boolean>();

/** Whether the mappings map an unsigned_long: a field, a multi-field, or a dynamic template's mapping for new fields. */
function hasUnsignedLong(mappings: Mappings): boolean {
  let known = mapsUnsignedLong.get(mappings);
  if (known === undefined) mapsUnsignedLong.set(mappings, (known = mapsUnsignedLongIn(mappings.properties) || templatesMapUnsignedLong(mappings.dynamic_templates)));
  return known;
}

function mapsUnsignedLongIn(fields: Record<string, FieldMapping> | undefined): boolean {
  for (const field of Object.values(fields ?? {})) {
    if (field.type === 'unsigned_long' || mapsUnsignedLongIn(field.properties) || mapsUnsignedLongIn(field.fields)) return true;
  }
  return false;
}

function templatesMapUnsignedLong(templates: unknown): boolean {
  if (!Array.isArray(templates)) return false;
  return templates.some((entry) => Object.values(isObject(entry) ? entry : {}).some((t) => isObject(t) && isObject(t.mapping) && t.mapping.type === 'unsigned_long'));
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The document to index from its source and text: when the text holds an integer a number rounds
 * (and the index maps an unsigned_long, or the source a number past 2^53), the source read again
 * exactly, with BigInts left only where an unsigned_long or a long field takes them — a long is
 * checked against its range exactly (9223372036854775807 fits, 9223372036854775808 does not,
 * though a number reads both as 2^63) — and elsewhere the number JSON.parse reads, as before.
 */
export function withExactUnsignedLongs(source: Record<string, unknown>, text: string, mappings: Mappings): Record<string, unknown> {
  if (!hasLongDigitRun(text) || (!hasUnsignedLong(mappings) && !holdsRoundedInteger(source))) return source;
  return keepUnsignedLongs(exactJson(text), '', mappings) as Record<string, unknown>;
}

function keepUnsignedLongs(v: unknown, path: string, mappings: Mappings): unknown {
  if (typeof v === 'bigint') {
    const mapping = resolveFieldMapping(mappings, path);
    // an unmapped one (a new field) maps as a long: its range checked exactly too
    const type = mapping ? fieldType(mapping) : 'long';
    return type === 'unsigned_long' || type === 'long' ? v : Number(v);
  }
  if (Array.isArray(v)) return v.map((x) => keepUnsignedLongs(x, path, mappings));
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, keepUnsignedLongs(x, path ? `${path}.${k}` : k, mappings)]));
  }
  return v;
}

/**
 * An unsigned_long value (a number, a BigInt, or a string of digits) as the integer it is: a
 * number when one holds it exactly, else a BigInt; undefined when it is not an integer written in
 * digits (the caller reads it as any number).
 */
export function exactUnsignedLong(value: unknown): number | bigint | undefined {
  let big: bigint;
  if (typeof value === 'bigint') big = value;
  else if (typeof value === 'string' && /^\s*\+?\d+\s*$/.test(value)) big = BigInt(value.trim().replace(/^\+/, ''));
  else if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  else return undefined;
  return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}
