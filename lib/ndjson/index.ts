/**
 * Newline-delimited JSON bodies (`_bulk`, `_msearch`) read one way for everyone: the gateway's
 * access check and the embedded engine use these readers, and what the gateway forwards is
 * rebuilt from what it read (`bulkText`, `msearchText`), so no engine can split a body into lines
 * the check did not see.
 */
export { trimJsonBlanks, LineCursor } from './lines.js';
export { readBulk, readBulkCooperatively, bulkText, type BulkAction, type BulkEntry } from './bulk.js';
export { readMsearch, msearchText, type MsearchEntry } from './msearch.js';
export { canonicalJson, sortedJson, jsonErrorReason, tokenName, isJsonObject, parseJsonText, parseJsonWithin, nestsTooDeep, hasLongDigitRun, holdsRoundedInteger, holdsBigInt, losslessText, exactJson, exactNumber, jsonTextKeepingIntegers, exactIntegersOf, withExactIntegers } from './json-text.js';
