import { FieldCatalog } from './field-catalog.js';

/**
 * ReactiveSearch's query suggestions index (`appbase-js`'s `getQuerySuggestions` searches it):
 * popular searches, one document per search text — `{key, count}`. The gateway does not copy them
 * into an index: components that read `.suggestions` are answered from search analytics
 * (`analytics-suggestions.ts`), the most searched texts that match what was typed.
 */
export const QUERY_SUGGESTIONS_INDEX = '.suggestions';

/** The fields `.suggestions` components may name. */
export const QUERY_SUGGESTIONS_CATALOG = FieldCatalog.fromIndexMeta({
  [QUERY_SUGGESTIONS_INDEX]: {
    mappings: {
      properties: {
        key: { type: 'text', fields: { keyword: { type: 'keyword' }, autosuggest: { type: 'text', analyzer: 'autosuggest_analyzer' }, search: { type: 'text' } } },
        count: { type: 'long' },
      },
    },
  },
});
