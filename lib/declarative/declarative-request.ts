/** The declarative query API's request, as the JSON schema (`request-schema.ts`) admits it. */

export const COMPONENT_TYPES = ['search', 'term', 'range', 'geo', 'suggestion'] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

export const BACKENDS = ['elasticsearch', 'opensearch'] as const;
export type EngineKind = (typeof BACKENDS)[number];

export interface WeightedField {
  field: string;
  weight?: number;
}

export type DataField = string | Array<string | WeightedField>;

/** `"id"`, `["a", "b"]` (and), or `{and|or|not: …}`, nested at will. */
export type ReactExpression = string | ReactExpression[] | { and?: ReactExpression; or?: ReactExpression; not?: ReactExpression };

export interface GeoPoint {
  lat: number;
  lon: number;
}

export interface GeoValue {
  location?: GeoPoint;
  distance?: number;
  unit?: 'm' | 'km' | 'mi' | 'yd' | 'ft';
  geoBoundingBox?: { topLeft: GeoPoint; bottomRight: GeoPoint };
}

export interface RangeValue {
  start?: number | string;
  end?: number | string;
}

export type TermScalar = string | number | boolean;

/** A raw query DSL clause (`{"match_all":{}}`) or `{"query": clause}`; only for credentials allowed raw DSL. */
export type RawQuery = Record<string, unknown>;

export interface Component {
  id: string;
  type?: ComponentType;
  dataField?: DataField;
  value?: unknown;
  react?: ReactExpression;
  queryFormat?: 'or' | 'and';
  size?: number;
  from?: number;
  sortBy?: 'asc' | 'desc' | 'count';
  sortField?: string;
  includeFields?: string[];
  excludeFields?: string[];
  highlight?: boolean;
  highlightField?: string | string[];
  fuzziness?: 0 | 1 | 2 | 'AUTO';
  searchOperators?: boolean;
  aggregationField?: string;
  aggregationSize?: number;
  after?: Record<string, string | number | boolean | null>;
  showMissing?: boolean;
  interval?: number;
  execute?: boolean;
  index?: string;
  defaultQuery?: RawQuery;
  customQuery?: RawQuery;
}

export interface DeclarativeSettings {
  backend?: EngineKind;
  recordAnalytics?: boolean;
  userId?: string;
  customEvents?: Record<string, string>;
  /** With `recordAnalytics`: a search with no value is recorded too (as `<empty_query>`). */
  emptyQuery?: boolean;
  useCache?: boolean;
  enableQueryRules?: boolean;
  /** False: the search relevancy settings stored for the indices are not applied. */
  enableSearchRelevancy?: boolean;
  /** A query rule under test (lib/rules), applied first as if it were stored, without saving it. */
  queryRule?: Record<string, unknown>;
}

export interface DeclarativeRequest {
  query: Component[];
  settings?: DeclarativeSettings;
}
