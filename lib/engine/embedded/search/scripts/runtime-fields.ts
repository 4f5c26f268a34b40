/**
 * Runtime fields (the mapping's `runtime` section and a search's `runtime_mappings`): fields
 * whose values a script emits at search time. A search sees an index through a view in which each
 * runtime field is mapped with its type and indexed — computed, on first use, over every live
 * document — so that queries, aggregations, sorting and `fields` treat it as any mapped field. A
 * runtime field shadows an indexed field of the same name; one without a script reads `_source`.
 */
import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { FieldIndex, type InvertedIndex } from '../../index/index.js';
import { toIndexedValue, type FieldMapping, type IndexableField, type Mappings } from '../../mapping/index.js';
import { ScriptRuntimeError, SearchTimedOut, parseScriptSpec, runtimeFieldContext, unbox, type ScriptSpec, type StoredScripts } from '../../painless/index.js';
import { valuesAtPath } from '../fields/index.js';
import { DocScript, documentSource, prepareScript } from './doc-script.js';
import { WorkBudget, runAtOnce, type Work } from '../work-budget.js';

export interface RuntimeField {
  name: string;
  type: string;
  script?: ScriptSpec;
  /** A date field's format (how `fields` prints it). */
  format?: string;
}

const TYPES = new Set(['keyword', 'long', 'double', 'boolean', 'date', 'ip', 'geo_point']);
const KEYS = new Set(['type', 'script', 'format', 'on_script_error', 'locale', 'meta', 'fields']);

/** Runtime field definitions (`runtime_mappings`, or a mapping's `runtime`), validated as ES does. */
export function parseRuntimeFields(raw: unknown): RuntimeField[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new EsError(400, 'parsing_exception', 'Expected [START_OBJECT] in [runtime_mappings]', { line: 1, col: 1 });
  return Object.entries(raw as Record<string, unknown>).map(([name, def]) => {
    if (def === null || typeof def !== 'object' || Array.isArray(def)) {
      throw new EsError(400, 'mapper_parsing_exception', `Expected map for runtime field [${name}] definition but got a ${typeof def}`);
    }
    const d = def as Record<string, unknown>;
    if (d.type === undefined) throw new EsError(400, 'mapper_parsing_exception', `No type specified for runtime field [${name}]`);
    const type = String(d.type);
    if (type === 'composite' || type === 'lookup' || type === 'geo_shape') {
      throw new EsError(400, 'illegal_argument_exception', `runtime fields of type [${type}] are not supported by the embedded engine`);
    }
    if (!TYPES.has(type)) throw new EsError(400, 'mapper_parsing_exception', `No handler for type [${type}] declared on runtime field [${name}]`);
    for (const k of Object.keys(d)) {
      if (!KEYS.has(k) || (k === 'format' && type !== 'date')) {
        throw new EsError(400, 'mapper_parsing_exception', `unknown parameter [${k}] on runtime field [${name}] of type [${type}]`);
      }
    }
    const script = d.script === undefined || d.script === null ? undefined : parseScriptSpec(d.script);
    return { name, type, script, format: typeof d.format === 'string' ? d.format : undefined };
  });
}

const RUNTIME = Symbol('runtimeFields');

interface SearchView {
  [RUNTIME]: { fields: Map<string, RuntimeField>; base: IndexHandle; prepare(budget: WorkBudget, reads: (name: string) => boolean): Work<void> };
}

/**
 * Computes the values of the scripted runtime fields a search reads — every one of its
 * `runtime_mappings`, and the mappings' runtime fields `reads` answers true for (what the request
 * mentions, scripts.fieldsMentionedBy), with the runtime fields their scripts mention — as work
 * that pauses every slice of the search's budget and stops at its deadline (the documents reached
 * keep their values). A runtime field read without being prepared is computed when first read,
 * without a pause.
 */
export function prepareRuntimeFields(handle: IndexHandle, budget: WorkBudget, reads: (name: string) => boolean): Work<void> {
  const view = (handle as Partial<SearchView>)[RUNTIME];
  return view ? view.prepare(budget, reads) : nothing();
}

/**
 * The scripted runtime fields to compute ahead, a field after the runtime fields its script
 * mentions (so that it reads them computed); a cycle is left to the first read, which refuses it.
 */
function readOrder(fields: Map<string, RuntimeField>, requested: RuntimeField[], reads: (name: string) => boolean, stored: StoredScripts | undefined): RuntimeField[] {
  const ordered: RuntimeField[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const scriptText = (f: RuntimeField) => (f.script?.source ?? (f.script?.id !== undefined ? stored?.get(f.script.id)?.source : undefined) ?? '');
  const visit = (f: RuntimeField): boolean => {
    const at = state.get(f.name);
    if (at) return at === 'done';
    state.set(f.name, 'visiting');
    const text = scriptText(f);
    for (const other of fields.values()) {
      if (other !== f && other.script && text.includes(other.name) && !visit(other)) return false;
    }
    state.set(f.name, 'done');
    ordered.push(f);
    return true;
  };
  const wanted = new Set(requested.map((f) => f.name));
  for (const f of fields.values()) if (f.script && (wanted.has(f.name) || reads(f.name))) visit(f);
  return ordered;
}

function* nothing(): Work<void> {}

/** The runtime fields a search view of an index has (undefined for a plain index handle). */
export function runtimeFieldsOf(handle: IndexHandle): Map<string, RuntimeField> | undefined {
  return (handle as Partial<SearchView>)[RUNTIME]?.fields;
}

/** The mappings of the index itself, without the runtime fields a view adds. */
export function indexMappings(handle: IndexHandle): Mappings {
  return (handle as Partial<SearchView>)[RUNTIME]?.base.mappings ?? handle.mappings;
}

/** `mappings` with runtime fields added as leaf fields of their types (dotted names nest as objects). */
function withFields(mappings: Mappings, fields: Iterable<RuntimeField>): Mappings {
  const root = { ...(mappings.properties ?? {}) } as Record<string, FieldMapping>;
  for (const f of fields) {
    const parts = f.name.split('.');
    let props = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const existing = props[parts[i]];
      const copy: FieldMapping = existing && existing.properties ? { ...existing, properties: { ...existing.properties } } : { type: 'object', properties: {} };
      props[parts[i]] = copy;
      props = copy.properties as Record<string, FieldMapping>;
    }
    const leaf: FieldMapping = { type: f.type };
    if (f.format) leaf.format = f.format;
    props[parts[parts.length - 1]] = leaf;
  }
  return { ...mappings, properties: root };
}

const MAX_VALUES = 100;

/**
 * The index as a search with runtime fields sees it (the handle itself when there are none).
 * `requested`: the search's `runtime_mappings`, over the mapping's own.
 */
export function searchView(handle: IndexHandle, requested: RuntimeField[], stored?: StoredScripts): IndexHandle {
  const fields = new Map<string, RuntimeField>();
  for (const f of parseRuntimeFields(handle.mappings.runtime)) fields.set(f.name, f);
  for (const f of requested) fields.set(f.name, f);
  if (!fields.size || !handle.inverted) return handle;
  const base = handle.inverted;
  const mappings = withFields(handle.mappings, fields.values());
  const index = Object.create(base) as InvertedIndex;
  const view = Object.create(handle) as IndexHandle & SearchView;
  const computed = new Map<string, FieldIndex>();
  const resolving: string[] = [];
  // Compiled when the search starts (a script that does not compile fails the search, used or not).
  const scripts = new Map([...fields.values()].filter((f) => f.script).map((f) => [f.name, prepareScript(f.script!, runtimeFieldContext(f.type), stored)]));

  const compute = (f: RuntimeField): FieldIndex => runAtOnce(computeWork(f, WorkBudget.unbounded));
  const computeWork = function* (f: RuntimeField, budget: WorkBudget): Work<FieldIndex> {
    if (resolving.includes(f.name)) {
      throw new EsError(400, 'illegal_argument_exception', `Cyclic dependency detected while resolving runtime fields: ${[...resolving.slice(resolving.indexOf(f.name)), f.name].join(' -> ')}`);
    }
    resolving.push(f.name);
    try {
      const fi = new FieldIndex(f.type);
      const mapping: FieldMapping = f.format ? { type: f.type, format: f.format } : { type: f.type };
      const source = (ord: number) => documentSource(handle, ord);
      const emitted: unknown[] = [];
      const emit = (...args: unknown[]) => {
        if (emitted.length >= MAX_VALUES * (f.type === 'geo_point' ? 2 : 1)) {
          throw new ScriptRuntimeError('illegal_argument_exception', `Runtime field [${f.name}] is emitting [${emitted.length + 1}] values while the maximum number of values allowed is [${MAX_VALUES}]`);
        }
        for (const a of args) emitted.push(unbox(a));
      };
      const prepared = scripts.get(f.name);
      const script = prepared ? new DocScript(prepared, index, mappings, handle.name, { source, globals: { emit } }) : undefined;
      for (const ord of base.liveOrdinals()) {
        emitted.length = 0;
        if (script && budget.check()) yield;
        if (budget.timedOut) break;
        if (script) {
          try {
            script.run(ord);
          } catch (e) {
            // The search reached its timeout: the field has the values of the documents reached.
            if (e instanceof SearchTimedOut) break;
            throw e;
          }
        } else for (const v of valuesAtPath(source(ord) ?? {}, f.name)) if (v !== null && typeof v !== 'object') emitted.push(v);
        if (emitted.length) fi.add(ord, indexable(f, mapping, emitted, handle, base.idOf(ord)!));
      }
      return fi;
    } finally {
      resolving.pop();
    }
  };

  index.field = (name: string) => {
    const f = fields.get(name);
    if (!f) return base.field(name);
    let fi = computed.get(name);
    if (!fi) computed.set(name, (fi = compute(f)));
    return fi;
  };
  index.fieldNames = function* () {
    for (const name of base.fieldNames()) if (!fields.has(name)) yield name;
    yield* fields.keys();
  };
  Object.defineProperty(view, 'mappings', { value: mappings });
  Object.defineProperty(view, 'inverted', { value: index });
  const prepare = function* (budget: WorkBudget, reads: (name: string) => boolean): Work<void> {
    for (const f of readOrder(fields, requested, reads, stored)) {
      if (computed.has(f.name)) continue;
      let fi: FieldIndex;
      try {
        fi = yield* computeWork(f, budget);
      } catch {
        // A field whose script fails fails the search only where it is read (computed again then).
        continue;
      }
      if (!computed.has(f.name)) computed.set(f.name, fi);
    }
  };
  Object.defineProperty(view, RUNTIME, { value: { fields, base: handle, prepare } });
  return view;
}

/** A document's emitted values as the index would hold them for a field of the runtime type. */
function indexable(f: RuntimeField, mapping: FieldMapping, values: unknown[], handle: IndexHandle, id: string): IndexableField {
  if (f.type === 'geo_point') return { type: f.type, terms: [], positions: [], values: values.map(Number) };
  const field: IndexableField = { type: f.type, terms: [], positions: [], values: [] };
  for (const v of values) {
    let indexed;
    try {
      indexed = toIndexedValue(f.type === 'keyword' ? String(v) : v, mapping, f.name, id, handle.registry);
    } catch {
      continue;
    }
    if (!indexed || indexed.value === undefined) continue;
    field.terms.push(...indexed.terms);
    field.positions.push(...indexed.terms.map(() => 0));
    field.values.push(indexed.value);
  }
  return field;
}
