import { EsError } from '../../../errors/index.js';
import { NUMERIC_TYPES, hasDocValues, type FieldMapping, type Mappings } from '../mapping/index.js';
import type { FlatSettings } from '../store/index.js';

/** One criterion of an index's sort (`index.sort.*`), as Elasticsearch's IndexSortConfig holds it. */
export interface IndexSortField {
  field: string;
  order: 'asc' | 'desc';
  mode: 'min' | 'max';
  missing: '_first' | '_last';
}

const SORT_KEYS = ['index.sort.field', 'index.sort.order', 'index.sort.mode', 'index.sort.missing'] as const;

/** Types whose doc values Lucene can sort an index by (SortedSet or SortedNumeric fields: ALLOWED_INDEX_SORT_TYPES). */
const SORTABLE_TYPES = new Set([...NUMERIC_TYPES, 'date', 'date_nanos', 'keyword', 'boolean', 'ip', 'constant_keyword', 'version']);

/** Types without doc values to sort by (ES: `docvalues not found`). */
const NO_DOC_VALUES_TYPES = new Set(['text', 'match_only_text', 'search_as_you_type', 'annotated_text', 'completion', 'object', 'nested', 'flattened', 'binary']);

function illegal(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

/** A list setting as Elasticsearch reads it: an array, or a comma-separated string. */
function listOf(v: string | string[] | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v.map(String);
  return v.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

function checkSize(fields: string[], key: string, values: string[] | undefined): void {
  if (values && values.length !== fields.length) {
    throw illegal(`index.sort.field:[${fields.join(', ')}] ${key}:[${values.join(', ')}], size mismatch`);
  }
}

/**
 * The index sort the settings define; undefined when none (the common case: a key lookup). Throws
 * Elasticsearch's errors for a malformed definition: a setting without `index.sort.field`, lists of
 * different lengths, an unknown order, mode or missing value.
 */
export function indexSortOf(settings: Readonly<FlatSettings>): IndexSortField[] | undefined {
  const fields = listOf(settings['index.sort.field']);
  if (fields === undefined) {
    for (const key of SORT_KEYS) {
      if (settings[key] !== undefined) throw illegal(`setting [${key}] requires [index.sort.field] to be configured`);
    }
    return undefined;
  }
  const orders = listOf(settings['index.sort.order']);
  checkSize(fields, 'index.sort.order', orders);
  const modes = listOf(settings['index.sort.mode']);
  checkSize(fields, 'index.sort.mode', modes);
  const missing = listOf(settings['index.sort.missing']);
  checkSize(fields, 'index.sort.missing', missing);
  if (!fields.length) return undefined;
  return fields.map((field, i) => {
    const o = orders?.[i]?.toLowerCase() ?? 'asc';
    if (o !== 'asc' && o !== 'desc') throw illegal(`Illegal sort order:${orders![i]}`);
    const m = modes?.[i]?.toLowerCase() ?? (o === 'desc' ? 'max' : 'min');
    if (m !== 'min' && m !== 'max') throw illegal(`Illegal index sort mode:[${m.toUpperCase()}], must be one of [MAX, MIN]`);
    const miss = missing?.[i] ?? '_last';
    if (miss !== '_last' && miss !== '_first') throw illegal(`Illegal missing value:[${miss}], must be one of [_last, _first]`);
    return { field, order: o, mode: m, missing: miss };
  });
}

/** The mapping at a dotted path, and the nested object it lies under (the outermost), if any. */
function lookup(mappings: Mappings, path: string): { mapping?: FieldMapping; nested?: string } {
  const parts = path.split('.');
  let props = mappings.properties;
  let current: FieldMapping | undefined;
  let nested: string | undefined;
  for (let i = 0; i < parts.length; i++) {
    current = props?.[parts[i]] ?? current?.fields?.[parts[i]];
    if (!current) return { nested };
    if (current.type === 'nested' && i < parts.length - 1) nested ??= parts.slice(0, i + 1).join('.');
    props = current.properties;
  }
  return { mapping: current, nested };
}

/**
 * Validates an index's sort against its mappings at creation, as Elasticsearch does (MapperService
 * and IndexSortConfig.buildIndexSort): no sort field under a nested object, every field mapped (not
 * an alias), with doc values, of a type Lucene sorts an index by.
 */
export function validateIndexSort(settings: Readonly<FlatSettings>, mappings: Mappings): void {
  const sort = indexSortOf(settings);
  if (!sort) return;
  for (const { field } of sort) {
    const { mapping, nested } = lookup(mappings, field);
    if (nested) throw illegal(`cannot apply index sort to field [${field}] under nested object [${nested}]`);
    if (!mapping) throw illegal(`unknown index sort field:[${field}]`);
    const type = typeof mapping.type === 'string' ? mapping.type : 'object';
    if (type === 'alias') throw illegal(`Cannot use alias [${field}] as an index sort field`);
    if (NO_DOC_VALUES_TYPES.has(type) || !hasDocValues(mapping)) throw illegal(`docvalues not found for index sort field:[${field}]`);
    if (!SORTABLE_TYPES.has(type)) throw illegal(`invalid index sort field:[${field}]`);
  }
}
