/** The Elasticsearch version the gateway and the embedded engine answer as (`GET /`, warnings' agent, `_nodes`). */
export const ES_VERSION = {
  number: '8.15.0',
  build_flavor: 'default',
  build_type: 'tar',
  build_hash: '1a77947f34deddb41af25e6f0ddb8e830159c179',
  build_date: '2024-08-05T10:05:34.233336849Z',
  build_snapshot: false,
  lucene_version: '9.11.1',
  minimum_wire_compatibility_version: '7.17.0',
  minimum_index_compatibility_version: '7.0.0',
};
