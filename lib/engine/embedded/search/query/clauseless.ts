import type { Query } from './query.js';
import type { QueryOf } from './query-type.js';

/** What a query type without clauses answers the same: no children, nothing to rewrite, no terms to highlight. */
export const clauseless = <T extends Query['type']>() => ({
  children: (): Query[] => [],
  withChildren: (q: QueryOf<T>) => q,
  rewrite: (q: QueryOf<T>) => q,
  highlightTerms: () => {},
});
