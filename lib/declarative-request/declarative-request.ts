/**
 * The declarative query API's request, as the JSON schema (`request-schema.ts`) admits it: the
 * ReactiveSearch API's request (`query`, `settings`, `metadata`), every query property it documents
 * for the Elasticsearch backend.
 */

export const COMPONENT_TYPES = ['search', 'term', 'range', 'geo', 'suggestion'] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

export const BACKENDS = ['elasticsearch', 'opensearch'] as const;
export type EngineKind = (typeof BACKENDS)[number];

export interface WeightedField {
  field: string;
  weight?: number;
}

export type DataField = string | WeightedField | Array<string | WeightedField>;

/** `"id"`, `["a", "b"]` (and), or `{and|or|not: …}`, nested at will. */
export type ReactExpression = string | ReactExpression[] | { and?: ReactExpression; or?: ReactExpression; not?: ReactExpression };

export interface GeoPoint {
  lat: number;
  lon: number;
}

/** A point as an object, or as ReactiveSearch sends it: `"lat, lon"`. */
export type GeoLocation = GeoPoint | string;

export interface GeoValue {
  location?: GeoLocation;
  distance?: number;
  unit?: string;
  geoBoundingBox?: { topLeft: GeoLocation; bottomRight: GeoLocation };
}

export interface RangeValue {
  start?: number | string | null;
  end?: number | string | null;
  boost?: number;
}

export type TermScalar = string | number | boolean;

/**
 * Raw query DSL (only for credentials allowed it): a clause (`{"match_all":{}}`), or a search body
 * `{"query": clause, "aggs"…}` as ReactiveSearch sends it.
 */
export type RawQuery = Record<string, unknown>;

/** `sortField`: a field, or a list of fields and `{field: order}` objects. */
export type SortField = string | Array<string | Record<string, 'asc' | 'desc'>>;

/** The rank_feature functions of a `rankFeature` entry. */
export interface RankFunction {
  boost?: number;
  saturation?: { pivot?: number };
  log?: { scaling_factor: number };
  sigmoid?: { pivot: number; exponent: number };
}

/** Popular suggestions: the most searched texts (search analytics) that match what is typed. */
export interface PopularSuggestionsConfig {
  size?: number;
  minCount?: number;
  minChars?: number;
  /** False: only the searches of this user (`settings.userId`, else the client's address). */
  showGlobal?: boolean;
  /** Index names or patterns, comma separated: only searches made on them. */
  index?: string;
  /** Only searches recorded with these custom events. */
  customEvents?: Record<string, string | number | boolean>;
  sectionLabel?: string;
}

/** Recent suggestions: this user's latest searches (search analytics) that match what is typed. */
export interface RecentSuggestionsConfig {
  size?: number;
  minHits?: number;
  minChars?: number;
  index?: string;
  customEvents?: Record<string, string | number | boolean>;
  sectionLabel?: string;
}

export interface Component {
  id: string;
  type?: ComponentType;
  dataField?: DataField;
  /** Deprecated by ReactiveSearch for `dataField` weights: the weight of each `dataField` string, in order. */
  fieldWeights?: number[];
  value?: unknown;
  react?: ReactExpression;
  /** `or`, `and`, or (range components) an Elasticsearch date format the bounds are written in. */
  queryFormat?: string;
  size?: number;
  from?: number;
  sortBy?: 'asc' | 'desc' | 'count';
  sortField?: SortField;
  includeFields?: string[];
  excludeFields?: string[];
  highlight?: boolean;
  highlightField?: string | string[];
  highlightConfig?: Record<string, unknown>;
  customHighlight?: Record<string, unknown>;
  fuzziness?: 0 | 1 | 2 | 'AUTO';
  searchOperators?: boolean;
  queryString?: boolean;
  enableSynonyms?: boolean;
  categoryField?: string;
  categoryValue?: string | null;
  nestedField?: string;
  aggregationField?: string;
  aggregationSize?: number;
  after?: Record<string, string | number | boolean | null>;
  pagination?: boolean;
  showMissing?: boolean;
  missingLabel?: string;
  selectAllLabel?: string;
  includeValues?: string[];
  excludeValues?: string[];
  includeNullValues?: boolean;
  interval?: number;
  calendarInterval?: string;
  aggregations?: Array<'min' | 'max' | 'histogram'>;
  range?: { start?: number | string | null; end?: number | string | null };
  distinctField?: string;
  distinctFieldConfig?: { inner_hits?: Record<string, unknown> | Array<Record<string, unknown>>; max_concurrent_group_searches?: number };
  rankFeature?: Record<string, RankFunction>;
  compoundClause?: 'must' | 'filter';
  deepPagination?: boolean;
  deepPaginationConfig?: { cursor?: unknown };
  execute?: boolean;
  index?: string;
  defaultQuery?: RawQuery;
  customQuery?: RawQuery;
  // kNN reordering
  vectorDataField?: string;
  queryVector?: number[];
  candidates?: number;
  script?: string;
  // suggestions
  enablePopularSuggestions?: boolean;
  popularSuggestionsConfig?: PopularSuggestionsConfig;
  enableRecentSuggestions?: boolean;
  recentSuggestionsConfig?: RecentSuggestionsConfig;
  enableIndexSuggestions?: boolean;
  indexSuggestionsConfig?: { sectionLabel?: string; size?: number };
  showDistinctSuggestions?: boolean;
  enablePredictiveSuggestions?: boolean;
  maxPredictedWords?: number;
  urlField?: string;
  applyStopwords?: boolean;
  customStopwords?: string[];
  searchLanguage?: string;
  // known, refused when they ask for what the gateway does not do (see validate.ts)
  enableFeaturedSuggestions?: boolean;
  featuredSuggestionsConfig?: Record<string, unknown>;
  enableFAQSuggestions?: boolean;
  FAQSuggestionsConfig?: Record<string, unknown>;
  enableDocumentSuggestions?: boolean;
  documentSuggestionsConfig?: Record<string, unknown>;
  enableEndpointSuggestions?: boolean;
  searchboxId?: string;
  endpoint?: Record<string, unknown>;
  enableAI?: boolean;
  AIConfig?: Record<string, unknown>;
  imageValue?: string;
}

export interface DeclarativeSettings {
  backend?: EngineKind;
  recordAnalytics?: boolean;
  userId?: string;
  customEvents?: Record<string, string | number | boolean>;
  /** With `recordAnalytics`: a search with no value is recorded too (as `<empty_query>`). */
  emptyQuery?: boolean;
  useCache?: boolean;
  enableQueryRules?: boolean;
  /** False: the search relevancy settings stored for the indices are not applied. */
  enableSearchRelevancy?: boolean;
  /** A query rule under test (lib/rules), applied first as if it were stored, without saving it. */
  queryRule?: Record<string, unknown>;
  /** Sent by ReactiveSearch clients for themselves (suggestion click recording, their URL parameters); not used. */
  suggestionAnalytics?: boolean;
  queryParams?: Record<string, unknown>;
}

export interface DeclarativeRequest {
  query: Component[];
  settings?: DeclarativeSettings;
  /** The client's own data about the request; kept out of the search. */
  metadata?: Record<string, unknown>;
}
