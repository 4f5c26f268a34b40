import { EsError } from '../../../errors/index.js';
import { isPlainObject } from '../indices/deep.js';

/** What a rollover's conditions are checked against: the write index as it is now. */
export interface RolloverStats {
  docs: number;
  ageMs: number;
  bytes: number;
}

type Measure = 'age' | 'docs' | 'size';

interface ConditionKind {
  measure: Measure;
  bound: 'max' | 'min';
  read(stats: RolloverStats): number;
}

/** The conditions of Elasticsearch 8.15's rollover API (one shard per index: primary shard = index). */
const KINDS: Record<string, ConditionKind> = {
  max_age: { measure: 'age', bound: 'max', read: (s) => s.ageMs },
  max_docs: { measure: 'docs', bound: 'max', read: (s) => s.docs },
  max_size: { measure: 'size', bound: 'max', read: (s) => s.bytes },
  max_primary_shard_size: { measure: 'size', bound: 'max', read: (s) => s.bytes },
  max_primary_shard_docs: { measure: 'docs', bound: 'max', read: (s) => s.docs },
  min_age: { measure: 'age', bound: 'min', read: (s) => s.ageMs },
  min_docs: { measure: 'docs', bound: 'min', read: (s) => s.docs },
  min_size: { measure: 'size', bound: 'min', read: (s) => s.bytes },
  min_primary_shard_size: { measure: 'size', bound: 'min', read: (s) => s.bytes },
  min_primary_shard_docs: { measure: 'docs', bound: 'min', read: (s) => s.docs },
};

export interface RolloverCondition {
  name: string;
  kind: ConditionKind;
  threshold: number;
  /** The value as the response's key prints it (`[max_docs: 1]`). */
  text: string;
}

const TIME_UNITS: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4, pb: 1024 ** 5 };

function measured(name: string, measure: Measure, raw: unknown): { threshold: number; text: string } {
  const text = String(raw).trim();
  if (measure === 'docs') {
    const n = Number(text);
    if (!Number.isInteger(n)) throw new EsError(400, 'x_content_parse_exception', `[conditions] failed to parse field [${name}]`);
    return { threshold: n, text: String(n) };
  }
  const units = measure === 'age' ? TIME_UNITS : SIZE_UNITS;
  const m = /^(\d+(?:\.\d+)?)([a-z]+)$/i.exec(text);
  const unit = m ? units[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined) {
    const what = measure === 'age' ? 'a time value: unit is missing or unrecognized' : 'a size in bytes: unit is missing or unrecognized';
    throw new EsError(400, 'parse_exception', `failed to parse setting [${name}] with value [${text}] as ${what}`);
  }
  return { threshold: Number(m[1]) * unit, text: text.toLowerCase() };
}

/** The `conditions` of a rollover request body, validated as Elasticsearch validates them. */
export function parseRolloverConditions(input: unknown): RolloverCondition[] {
  if (input === undefined || input === null) return [];
  if (!isPlainObject(input)) throw new EsError(400, 'x_content_parse_exception', '[rollover] conditions doesn\'t support values of type: VALUE_STRING');
  const out: RolloverCondition[] = [];
  for (const [name, raw] of Object.entries(input)) {
    const kind = KINDS[name];
    if (!kind) throw new EsError(400, 'x_content_parse_exception', `[conditions] unknown field [${name}]`);
    out.push({ name, kind, ...measured(name, kind.measure, raw) });
  }
  if (out.length && out.every((c) => c.kind.bound === 'min')) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: at least one max_* rollover condition must be set when using min_* conditions;');
  }
  return out;
}

/**
 * Each condition's verdict, keyed as the response shows them (`[max_docs: 1]`), and whether the
 * rollover happens: with no condition always; otherwise when a max condition is met and every min
 * condition is.
 */
export function evaluateRolloverConditions(conditions: RolloverCondition[], stats: RolloverStats): { results: Record<string, boolean>; met: boolean } {
  const results: Record<string, boolean> = {};
  let anyMax = false;
  let allMin = true;
  for (const c of conditions) {
    const ok = c.kind.read(stats) >= c.threshold;
    results[`[${c.name}: ${c.text}]`] = ok;
    if (c.kind.bound === 'max') anyMax ||= ok;
    else allMin &&= ok;
  }
  return { results, met: conditions.length === 0 || (anyMax && allMin) };
}
