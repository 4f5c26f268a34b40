import { isRangeType, rangeField } from './range-field.js';
import { VECTOR_TYPES, parseVector } from './dense-vector.js';
import { EsError } from '../../../errors/index.js';
import type { AnalysisRegistry, Analyzer } from '../analysis/index.js';
import { dynamicMappingFor, type DynamicOptions } from './dynamic.js';
import { matchDynamicTemplate, type DynamicType } from './dynamic-templates.js';
import { mergeMappings, mergeMappingsSteps, normalizeFieldDefinition } from './merge.js';
import { OBJECT_TYPES, UNMAPPED_LOOKUP, fieldType, normalizeDynamic, type DynamicSetting, type FieldMapping, type Mappings } from './types.js';
import { analyzedValue, indexAnalyzerName, toIndexedValue, type IndexedValue } from './field-values.js';
import { checkCompletionContexts } from '../search/suggest/contexts.js';
import { documentParsingError } from './errors.js';
import { checkDataStreamTimestamp } from './data-stream-timestamp.js';
import { checkNameLength, checkObjectDepth, fieldsCountOf, totalFieldsCount, type MappingLimits } from './mapping-limits.js';
import { geoShapeField } from './geo-shape.js';
import { geoPointField, xyPointValues } from './geo-point.js';
import { rankFeatureField, rankFeaturesFields } from './rank-feature.js';
import type { EpochTime } from './instant.js';
import { joinFieldValues } from './join-field.js';
import { percolatorField } from './percolator-field.js';

/** Gap between the positions of two values of one array, as ES's position_increment_gap (100). */
const POSITION_INCREMENT_GAP = 100;

/** Field types whose values go through their index analyzer. */
const ANALYZED_TYPES = new Set(['text', 'match_only_text', 'search_as_you_type']);
/** A top-level text value at least this long is analysed ahead of its parse, a stretch at a time (parseDocumentSteps). */
const ANALYZE_AHEAD_CHARS = 64;
/** New fields put in a document's mapping update between two yields (parseDocumentSteps). */
const MAPPING_UPDATE_STEP = 256;

const METADATA_FIELDS = new Set(['_id', '_index', '_source', '_routing', '_version', '_seq_no', '_primary_term', '_field_names', '_ignored', '_doc_count', '_tier', '_data_stream_timestamp', '_nested_path', '_type']);

/**
 * One field of one document as the index sees it: the terms to put in the inverted index (with
 * positions, for text) and the typed values for doc values (sorting, aggregations, ranges).
 */
export interface IndexableField {
  type: string;
  terms: string[];
  positions: number[];
  /** Doc values; date_nanos values are epoch nanoseconds (BigInt). */
  values: Array<string | EpochTime | boolean>;
  /** A dense_vector (knn_vector) field's vector (mapping/dense-vector.ts). */
  vector?: Float32Array;
}

export interface ParsedDocument {
  /** Keyed by full field path ("user.name", "title.raw"). */
  fields: Map<string, IndexableField>;
  /** The index's mappings after this document, when it introduced new fields; undefined otherwise. */
  mappings?: Mappings;
  /** Objects of `nested` fields, each a document of its own (Lucene's block-join children). */
  nested?: Array<{ path: string; doc: ParsedDocument }>;
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

/**
 * The `_doc_count` metadata field: a document written with one stands for that many documents in
 * bucket aggregations' counts (pre-aggregated data, as ES's DocCountFieldMapper). Kept as doc
 * values only; a document without it counts as one.
 */
export const DOC_COUNT_FIELD = '_doc_count';

function docCountOf(value: unknown): number {
  if (typeof value !== 'number') {
    const token = value === null ? 'VALUE_NULL' : Array.isArray(value) ? 'START_ARRAY' : typeof value === 'object' ? 'START_OBJECT'
      : typeof value === 'boolean' ? 'VALUE_BOOLEAN' : 'VALUE_STRING';
    throw documentParsingError(`Failed to parse object: expecting token of type [VALUE_NUMBER] but found [${token}]`);
  }
  if (!Number.isInteger(value) || value <= 0) throw documentParsingError(`Field [_doc_count] must be a positive integer. Value [${value}] is not allowed.`);
  return value;
}

/** Field name of the metadata field listing fields whose values were left out of the index. */
export const IGNORED_FIELD = '_ignored';
/** The `_routing` metadata field: indexed (a keyword) for documents written with a routing. */
export const ROUTING_FIELD = '_routing';
const ROUTING_MAPPING: FieldMapping = { type: 'keyword' };

/** The document's routing as its `_routing` field, so that term, terms and exists queries find it. */
export function withRouting(doc: ParsedDocument, routing: string | undefined): ParsedDocument {
  if (routing !== undefined) doc.fields.set(ROUTING_FIELD, { type: 'keyword', terms: [routing], positions: [0], values: [routing] });
  return doc;
}
const IGNORED_MAPPING: FieldMapping = { type: 'keyword' };

function dynamicTypeOf(mapping: FieldMapping, value: unknown): DynamicType {
  const t = mapping.type;
  if (t === undefined || t === 'object') return 'object';
  if (t === 'date') return 'date';
  if (t === 'boolean') return 'boolean';
  if (t === 'long') return 'long';
  if (t === 'float') return 'double';
  void value;
  return 'string';
}

/** The index's mapping limits and the fields a document has added so far, shared with its nested parsers. */
interface FieldBudget {
  limits: MappingLimits;
  existing: number;
  added: number;
}

class DocumentParser {
  readonly fields = new Map<string, IndexableField>();
  readonly nested: Array<{ path: string; doc: ParsedDocument }> = [];
  /** Fields this document introduces (most documents none: an empty map shared until the first). */
  newFields: ReadonlyMap<string, NewField> = NONE_NEW;
  newRuntime: ReadonlyMap<string, FieldMapping> = NONE_RUNTIME;
  private readonly ignored: string[] = [];
  private readonly dynamicOpts: DynamicOptions;
  private readonly templates: unknown;

  constructor(
    private readonly mappings: Mappings,
    private readonly registry: AnalysisRegistry,
    private readonly id: string,
    private readonly budget?: FieldBudget,
    /** The bulk item's `dynamic_templates`: a field path → the name of the template it gets. */
    private readonly namedTemplates?: Readonly<Record<string, string>>,
  ) {
    this.dynamicOpts = {
      dateDetection: mappings.date_detection !== false,
      numericDetection: mappings.numeric_detection === true,
      dynamicDateFormats: Array.isArray(mappings.dynamic_date_formats) ? (mappings.dynamic_date_formats as string[]) : undefined,
    };
    this.templates = mappings.dynamic_templates;
  }

  parseRoot(source: Record<string, unknown>): void {
    this.checkMetadataFields(source);
    this.parseObject(source, this.mappings.properties, [], normalizeDynamic(this.mappings.dynamic) ?? true);
    this.endRoot();
  }

  /**
   * `parseRoot`, yielding after each of the document's top-level fields, and inside the analysis
   * of a top-level text value whose analyzer can yield (see Analyzer.indexTermsSteps), so that the
   * caller can give the event loop a turn. The fields and mapping update are `parseRoot`'s.
   */
  *parseRootSteps(source: Record<string, unknown>): Generator<void, void, void> {
    this.checkMetadataFields(source);
    const existing = this.mappings.properties;
    const dynamic = normalizeDynamic(this.mappings.dynamic) ?? true;
    for (const rawKey in source) {
      const value = source[rawKey];
      yield* this.analyzeAhead(existing?.[rawKey], value);
      this.parseMember(rawKey, value, existing, [], dynamic);
      this.ahead = undefined; // for this member only (its arrays become a field's own)
      yield;
    }
    this.endRoot();
  }

  /**
   * A value analysed ahead of its parse, a stretch at a time: the next analysis of that very
   * string by that analyzer takes it (once) instead of analysing it again in one go.
   */
  private ahead: { value: string; analyzer: Analyzer; terms: IndexedValue } | undefined;

  private *analyzeAhead(mapping: FieldMapping | undefined, value: unknown): Generator<void, void, void> {
    if (!mapping || typeof value !== 'string' || value.length < ANALYZE_AHEAD_CHARS || !ANALYZED_TYPES.has(fieldType(mapping))) return;
    const analyzer = this.registry.analyzer(indexAnalyzerName(mapping, this.registry));
    if (!analyzer.indexTermsSteps) return;
    const terms = yield* analyzer.indexTermsSteps(value);
    this.ahead = { value, analyzer, terms };
  }

  /** A text value's terms: analysed ahead, or now. */
  private analyzed(analyzer: Analyzer, value: unknown): IndexedValue {
    const ahead = this.ahead;
    if (ahead && ahead.value === value && ahead.analyzer === analyzer) {
      this.ahead = undefined;
      return ahead.terms;
    }
    return analyzedValue(analyzer, value);
  }

  private checkMetadataFields(source: Record<string, unknown>): void {
    for (const key in source) {
      if (key === DOC_COUNT_FIELD) {
        this.fields.set(DOC_COUNT_FIELD, { type: 'long', terms: [], positions: [], values: [docCountOf(source[key])] });
        continue;
      }
      if (METADATA_FIELDS.has(key)) {
        throw documentParsingError(`Field [${key}] is a metadata field and cannot be added inside a document. Use the index API request parameters.`);
      }
    }
  }

  private endRoot(): void {
    if (this.ignored.length) {
      const names = [...new Set(this.ignored)].sort();
      this.fields.set(IGNORED_FIELD, { type: 'keyword', terms: names, positions: names.map(() => 0), values: names });
    }
  }

  private parseObject(obj: Record<string, unknown>, existing: Record<string, FieldMapping> | undefined, path: string[], dynamic: DynamicSetting): void {
    for (const rawKey in obj) this.parseMember(rawKey, obj[rawKey], existing, path, dynamic);
  }

  /** One member of an object, its name as written (a dotted name is a path of objects). */
  private parseMember(rawKey: string, value: unknown, existing: Record<string, FieldMapping> | undefined, path: string[], dynamic: DynamicSetting): void {
    if (path.length === 0 && rawKey === DOC_COUNT_FIELD) return; // read by checkMetadataFields
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

  /** Whether a dynamic template maps this new field (what OpenSearch's `strict_allow_templates` lets in). */
  private templateMaps(key: string, path: string[], value: unknown): boolean {
    const detected = dynamicMappingFor(value, this.dynamicOpts);
    if (detected === undefined) return false;
    const full = path.join('.');
    return matchDynamicTemplate(this.templates, key, full, dynamicTypeOf(detected, value), this.namedTemplates?.[full]) !== undefined;
  }

  /** The mapping a new field gets: a dynamic template's, else ES's dynamic mapping (gateway convention for strings). */
  private dynamicMapping(key: string, path: string[], value: unknown, runtime: boolean): { mapping: FieldMapping; runtime: boolean } | undefined {
    const detected = dynamicMappingFor(value, this.dynamicOpts);
    if (!detected) return undefined;
    const type = dynamicTypeOf(detected, value);
    const full = path.join('.');
    const template = matchDynamicTemplate(this.templates, key, full, type, this.namedTemplates?.[full]);
    if (template) return { mapping: normalizeFieldDefinition(key, template.mapping), runtime: template.runtime };
    if (runtime && type !== 'object') {
      const runtimeType = type === 'string' ? 'keyword' : type === 'double' ? 'double' : type;
      return { mapping: detected.format ? { type: runtimeType, format: detected.format } : { type: runtimeType }, runtime: true };
    }
    return { mapping: detected, runtime: false };
  }

  private parseField(key: string, value: unknown, existing: Record<string, FieldMapping> | undefined, parentPath: string[], dynamic: DynamicSetting): void {
    // The common cases (a mapped field; an unmapped one that `dynamic: false` leaves out) without building its path.
    let mapping = existing?.[key] ?? (this.newFields.size ? this.newFields.get(parentPath.length ? `${parentPath.join('.')}.${key}` : key)?.mapping : undefined);
    if (!mapping && (value === null || value === undefined || dynamic === false)) return;
    if (mapping) {
      // A leaf field already planned at this path (plans are only made for leaves).
      const plan = PLANS.get(mapping);
      if (plan !== undefined && plan.fieldsRef === mapping.fields && isPathOf(plan.path!, parentPath, key)) return this.parseLeafValue(value, plan);
    }
    const path = [...parentPath, key];
    if (!mapping) {
      if (dynamic === 'strict' || (dynamic === 'strict_allow_templates' && !this.templateMaps(key, path, value))) {
        throw new EsError(400, 'strict_dynamic_mapping_exception',
          `mapping set to ${dynamic}, dynamic introduction of [${key}] within [${parentPath.length ? parentPath.join('.') : '_doc'}] is not allowed`);
      }
      const full = path.join('.');
      if (this.newRuntime.has(full) || (this.mappings.runtime as Record<string, unknown> | undefined)?.[full]) return;
      const found = this.dynamicMapping(key, path, value, dynamic === 'runtime');
      if (!found) return;
      if (found.runtime) {
        this.addNewRuntime(full, found.mapping);
        return;
      }
      mapping = found.mapping;
      this.spendOn(path, mapping);
      this.addNewField(full, { path, mapping });
    }
    this.parseValue(value, mapping, path, dynamic);
  }

  private parseValue(value: unknown, mapping: FieldMapping, path: string[], dynamic: DynamicSetting): void {
    if (mapping.type === 'geo_point') return this.addGeoPoint(path.join('.'), mapping, value);
    if (mapping.type === 'geo_shape' || mapping.type === 'xy_shape') return this.addGeoShape(path.join('.'), mapping, value);
    if (mapping.type === 'xy_point') return this.addXyPoint(path.join('.'), mapping, value);
    if (mapping.type === 'rank_feature' || mapping.type === 'rank_features') return this.addRankFeatures(path.join('.'), mapping, value);
    if (VECTOR_TYPES.has(mapping.type!)) return this.addVector(path, mapping, value);
    if (mapping.type === 'join') return this.addJoin(path.join('.'), mapping, value);
    if (mapping.type === 'percolator') return this.addPercolator(path.join('.'), value);
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
      if (type === 'nested') return this.parseNested(value as Record<string, unknown>, mapping, path, childDynamic);
      this.parseObject(value as Record<string, unknown>, mapping.properties, path, childDynamic);
      return;
    }
    this.addPlanned(planFor(mapping, path), value, true);
  }

  /** `parseValue` for a leaf field whose plan is known. */
  private parseLeafValue(value: unknown, plan: LeafPlan): void {
    if (Array.isArray(value)) {
      for (const v of value) this.parseLeafValue(v, plan);
      return;
    }
    this.addPlanned(plan, value, true);
  }

  private addLeaf(fullPath: string, mapping: FieldMapping, rawValue: unknown, followCopyTo: boolean): void {
    this.addPlanned(makePlan(mapping, fullPath, undefined), rawValue, followCopyTo);
  }

  private addPlanned(plan: LeafPlan, rawValue: unknown, followCopyTo: boolean): void {
    const { mapping, full: fullPath, type } = plan;
    let value = rawValue;
    if (value === null || value === undefined) {
      if (mapping.null_value === undefined || mapping.null_value === null) return;
      value = mapping.null_value;
    }
    if (isRangeType(type)) {
      const field = rangeField(value, mapping, fullPath, this.id, this.fields.get(fullPath));
      if (field) this.fields.set(fullPath, field);
      return;
    }
    if (type === 'completion' && typeof value === 'object' && !Array.isArray(value)) {
      // A completion entry ({input, weight, contexts}): its inputs are indexed; the suggester reads weight and contexts from _source.
      const input = (value as Record<string, unknown>).input;
      for (const v of Array.isArray(input) ? input : [input]) if (v !== undefined && v !== null) this.addPlanned(plan, v, followCopyTo);
      return;
    }
    if (typeof value === 'object') {
      throw documentParsingError(
        `failed to parse field [${fullPath}] of type [${type}] in document with id '${this.id}'. Preview of field's value: '${preview(value)}'`,
        { type: 'illegal_state_exception', reason: `Can't get text on a START_OBJECT` },
      );
    }
    const indexed = plan.analyzed ? this.analyzed(this.analyzerOf(plan), value) : toIndexedValue(value, mapping, fullPath, this.id, this.registry);
    if (indexed?.ignored) this.ignored.push(fullPath);
    else if (indexed) {
      const field = this.fields.get(fullPath);
      if (!field) {
        // The first value of the field in this document: its arrays are the value's own (fresh) arrays.
        let terms: string[] = NO_STRINGS;
        let positions: number[] = NO_NUMBERS;
        if (plan.indexed) {
          terms = indexed.terms;
          if (indexed.positions) positions = indexed.positions;
          else {
            positions = new Array<number>(terms.length);
            for (let i = 0; i < terms.length; i++) positions[i] = 0;
          }
        }
        let values: Array<string | EpochTime | boolean> = NO_VALUES;
        if (plan.docValues) {
          if (indexed.value !== undefined) values = [indexed.value];
          else if (plan.fielddata) values = indexed.terms.slice();
        }
        this.fields.set(fullPath, {
          type,
          terms: terms === NO_STRINGS ? [] : terms,
          positions: positions === NO_NUMBERS ? [] : positions,
          values: values === NO_VALUES ? [] : values,
        });
      } else {
        if (plan.indexed) {
          const base = field.positions.length ? field.positions[field.positions.length - 1] + plan.gap : 0;
          for (let i = 0; i < indexed.terms.length; i++) {
            field.terms.push(indexed.terms[i]);
            field.positions.push(base + (indexed.positions?.[i] ?? 0));
          }
        }
        if (plan.docValues) {
          if (indexed.value !== undefined) field.values.push(indexed.value);
          else if (plan.fielddata) for (const t of indexed.terms) field.values.push(t);
        }
      }
    }
    const subs = plan.subs;
    if (subs) for (let i = 0; i < subs.length; i++) this.addPlanned(subs[i], rawValue, false);
    if (followCopyTo && mapping.copy_to !== undefined) {
      const targets = Array.isArray(mapping.copy_to) ? (mapping.copy_to as string[]) : [String(mapping.copy_to)];
      for (const target of targets) this.copyTo(target, value);
    }
  }

  /** The index analyzer of a text field's plan, kept on the plan for the registry it was resolved in. */
  private analyzerOf(plan: LeafPlan): Analyzer {
    if (plan.analyzerRegistry !== this.registry || !plan.analyzer) {
      plan.analyzer = this.registry.analyzer(indexAnalyzerName(plan.mapping, this.registry));
      plan.analyzerRegistry = this.registry;
    }
    return plan.analyzer;
  }

  /** One object of a nested field: parsed as a document of its own (its fields keep their full paths). */
  private parseNested(value: Record<string, unknown>, mapping: FieldMapping, path: string[], dynamic: DynamicSetting): void {
    const child = new DocumentParser(this.mappings, this.registry, this.id, this.budget);
    for (const [k, v] of this.newFields) child.addNewField(k, v);
    child.parseObject(value, mapping.properties, path, dynamic);
    for (const [k, v] of child.newFields) this.addNewField(k, v);
    this.nested.push({ path: path.join('.'), doc: { fields: child.fields, nested: child.nested.length ? child.nested : undefined } });
  }

  /** A join field's relation name and joining id, each a keyword (join-field.ts). */
  private addPercolator(fullPath: string, value: unknown): void {
    if (value === null || value === undefined) return;
    if (this.fields.has(fullPath)) throw documentParsingError(`a document can only contain one percolator query`);
    this.fields.set(fullPath, percolatorField(fullPath, value, this.id, this.mappings, this.registry, preview));
  }

  private addJoin(fullPath: string, mapping: FieldMapping, value: unknown): void {
    if (value === null || value === undefined) return;
    for (const [name, v] of joinFieldValues(fullPath, mapping, value, this.id)) {
      this.fields.set(name, { type: 'keyword', terms: [v], positions: [0], values: [v] });
    }
  }

  private addGeoPoint(fullPath: string, mapping: FieldMapping, value: unknown): void {
    if (value === null || value === undefined) return;
    let field;
    try {
      field = geoPointField(value, fullPath, this.id, mapping.ignore_malformed === true);
    } catch {
      throw documentParsingError(`failed to parse field [${fullPath}] of type [geo_point] in document with id '${this.id}'. Preview of field's value: '${preview(value)}'`);
    }
    if (field) this.fields.set(fullPath, field);
  }

  /**
   * A geo_shape value (or list of them): validated, its points kept as doc values (mapping/geo-shape.ts).
   * OpenSearch's xy_shape is kept alike, x and y in longitude's and latitude's places.
   */
  private addGeoShape(fullPath: string, mapping: FieldMapping, value: unknown): void {
    if (value === null || value === undefined) return;
    try {
      this.fields.set(fullPath, { ...geoShapeField(value), type: fieldType(mapping) });
    } catch (e) {
      if (mapping.ignore_malformed === true) {
        this.ignored.push(fullPath);
        return;
      }
      throw documentParsingError(`failed to parse field [${fullPath}] of type [${fieldType(mapping)}]`, { type: 'parse_exception', reason: e instanceof Error ? e.message : String(e) });
    }
  }

  /** An OpenSearch xy_point value (or list of them): Cartesian points, kept as geo_point keeps its (y where latitude is). */
  private addXyPoint(fullPath: string, mapping: FieldMapping, value: unknown): void {
    if (value === null || value === undefined) return;
    const values = xyPointValues(value);
    if (!values) {
      if (mapping.ignore_malformed === true) {
        this.ignored.push(fullPath);
        return;
      }
      throw documentParsingError(`failed to parse field [${fullPath}] of type [xy_point]`);
    }
    this.fields.set(fullPath, { type: 'xy_point', terms: [], positions: [], values });
  }

  /** A dense_vector (knn_vector) value: its vector (mapping/dense-vector.ts); the first one sets absent `dims`. */
  private addVector(path: string[], mapping: FieldMapping, value: unknown): void {
    if (value === null || value === undefined) return;
    const fullPath = path.join('.');
    const known = mapping.type === 'dense_vector' && mapping.dims === undefined ? this.newFields.get(fullPath)?.mapping : undefined;
    const effective = known ?? mapping;
    if (this.fields.has(fullPath)) {
      throw documentParsingError(`Field [${fullPath}] of type [${mapping.type}] doesn't support indexing multiple values for the same field in the same document`);
    }
    const vector = parseVector(value, effective, fullPath, this.id);
    if (effective.type === 'dense_vector' && effective.dims === undefined) this.addNewField(fullPath, { path, mapping: { ...effective, dims: vector.length } });
    this.fields.set(fullPath, { type: mapping.type!, terms: [], positions: [], values: [], vector });
  }

  /** A rank_feature value, or each feature of a rank_features object (mapping/rank-feature.ts). */
  private addRankFeatures(fullPath: string, mapping: FieldMapping, value: unknown): void {
    if (value === null || value === undefined) return;
    if (mapping.type === 'rank_feature') {
      if (this.fields.has(fullPath)) {
        throw documentParsingError(`[rank_feature] fields do not support indexing multiple values for the same field [${fullPath}] in the same document`);
      }
      this.fields.set(fullPath, rankFeatureField(value, mapping, fullPath, this.id));
      return;
    }
    for (const [path, field] of rankFeaturesFields(value, mapping, fullPath, this.id)) {
      if (this.fields.has(path)) {
        throw documentParsingError(`[rank_features] fields do not support indexing multiple values for the same rank feature [${path}] in the same document`);
      }
      this.fields.set(path, field);
    }
  }

  /** `copy_to`: the value is indexed again under the target field, as if the document had it there. */
  private copyTo(target: string, value: unknown): void {
    let mapping = resolveFieldMapping(this.mappings, target) ?? this.newFields.get(target)?.mapping;
    if (!mapping) {
      const found = this.dynamicMapping(target.slice(target.lastIndexOf('.') + 1), target.split('.'), value, false);
      if (!found || found.runtime) return;
      mapping = found.mapping;
      this.spendOn(target.split('.'), mapping);
      this.addNewField(target, { path: target.split('.'), mapping });
    }
    if (OBJECT_TYPES.has(fieldType(mapping))) {
      throw documentParsingError(`Cannot copy to field [${target}] since it is mapped as an object`);
    }
    this.addLeaf(target, mapping, value, false);
  }

  /**
   * The index's mapping limits for a field this document introduces, checked as each one is met
   * (ES's DocumentParserContext.addDynamicMapper), so a document of thousands of new fields is
   * refused at the first past the limit rather than after all are parsed.
   */
  private spendOn(path: string[], mapping: FieldMapping): void {
    const budget = this.budget;
    if (!budget) return;
    checkNameLength(path[path.length - 1], budget.limits);
    if (OBJECT_TYPES.has(fieldType(mapping))) checkObjectDepth(path, budget.limits);
    budget.added += fieldsCountOf(mapping);
    if (budget.existing + budget.added > budget.limits.totalFields) {
      const reason = `Limit of total fields [${budget.limits.totalFields}] has been exceeded while adding new fields [${budget.added}]`;
      throw documentParsingError(`failed to parse: ${reason}`, { type: 'illegal_argument_exception', reason });
    }
  }

  private addNewField(full: string, field: NewField): void {
    if (this.newFields === NONE_NEW) this.newFields = new Map();
    (this.newFields as Map<string, NewField>).set(full, field);
  }

  private addNewRuntime(full: string, mapping: FieldMapping): void {
    if (this.newRuntime === NONE_RUNTIME) this.newRuntime = new Map();
    (this.newRuntime as Map<string, FieldMapping>).set(full, mapping);
  }

  mappingUpdate(): Mappings | undefined {
    for (const steps = this.mappingUpdateSteps(); ; ) {
      const next = steps.next();
      if (next.done) return next.value;
    }
  }

  /** `mappingUpdate`, yielding every MAPPING_UPDATE_STEP new fields (a document that adds thousands). */
  *mappingUpdateSteps(): Generator<void, Mappings | undefined, void> {
    if (this.newFields.size === 0 && this.newRuntime.size === 0) return undefined;
    const root: Mappings = {};
    if (this.newFields.size) root.properties = {};
    const entries = [...this.newFields.values()].sort((a, b) => a.path.length - b.path.length);
    let done = 0;
    for (const { path, mapping } of entries) {
      let props = root.properties!;
      for (let i = 0; i < path.length - 1; i++) {
        const seg = path[i];
        if (!props[seg]) props[seg] = { properties: {} };
        props = props[seg].properties ??= {};
      }
      const leaf = path[path.length - 1];
      props[leaf] = props[leaf] ? { ...mapping, properties: { ...(mapping.properties ?? {}), ...(props[leaf].properties ?? {}) } } : structuredClone(mapping);
      if (++done % MAPPING_UPDATE_STEP === 0) yield;
    }
    if (this.newRuntime.size) root.runtime = Object.fromEntries(this.newRuntime);
    return root;
  }
}

const NONE_NEW: ReadonlyMap<string, NewField> = new Map();
const NONE_RUNTIME: ReadonlyMap<string, FieldMapping> = new Map();
const NO_STRINGS: string[] = [];
const NO_NUMBERS: number[] = [];
const NO_VALUES: Array<string | EpochTime | boolean> = [];

/**
 * What indexing one leaf field at one path needs from its mapping, computed once per mapping object
 * and path (mappings are replaced, never changed in place): the full path string (one string for
 * every document, so map lookups hash it once), the type, and the multi-fields' own plans.
 */
interface LeafPlan {
  mapping: FieldMapping;
  /** The path the plan was made for (parent segments + key); undefined for multi-fields and copy_to targets. */
  path: string[] | undefined;
  fieldsRef: FieldMapping['fields'];
  full: string;
  type: string;
  gap: number;
  indexed: boolean;
  docValues: boolean;
  fielddata: boolean;
  /** A text field (analysed by its index analyzer). */
  analyzed: boolean;
  /** That analyzer, resolved in `analyzerRegistry` (an index's registry changes with its settings). */
  analyzer: Analyzer | undefined;
  analyzerRegistry: AnalysisRegistry | undefined;
  subs: LeafPlan[] | undefined;
}

const PLANS = new WeakMap<FieldMapping, LeafPlan>();

function makePlan(mapping: FieldMapping, full: string, path: string[] | undefined): LeafPlan {
  let subs: LeafPlan[] | undefined;
  if (mapping.fields) {
    subs = [];
    for (const sub in mapping.fields) subs.push(makePlan(mapping.fields[sub], `${full}.${sub}`, undefined));
  }
  const type = fieldType(mapping);
  return {
    mapping,
    path,
    fieldsRef: mapping.fields,
    full,
    type,
    gap: typeof mapping.position_increment_gap === 'number' ? mapping.position_increment_gap : POSITION_INCREMENT_GAP,
    indexed: mapping.index !== false,
    docValues: mapping.doc_values !== false,
    fielddata: mapping.fielddata === true,
    analyzed: ANALYZED_TYPES.has(type),
    analyzer: undefined,
    analyzerRegistry: undefined,
    subs,
  };
}

function planFor(mapping: FieldMapping, path: string[]): LeafPlan {
  const plan = PLANS.get(mapping);
  if (plan !== undefined && plan.fieldsRef === mapping.fields && samePath(plan.path!, path)) return plan;
  const made = makePlan(mapping, path.join('.'), path.slice());
  PLANS.set(mapping, made);
  return made;
}

/** Is `path` the path `parent` + `key`? */
function isPathOf(path: string[], parent: string[], key: string): boolean {
  const n = parent.length;
  if (path.length !== n + 1 || path[n] !== key) return false;
  for (let i = 0; i < n; i++) if (path[i] !== parent[i]) return false;
  return true;
}

function samePath(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Parses one document under an index's mappings: the fields to index and, with dynamic mapping,
 * the mappings grown by the fields it introduced. Throws ES's 400 errors for values that do not
 * fit their type and for fields a strict mapping refuses.
 */
export function parseDocument(
  source: Record<string, unknown>, mappings: Mappings, registry: AnalysisRegistry, id: string, limits?: MappingLimits, namedTemplates?: Readonly<Record<string, string>>,
): ParsedDocument {
  const parser = new DocumentParser(mappings, registry, id, limits && { limits, existing: totalFieldsCount(mappings), added: 0 }, namedTemplates);
  parser.parseRoot(source);
  checkCompletionContexts(mappings, source);
  checkDataStreamTimestamp(mappings, (field) => parser.fields.get(field)?.values);
  const update = parser.mappingUpdate();
  return parsed(parser, update ? mergeMappings(mappings, update) : undefined);
}

/**
 * `parseDocument` a stretch at a time (see DocumentParser.parseRootSteps): the driver gives the
 * event loop a turn at the yields. The document and its mappings must not change until it is over.
 */
export function* parseDocumentSteps(
  source: Record<string, unknown>, mappings: Mappings, registry: AnalysisRegistry, id: string, limits?: MappingLimits, namedTemplates?: Readonly<Record<string, string>>,
): Generator<void, ParsedDocument, void> {
  const parser = new DocumentParser(mappings, registry, id, limits && { limits, existing: totalFieldsCount(mappings), added: 0 }, namedTemplates);
  yield* parser.parseRootSteps(source);
  checkCompletionContexts(mappings, source);
  checkDataStreamTimestamp(mappings, (field) => parser.fields.get(field)?.values);
  const update = yield* parser.mappingUpdateSteps();
  return parsed(parser, update ? yield* mergeMappingsSteps(mappings, update) : undefined);
}

function parsed(parser: DocumentParser, mappings: Mappings | undefined): ParsedDocument {
  return { fields: parser.fields, mappings, nested: parser.nested.length ? parser.nested : undefined };
}

/** The mapping of a field path ("user.name", "title.raw"), looking through objects and multi-fields. */
export function resolveFieldMapping(mappings: Mappings, path: string): FieldMapping | undefined {
  if (path === IGNORED_FIELD) return IGNORED_MAPPING;
  if (path === ROUTING_FIELD) return ROUTING_MAPPING;
  const parts = path.split('.');
  let props = mappings.properties;
  let current: FieldMapping | undefined;
  for (let i = 0; i < parts.length; i++) {
    // Try the longest dotted key first is unnecessary: ES stores objects, never dotted names.
    current = props?.[parts[i]] ?? current?.fields?.[parts[i]];
    if (!current) {
      mappings[UNMAPPED_LOOKUP]?.(path);
      return undefined;
    }
    props = current.properties;
  }
  return current;
}
