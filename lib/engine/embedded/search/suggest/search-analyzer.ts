/** The analyzer a suggester runs its text through: the one asked for, else the field's search analyzer. */
import { EsError } from '../../../../errors/index.js';
import type { Analyzer } from '../../analysis/index.js';
import type { IndexHandle } from '../../indices/index.js';
import type { FieldMapping } from '../../mapping/index.js';

export function searchAnalyzerOf(mapping: FieldMapping | undefined, handle: IndexHandle, override?: string): string {
  if (override) return override;
  if (typeof mapping?.search_analyzer === 'string') return mapping.search_analyzer;
  if (typeof mapping?.analyzer === 'string') return mapping.analyzer;
  return handle.registry.hasAnalyzer('default') ? 'default' : 'standard';
}

/** A named analyzer of the index, refused as ES's suggest builders refuse an unknown one. */
export function namedAnalyzer(handle: IndexHandle, name: string): Analyzer {
  if (!handle.registry.hasAnalyzer(name)) throw new EsError(400, 'illegal_argument_exception', `analyzer [${name}] doesn't exists`);
  return handle.registry.analyzer(name);
}
