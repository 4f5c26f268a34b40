/**
 * The `rule` query (`rule_query` before Elasticsearch 8.15, still accepted): applies query
 * rulesets to an organic query. Like Elasticsearch's RuleQueryBuilder it is rewritten before the
 * search runs, once the rulesets are read: the documents the matching rules pin become a `pinned`
 * query around the organic one (at most 100, the first ones), the documents they exclude a
 * must_not around that — so a document both pinned and excluded is excluded. With no matching
 * rule the query is its organic query.
 */
import type { PinnedDocument, Query } from './query.js';
import { queryTypeOf } from './query-type.js';
import { MAX_PINNED_HITS } from './pinned-query.js';
import { boostOf, checkFields, failedToBuild, inField, isObject, malformed, requiredFields, textArray, unsupportedValue } from './query-fields.js';

/** Rulesets named in `rule` queries may be at most this many. */
export const MAX_RULESETS = 10;

/**
 * What the rules of these rulesets (in this order) do for `matchCriteria`, in rule order without
 * repeats; throws Elasticsearch's 404 for a ruleset that does not exist.
 */
export type ApplyQueryRules = (rulesetIds: string[], matchCriteria: Record<string, unknown>) => { pinned: PinnedDocument[]; excluded: PinnedDocument[] };

/** The body of a `rule` (or `rule_query`) query, refused as Elasticsearch 8.15 refuses it. */
export function parseRuleQuery(name: string, body: unknown, parseQuery: (q: unknown) => Query): Extract<Query, { type: 'rule' }> {
  if (!isObject(body)) throw malformed(name);
  checkFields('rule', body, ['organic', 'match_criteria', 'ruleset_id', 'ruleset_ids', 'boost', '_name']);
  if (body.organic !== undefined && !isObject(body.organic)) throw unsupportedValue('rule', 'organic', body.organic);
  const organic = body.organic === undefined ? undefined : inField('rule', 'organic', () => parseQuery(body.organic));
  if (body.match_criteria !== undefined && !isObject(body.match_criteria)) throw unsupportedValue('rule', 'match_criteria', body.match_criteria);
  const matchCriteria = body.match_criteria as Record<string, unknown> | undefined;
  if (body.ruleset_id !== undefined && typeof body.ruleset_id !== 'string') throw unsupportedValue('rule', 'ruleset_id', body.ruleset_id);
  const rulesetId = body.ruleset_id as string | undefined;
  const rulesetIds = body.ruleset_ids === undefined || body.ruleset_ids === null ? undefined : textArray('rule', 'ruleset_ids', body.ruleset_ids);
  const boost = boostOf('rule', body.boost);
  const missing = [organic ? '' : 'organic', matchCriteria ? '' : 'match_criteria'].filter(Boolean);
  if (missing.length) throw requiredFields(missing);
  if ((rulesetId === undefined) === (rulesetIds === undefined)) throw failedToBuild('rule', 'ruleset information not provided correctly');
  const ids = rulesetIds ?? [rulesetId!];
  if (!Object.keys(matchCriteria!).length) throw failedToBuild('rule', 'matchCriteria must not be null or empty');
  if (!ids.length) throw failedToBuild('rule', 'rulesetIds must not be null or empty');
  if (ids.length > MAX_RULESETS) throw failedToBuild('rule', `rulesetIds must not contain more than ${MAX_RULESETS} rulesets`);
  if (ids.some((id) => !id)) throw failedToBuild('rule', 'rulesetIds must not contain null or empty values');
  return { type: 'rule', rulesetIds: ids as string[], matchCriteria: matchCriteria!, organic: organic!, boost };
}

/** Any of these documents: ids alone, and index-and-id pairs (the index a pattern, as `_index` queries read it). */
function anyOf(documents: PinnedDocument[]): Query {
  const clauses: Query[] = [];
  const ids = documents.filter((d) => d.index === undefined).map((d) => d.id);
  if (ids.length) clauses.push({ type: 'ids', values: ids, boost: 1 });
  for (const d of documents) {
    if (d.index === undefined) continue;
    clauses.push({
      type: 'bool', must: [], should: [], mustNot: [], boost: 1,
      filter: [{ type: 'ids', values: [d.id], boost: 1 }, { type: 'wildcard', field: '_index', value: d.index, caseInsensitive: false, boost: 1 }],
    });
  }
  return clauses.length === 1 ? clauses[0] : { type: 'bool', must: [], filter: [], should: clauses, mustNot: [], boost: 1 };
}

/** A rewritten query keeps the boost of the query it replaces unless it has its own (AbstractQueryBuilder.rewrite). */
function withBoost(q: Query, boost: number): Query {
  if (boost === 1 || !('boost' in q) || q.boost !== 1) return q;
  return { ...q, boost } as Query;
}

function resolveRule(q: Extract<Query, { type: 'rule' }>, apply: ApplyQueryRules): Query {
  const organic = resolveRuleQueries(q.organic, apply);
  const { pinned, excluded } = apply(q.rulesetIds, q.matchCriteria);
  let out: Query = organic;
  if (pinned.length) out = { type: 'pinned', organic, documents: pinned.slice(0, MAX_PINNED_HITS), boost: 1 };
  if (excluded.length) out = { type: 'bool', must: [out], filter: [], should: [], mustNot: [anyOf(excluded)], boost: 1 };
  return withBoost(out, q.boost);
}

/**
 * The query with every `rule` query replaced by what its rulesets make of it: the coordinating
 * rewrite of a search, done once before any index runs the query.
 */
export function resolveRuleQueries(q: Query, apply: ApplyQueryRules): Query {
  const resolve = (c: Query) => resolveRuleQueries(c, apply);
  return q.type === 'rule' ? resolveRule(q, apply) : queryTypeOf(q).withChildren(q, resolve);
}
