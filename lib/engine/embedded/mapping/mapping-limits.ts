import { EsError } from '../../../errors/index.js';
import { fieldType, type FieldMapping, type Mappings } from './types.js';

/** The index.mapping.* limits of one index (Elasticsearch 8 defaults; each a dynamic index setting). */
export interface MappingLimits {
  totalFields: number;
  depth: number;
  nestedFields: number;
  fieldNameLength: number;
}

function setting(settings: Readonly<Record<string, unknown>>, key: string, dflt: number): number {
  const v = settings[key];
  return typeof v === 'string' && v !== '' ? Number(v) : dflt;
}

const LIMITS = new WeakMap<Readonly<Record<string, unknown>>, MappingLimits>();

/**
 * The limits of an index's settings, read once per settings object (an index's settings are
 * replaced, never changed in place): every indexed document asks for them.
 */
export function mappingLimitsOf(settings: Readonly<Record<string, unknown>>): MappingLimits {
  let limits = LIMITS.get(settings);
  if (!limits) {
    limits = {
      totalFields: setting(settings, 'index.mapping.total_fields.limit', 1000),
      depth: setting(settings, 'index.mapping.depth.limit', 20),
      nestedFields: setting(settings, 'index.mapping.nested_fields.limit', 50),
      fieldNameLength: setting(settings, 'index.mapping.field_name_length.limit', Number.MAX_SAFE_INTEGER),
    };
    LIMITS.set(settings, limits);
  }
  return limits;
}

/** Fields a mapping adds to the total: itself and its multi-fields (ES's Mapper.getTotalFieldsCount). */
export function fieldsCountOf(mapping: FieldMapping): number {
  let n = 1;
  for (const sub in mapping.fields ?? {}) n += fieldsCountOf(mapping.fields![sub]);
  return n;
}

const COUNTS = new WeakMap<Mappings, number>();

/** Mapped fields counted against index.mapping.total_fields.limit: objects, leaves, multi-fields, runtime fields. */
export function totalFieldsCount(mappings: Mappings): number {
  const known = COUNTS.get(mappings);
  if (known !== undefined) return known;
  let n = Object.keys((mappings.runtime as Record<string, unknown> | undefined) ?? {}).length;
  const pending: Array<Record<string, FieldMapping>> = mappings.properties ? [mappings.properties] : [];
  for (let props = pending.pop(); props; props = pending.pop()) {
    for (const name in props) {
      n += fieldsCountOf(props[name]);
      if (props[name].properties) pending.push(props[name].properties!);
    }
  }
  COUNTS.set(mappings, n);
  return n;
}

export function totalFieldsError(limit: number, adding = 0): EsError {
  return new EsError(400, 'illegal_argument_exception', `Limit of total fields [${limit}] has been exceeded${adding > 0 ? ` while adding new fields [${adding}]` : ''}`);
}

/** An object at `path` (its segments): ES counts the root as depth 1, so a top-level object is 2. */
export function checkObjectDepth(path: readonly string[], limits: MappingLimits): void {
  if (path.length + 1 > limits.depth) {
    throw new EsError(400, 'illegal_argument_exception', `Limit of mapping depth [${limits.depth}] has been exceeded due to object field [${path.join('.')}]`);
  }
}

/**
 * Elasticsearch's MappingLookup.checkLimits over a whole mapping (index creation, put mapping):
 * total fields, object depth, nested fields and field name length. An iterative walk, so a mapping
 * of any depth is refused before anything recurses over it.
 */
export function checkMappingLimits(mappings: Mappings, limits: MappingLimits): void {
  if (totalFieldsCount(mappings) > limits.totalFields) throw totalFieldsError(limits.totalFields);
  let nested = 0;
  const pending: Array<{ props: Record<string, FieldMapping>; path: string[] }> = mappings.properties ? [{ props: mappings.properties, path: [] }] : [];
  for (let next = pending.pop(); next; next = pending.pop()) {
    for (const name in next.props) {
      const mapping = next.props[name];
      checkNameLength(name, limits);
      for (const sub in mapping.fields ?? {}) checkNameLength(sub, limits);
      const path = [...next.path, name];
      const type = fieldType(mapping);
      if (type === 'nested' && ++nested > limits.nestedFields) {
        throw new EsError(400, 'illegal_argument_exception', `Limit of nested fields [${limits.nestedFields}] has been exceeded`);
      }
      if (type === 'object' || type === 'nested') checkObjectDepth(path, limits);
      if (mapping.properties) pending.push({ props: mapping.properties, path });
    }
  }
}

export function checkNameLength(name: string, limits: MappingLimits): void {
  if (name.length > limits.fieldNameLength) {
    throw new EsError(400, 'illegal_argument_exception', `Field name [${name}] is longer than the limit of [${limits.fieldNameLength}] characters`);
  }
}
