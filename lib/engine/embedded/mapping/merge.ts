import { EsError } from '../../../errors/index.js';
import { LEAF_TYPES, OBJECT_TYPES, fieldType, normalizeDynamic, type FieldMapping, type Mappings } from './types.js';

const ROOT_PARAMS = new Set([
  'properties', 'dynamic', '_source', '_routing', '_meta', 'date_detection', 'numeric_detection', 'dynamic_templates',
  'dynamic_date_formats', 'runtime', 'enabled', '_field_names', '_data_stream_timestamp', 'subobjects', '_size',
]);

/** Parameters a later mapping may change on an existing field (ES's updateable parameters). */
const UPDATEABLE = new Set(['fields', 'properties', 'ignore_above', 'meta', 'dynamic', 'search_analyzer', 'search_quote_analyzer', 'ignore_malformed', 'boost']);

/** Defaults, so that re-stating a default is not a change. */
const DEFAULTS: Record<string, unknown> = {
  index: true, doc_values: true, store: false, analyzer: 'standard', norms: true, coerce: true, null_value: null,
  eager_global_ordinals: false, index_options: undefined, similarity: 'BM25', enabled: true,
};

function mapperParsing(reason: string): EsError {
  return new EsError(400, 'mapper_parsing_exception', reason);
}

/** Validates a mapping definition as PUT by a client (index creation or put mapping). */
export function validateMappings(input: unknown): Mappings {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw mapperParsing('Failed to parse mapping: mapping must be an object');
  }
  const root = input as Record<string, unknown>;
  const unsupported = Object.keys(root).filter((k) => !ROOT_PARAMS.has(k));
  if (unsupported.length) {
    const list = unsupported.map((k) => `[${k} : ${typeof root[k] === 'object' ? JSON.stringify(root[k]) : String(root[k])}]`).join(' ');
    throw mapperParsing(`Failed to parse mapping: Root mapping definition has unsupported parameters:  ${list}`);
  }
  if (root.dynamic !== undefined && normalizeDynamic(root.dynamic) === undefined) {
    throw mapperParsing(`Failed to parse mapping: No enum constant for dynamic [${String(root.dynamic)}]`);
  }
  if (root.properties !== undefined) validateProperties(root.properties, '');
  return root as Mappings;
}

function validateProperties(props: unknown, prefix: string): void {
  if (props === null || typeof props !== 'object' || Array.isArray(props)) {
    throw mapperParsing(`Failed to parse mapping: Expected map for property [properties] on field [${prefix || '_doc'}] but got a class java.lang.String`);
  }
  for (const [name, def] of Object.entries(props as Record<string, unknown>)) {
    const path = prefix + name;
    if (name === '') throw mapperParsing('Failed to parse mapping: field name cannot be an empty string');
    if (def === null || typeof def !== 'object' || Array.isArray(def)) {
      throw mapperParsing(`Failed to parse mapping: Expected map for property [fields] on field [${name}] but got a class java.lang.String`);
    }
    const m = def as FieldMapping;
    const type = m.type;
    if (type !== undefined) {
      if (typeof type !== 'string' || (!LEAF_TYPES.has(type) && !OBJECT_TYPES.has(type))) {
        throw mapperParsing(`Failed to parse mapping: No handler for type [${String(type)}] declared on field [${name}]`);
      }
    }
    if (m.properties !== undefined) {
      if (type !== undefined && !OBJECT_TYPES.has(type)) {
        throw mapperParsing(`Failed to parse mapping: unknown parameter [properties] on mapper [${name}] of type [${type}]`);
      }
      validateProperties(m.properties, path + '.');
    }
    if (m.dynamic !== undefined && normalizeDynamic(m.dynamic) === undefined) {
      throw mapperParsing(`Failed to parse mapping: No enum constant for dynamic [${String(m.dynamic)}]`);
    }
    if (m.fields !== undefined) validateProperties(m.fields, path + '.');
  }
}

/**
 * Merges `update` into `existing` as ES does for put-mapping and dynamic updates: new fields are
 * added, an existing field keeps its type and non-updateable parameters (a change is a 400
 * illegal_argument_exception). Returns a new object; inputs are not modified.
 */
export function mergeMappings(existing: Mappings, update: Mappings): Mappings {
  const out: Mappings = { ...existing };
  for (const [k, v] of Object.entries(update)) {
    if (k === 'properties') continue;
    out[k] = v;
  }
  if (update.properties) out.properties = mergeProperties(existing.properties ?? {}, update.properties, '');
  return out;
}

function mergeProperties(existing: Record<string, FieldMapping>, update: Record<string, FieldMapping>, prefix: string): Record<string, FieldMapping> {
  const out: Record<string, FieldMapping> = { ...existing };
  for (const [name, next] of Object.entries(update)) {
    const prev = existing[name];
    out[name] = prev ? mergeField(prev, next, prefix + name) : next;
  }
  return out;
}

function mergeField(prev: FieldMapping, next: FieldMapping, path: string): FieldMapping {
  const prevType = fieldType(prev);
  const nextType = fieldType(next);
  const prevIsObject = OBJECT_TYPES.has(prevType);
  const nextIsObject = OBJECT_TYPES.has(nextType);
  if (prevIsObject !== nextIsObject) {
    throw new EsError(400, 'illegal_argument_exception', prevIsObject
      ? `can't merge a non object mapping [${path}] with an object mapping`
      : `can't merge a non object mapping [${path}] with an object mapping`);
  }
  if (prevType !== nextType) {
    if (prevIsObject) {
      throw new EsError(400, 'illegal_argument_exception', `can't merge a non-nested mapping [${path}] with a nested mapping`);
    }
    throw new EsError(400, 'illegal_argument_exception', `mapper [${path}] cannot be changed from type [${prevType}] to [${nextType}]`);
  }
  const conflicts: string[] = [];
  const merged: FieldMapping = { ...prev };
  for (const [k, v] of Object.entries(next)) {
    if (k === 'type' || k === 'properties' || k === 'fields') continue;
    if (UPDATEABLE.has(k)) {
      merged[k] = v;
      continue;
    }
    const before = k in prev ? prev[k] : DEFAULTS[k];
    if (JSON.stringify(before) !== JSON.stringify(v)) conflicts.push(`Cannot update parameter [${k}] from [${String(before)}] to [${String(v)}]`);
  }
  for (const k of Object.keys(prev)) {
    if (k === 'type' || k === 'properties' || k === 'fields' || UPDATEABLE.has(k) || k in next) continue;
    if (JSON.stringify(prev[k]) !== JSON.stringify(DEFAULTS[k]) && next.type !== undefined && !prevIsObject) {
      conflicts.push(`Cannot update parameter [${k}] from [${String(prev[k])}] to [${String(DEFAULTS[k] ?? 'null')}]`);
    }
  }
  if (conflicts.length) {
    throw new EsError(400, 'illegal_argument_exception', `Mapper for [${path}] conflicts with existing mapper:\n\t${conflicts.join('\n\t')}`);
  }
  if (next.properties) merged.properties = mergeProperties(prev.properties ?? {}, next.properties, path + '.');
  if (next.fields) merged.fields = mergeProperties(prev.fields ?? {}, next.fields, path + '.');
  return merged;
}
