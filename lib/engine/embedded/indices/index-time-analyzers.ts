import { EsError } from '../../../errors/index.js';
import type { IndexAnalysisRegistry } from '../analysis/index.js';
import type { FieldMapping, Mappings } from '../mapping/index.js';

/**
 * ES's rule that a field's index analyzer (`analyzer`) may not have filters that only run at
 * search time (`updateable: true`, every `synonyms_set` filter): the mapping is refused with a
 * mapper_parsing_exception naming them. Search analyzers may have them.
 */
export function checkIndexTimeAnalyzers(mappings: Mappings, registry: IndexAnalysisRegistry): void {
  const visit = (fields: Record<string, FieldMapping> | undefined) => {
    for (const m of Object.values(fields ?? {})) {
      if (typeof m.analyzer === 'string') {
        const filters = registry.searchTimeFilters(m.analyzer);
        if (filters.length) {
          const reason = `analyzer [${m.analyzer}] contains filters [${filters.join(', ')}] that are not allowed to run in index time mode.`;
          throw new EsError(400, 'mapper_parsing_exception', `Failed to parse mapping: ${reason}`, { caused_by: { type: 'mapper_exception', reason } });
        }
      }
      visit(m.properties);
      visit(m.fields);
    }
  };
  visit(mappings.properties);
}
