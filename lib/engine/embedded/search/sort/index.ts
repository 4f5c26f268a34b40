export { parseSort, parseSortParam, isScoreOrder, type SortSpec, type SortOrder, type SortMode } from './sort-spec.js';
export { resolveSorts, compareKeys, docOrderOf, fielddataDisabled, refuseMetadataFielddata, sortValuesOf, type ResolvedSort, type SortKey } from './sort-keys.js';
export { TopK } from './top-k.js';
export { float32Text } from './numbers.js';
export { sortsByIndexPrefix } from './index-order.js';
