/**
 * `weighted_avg`: ∑(value·weight) / ∑weight over the documents that have both (or their
 * `missing` stand-ins), as ES's WeightedAvgAggregator: each value of a multi-valued value field
 * counts with the document's single weight; a document with several weights is refused.
 */
import { EsError } from '../../../../errors/index.js';
import { CompensatedSum, numericSource } from './metrics.js';
import { missingArray, valuesOf } from './source.js';
import type { AggregationType } from './types.js';
import { isObject } from './types.js';
import { numericValue, parseSourceParams, type SourceParams } from './values-source.js';
import { unknownField, unknownFieldAtContent } from './unknown-field.js';

interface WeightedAvgParams {
  value: SourceParams;
  weight: SourceParams;
  format?: string;
}

const FIELD_CONFIG_KEYS = new Set(['field', 'missing', 'script']);

function fieldConfig(name: string, which: 'value' | 'weight', raw: unknown, format: string | undefined): SourceParams {
  if (raw === undefined) throw new EsError(400, 'illegal_argument_exception', `Could not find field name [${which}] in multiValuesSource`);
  if (!isObject(raw)) throw new EsError(400, 'parsing_exception', `[weighted_avg] ${which} doesn't support values of type: ${typeof raw === 'string' ? 'VALUE_STRING' : 'VALUE_NUMBER'}`, { line: 1, col: 1 });
  for (const k of Object.keys(raw)) {
    if (!FIELD_CONFIG_KEYS.has(k)) throw unknownFieldAtContent(which, k, FIELD_CONFIG_KEYS);
  }
  return { ...parseSourceParams('weighted_avg', name, raw), format: which === 'value' ? format : undefined };
}

export const weightedAvg: AggregationType<WeightedAvgParams> = {
  kind: 'metric',
  parse(name, body) {
    for (const k of Object.keys(body)) {
      const known = ['value', 'weight', 'format', 'value_type'];
      if (!known.includes(k)) throw unknownField('weighted_avg', k, known);
    }
    const format = typeof body.format === 'string' ? body.format : undefined;
    return { value: fieldConfig(name, 'value', body.value, format), weight: fieldConfig(name, 'weight', body.weight, undefined), format };
  },
  run(node, docs, ctx) {
    const values = numericSource('weighted_avg', node.name, docs, node.params.value, ctx);
    const weights = numericSource('weighted_avg', node.name, docs, node.params.weight, ctx);
    const missValue = missingArray(values);
    const missWeight = missingArray(weights);
    const sum = new CompensatedSum();
    const weight = new CompensatedSum();
    docs.forEach((seg, si) => {
      for (const ord of seg.ords) {
        const vs = valuesOf(values, si, ord, missValue);
        const ws = valuesOf(weights, si, ord, missWeight);
        if (vs.length === 0 || ws.length === 0) continue;
        if (ws.length > 1) {
          throw new EsError(400, 'aggregation_execution_exception', 'Encountered more than one weight for a single document. Use a script to combine multiple weights-per-doc into a single value.');
        }
        const w = numericValue(ws[0]);
        for (const v of vs) {
          sum.add(numericValue(v) * w);
          weight.add(w);
        }
      }
    });
    if (weight.value === 0) return { typed: 'weighted_avg', body: { value: null } };
    const value = sum.value / weight.value;
    const body: Record<string, unknown> = { value };
    const s = node.params.format !== undefined ? values.format.asString(value) : undefined;
    if (s !== undefined) body.value_as_string = s;
    return { typed: 'weighted_avg', body };
  },
};
