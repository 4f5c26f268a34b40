export { Store, type StoreWrite } from './store.js';
export type { IndexMetadata, StoredDocument, FlatSettings, AliasDefinition, DocsRef } from './types.js';
export { encodeDocRecord, decodeDocRecord } from './doc-record.js';
