/**
 * `scripted_metric`: a metric computed by four Painless scripts. Each searched index plays the
 * part of a shard: `init_script` sets up its `state`, `map_script` runs for each of its documents
 * in the bucket, `combine_script` turns the state into the shard's result; `reduce_script` then
 * turns the list of shard results (`states`) into the aggregation's `value`. The aggregation's
 * `params` are every script's `params`, merged with the script's own (a name in both is refused,
 * as Elasticsearch does).
 */
import { EsError } from '../../../../errors/index.js';
import {
  METRIC_COMBINE_CONTEXT, METRIC_INIT_CONTEXT, METRIC_MAP_CONTEXT, METRIC_REDUCE_CONTEXT, NO_SEARCH_CLOCK, ScriptMemory, SearchTimedOut, compileScript, fromJson,
  parseScriptSpec, resolveScript, toJson, withSearchClock, type ContextDefinition, type ScriptSpec, type StoredScripts,
} from '../../painless/index.js';
import { DocScript, documentSource } from '../scripts/doc-script.js';
import type { Work, WorkBudget } from '../work-budget.js';
import { isObject, type AggregationType, type DocSet, type Segment } from './types.js';
import { unknownField } from './unknown-field.js';

interface ScriptedMetricParams {
  init?: ScriptSpec;
  map: ScriptSpec;
  combine: ScriptSpec;
  reduce: ScriptSpec;
  params: Record<string, unknown>;
}

const KEYS = new Set(['init_script', 'map_script', 'combine_script', 'reduce_script', 'params']);

function scriptOf(body: Record<string, unknown>, key: string, builderName: string, name: string, required: boolean): ScriptSpec | undefined {
  const raw = body[key];
  if (raw === undefined || raw === null) {
    if (required) throw new EsError(400, 'illegal_argument_exception', `[${builderName}] must not be null: [${name}]`);
    return undefined;
  }
  return parseScriptSpec(raw);
}

/** A script ready to run: compiled for its context, with the aggregation's params merged into its own. */
function prepare(spec: ScriptSpec, context: ContextDefinition, aggParams: Record<string, unknown>, stored: StoredScripts | undefined) {
  const resolved = resolveScript(spec, stored);
  for (const k of Object.keys(resolved.params)) {
    if (k in aggParams) throw new EsError(400, 'illegal_argument_exception', `Parameter name "${k}" used in both aggregation and script parameters`);
  }
  const params = { ...aggParams, ...resolved.params };
  return { compiled: compileScript(resolved.source, context, resolved.name), params: fromJson(params) as Map<unknown, unknown> };
}

/** The states `init_script` and `map_script` built ahead of the aggregation (`scriptedMetricAhead`), per segment of the doc set. */
interface Mapped {
  /** The doc set mapped (the aggregation's own, at the top level). */
  docs: DocSet;
  memory: ScriptMemory;
  states: Map<Segment, Map<unknown, unknown>>;
  /** What the scripts failed with (the aggregation fails with it: it would run them in the same order). */
  failure?: unknown;
}

const mappedAhead = new WeakMap<ScriptedMetricParams, Mapped>();

/**
 * Runs a top-level scripted_metric's `init_script` and `map_script` over `docs` as work that
 * pauses every slice of the search's budget and stops at its deadline (the state holds the
 * documents mapped); the aggregation then combines and reduces those states, or fails with what
 * a script failed with.
 */
export function* scriptedMetricAhead(params: ScriptedMetricParams, docs: DocSet, stored: StoredScripts | undefined, budget: WorkBudget): Work<void> {
  const memory = new ScriptMemory();
  const states = new Map<Segment, Map<unknown, unknown>>();
  try {
    const init = params.init && prepare(params.init, METRIC_INIT_CONTEXT, params.params, stored);
    const map = prepare(params.map, METRIC_MAP_CONTEXT, params.params, stored);
    for (const seg of docs) {
      const state = new Map<unknown, unknown>();
      init?.compiled.run({ params: init.params, state }, memory);
      states.set(seg, state);
      const handle = seg.handle;
      if (!handle.inverted || !seg.ords.length) continue;
      const script = new DocScript(map, handle.inverted, handle.mappings, handle.name, { source: (ord) => documentSource(handle, ord), globals: { state }, memory });
      for (const ord of seg.ords) {
        if (budget.check()) yield;
        if (budget.timedOut) break;
        script.run(ord, seg.scores?.get(ord) ?? 0);
      }
    }
  } catch (e) {
    if (!(e instanceof SearchTimedOut)) {
      mappedAhead.set(params, { docs, memory, states, failure: e });
      return;
    }
  }
  mappedAhead.set(params, { docs, memory, states });
}

export const scriptedMetric: AggregationType<ScriptedMetricParams> = {
  kind: 'metric',
  parse(name, body) {
    for (const k of Object.keys(body)) {
      if (!KEYS.has(k)) throw unknownField('scripted_metric', k, KEYS);
    }
    if (body.params !== undefined && !isObject(body.params)) {
      throw new EsError(400, 'parsing_exception', '[scripted_metric] params doesn\'t support values of type: VALUE_STRING', { line: 1, col: 1 });
    }
    return {
      init: scriptOf(body, 'init_script', 'initScript', name, false),
      map: scriptOf(body, 'map_script', 'mapScript', name, true)!,
      combine: scriptOf(body, 'combine_script', 'combineScript', name, true)!,
      reduce: scriptOf(body, 'reduce_script', 'reduceScript', name, true)!,
      params: (body.params as Record<string, unknown> | undefined) ?? {},
    };
  },
  run(node, docs, ctx) {
    const p = node.params;
    const stored = ctx.storedScripts;
    const init = p.init && prepare(p.init, METRIC_INIT_CONTEXT, p.params, stored);
    const map = prepare(p.map, METRIC_MAP_CONTEXT, p.params, stored);
    const combine = prepare(p.combine, METRIC_COMBINE_CONTEXT, p.params, stored);
    const reduce = prepare(p.reduce, METRIC_REDUCE_CONTEXT, p.params, stored);
    const states: unknown[] = [];
    const ahead = mappedAhead.get(p);
    const mapped = ahead?.docs === docs ? ahead : undefined;
    if (mapped?.failure !== undefined) throw mapped.failure;
    // What the scripts keep (the states) outlives each run: one memory account for all of them.
    const memory = mapped?.memory ?? new ScriptMemory();
    for (const seg of docs) {
      if (mapped) {
        // A segment the deadline came before has no state.
        const done = mapped.states.get(seg);
        if (done) states.push(withSearchClock(NO_SEARCH_CLOCK, () => combine.compiled.run({ params: combine.params, state: done }, memory)));
        continue;
      }
      const state = new Map<unknown, unknown>();
      init?.compiled.run({ params: init.params, state }, memory);
      const handle = seg.handle;
      if (handle.inverted && seg.ords.length) {
        const script = new DocScript(map, handle.inverted, handle.mappings, handle.name, { source: (ord) => documentSource(handle, ord), globals: { state }, memory });
        try {
          for (const ord of seg.ords) script.run(ord, seg.scores?.get(ord) ?? 0);
        } catch (e) {
          // The search reached its timeout: the state holds the documents mapped so far.
          if (!(e instanceof SearchTimedOut)) throw e;
        }
      }
      // Combining and reducing what was mapped is not cut short by the search's timeout.
      states.push(withSearchClock(NO_SEARCH_CLOCK, () => combine.compiled.run({ params: combine.params, state }, memory)));
    }
    const value = withSearchClock(NO_SEARCH_CLOCK, () => reduce.compiled.run({ params: reduce.params, states }, memory));
    return { typed: 'scripted_metric', body: { value: toJson(value) } };
  },
};
