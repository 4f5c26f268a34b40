import { analyticsQuery, ANALYTICS_PARAMETERS, type AnalyticsScope } from '../analytics/index.js';
import { EMPTY_QUERY } from '../analytics/index.js';
import type { Backend } from '../engine/index.js';
import type { PopularSuggestionsConfig, RecentSuggestionsConfig } from '../declarative-request/index.js';
import { matchesTyped, searchTextHit, type SuggestionHit } from './suggestion-hits.js';
import type { AnalyticsSuggestionsPlan } from './translate.js';

/** Where suggestions from search analytics come from, for one request. */
export interface AnalyticsSource {
  /** The engine as the gateway's own stores reach it (the analytics index is a system index). */
  engine: Backend;
  /** The events the caller may see: a scoped credential's indices only. */
  scope: AnalyticsScope;
  /** Whose searches are "recent" (and, with `showGlobal: false`, "popular"): `settings.userId`, else the client's address. */
  user: string;
}

/** Popular searches as search analytics counts them: the most searched first. */
interface PopularSearches {
  popular_searches?: Array<{ key: string; count: number }>;
}
interface RecentSearches {
  recent_searches?: Array<{ key: string; hits: number }>;
}

/** The most a suggestion query reads from analytics before filtering by what was typed. */
const READ_AT_MOST = 1000;
const DEFAULT_SIZE = 5;

function paramsOf(config: { customEvents?: Record<string, unknown> }, size: number, user?: string): ReadonlyMap<string, string> {
  const params = new Map([['size', String(size)]]);
  if (user !== undefined) params.set('user_id', user);
  // any other parameter of an analytics query is a custom-event filter
  for (const [k, v] of Object.entries(config.customEvents ?? {})) if (!ANALYTICS_PARAMETERS.has(k)) params.set(k, String(v));
  return params;
}

const scopeFor = (source: AnalyticsSource, index: string | undefined): AnalyticsScope => ({ ...source.scope, index: index ?? source.scope.index });
const usable = (key: string, minChars: number | undefined) => key !== '' && key !== EMPTY_QUERY && key.length >= (minChars ?? 0);

/** The popular searches that match `text` (every typed word starts a word of the search), most searched first. */
export async function popularSuggestions(source: AnalyticsSource, text: string, config: PopularSuggestionsConfig, size = config.size ?? DEFAULT_SIZE): Promise<Array<{ key: string; count: number }>> {
  if (size === 0) return [];
  const params = paramsOf(config, READ_AT_MOST, config.showGlobal === false ? source.user : undefined);
  const answer = (await analyticsQuery(source.engine, 'popular-searches', params, scopeFor(source, config.index))) as PopularSearches;
  return (answer.popular_searches ?? [])
    .filter((p) => usable(p.key, config.minChars) && p.count >= (config.minCount ?? 0) && matchesTyped(p.key, text))
    .slice(0, size);
}

/** This user's latest distinct searches that match `text`, newest first. */
export async function recentSuggestions(source: AnalyticsSource, text: string, config: RecentSuggestionsConfig): Promise<string[]> {
  const size = config.size ?? DEFAULT_SIZE;
  if (size === 0) return [];
  const params = paramsOf(config, Math.min(READ_AT_MOST, Math.max(50, size * 20)), source.user);
  const answer = (await analyticsQuery(source.engine, 'recent-searches', params, scopeFor(source, config.index))) as RecentSearches;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of answer.recent_searches ?? []) {
    const key = r.key.trim();
    const folded = key.toLowerCase();
    if (!usable(key, config.minChars) || r.hits < (config.minHits ?? 0) || seen.has(folded) || !matchesTyped(key, text)) continue;
    seen.add(folded);
    out.push(key);
    if (out.length === size) break;
  }
  return out;
}

/**
 * A suggestion component's suggestions from search analytics, as ReactiveSearch lists them before
 * the index suggestions: recent searches, then popular ones.
 */
export async function analyticsSuggestions(source: AnalyticsSource, plan: AnalyticsSuggestionsPlan): Promise<SuggestionHit[]> {
  const [recent, popular] = await Promise.all([
    plan.recent ? recentSuggestions(source, plan.text, plan.recent) : [],
    plan.popular ? popularSuggestions(source, plan.text, plan.popular) : [],
  ]);
  return [
    ...recent.map((key) => searchTextHit(key, 'recent', null, plan.recent?.sectionLabel)),
    ...popular.map((p) => searchTextHit(p.key, 'popular', p.count, plan.popular?.sectionLabel)),
  ];
}
