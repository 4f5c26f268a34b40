/**
 * The declarative query language itself: its request's types and its JSON schema. The declarative
 * API (lib/declarative) answers it; query rules, relevancy settings, preferences and search
 * analytics read it — without depending on the API.
 */
export {
  COMPONENT_TYPES, BACKENDS,
  type ComponentType, type EngineKind, type WeightedField, type DataField, type ReactExpression, type GeoPoint, type GeoLocation,
  type GeoValue, type RangeValue, type TermScalar, type RawQuery, type SortField, type RankFunction, type PopularSuggestionsConfig,
  type RecentSuggestionsConfig, type Component, type DeclarativeSettings, type DeclarativeRequest,
} from './declarative-request.js';
export { TUNING_PROPERTIES, SEARCH_LANGUAGES, DECLARATIVE_SCHEMA, jsonPath, shapeCheck, checkRequestShape } from './request-schema.js';
export type { DeclarativeObserver } from './observer.js';
