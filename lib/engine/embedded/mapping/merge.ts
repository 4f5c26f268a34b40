import { EsError } from '../../../errors/index.js';
import { VECTOR_TYPES, normalizeVectorMapping } from './dense-vector.js';
import { mapperParsing, normalizeLeafParams } from './field-params.js';
import { LEAF_TYPES, OBJECT_TYPES, OPENSEARCH_LEAF_TYPES, fieldType, normalizeDynamic, type FieldMapping, type Mappings } from './types.js';

const ROOT_PARAMS = new Set([
  'properties', 'dynamic', '_source', '_routing', '_meta', 'date_detection', 'numeric_detection', 'dynamic_templates',
  'dynamic_date_formats', 'runtime', 'enabled', '_field_names', '_data_stream_timestamp', 'subobjects', '_size',
  // OpenSearch 2.15's derived fields: kept in the mapping (see validateDerived)
  'derived',
]);

/** The types an OpenSearch derived field may have. */
const DERIVED_TYPES = new Set(['boolean', 'date', 'geo_point', 'ip', 'keyword', 'text', 'long', 'double', 'float', 'object']);

/** Parameters a later mapping may change on an existing field (ES's updateable parameters). */
const UPDATEABLE = new Set([
  'fields', 'properties', 'ignore_above', 'meta', 'dynamic', 'search_analyzer', 'search_quote_analyzer', 'ignore_malformed', 'boost',
  'copy_to', 'coerce', 'fielddata', 'fielddata_frequency_filter', 'eager_global_ordinals', 'enabled_on_object_ignored',
]);

/** Defaults, so that re-stating a default is not a change. */
const DEFAULTS: Record<string, unknown> = {
  index: true, doc_values: true, store: false, norms: true, coerce: true, null_value: null, analyzer: 'default',
  eager_global_ordinals: false, similarity: 'BM25', enabled: true, ignore_malformed: false,
};

/** Resolves analyzer and normalizer names while validating a mapping; absent: names are not checked. */
export interface AnalysisNames {
  hasAnalyzer(name: string): boolean;
  hasNormalizer(name: string): boolean;
}

/** Whose field parameters a mapping takes where Elasticsearch 8 and OpenSearch 2 differ. */
export interface MappingDialect {
  /** OpenSearch 2's: `match_only_text` takes text's analysis and indexing parameters. */
  openSearch?: boolean;
}

/**
 * The `mappings` of a create-index or legacy-template body: Elasticsearch 8 refuses them nested
 * under the type `_doc` (RestCreateIndexAction.prepareMappings), in compatibility mode too unless
 * `include_type_name=true` unwrapped them first.
 */
export function refuseTypedIndexMappings(mappings: unknown): void {
  if (mappings !== null && typeof mappings === 'object' && !Array.isArray(mappings) && Object.keys(mappings).length === 1 && '_doc' in mappings) {
    throw new EsError(400, 'illegal_argument_exception', 'The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true.');
  }
}

/** Validates a mapping definition as PUT by a client (index creation or put mapping); returns it as ES stores it. */
export function validateMappings(input: unknown, analysis?: AnalysisNames, dialect?: MappingDialect): Mappings {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw mapperParsing('Failed to parse mapping: mapping must be an object');
  }
  let root = input as Record<string, unknown>;
  const keys = Object.keys(root);
  if (keys.length === 1 && keys[0] === '_doc' && root._doc !== null && typeof root._doc === 'object') {
    throw new EsError(400, 'illegal_argument_exception', 'Types cannot be provided in put mapping requests, unless the include_type_name parameter is set to true.');
  }
  const unsupported = keys.filter((k) => !ROOT_PARAMS.has(k));
  if (unsupported.length) {
    const list = unsupported.map((k) => `[${k} : ${typeof root[k] === 'object' ? JSON.stringify(root[k]) : String(root[k])}]`).join(' ');
    throw mapperParsing(`Failed to parse mapping: Root mapping definition has unsupported parameters:  ${list}`);
  }
  root = { ...root };
  if (root.dynamic !== undefined) {
    const d = normalizeDynamic(root.dynamic);
    if (d === undefined) throw mapperParsing(`Failed to parse mapping: No enum constant for dynamic [${String(root.dynamic)}]`);
    root.dynamic = String(d);
  }
  for (const k of ['date_detection', 'numeric_detection']) {
    if (root[k] === 'true') root[k] = true;
    else if (root[k] === 'false') root[k] = false;
    else if (root[k] !== undefined && typeof root[k] !== 'boolean') throw mapperParsing(`Failed to parse mapping: Failed to parse value [${String(root[k])}] as only [true] or [false] are allowed.`);
  }
  if (root.dynamic_date_formats !== undefined) {
    const f = root.dynamic_date_formats;
    root.dynamic_date_formats = typeof f === 'string' ? [f] : f;
    if (!Array.isArray(root.dynamic_date_formats)) throw mapperParsing('Failed to parse mapping: Dynamic date formats must be an array or a string');
  }
  if (root.dynamic_templates !== undefined) validateDynamicTemplates(root.dynamic_templates);
  if (root.derived !== undefined) validateDerived(root.derived);
  if (root.properties !== undefined) root.properties = validateProperties(root.properties, '', analysis, dialect);
  return root as Mappings;
}

/**
 * OpenSearch's derived fields (`derived: {name: {type, script, ...}}`): each an object with one of
 * the derived types and a script. The embedded engine keeps them in the mapping (a mapping read
 * answers them, a later mapping replaces one by name, `null` removes it); it does not compute
 * them: a search reads a derived field as an unmapped one.
 */
function validateDerived(derived: unknown): void {
  if (derived === null || typeof derived !== 'object' || Array.isArray(derived)) throw mapperParsing('Failed to parse mapping: [derived] must be an object');
  for (const [name, def] of Object.entries(derived as Record<string, unknown>)) {
    if (def === null) continue;
    if (typeof def !== 'object' || Array.isArray(def)) throw mapperParsing(`Failed to parse mapping: Expected map for derived field [${name}] definition but got a ${typeof def}`);
    const d = def as Record<string, unknown>;
    if (d.type === undefined) throw mapperParsing(`Failed to parse mapping: No type specified for derived field [${name}]`);
    if (!DERIVED_TYPES.has(String(d.type))) throw mapperParsing(`Failed to parse mapping: No handler for type [${String(d.type)}] declared on derived field [${name}]`);
    if (d.script === undefined || d.script === null) throw mapperParsing(`Failed to parse mapping: script is required for derived field [${name}]`);
  }
}

function validateDynamicTemplates(templates: unknown): void {
  const list = Array.isArray(templates) ? templates : [templates];
  for (const t of list) {
    if (t === null || typeof t !== 'object' || Array.isArray(t) || Object.keys(t).length !== 1) {
      throw mapperParsing('Failed to parse mapping: A dynamic template must be defined with a name');
    }
    const [name, def] = Object.entries(t as Record<string, unknown>)[0];
    if (def === null || typeof def !== 'object') throw mapperParsing(`Failed to parse mapping: dynamic template [${name}] must be an object`);
    const d = def as Record<string, unknown>;
    if (d.mapping === undefined && d.runtime === undefined) {
      throw mapperParsing(`Failed to parse mapping: template [${name}] must have either mapping or runtime set`);
    }
    const mmt = d.match_mapping_type;
    const valid = ['object', 'string', 'long', 'double', 'boolean', 'date', 'binary', '*'];
    for (const v of mmt === undefined ? [] : Array.isArray(mmt) ? mmt : [mmt]) {
      if (!valid.includes(String(v))) {
        throw mapperParsing(`Failed to parse mapping: No field type matched on [${String(v)}], possible values are [object, string, long, double, boolean, date, binary]`);
      }
    }
    if (d.match_pattern !== undefined && d.match_pattern !== 'regex' && d.match_pattern !== 'simple') {
      throw mapperParsing(`Failed to parse mapping: Illegal match_pattern [${String(d.match_pattern)}]`);
    }
  }
}

/** `{"a.b": {...}}` in a mapping is the object `a` with the field `b`. */
function expandDots(props: Record<string, unknown>): Record<string, unknown> {
  if (!Object.keys(props).some((k) => k.includes('.'))) return props;
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(props)) {
    if (!name.includes('.') || /^\.|\.$|\.\./.test(name)) {
      out[name] = def;
      continue;
    }
    const parts = name.split('.');
    let node = out;
    for (let i = 0; i < parts.length - 1; i++) {
      const existing = node[parts[i]] as FieldMapping | undefined;
      const obj: FieldMapping = existing && typeof existing === 'object' ? existing : { properties: {} };
      obj.properties ??= {};
      node[parts[i]] = obj;
      node = obj.properties as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = def;
  }
  return out;
}

function validateProperties(props: unknown, prefix: string, analysis?: AnalysisNames, dialect?: MappingDialect): Record<string, FieldMapping> {
  if (props === null || typeof props !== 'object' || Array.isArray(props)) {
    throw mapperParsing(`Failed to parse mapping: Expected map for property [properties] on field [${prefix || '_doc'}] but got a class java.lang.String`);
  }
  const out: Record<string, FieldMapping> = {};
  for (const [name, def] of Object.entries(expandDots(props as Record<string, unknown>))) {
    out[name] = validateField(name, def, prefix + name, analysis, dialect);
  }
  return out;
}

function validateField(name: string, def: unknown, path: string, analysis?: AnalysisNames, dialect?: MappingDialect): FieldMapping {
  if (name.trim() === '') {
    throw mapperParsing('Failed to parse mapping: field name cannot be an empty string', { type: 'illegal_argument_exception', reason: 'field name cannot be an empty string' });
  }
  if (def === null || typeof def !== 'object' || Array.isArray(def)) {
    throw mapperParsing(`Failed to parse mapping: Expected map for property [fields] on field [${name}] but got a class java.lang.String`);
  }
  const m = def as FieldMapping;
  const type = m.type;
  if (type !== undefined && (typeof type !== 'string' || (!LEAF_TYPES.has(type) && !OBJECT_TYPES.has(type) && !(dialect?.openSearch && OPENSEARCH_LEAF_TYPES.has(type))))) {
    throw mapperParsing(`Failed to parse mapping: No handler for type [${String(type)}] declared on field [${name}]`);
  }
  const isObject = type === undefined ? m.properties !== undefined || m.fields === undefined : OBJECT_TYPES.has(type);
  if (isObject) {
    const out: FieldMapping = {};
    for (const [k, v] of Object.entries(m)) {
      if (k === 'type') {
        if (v !== 'object') out.type = v as string;
      } else if (k === 'properties') out.properties = validateProperties(v, path + '.', analysis, dialect);
      else if (k === 'dynamic') {
        const d = normalizeDynamic(v);
        if (d === undefined) throw mapperParsing(`Failed to parse mapping: No enum constant for dynamic [${String(v)}]`);
        out.dynamic = String(d) as FieldMapping['dynamic'];
      } else if (k === 'enabled') {
        const b = v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;
        if (b === undefined) throw mapperParsing(`Failed to parse mapping: Failed to parse value [${String(v)}] as only [true] or [false] are allowed.`);
        if (!b) out.enabled = false;
      } else if (['include_in_parent', 'include_in_root', 'subobjects'].includes(k) && (type === 'nested' || k === 'subobjects')) {
        out[k] = v === 'true' ? true : v === 'false' ? false : v;
      } else if (k === 'fields') {
        throw mapperParsing(`Failed to parse mapping: unknown parameter [fields] on mapper [${name}] of type [${type ?? 'object'}]`);
      } else {
        throw mapperParsing(`Failed to parse mapping: unknown parameter [${k}] on mapper [${name}] of type [${type ?? 'object'}]`);
      }
    }
    return out;
  }
  if (m.properties !== undefined) {
    throw mapperParsing(`Failed to parse mapping: unknown parameter [properties] on mapper [${name}] of type [${type}]`);
  }
  const leafType = type ?? 'object';
  const out = VECTOR_TYPES.has(leafType) ? normalizeVectorMapping(name, leafType, m) : normalizeLeafParams(name, leafType, m, analysis ? (a) => analysis.hasAnalyzer(a) : undefined, analysis ? (n) => analysis.hasNormalizer(n) : undefined, dialect?.openSearch);
  if (m.fields !== undefined) {
    if (m.fields === null || typeof m.fields !== 'object' || Array.isArray(m.fields)) {
      throw mapperParsing(`Failed to parse mapping: Expected map for property [fields] on field [${name}] but got a class java.lang.String`);
    }
    const fields: Record<string, FieldMapping> = {};
    for (const [sub, subDef] of Object.entries(m.fields)) {
      if (sub.includes('.')) throw mapperParsing(`Failed to parse mapping: Field name [${sub}] which is a multi field of [${path}] cannot contain '.'`);
      const f = validateField(sub, subDef, `${path}.${sub}`, analysis, dialect);
      if (f.type === undefined) throw mapperParsing(`Failed to parse mapping: No type specified for field [${sub}]`);
      fields[sub] = f;
    }
    out.fields = fields;
  }
  return out;
}

/** One field definition (from a dynamic template) checked and shown as ES stores it. */
export function normalizeFieldDefinition(name: string, def: FieldMapping): FieldMapping {
  return validateField(name, def, name);
}

/**
 * Merges `update` into `existing` as ES does for put-mapping and dynamic updates: new fields are
 * added, an existing field keeps its type and non-updateable parameters (a change is a 400
 * illegal_argument_exception). Returns a new object; inputs are not modified.
 */
export function mergeMappings(existing: Mappings, update: Mappings): Mappings {
  for (const steps = mergeMappingsSteps(existing, update); ; ) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Top-level properties merged between two yields of `mergeMappingsSteps`. */
const MERGE_STEP = 256;

/** `mergeMappings`, yielding every MERGE_STEP top-level properties (a document that adds thousands of fields). */
export function* mergeMappingsSteps(existing: Mappings, update: Mappings): Generator<void, Mappings, void> {
  const out: Mappings = { ...existing };
  for (const [k, v] of Object.entries(update)) {
    if (k === 'properties') continue;
    if ((k === 'runtime' || k === 'derived') && v && typeof v === 'object') {
      // a runtime (or OpenSearch derived) field set to null is removed, as Elasticsearch removes it
      const runtime: Record<string, unknown> = { ...((existing[k] as Record<string, unknown> | undefined) ?? {}) };
      for (const [name, def] of Object.entries(v as Record<string, unknown>)) {
        if (def === null) delete runtime[name];
        else runtime[name] = def;
      }
      if (Object.keys(runtime).length) out[k] = runtime;
      else delete out[k];
      continue;
    }
    if (k === 'dynamic_templates' && Array.isArray(existing.dynamic_templates) && Array.isArray(v)) {
      // Templates with the same name are replaced, new ones appended (ES's merge).
      const merged = [...(existing.dynamic_templates as Array<Record<string, unknown>>)];
      for (const t of v as Array<Record<string, unknown>>) {
        const name = Object.keys(t)[0];
        const i = merged.findIndex((x) => Object.keys(x)[0] === name);
        if (i >= 0) merged[i] = t;
        else merged.push(t);
      }
      out.dynamic_templates = merged;
      continue;
    }
    out[k] = v;
  }
  if (update.properties) out.properties = yield* mergePropertiesSteps(existing.properties ?? {}, update.properties, '', MERGE_STEP);
  return out;
}

function mergeProperties(existing: Record<string, FieldMapping>, update: Record<string, FieldMapping>, prefix: string): Record<string, FieldMapping> {
  for (const steps = mergePropertiesSteps(existing, update, prefix, Infinity); ; ) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** The merged properties, yielding every `step` of them. */
function* mergePropertiesSteps(existing: Record<string, FieldMapping>, update: Record<string, FieldMapping>, prefix: string, step: number): Generator<void, Record<string, FieldMapping>, void> {
  const out: Record<string, FieldMapping> = { ...existing };
  let n = 0;
  for (const name in update) {
    const next = update[name];
    const prev = existing[name];
    out[name] = prev ? mergeField(prev, next, prefix + name) : next;
    if (++n % step === 0) yield;
  }
  return out;
}

function show(v: unknown): string {
  if (Array.isArray(v)) return `[${v.join(', ')}]`;
  return v === undefined ? 'null' : String(v);
}

function mergeField(prev: FieldMapping, next: FieldMapping, path: string): FieldMapping {
  const prevType = fieldType(prev);
  // An object node without a type (a dynamic update inside a nested object) keeps the existing type.
  const nextType = next.type === undefined && OBJECT_TYPES.has(prevType) ? prevType : fieldType(next);
  const prevIsObject = OBJECT_TYPES.has(prevType);
  const nextIsObject = OBJECT_TYPES.has(nextType);
  if (prevIsObject !== nextIsObject) {
    throw new EsError(400, 'illegal_argument_exception', prevIsObject
      ? `can't merge a non object mapping [${path}] with an object mapping`
      : `can't merge a non object mapping [${path}] with an object mapping`);
  }
  if (prevType !== nextType) {
    if (prevIsObject) {
      throw new EsError(400, 'illegal_argument_exception', prevType === 'nested'
        ? `can't merge a non-nested mapping [${path}] with a nested mapping`
        : `can't merge a non-nested mapping [${path}] with a nested mapping`);
    }
    throw new EsError(400, 'illegal_argument_exception', `mapper [${path}] cannot be changed from type [${prevType}] to [${nextType}]`);
  }
  const conflicts: string[] = [];
  const merged: FieldMapping = { ...prev };
  for (const [k, v] of Object.entries(next)) {
    if (k === 'type' || k === 'properties' || k === 'fields') continue;
    // a dense_vector's dims, absent, are set by its first vector (dense-vector.ts)
    if (UPDATEABLE.has(k) || (k === 'dims' && prev.dims === undefined && prevType === 'dense_vector') || (prevIsObject && (k === 'enabled' ? v === prev.enabled || (v === true && prev.enabled === undefined) : true))) {
      merged[k] = v;
      continue;
    }
    const before = k in prev ? prev[k] : DEFAULTS[k];
    if (JSON.stringify(before) !== JSON.stringify(v)) conflicts.push(`Cannot update parameter [${k}] from [${show(before)}] to [${show(v)}]`);
  }
  for (const k of Object.keys(prev)) {
    if (k === 'type' || k === 'properties' || k === 'fields' || UPDATEABLE.has(k) || k in next || prevIsObject) continue;
    if (JSON.stringify(prev[k]) !== JSON.stringify(DEFAULTS[k])) {
      conflicts.push(`Cannot update parameter [${k}] from [${show(prev[k])}] to [${show(DEFAULTS[k])}]`);
    }
  }
  // Not updateable parameters that the update omits take their default: ES refuses dropping them too.
  for (const k of ['ignore_above', 'copy_to', 'meta']) if (k in prev && !(k in next) && !prevIsObject) delete merged[k];
  if (conflicts.length) {
    throw new EsError(400, 'illegal_argument_exception', `Mapper for [${path}] conflicts with existing mapper:\n\t${conflicts.join('\n\t')}`);
  }
  if (next.properties) merged.properties = mergeProperties(prev.properties ?? {}, next.properties, path + '.');
  if (next.fields) merged.fields = mergeProperties(prev.fields ?? {}, next.fields, path + '.');
  return merged;
}
