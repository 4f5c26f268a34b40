export { SearchProfiler, type ProfiledSearch } from './search-profiler.js';
export { queryClassOf, type QueryProfile } from './query-profile.js';
export type { AggregationProfile } from './aggregation-profile.js';
export { fetchPlanOf, type FetchPlan } from './fetch-profile.js';
