/**
 * The parsed form of a query string, shared by the Lucene classic syntax (`query_string`, `q=`)
 * and the simple syntax (`simple_query_string`). `field` is null where the query's default
 * fields apply; it may be a pattern (`name.*`).
 */
export type Occur = 'must' | 'should' | 'must_not';

export type QsNode =
  | { kind: 'bool'; clauses: Array<{ occur: Occur; node: QsNode }>; boost?: number; /** simple syntax's negation: must_not plus match_all */ negation?: boolean }
  | { kind: 'term'; field: string | null; text: string; boost?: number }
  | { kind: 'wildcard'; field: string | null; text: string; boost?: number }
  | { kind: 'fuzzy'; field: string | null; text: string; fuzziness?: string; boost?: number }
  | { kind: 'phrase'; field: string | null; text: string; slop?: number; boost?: number }
  | { kind: 'regexp'; field: string | null; text: string; boost?: number }
  | { kind: 'range'; field: string | null; lower?: string; upper?: string; includeLower: boolean; includeUpper: boolean; boost?: number }
  | { kind: 'exists'; field: string; boost?: number }
  | { kind: 'match_all'; boost?: number }
  | { kind: 'match_none' };

/** A syntax error, with Lucene's wording ("Cannot parse '…': …"). */
export class QuerySyntaxError extends Error {}

export function withBoost(node: QsNode, boost: number | undefined): QsNode {
  if (boost === undefined || node.kind === 'match_none') return node;
  return { ...node, boost: (node.boost ?? 1) * boost };
}
