/**
 * Which rules of a ruleset a search's `match_criteria` meets, and the documents they pin or
 * exclude, as Elasticsearch's QueryRule.applyRule decides it: only the criteria whose `metadata`
 * names a key of `match_criteria` (and `always` criteria, once per key) are evaluated, all of
 * those must match, and a rule none of whose criteria was evaluated does not match.
 */
import { criterionMatches } from './criteria.js';
import type { QueryRule, QueryRuleset } from './ruleset.js';

/** A document a rule names: by id alone (`ids`), or by index and id (`docs`). */
export interface SpecifiedDocument {
  index?: string;
  id: string;
}

/** What the matching rules of some rulesets do, in rule order, without repeats. */
export interface AppliedRules {
  pinned: SpecifiedDocument[];
  excluded: SpecifiedDocument[];
}

export function ruleMatches(rule: QueryRule, matchCriteria: Record<string, unknown>): boolean {
  let matched: boolean | undefined;
  for (const criterion of rule.criteria) {
    for (const [key, value] of Object.entries(matchCriteria)) {
      if (criterion.type !== 'always' && criterion.metadata !== key) continue;
      const m = criterionMatches(criterion, value);
      matched = matched === undefined ? m : matched && m;
    }
  }
  return matched === true;
}

/** The documents a rule's actions name. */
function documentsOf(rule: QueryRule): SpecifiedDocument[] {
  const { ids, docs } = rule.actions;
  if (Array.isArray(ids)) return ids.filter((id) => id !== null && id !== undefined).map((id) => ({ id: String(id) }));
  if (!Array.isArray(docs)) return [];
  const out: SpecifiedDocument[] = [];
  for (const d of docs) {
    if (d === null || typeof d !== 'object') continue;
    const { _index, _id } = d as Record<string, unknown>;
    if (_id === undefined || _id === null) continue;
    out.push(typeof _index === 'string' ? { index: _index, id: String(_id) } : { id: String(_id) });
  }
  return out;
}

function distinct(docs: SpecifiedDocument[]): SpecifiedDocument[] {
  const seen = new Set<string>();
  return docs.filter((d) => {
    const key = `${d.index ?? '\u0000'}\u0001${d.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The rulesets' matching rules applied in order (rulesets as given, rules in ruleset order). */
export function applyRules(rulesets: QueryRuleset[], matchCriteria: Record<string, unknown>): AppliedRules {
  const pinned: SpecifiedDocument[] = [];
  const excluded: SpecifiedDocument[] = [];
  for (const ruleset of rulesets) {
    for (const rule of ruleset.rules) {
      if (!ruleMatches(rule, matchCriteria)) continue;
      (rule.type === 'pinned' ? pinned : excluded).push(...documentsOf(rule));
    }
  }
  return { pinned: distinct(pinned), excluded: distinct(excluded) };
}

/** The answer of POST _query_rules/{id}/_test. */
export interface MatchedRules {
  total_matched_rules: number;
  matched_rules: Array<{ ruleset_id: string; rule_id: string }>;
}

/** The rules of a ruleset the criteria match, in ruleset order. */
export function matchedRules(ruleset: QueryRuleset, matchCriteria: Record<string, unknown>): MatchedRules {
  const matched = ruleset.rules.filter((r) => ruleMatches(r, matchCriteria)).map((r) => ({ ruleset_id: ruleset.ruleset_id, rule_id: r.rule_id }));
  return { total_matched_rules: matched.length, matched_rules: matched };
}
