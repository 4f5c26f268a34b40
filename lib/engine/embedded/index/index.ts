export { InvertedIndex } from './inverted-index.js';
export { FieldIndex, type Postings } from './field-index.js';
