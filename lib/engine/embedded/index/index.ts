export { InvertedIndex, NestedIndex, type IndexableDocument, type InvertedIndexSnapshot } from './inverted-index.js';
export { SnapshotReader, SnapshotWriter, codeVersion } from './snapshot.js';
export { FieldIndex } from './field-index.js';
export { DocValues, type DocValue, DV_NONE, DV_STRING, DV_NUMBER, DV_TRUE, DV_FALSE, DV_MULTI } from './doc-values.js';
export { SliceReader } from './int-slice-pool.js';
export { LENGTH_TABLE, intToByte4, byte4ToInt } from './small-float.js';
export { holdsWideCharacters, stringBytes, type CharBytes } from './memory-bytes.js';
