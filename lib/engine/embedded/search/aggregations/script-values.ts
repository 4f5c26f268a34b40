/**
 * Values a script gives an aggregation (`"terms": {"script": …}`, `"sum": {"field": "f", "script":
 * "_value * 2"}`): ES's script values sources. The script runs once per document of the bucket
 * (a value script once per value of the field, with `_value`), in the `aggs` context: `doc`,
 * `params` (with `params._source`) and `_score`. What it returns — one value, a list, a field's doc
 * values, or null for none — becomes the document's values, converted to the source's kind.
 */
import { EsError } from '../../../../errors/index.js';
import { AGGREGATION_CONTEXT, ScriptDocValues, ScriptMemory, SearchTimedOut, arrayItems, isJavaArray, javaToString, unbox, type ScriptSpec, type StoredScripts } from '../../painless/index.js';
import { DocScript, documentSource, prepareScript } from '../scripts/doc-script.js';
import type { IndexHandle } from '../../indices/index.js';
import { WorkBudget, type Work } from '../work-budget.js';
import type { Segment, Value } from './types.js';
import type { ValueKind } from './values-source.js';

/** A value-script's input: the field's values of a document. */
type FieldValuesOf = (ord: number) => Value[];

/** What a script gave the documents of one index ahead of the aggregation (`scriptValuesAhead`): raw values, by ordinal. */
interface Ahead {
  valueScript: boolean;
  covered: Uint8Array;
  raw: Map<number, unknown[]>;
  /** What a run threw (not a timeout): the aggregation fails with it. */
  failed?: unknown;
}

/** Per script (the request's parsed spec, so per request), per index. */
const ahead = new WeakMap<ScriptSpec, Map<IndexHandle, Ahead>>();

/**
 * Runs `spec` for the documents of `seg` as work that pauses every slice of the search's budget
 * and stops at its deadline; the aggregation then reads the values of the documents reached
 * (`scriptedValues`) instead of running the script without a pause. A failing script leaves its
 * error, which the aggregation throws where it would have run the script.
 */
export function* scriptValuesAhead(seg: Segment, spec: ScriptSpec, stored: StoredScripts | undefined, fieldValuesOf: FieldValuesOf | undefined, budget: WorkBudget): Work<void> {
  const handle = seg.handle;
  if (!handle.inverted || seg.ords.length === 0) return;
  const covered = new Uint8Array(handle.inverted.maxOrd);
  const raw = new Map<number, unknown[]>();
  try {
    const script = new DocScript(prepareScript(spec, AGGREGATION_CONTEXT, stored), handle.inverted, handle.mappings, handle.name, {
      source: (ord) => documentSource(handle, ord),
      globals: { _value: null },
      // the values are kept for the whole aggregation: what the runs build is charged to one account
      memory: new ScriptMemory(),
    });
    for (const ord of seg.ords) {
      if (budget.check()) yield;
      if (budget.timedOut) break;
      const score = seg.scores?.get(ord) ?? 0;
      const values: unknown[] = [];
      if (fieldValuesOf) {
        for (const v of fieldValuesOf(ord)) {
          script.bind('_value', v);
          flatten(script.run(ord, score), values);
        }
      } else flatten(script.run(ord, score), values);
      if (values.length) raw.set(ord, values);
      covered[ord] = 1;
    }
  } catch (e) {
    // a failing script (its memory account tripped, an error of its own): the aggregation fails
    // with what it threw, without running it again in one piece (which a slow script's runs would
    // not get through within MAX_SYNC_SCRIPT_MS: a timed-out answer instead of the error)
    if (!(e instanceof SearchTimedOut)) {
      remember(spec, handle, { valueScript: fieldValuesOf !== undefined, covered, raw: new Map(), failed: e });
      return;
    }
  }
  remember(spec, handle, { valueScript: fieldValuesOf !== undefined, covered, raw });
}

function remember(spec: ScriptSpec, handle: IndexHandle, a: Ahead): void {
  let byHandle = ahead.get(spec);
  if (!byHandle) ahead.set(spec, (byHandle = new Map()));
  byHandle.set(handle, a);
}

/** A script's result as plain values (what `collect` converts): lists and doc values flattened, numbers still boxed (a double prints as one). */
function flatten(result: unknown, into: unknown[]): void {
  if (result === null || result === undefined) return;
  if (result instanceof ScriptDocValues) {
    for (const item of result.items) flatten(item, into);
    return;
  }
  if (Array.isArray(result) || result instanceof Set || isJavaArray(result)) {
    for (const item of isJavaArray(result) ? arrayItems(result) : result) flatten(item, into);
    return;
  }
  into.push(result);
}

/** The values computed ahead for `seg`, when every one of its documents was reached. */
function aheadValues(seg: Segment, spec: ScriptSpec, kind: ValueKind, valueScript: boolean): Map<number, Value[]> | undefined {
  const a = ahead.get(spec)?.get(seg.handle);
  if (!a || a.valueScript !== valueScript) return undefined;
  if (a.failed !== undefined) throw a.failed;
  for (const ord of seg.ords) if (a.covered[ord] !== 1) return undefined;
  const out = new Map<number, Value[]>();
  for (const ord of seg.ords) {
    const vs = a.raw.get(ord);
    if (vs) out.set(ord, vs.map((v) => asKind(v, kind)));
  }
  return out;
}

/** The values `spec` gives each document of `seg`, by ordinal. */
export function scriptedValues(seg: Segment, spec: ScriptSpec, kind: ValueKind, stored: StoredScripts | undefined, fieldValuesOf?: FieldValuesOf): Map<number, Value[]> {
  const computed = aheadValues(seg, spec, kind, fieldValuesOf !== undefined);
  if (computed) return computed;
  const out = new Map<number, Value[]>();
  const handle = seg.handle;
  if (!handle.inverted || seg.ords.length === 0) return out;
  const script = new DocScript(prepareScript(spec, AGGREGATION_CONTEXT, stored), handle.inverted, handle.mappings, handle.name, {
    source: (ord) => documentSource(handle, ord),
    globals: { _value: null },
    // as ahead: one account for the runs whose values the aggregation keeps
    memory: new ScriptMemory(),
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
  if (Array.isArray(result) || result instanceof Set || isJavaArray(result)) {
    for (const item of isJavaArray(result) ? arrayItems(result) : result) collect(item, kind, into);
    return;
  }
  into.push(asKind(result, kind));
}

/** A value the script returned as a value of `kind`: a string as Java prints it (a double 1.0 as "1.0"), a number unboxed. */
function asKind(boxed: unknown, kind: ValueKind): Value {
  if (kind === 'bytes' || kind === 'ip') return javaToString(boxed);
  const v = unbox(boxed);
  if (kind === 'boolean') return typeof v === 'boolean' ? v : javaToString(v) === 'true';
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const millis = (v as { instant?: { millis?: unknown } } | null)?.instant?.millis;
  if (typeof millis === 'number') return millis;
  const n = typeof v === 'string' ? Number(v) : NaN;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(n)) return n;
  throw new EsError(400, 'illegal_argument_exception', `Unsupported script value [${javaToString(v)}], expected a number, date, or boolean`);
}
