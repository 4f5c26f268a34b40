export { InvertedIndex, NestedIndex, type IndexableDocument } from './inverted-index.js';
export { FieldIndex } from './field-index.js';
export { DocValues, type DocValue } from './doc-values.js';
export { SliceReader } from './int-slice-pool.js';
export { LENGTH_TABLE, intToByte4, byte4ToInt } from './small-float.js';
