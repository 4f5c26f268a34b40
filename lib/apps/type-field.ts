/**
 * Where the gateway keeps a document's app-style type. Elasticsearch 8 has no types, so the type
 * is stored as an ordinary keyword field and hidden from `_source` in app-style responses.
 * (Defined with the change events, which carry it as `type`.)
 */
export { TYPE_FIELD } from '../changes/index.js';
