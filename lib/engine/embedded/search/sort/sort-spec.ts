import { EsError } from '../../../../errors/index.js';
import { parseScriptSpec, type ScriptSpec } from '../../painless/index.js';

export type SortOrder = 'asc' | 'desc';
export type SortMode = 'min' | 'max' | 'sum' | 'avg' | 'median';

/** One sort criterion of a search request, validated. */
export type SortSpec =
  | { kind: 'score'; order: SortOrder }
  /** `_doc`; `_shard_doc` (`shard`): the point-in-time tiebreaker, unique across the indices searched. */
  | { kind: 'doc'; order: SortOrder; shard?: true }
  | {
      kind: 'field';
      field: string;
      order: SortOrder;
      /** `_last` (default), `_first`, or a value that stands in for a missing one. */
      missing: '_first' | '_last' | string | number | boolean;
      mode?: SortMode;
      unmappedType?: string;
      numericType?: string;
      format?: string;
      /** `nested.path` (or the older `nested_path`): the field's values are those of the document's nested objects at that path. */
      nestedPath?: string;
    }
  /** `_script`: each document's key is what a script returns (a double, or a String). */
  | { kind: 'script'; script: ScriptSpec; type: 'number' | 'string'; order: SortOrder; mode?: SortMode };

const FIELD_SORT_KEYS = new Set(['order', 'missing', 'mode', 'unmapped_type', 'numeric_type', 'format', 'nested', 'nested_path', 'nested_filter', 'ignore_unmapped']);

function parsingError(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function orderOf(v: unknown): SortOrder {
  const s = typeof v === 'string' ? v.toLowerCase() : v;
  if (s === 'asc' || s === 'desc') return s;
  throw new EsError(400, 'illegal_argument_exception', `Unknown SortOrder [${String(v)}]`);
}

function modeOf(v: unknown): SortMode | undefined {
  if (v === undefined) return undefined;
  const s = typeof v === 'string' ? v.toLowerCase() : v;
  if (s === 'min' || s === 'max' || s === 'sum' || s === 'avg' || s === 'median') return s;
  throw new EsError(400, 'illegal_argument_exception', `Unknown SortMode [${String(v)}]`);
}

function named(name: string, order?: SortOrder): SortSpec {
  if (name === '_score') return { kind: 'score', order: order ?? 'desc' };
  if (name === '_doc') return { kind: 'doc', order: order ?? 'asc' };
  if (name === '_shard_doc') return { kind: 'doc', order: order ?? 'asc', shard: true };
  return { kind: 'field', field: name, order: order ?? 'asc', missing: '_last' };
}

function fromObject(o: Record<string, unknown>): SortSpec[] {
  const out: SortSpec[] = [];
  for (const [name, def] of Object.entries(o)) {
    if (name === '_geo_distance') {
      throw new EsError(400, 'illegal_argument_exception', `[${name}] sort is not supported by the embedded engine`);
    }
    if (name === '_script') {
      out.push(scriptSort(def));
      continue;
    }
    if (typeof def === 'string') {
      out.push(named(name, orderOf(def)));
      continue;
    }
    if (def === null || typeof def !== 'object' || Array.isArray(def)) throw parsingError(`[${name}] sort must be an order or an object`);
    const d = def as Record<string, unknown>;
    for (const k of Object.keys(d)) {
      if (!FIELD_SORT_KEYS.has(k)) throw parsingError(`[field_sort] unknown field [${k}]`);
    }
    const order = d.order === undefined ? undefined : orderOf(d.order);
    const spec = named(name, order);
    if (spec.kind === 'field') {
      if (d.missing !== undefined && d.missing !== null) {
        if (typeof d.missing !== 'string' && typeof d.missing !== 'number' && typeof d.missing !== 'boolean') throw parsingError('[field_sort] missing must be a value');
        spec.missing = d.missing;
      }
      spec.mode = modeOf(d.mode);
      if (typeof d.unmapped_type === 'string') spec.unmappedType = d.unmapped_type;
      if (d.ignore_unmapped === true && spec.unmappedType === undefined) spec.unmappedType = 'long';
      if (typeof d.numeric_type === 'string') spec.numericType = d.numeric_type;
      if (typeof d.format === 'string') spec.format = d.format;
      spec.nestedPath = nestedPathOf(name, d);
    }
    out.push(spec);
  }
  return out;
}

/**
 * The nested path of a field sort: `nested: {path}` (or `nested_path`). A `filter` of the nested
 * objects, a `nested` level below and `max_children` are refused as not supported (the values of
 * every object at the path would be read instead).
 */
function nestedPathOf(name: string, d: Record<string, unknown>): string | undefined {
  if (d.nested_filter !== undefined) throw new EsError(400, 'illegal_argument_exception', `[nested_filter] of the sort on [${name}] is not supported by the embedded engine`);
  if (d.nested === undefined) return typeof d.nested_path === 'string' ? d.nested_path : undefined;
  if (d.nested === null || typeof d.nested !== 'object' || Array.isArray(d.nested)) throw parsingError('[nested] must be an object');
  const n = d.nested as Record<string, unknown>;
  for (const k of Object.keys(n)) {
    if (k === 'path') continue;
    if (k === 'filter' || k === 'nested' || k === 'max_children') throw new EsError(400, 'illegal_argument_exception', `[nested.${k}] of the sort on [${name}] is not supported by the embedded engine`);
    throw parsingError(`[nested] unknown field [${k}]`);
  }
  if (typeof n.path !== 'string') throw new EsError(400, 'illegal_argument_exception', '[nested] requires \'path\' field');
  return n.path;
}

/** `{"_script": {"type": "number", "script": {…}, "order": "desc"}}`. */
function scriptSort(def: unknown): SortSpec {
  if (def === null || typeof def !== 'object' || Array.isArray(def)) throw parsingError('[_script] sort must be an object');
  const d = def as Record<string, unknown>;
  for (const k of Object.keys(d)) {
    if (!['script', 'type', 'order', 'mode', 'nested'].includes(k)) throw parsingError(`[_script] unknown field [${k}]`);
  }
  if (d.script === undefined || d.type === undefined) throw parsingError(`[_script] Required [${d.script === undefined ? 'script' : 'type'}]`);
  const type = String(d.type).toLowerCase();
  if (type !== 'number' && type !== 'string') throw new EsError(400, 'illegal_argument_exception', `Unknown ScriptSortType [${String(d.type)}]`);
  return { kind: 'script', script: parseScriptSpec(d.script), type, order: d.order === undefined ? 'asc' : orderOf(d.order), mode: modeOf(d.mode) };
}

/** `sort` of a search body: a name, `{name: order}`, `{name: {order, missing, mode…}}`, or an array of those. */
export function parseSort(input: unknown): SortSpec[] {
  const items = Array.isArray(input) ? input : [input];
  const out: SortSpec[] = [];
  for (const item of items) {
    if (typeof item === 'string') out.push(named(item));
    else if (item !== null && typeof item === 'object' && !Array.isArray(item)) out.push(...fromObject(item as Record<string, unknown>));
    else throw parsingError(`malformed sort format, within the sort array, an object, or an actual string are allowed`);
  }
  return out;
}

/** The `sort` URL parameter: `field`, `field:asc`, comma separated. */
export function parseSortParam(param: string): SortSpec[] {
  return param.split(',').filter((s) => s.trim() !== '').map((s) => {
    const i = s.lastIndexOf(':');
    return i > 0 ? named(s.slice(0, i).trim(), orderOf(s.slice(i + 1).trim())) : named(s.trim());
  });
}

/** Is the default relevance order requested (no sort, or `_score` alone)? */
export function isScoreOrder(specs: SortSpec[]): boolean {
  return specs.length === 0 || (specs.length === 1 && specs[0].kind === 'score' && specs[0].order === 'desc');
}
