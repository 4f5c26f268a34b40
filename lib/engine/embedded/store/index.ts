export { Store, type StoreWrite } from './store.js';
export type { IndexMetadata, StoredDocument, FlatSettings, AliasDefinition, DocsRef } from './types.js';
export { decodeDocRecord, docRecordMaxBytes, writeDocRecord } from './doc-record.js';
export { MAX_INDEX_DATABASES } from './writer-protocol.js';
