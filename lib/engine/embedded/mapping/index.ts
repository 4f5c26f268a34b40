export type { FieldMapping, Mappings, DynamicSetting } from './types.js';
export { fieldType, normalizeDynamic, NUMERIC_TYPES, INTEGER_TYPES, OBJECT_TYPES } from './types.js';
export { dynamicStringMapping } from './dynamic.js';
export { validateMappings, mergeMappings } from './merge.js';
export { documentParsingError } from './errors.js';
export { parseDocument, resolveFieldMapping, type IndexableField, type ParsedDocument } from './parse-document.js';
export { keywordTerm, numericTerm, coerceNumber, coerceBoolean, indexAnalyzerName } from './field-values.js';
export { parseDateValue } from './dates.js';
