/**
 * Values a script gives an aggregation (`"terms": {"script": …}`, `"sum": {"field": "f", "script":
 * "_value * 2"}`): ES's script values sources. The script runs once per document of the bucket
 * (a value script once per value of the field, with `_value`), in the `aggs` context: `doc`,
 * `params` (with `params._source`) and `_score`. What it returns — one value, a list, a field's doc
 * values, or null for none — becomes the document's values, converted to the source's kind.
 */
import { EsError } from '../../../../errors/index.js';
import { AGGREGATION_CONTEXT, ScriptDocValues, SearchTimedOut, javaToString, unbox, type ScriptSpec, type StoredScripts } from '../../painless/index.js';
import { DocScript, documentSource, prepareScript } from '../scripts/doc-script.js';
import type { Segment, Value } from './types.js';
import type { ValueKind } from './values-source.js';

/** A value-script's input: the field's values of a document. */
type FieldValuesOf = (ord: number) => Value[];

/** The values `spec` gives each document of `seg`, by ordinal. */
export function scriptedValues(seg: Segment, spec: ScriptSpec, kind: ValueKind, stored: StoredScripts | undefined, fieldValuesOf?: FieldValuesOf): Map<number, Value[]> {
  const out = new Map<number, Value[]>();
  const handle = seg.handle;
  if (!handle.inverted || seg.ords.length === 0) return out;
  const script = new DocScript(prepareScript(spec, AGGREGATION_CONTEXT, stored), handle.inverted, handle.mappings, handle.name, {
    source: (ord) => documentSource(handle, ord),
    globals: { _value: null },
  });
  try {
    for (const ord of seg.ords) {
      const score = seg.scores?.get(ord) ?? 0;
      const values: Value[] = [];
      if (fieldValuesOf) {
        for (const v of fieldValuesOf(ord)) {
          script.bind('_value', v);
          collect(script.run(ord, score), kind, values);
        }
      } else {
        collect(script.run(ord, score), kind, values);
      }
      if (values.length) out.set(ord, values);
    }
  } catch (e) {
    // The search reached its timeout: the values of the documents reached so far.
    if (!(e instanceof SearchTimedOut)) throw e;
  }
  return out;
}

/** Adds what a script returned to `into`, as values of `kind`. */
function collect(result: unknown, kind: ValueKind, into: Value[]): void {
  if (result === null || result === undefined) return;
  if (result instanceof ScriptDocValues) {
    for (const item of result.items) collect(item, kind, into);
    return;
  }
  if (Array.isArray(result) || result instanceof Set) {
    for (const item of result) collect(item, kind, into);
    return;
  }
  into.push(asKind(unbox(result), kind));
}

function asKind(v: unknown, kind: ValueKind): Value {
  if (kind === 'bytes' || kind === 'ip') return javaToString(v);
  if (kind === 'boolean') return typeof v === 'boolean' ? v : javaToString(v) === 'true';
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const millis = (v as { instant?: { millis?: unknown } } | null)?.instant?.millis;
  if (typeof millis === 'number') return millis;
  const n = typeof v === 'string' ? Number(v) : NaN;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(n)) return n;
  throw new EsError(400, 'illegal_argument_exception', `Unsupported script value [${javaToString(v)}], expected a number, date, or boolean`);
}
