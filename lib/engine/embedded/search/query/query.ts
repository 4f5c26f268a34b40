/** The query DSL, parsed and validated: what both the index executor and the document matcher run. */
export type Query =
  | { type: 'match_all'; boost: number }
  | { type: 'match_none' }
  | { type: 'term'; field: string; value: string | number | boolean; boost: number; caseInsensitive: boolean }
  | { type: 'terms'; field: string; values: Array<string | number | boolean>; boost: number }
  | { type: 'ids'; values: string[]; boost: number }
  | { type: 'exists'; field: string; boost: number }
  | {
      type: 'bool';
      must: Query[];
      filter: Query[];
      should: Query[];
      mustNot: Query[];
      minimumShouldMatch?: string | number;
      boost: number;
    };

/** How many should clauses must match (ES's minimum_should_match, integers and percentages). */
export function requiredShouldMatches(spec: string | number | undefined, shouldCount: number, hasMustOrFilter: boolean): number {
  if (shouldCount === 0) return 0;
  if (spec === undefined) return hasMustOrFilter ? 0 : 1;
  let n: number;
  const s = String(spec).trim();
  if (s.endsWith('%')) {
    const pct = Number(s.slice(0, -1));
    n = pct < 0 ? shouldCount + Math.trunc((shouldCount * pct) / 100) : Math.trunc((shouldCount * pct) / 100);
  } else {
    const v = Number(s);
    n = v < 0 ? shouldCount + v : v;
  }
  return Math.max(0, Math.min(n, shouldCount));
}
