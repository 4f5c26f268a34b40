export { QueryRules, type RulesetSummary } from './query-rules.js';
export type { AppliedRules, MatchedRules, SpecifiedDocument } from './apply-rules.js';
export type { QueryRule, QueryRuleset, RuleType } from './ruleset.js';
export type { CriteriaType, RuleCriteria } from './criteria.js';
