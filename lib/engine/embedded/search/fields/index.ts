export { parseFieldAndFormats, type FieldAndFormat } from './field-and-format.js';
export { fieldsFromSource, fieldsFromDocValues } from './fetch-fields.js';
export { leafFields, fieldPatternMatches, valuesAtPath, type LeafField } from './leaf-fields.js';
