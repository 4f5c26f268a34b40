export { Store, type StoreWrite } from './store.js';
export type { IndexMetadata, StoredDocument, FlatSettings, AliasDefinition } from './types.js';
