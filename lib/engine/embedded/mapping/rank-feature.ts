/**
 * rank_feature and rank_features fields, stored as Lucene's FeatureField keeps them: a positive
 * float cut to 9 significant bits (the term frequency is the float's bits without the lowest 15),
 * inverted first when the field has a negative score impact. A rank_features field keeps each
 * feature as a field of its own, `<field>.<feature>`, which is what `rank_feature` queries name.
 */
import { documentParsingError } from './errors.js';
import type { FieldMapping } from './types.js';

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const MIN_NORMAL_FLOAT = 1.17549435e-38;

/** FeatureField's term frequency for a value. */
export function encodeFeature(value: number): number {
  F32[0] = value;
  return U32[0] >>> 15;
}

/** The value a FeatureField frequency stands for (FeatureField.decodeFeatureValue). */
export function decodeFeature(freq: number): number {
  U32[0] = (Math.trunc(freq) << 15) >>> 0;
  return F32[0];
}

/** The value a rank feature keeps of what a document gives. */
export function storedFeature(value: number, positiveScoreImpact: boolean): number {
  const v = Math.fround(positiveScoreImpact ? value : 1 / Math.fround(value));
  return decodeFeature(encodeFeature(v));
}

function positiveImpact(mapping: FieldMapping): boolean {
  return mapping.positive_score_impact !== false && mapping.positive_score_impact !== 'false';
}

function featureValue(raw: unknown): number | undefined {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

type StoredField = { type: string; terms: string[]; positions: number[]; values: number[] };

function preview(value: unknown): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A rank_feature field's value → its stored field, or Elasticsearch's document_parsing_exception. */
export function rankFeatureField(value: unknown, mapping: FieldMapping, path: string, id: string): StoredField {
  const fail = (reason: string) => documentParsingError(`failed to parse field [${path}] of type [rank_feature] in document with id '${id}'. Preview of field's value: '${preview(value)}'`,
    { type: 'illegal_argument_exception', reason });
  if (Array.isArray(value)) throw fail(`[rank_feature] fields do not support indexing multiple values for the same field [${path}] in the same document`);
  const n = featureValue(value);
  if (n === undefined) throw fail(`[rank_feature] fields only support numeric values, got [${preview(value)}]`);
  if (!(Math.fround(n) >= MIN_NORMAL_FLOAT)) throw fail(`featureValue must be a positive normal float, got: ${n} for feature: ${path} which is less than the minimum positive normal float: 1.17549435E-38`);
  return { type: 'rank_feature', terms: [], positions: [], values: [storedFeature(n, positiveImpact(mapping))] };
}

/** A rank_features field's object → one stored field per feature. */
export function rankFeaturesFields(value: unknown, mapping: FieldMapping, path: string, id: string): Array<[string, StoredField]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw documentParsingError(`[rank_features] fields must be json objects, expected a START_OBJECT but got: ${Array.isArray(value) ? 'START_ARRAY' : typeof value === 'number' ? 'VALUE_NUMBER' : 'VALUE_STRING'}`);
  }
  const out: Array<[string, StoredField]> = [];
  for (const [feature, raw] of Object.entries(value as Record<string, unknown>)) {
    const n = featureValue(raw);
    if (n === undefined || typeof raw === 'object') {
      throw documentParsingError(`[rank_features] fields take hashes that map a feature to a strictly positive float, but got unexpected token ${typeof raw === 'object' ? 'START_OBJECT' : 'VALUE_STRING'}`);
    }
    if (!(Math.fround(n) >= MIN_NORMAL_FLOAT)) {
      throw documentParsingError(`failed to parse field [${path}] of type [rank_features] in document with id '${id}'. Preview of field's value: '${preview(value)}'`,
        { type: 'illegal_argument_exception', reason: `featureValue must be a positive normal float, got: ${n} for feature: ${feature} which is less than the minimum positive normal float: 1.17549435E-38` });
    }
    out.push([`${path}.${feature}`, { type: 'rank_feature', terms: [], positions: [], values: [storedFeature(n, positiveImpact(mapping))] }]);
  }
  return out;
}
