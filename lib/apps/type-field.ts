/**
 * Where the gateway keeps a document's app-style type. Elasticsearch 8 has no types, so the type
 * is stored as an ordinary keyword field and hidden from `_source` in app-style responses.
 */
export const TYPE_FIELD = '_gateway_type';
