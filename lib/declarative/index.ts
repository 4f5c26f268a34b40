export { declarativeRoutes } from './routes.js';
export { validateDeclarative, translateDeclarative, mayUseRawDsl, type ValidatedDeclarative, type ValidateOptions, type DeclarativeMsearch } from './validate.js';
export { shapeDeclarativeResponse, suggestionsOf, type DeclarativeResponse, type MsearchResponse, type Suggestion } from './shape-response.js';
export { translate, type Translation, type TranslateOptions, type DeclarativePlan, type ComponentPlan, type SourceRules } from './translate.js';
export { FieldCatalog, IndexMappings, type MappingsOf, type FieldInfo, type IndexMeta } from './field-catalog.js';
export { checkRequestShape, DECLARATIVE_SCHEMA } from './request-schema.js';
export { checkReactGraph } from './react-graph.js';
export type {
  DeclarativeRequest, DeclarativeSettings, Component, ComponentType, DataField, WeightedField, ReactExpression,
  GeoValue, GeoPoint, RangeValue, RawQuery,
} from './declarative-request.js';
