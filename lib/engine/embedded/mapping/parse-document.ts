import { EsError } from '../../../errors/index.js';
import type { AnalysisRegistry } from '../analysis/index.js';
import { dynamicMappingFor, type DynamicOptions } from './dynamic.js';
import { mergeMappings } from './merge.js';
import { OBJECT_TYPES, fieldType, normalizeDynamic, type DynamicSetting, type FieldMapping, type Mappings } from './types.js';
import { toIndexedValue } from './field-values.js';
import { documentParsingError } from './errors.js';

/** Gap between the positions of two values of one array, as ES's position_increment_gap (100). */
const POSITION_INCREMENT_GAP = 100;

const METADATA_FIELDS = new Set(['_id', '_index', '_source', '_routing', '_version', '_seq_no', '_primary_term', '_field_names', '_ignored', '_doc_count', '_tier', '_data_stream_timestamp', '_nested_path', '_type']);

/**
 * One field of one document as the index sees it: the terms to put in the inverted index (with
 * positions, for text) and the typed values for doc values (sorting, aggregations, ranges).
 */
export interface IndexableField {
  type: string;
  terms: string[];
  positions: number[];
  values: Array<string | number | boolean>;
}

export interface ParsedDocument {
  /** Keyed by full field path ("user.name", "title.raw"). */
  fields: Map<string, IndexableField>;
  /** The index's mappings after this document, when it introduced new fields; undefined otherwise. */
  mappings?: Mappings;
}


function preview(value: unknown): string {
  if (value !== null && typeof value === 'object') {
    return '{' + Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', ') + '}';
  }
  return String(value);
}

interface NewField {
  path: string[];
  mapping: FieldMapping;
}

class DocumentParser {
  readonly fields = new Map<string, IndexableField>();
  readonly newFields = new Map<string, NewField>();
  private readonly dynamicOpts: DynamicOptions;

  constructor(
    private readonly mappings: Mappings,
    private readonly registry: AnalysisRegistry,
    private readonly id: string,
  ) {
    this.dynamicOpts = {
      dateDetection: mappings.date_detection !== false,
      numericDetection: mappings.numeric_detection === true,
    };
  }

  parseRoot(source: Record<string, unknown>): void {
    for (const key of Object.keys(source)) {
      if (METADATA_FIELDS.has(key)) {
        throw documentParsingError(`Field [${key}] is a metadata field and cannot be added inside a document. Use the index API request parameters.`);
      }
    }
    this.parseObject(source, this.mappings.properties, [], normalizeDynamic(this.mappings.dynamic) ?? true);
  }

  private lookup(existing: Record<string, FieldMapping> | undefined, path: string[]): FieldMapping | undefined {
    const key = path[path.length - 1];
    return existing?.[key] ?? this.newFields.get(path.join('.'))?.mapping;
  }

  private parseObject(obj: Record<string, unknown>, existing: Record<string, FieldMapping> | undefined, path: string[], dynamic: DynamicSetting): void {
    for (const [rawKey, value] of Object.entries(obj)) {
      if (rawKey.trim() === '') {
        throw documentParsingError(`Field name cannot contain only whitespace: [${[...path, rawKey].join('.')}]`);
      }
      if (rawKey.includes('.')) {
        // "a.b": v is the object a: { b: v } (subobjects: true).
        const parts = rawKey.split('.');
        if (parts.some((p) => p === '')) {
          throw documentParsingError(`field name cannot contain only dots: [${rawKey}]`);
        }
        let nested: unknown = value;
        for (let i = parts.length - 1; i > 0; i--) nested = { [parts[i]]: nested };
        this.parseField(parts[0], nested, existing, path, dynamic);
      } else {
        this.parseField(rawKey, value, existing, path, dynamic);
      }
    }
  }

  private parseField(key: string, value: unknown, existing: Record<string, FieldMapping> | undefined, parentPath: string[], dynamic: DynamicSetting): void {
    const path = [...parentPath, key];
    let mapping = this.lookup(existing, path);
    if (!mapping) {
      if (value === null || value === undefined) return;
      if (dynamic === false || dynamic === 'runtime') return;
      if (dynamic === 'strict') {
        throw new EsError(400, 'strict_dynamic_mapping_exception',
          `mapping set to strict, dynamic introduction of [${key}] within [${parentPath.length ? parentPath.join('.') : '_doc'}] is not allowed`);
      }
      mapping = dynamicMappingFor(value, this.dynamicOpts);
      if (!mapping) return;
      this.newFields.set(path.join('.'), { path, mapping });
    }
    this.parseValue(value, mapping, path, dynamic);
  }

  private parseValue(value: unknown, mapping: FieldMapping, path: string[], dynamic: DynamicSetting): void {
    if (Array.isArray(value)) {
      for (const v of value) this.parseValue(v, mapping, path, dynamic);
      return;
    }
    const type = fieldType(mapping);
    if (OBJECT_TYPES.has(type)) {
      if (value === null || value === undefined) return;
      if (mapping.enabled === false) return;
      if (typeof value !== 'object') {
        const p = path.join('.');
        throw documentParsingError(`object mapping for [${p}] tried to parse field [${path[path.length - 1]}] as object, but found a concrete value`);
      }
      const childDynamic = normalizeDynamic(mapping.dynamic) ?? dynamic;
      this.parseObject(value as Record<string, unknown>, mapping.properties, path, childDynamic);
      return;
    }
    this.addLeaf(path.join('.'), mapping, value);
  }

  private addLeaf(fullPath: string, mapping: FieldMapping, rawValue: unknown): void {
    const type = fieldType(mapping);
    let value = rawValue;
    if (value === null || value === undefined) {
      if (mapping.null_value === undefined || mapping.null_value === null) return;
      value = mapping.null_value;
    }
    if (typeof value === 'object') {
      throw documentParsingError(
        `failed to parse field [${fullPath}] of type [${type}] in document with id '${this.id}'. Preview of field's value: '${preview(value)}'`,
        { type: 'illegal_state_exception', reason: `Can't get text on a START_OBJECT` },
      );
    }
    const indexed = toIndexedValue(value, mapping, fullPath, this.id, this.registry);
    if (indexed) {
      let field = this.fields.get(fullPath);
      if (!field) {
        field = { type, terms: [], positions: [], values: [] };
        this.fields.set(fullPath, field);
      }
      const base = field.positions.length ? field.positions[field.positions.length - 1] + POSITION_INCREMENT_GAP : 0;
      for (let i = 0; i < indexed.terms.length; i++) {
        field.terms.push(indexed.terms[i]);
        field.positions.push(base + (indexed.positions?.[i] ?? 0));
      }
      if (indexed.value !== undefined) field.values.push(indexed.value);
    }
    if (mapping.fields) {
      for (const [sub, subMapping] of Object.entries(mapping.fields)) this.addLeaf(`${fullPath}.${sub}`, subMapping, rawValue);
    }
  }

  mappingUpdate(): Mappings | undefined {
    if (this.newFields.size === 0) return undefined;
    const root: Mappings = { properties: {} };
    const entries = [...this.newFields.values()].sort((a, b) => a.path.length - b.path.length);
    for (const { path, mapping } of entries) {
      let props = root.properties!;
      for (let i = 0; i < path.length - 1; i++) {
        const seg = path[i];
        if (!props[seg]) props[seg] = { properties: {} };
        props = props[seg].properties ??= {};
      }
      const leaf = path[path.length - 1];
      props[leaf] = props[leaf] ? { ...mapping, properties: { ...(mapping.properties ?? {}), ...(props[leaf].properties ?? {}) } } : structuredClone(mapping);
    }
    return root;
  }
}

/**
 * Parses one document under an index's mappings: the fields to index and, with dynamic mapping,
 * the mappings grown by the fields it introduced. Throws ES's 400 errors for values that do not
 * fit their type and for fields a strict mapping refuses.
 */
export function parseDocument(source: Record<string, unknown>, mappings: Mappings, registry: AnalysisRegistry, id: string): ParsedDocument {
  const parser = new DocumentParser(mappings, registry, id);
  parser.parseRoot(source);
  const update = parser.mappingUpdate();
  return { fields: parser.fields, mappings: update ? mergeMappings(mappings, update) : undefined };
}

/** The mapping of a field path ("user.name", "title.raw"), looking through objects and multi-fields. */
export function resolveFieldMapping(mappings: Mappings, path: string): FieldMapping | undefined {
  const parts = path.split('.');
  let props = mappings.properties;
  let current: FieldMapping | undefined;
  for (let i = 0; i < parts.length; i++) {
    // Try the longest dotted key first is unnecessary: ES stores objects, never dotted names.
    current = props?.[parts[i]] ?? current?.fields?.[parts[i]];
    if (!current) return undefined;
    props = current.properties;
  }
  return current;
}
