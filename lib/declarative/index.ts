export { declarativeRoutes } from './routes.js';
export type { DeclarativeObserver } from '../declarative-request/index.js';
export { checkIndexReferences } from './index-references.js';
export { validateDeclarative, translateDeclarative, mayUseRawDsl, type ValidatedDeclarative, type ValidateOptions, type DeclarativeMsearch } from './validate.js';
export { shapeDeclarativeResponse, suggestionsOf, type DeclarativeResponse, type MsearchResponse, type ResponseSettings, type Suggestion } from './shape-response.js';
export { indexSuggestions, type SuggestionHit } from './suggestion-hits.js';
export { translate, type Translation, type TranslateOptions, type DeclarativePlan, type ComponentPlan, type SuggestionPlan, type SourceRules } from './translate.js';
export { FieldCatalog, IndexMappings, type MappingsOf, type FieldInfo, type IndexMeta } from './field-catalog.js';
export { checkRequestShape, DECLARATIVE_SCHEMA } from '../declarative-request/index.js';
export { checkReactGraph } from './react-graph.js';
export { QUERY_SUGGESTIONS_INDEX } from './query-suggestions.js';
export type {
  DeclarativeRequest, DeclarativeSettings, Component, ComponentType, DataField, WeightedField, ReactExpression,
  GeoValue, GeoPoint, RangeValue, RawQuery, PopularSuggestionsConfig, RecentSuggestionsConfig,
} from '../declarative-request/index.js';
