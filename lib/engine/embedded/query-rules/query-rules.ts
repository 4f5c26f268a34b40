import { EsError } from '../../../errors/index.js';
import type { Store } from '../store/index.js';
import { applyRules, matchedRules, type AppliedRules, type MatchedRules } from './apply-rules.js';
import { CRITERIA_TYPES, type CriteriaType } from './criteria.js';
import { isObject, requiredFields, unknownField, unsupportedValue } from './parse-errors.js';
import { byPriority, checkRuleLimit, parseRuleForPath, parseRuleset, type QueryRule, type QueryRuleset } from './ruleset.js';

const KEY_PREFIX = 'query_ruleset:';

/** A ruleset as GET _query_rules lists it (Elasticsearch 8.15: no `rule_type_counts` yet). */
export interface RulesetSummary {
  ruleset_id: string;
  rule_total_count: number;
  rule_criteria_types_counts: Partial<Record<CriteriaType, number>>;
}

function notFound(reason: string): EsError {
  return new EsError(404, 'resource_not_found_exception', reason);
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function summaryOf(ruleset: QueryRuleset): RulesetSummary {
  const counts = new Map<CriteriaType, number>();
  for (const rule of ruleset.rules) for (const c of rule.criteria) counts.set(c.type, (counts.get(c.type) ?? 0) + 1);
  const byType: Partial<Record<CriteriaType, number>> = {};
  for (const t of CRITERIA_TYPES) if (counts.has(t)) byType[t] = counts.get(t)!;
  return { ruleset_id: ruleset.ruleset_id, rule_total_count: ruleset.rules.length, rule_criteria_types_counts: byType };
}

/**
 * The engine's query rulesets, durable as cluster metadata in the store (one record per ruleset
 * under `query_ruleset:`), read by the query rules API and by `rule` queries. Every change is
 * made in memory at once (so concurrent requests see each other's) and acknowledged once stored.
 */
export class QueryRules {
  private readonly rulesets = new Map<string, QueryRuleset>();

  constructor(private readonly store: Store) {
    for (const { key, value } of store.loadCluster()) {
      if (key.startsWith(KEY_PREFIX)) this.rulesets.set(key.slice(KEY_PREFIX.length), value as QueryRuleset);
    }
  }

  private save(id: string, ruleset: QueryRuleset | undefined): Promise<void> {
    if (ruleset) this.rulesets.set(id, ruleset);
    else this.rulesets.delete(id);
    return this.store.write([{ kind: 'cluster', key: KEY_PREFIX + id, value: ruleset }]);
  }

  /** PUT _query_rules/{id}: creates or replaces the ruleset. */
  async putRuleset(id: string, body: Record<string, unknown>): Promise<'created' | 'updated'> {
    const ruleset = parseRuleset(id, body);
    checkRuleLimit(ruleset);
    const result = this.rulesets.has(id) ? 'updated' : 'created';
    await this.save(id, ruleset);
    return result;
  }

  getRuleset(id: string): QueryRuleset {
    const ruleset = this.rulesets.get(id);
    if (!ruleset) throw notFound(id);
    return ruleset;
  }

  async deleteRuleset(id: string): Promise<void> {
    if (!this.rulesets.has(id)) throw notFound(id);
    await this.save(id, undefined);
  }

  /** GET _query_rules: the rulesets by ascending id, a page of them, and how many there are. */
  list(from: number, size: number): { count: number; results: RulesetSummary[] } {
    const ids = [...this.rulesets.keys()].sort(compareIds);
    return { count: ids.length, results: ids.slice(from, from + size).map((id) => summaryOf(this.rulesets.get(id)!)) };
  }

  /** PUT _query_rules/{ruleset}/_rule/{rule}: adds or replaces one rule, creating the ruleset if needed. */
  async putRule(rulesetId: string, ruleId: string, body: Record<string, unknown>): Promise<'created' | 'updated'> {
    const rule = parseRuleForPath(ruleId, body);
    const existing = this.rulesets.get(rulesetId);
    const others = (existing?.rules ?? []).filter((r) => r.rule_id !== ruleId);
    const ruleset: QueryRuleset = { ruleset_id: rulesetId, rules: byPriority([...others, rule]) };
    checkRuleLimit(ruleset);
    const created = !existing || others.length === existing.rules.length;
    await this.save(rulesetId, ruleset);
    return created ? 'created' : 'updated';
  }

  getRule(rulesetId: string, ruleId: string): QueryRule {
    const rule = this.getRuleset(rulesetId).rules.find((r) => r.rule_id === ruleId);
    if (!rule) throw notFound(`rule id ${ruleId} not found in ruleset ${rulesetId}`);
    return rule;
  }

  /** DELETE _query_rules/{ruleset}/_rule/{rule}: the ruleset goes with its last rule. */
  async deleteRule(rulesetId: string, ruleId: string): Promise<void> {
    this.getRule(rulesetId, ruleId);
    const rules = this.getRuleset(rulesetId).rules.filter((r) => r.rule_id !== ruleId);
    await this.save(rulesetId, rules.length ? { ruleset_id: rulesetId, rules } : undefined);
  }

  /** POST _query_rules/{id}/_test: the request is read (400s) before the ruleset is looked up (404). */
  test(rulesetId: string, body: Record<string, unknown>): MatchedRules {
    for (const k of Object.keys(body)) if (k !== 'match_criteria' && k !== 'ruleset_id') throw unknownField('test_query_ruleset_request', k);
    if (body.ruleset_id !== undefined && typeof body.ruleset_id !== 'string') throw unsupportedValue('test_query_ruleset_request', 'ruleset_id', body.ruleset_id);
    if (body.match_criteria === undefined) throw requiredFields(['match_criteria']);
    if (!isObject(body.match_criteria)) throw unsupportedValue('test_query_ruleset_request', 'match_criteria', body.match_criteria);
    return matchedRules(this.getRuleset(rulesetId), body.match_criteria);
  }

  /** What the rules of these rulesets (in this order) do for `matchCriteria`; a missing ruleset is a 404. */
  apply(rulesetIds: string[], matchCriteria: Record<string, unknown>): AppliedRules {
    const rulesets = rulesetIds.map((id) => {
      const ruleset = this.rulesets.get(id);
      if (!ruleset) throw notFound(`query ruleset ${id} not found`);
      return ruleset;
    });
    return applyRules(rulesets, matchCriteria);
  }
}
