export { RuleStore, RULES_INDEX } from './rule-store.js';
export { RelevancyStore, RELEVANCY_INDEX, DEFAULT_RELEVANCY, type RelevancySettings } from './relevancy.js';
export { ruleRoutes, relevancyRoutes } from './routes.js';
export { curatedSearch, carriesSearchText, SEARCH_QUERY_HEADER } from './plain-search.js';
export { type Curation, type RuleEffects } from './curate.js';
export { RuleSet, fold, type SearchSituation } from './rule-set.js';
export { parseRule, type QueryRule, type Action, type Trigger } from './rule.js';
export { constrainSearch, curateAnswer, curateDeclarative, fetchPromoted, hiddenCount } from './curate.js';
