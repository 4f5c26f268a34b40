export { parseFieldAndFormats, type FieldAndFormat } from './field-and-format.js';
export { docValueFieldCount, docValueFieldNames, fieldsFromSource, fieldsFromDocValues } from './fetch-fields.js';
export { leafFields, valuesAtPath, type LeafField } from './leaf-fields.js';
