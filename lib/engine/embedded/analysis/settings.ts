/**
 * Reading analysis settings the way Elasticsearch's Settings does: every scalar may arrive as a
 * string ("min_gram": "1", "preserve_original": "true"), lists may be a single value or a
 * comma-separated string. Bad values become ES's 400 errors.
 */
import { EsError } from '../../../errors/index.js';

export type Definition = Record<string, unknown>;

export function illegalArgument(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

export function intSetting(def: Definition, key: string, fallback: number): number {
  const raw = def[key];
  if (raw === undefined || raw === null) return fallback;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[-+]?\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n)) throw illegalArgument(`Failed to parse value [${String(raw)}] for setting [${key}]`);
  return n;
}

export function boolSetting(def: Definition, key: string, fallback: boolean): boolean {
  const raw = def[key];
  if (raw === undefined || raw === null) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw illegalArgument(`Failed to parse value [${String(raw)}] as only [true] or [false] are allowed.`);
}

export function stringSetting(def: Definition, key: string): string | undefined {
  const raw = def[key];
  if (raw === undefined || raw === null) return undefined;
  return String(raw);
}

/** A list setting; a plain string is one element unless `splitCommas` (ES's getAsList splits). */
export function listSetting(def: Definition, key: string, splitCommas = true): string[] | undefined {
  const raw = def[key];
  if (raw === undefined || raw === null) return undefined;
  if (Array.isArray(raw)) return raw.map((v) => String(v));
  // Flattened-then-nested settings may carry a list as {"0": …, "1": …}.
  if (typeof raw === 'object') {
    return Object.keys(raw)
      .sort((a, b) => Number(a) - Number(b))
      .map((k) => String((raw as Record<string, unknown>)[k]));
  }
  const s = String(raw);
  return splitCommas ? s.split(',').map((v) => v.trim()).filter((v) => v.length > 0) : [s];
}
