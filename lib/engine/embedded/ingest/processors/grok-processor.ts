/** The grok processor (reference: "Grok processor"): the first of `patterns` that matches the field sets its captures. */
import { DEFAULT_GROK_PATTERNS } from '../grok/grok-patterns.js';
import { compileGrok, grokMatch, GrokError, type Grok } from '../grok/grok.js';
import { illegalArgument, javaType } from '../ingest-document.js';
import { INGEST_ELEMENT_BYTES } from '../ingest-budget.js';
import type { ProcessorFactory } from '../processor.js';
import type { ConfigReader } from '../processor-config.js';
import { fieldValue } from './string-processors.js';

export const grok: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const patterns = config.requiredList('patterns').map(String);
  if (patterns.length === 0) throw config.error('patterns', 'List of patterns must not be empty');
  const traceMatch = config.boolean('trace_match', false);
  const ignoreMissing = config.boolean('ignore_missing', false);
  const definitions = config.optionalMap('pattern_definitions') ?? {};
  const ecs = config.optionalString('ecs_compatibility', 'disabled')!;
  if (ecs !== 'disabled' && ecs !== 'v1') throw config.error('ecs_compatibility', `unsupported ECS compatibility mode [${ecs}]`);
  if (ecs === 'v1') throw config.error('ecs_compatibility', 'ECS compatibility mode [v1] is not supported by the embedded engine (only [disabled])');
  const compiled = compileGrokPatterns(config, patterns, definitions);
  return (doc) => {
    const value = fieldValue(doc, field, ignoreMissing);
    if (value === undefined) return;
    if (typeof value !== 'string') throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to [java.lang.String]`);
    for (let i = 0; i < compiled.length; i++) {
      let captures: Map<string, unknown> | undefined;
      try {
        captures = grokMatch(compiled[i], value);
      } catch (e) {
        if (e instanceof GrokError) throw illegalArgument(e.message);
        throw e;
      }
      if (!captures) continue;
      let bytes = 0;
      for (const v of captures.values()) bytes += INGEST_ELEMENT_BYTES + (typeof v === 'string' ? v.length : 8);
      doc.budget.charge('grok', bytes);
      for (const [k, v] of captures) doc.set(k, v);
      if (traceMatch) doc.ingest._grok_match_index = String(i);
      return;
    }
    throw illegalArgument(`Provided Grok expressions do not match field value: [${value}]`);
  };
};

/** `patterns` compiled on the default bank with `definitions` over it; one that does not compile is a configuration error. */
export function compileGrokPatterns(config: ConfigReader, patterns: readonly string[], definitions: Readonly<Record<string, unknown>>): Grok[] {
  const bank: Record<string, string> = { ...DEFAULT_GROK_PATTERNS };
  for (const [k, v] of Object.entries(definitions)) bank[k] = String(v);
  try {
    return patterns.map((p) => compileGrok(p, bank));
  } catch (e) {
    if (e instanceof GrokError) throw config.error('patterns', e.message);
    throw e;
  }
}
