/**
 * The APIs of today's clients that the gateway and its engines deliberately do not serve, each
 * with its reason. Each is still called: it must answer as Elasticsearch answers a path it has no
 * handler for (400 `no handler found for uri [...] and method [...]`), or 405 for a known path.
 */
const NOT_SERVED: Array<[RegExp, string]> = [
  // Elasticsearch's commercial (X-Pack) features: none of them is part of the engine (OpenSearch ML Commons' model groups are served)
  [/^(?!ml\.(get|delete|search|register|update)_model_group$)(async_search|autoscaling|ccr|connector|enrich|eql|esql|fleet|graph|ilm|inference|license|logstash|migration|ml|monitoring|profiling|rollup|search_application|searchable_snapshots|shutdown|slm|ssl|streams|text_structure|transform|watcher|xpack)\./, 'an X-Pack feature of Elasticsearch, not part of the engine'],
  // Elasticsearch's SQL (X-Pack); OpenSearch's SQL plugin is its namesake: only its stats are answered (all zero)
  [/^sql\.(?!(get|post)_stats$)/, "an X-Pack feature of Elasticsearch, or OpenSearch's SQL plugin (its stats are answered), not part of the engine"],
  [/^cat\.(ml_\w+|transforms)$/, 'lists an X-Pack feature of Elasticsearch, not part of the engine'],
  [/^security\.(?!(authenticate|authinfo|get_account_details|(get|post)_dashboards_info|health|who_am_i|who_am_i_?protected)$)/,
    "Elasticsearch's security realm and the Security plugin's configuration: the gateway's own credentials (/_credentials) take their place; only who the caller is (authenticate(), and the plugin's authinfo, whoami, health, dashboards info and account) is answered"],
  [/^project\./, 'serverless projects are not part of the engine'],
  [/^simulate\.ingest$/, 'ingest simulation against index templates (8.12+) is not implemented; ingest.simulate is'],
  [/^features\./, 'no plugins, so no feature states'],
  [/^cluster\.(reroute|post_voting_config_exclusions|delete_voting_config_exclusions)$/, 'one node, no shard allocation to reroute or vote on'],
  [/^dangling_indices\.(import|delete)_dangling_index$/, 'one node: no dangling index to import or delete (the list is served, and empty)'],
  [/^snapshot\.|^cat\.snapshots$/, 'no snapshot repositories: the engine is backed up by copying its data directory'],
  [/^nodes\.(clear_metering_archive|clear_repositories_metering_archive)$/, 'no repository metering'],
  [/^indices\.(flush_synced|freeze|unfreeze)$/, 'removed from Elasticsearch 8 (the 7.x client still lists it)'],
  [/^indices\.exists_type$/, 'mapping types were removed in Elasticsearch 8'],
  [/^indices\.(disk_usage|field_usage_stats)$/, 'Lucene per-field disk and usage internals the engine does not have'],
  [/^indices\.(resolve_cluster|downsample|create_from|migrate_to_data_stream|promote_data_stream)$/, 'not implemented by the engine'],
  [/^indices\.((get|put|delete|explain)_data_lifecycle|get_data_lifecycle_stats|(get|put|delete)_data_stream_(options|settings|mappings)|(cancel_)?migrate_reindex|get_migrate_reindex_status)$/, 'data stream lifecycle, options and migration (8.11+) are not implemented'],
  [/^ingest\.(\w+_geoip_database|\w+_ip_location_database|geo_ip_stats)$/, 'no GeoIP databases (the geoip processor is not part of the engine)'],
  [/^(cancel_reindex|get_reindex|list_reindex)$/, 'the reindex management APIs of Elasticsearch 9.2+; reindex tasks are served through /_tasks'],
  [/^(capabilities|health_report)$/, 'not implemented by the engine'],
  [/^(terms_enum|search_mvt)$/, 'not implemented by the engine'],
  // OpenSearch's own APIs and plugins: the engine is Elasticsearch-compatible
  [/^ppl\.(?!(get|post)_stats$)/, "OpenSearch's SQL plugin's PPL (its stats are answered), not part of Elasticsearch"],
  [/^(ingestion|insights|neural|query|remote_store|replication|search_relevance|security_analytics|sm|ubi|wlm)\./, 'an OpenSearch plugin or OpenSearch-only API, not part of Elasticsearch'],
  [/^geospatial\.(?!(geojson_upload_post|geojson_upload_put|get_upload_stats)$)/, "the geospatial plugin's IP2Geo datasources download GeoIP databases (its GeoJSON upload is served)"],
  [/^(knn\.(?!stats$|warmup$)|notifications\.(?!list_features$|list_channels$))/, "an OpenSearch plugin's API (its stats, warmup, features and channels are answered), not part of Elasticsearch"],
  [/^ism\.refresh_search_analyzers$/, "ISM's reload of updateable synonym files: the engine reads no synonym file (its other ISM APIs are answered)"],
  [/^(cat\.(circuit_breaker|component_templates)|cluster\.(\w+_decommission_awareness|\w+_weighted_routing|info)|tasks\.delete)$/, 'not implemented by the engine'],
  [/^http\.(options|patch|trace)$/, 'no Elasticsearch API takes this method'],
];

/**
 * APIs whose path Elasticsearch (without the plugin that would own it) answers as another API:
 * the gateway does the same, and says so.
 */
const ANSWERED_AS: Record<string, [string, string]> = {
  'shutdown.get_node': ['nodes.info for a node named "shutdown" (GET /_nodes/shutdown)', 'node shutdown is an X-Pack feature'],
  'ingestion.get_state': ['a document read in the app-addressed style (GET /{app}/{type}/{id}: 404, found false)', "OpenSearch's pull-based ingestion is an OpenSearch-only API"],
};

/** The clients that serve an API otherwise unserved: the 7.x client in compatibility mode has typed mappings. */
const SERVED_FOR: Record<string, string[]> = { 'indices.exists_type': ['es7c'] };

/**
 * The same for one client only: an API otherwise served, whose path that client calls with a
 * method that reaches another API.
 */
const ANSWERED_AS_FOR: Record<string, Record<string, [string, string]>> = {
  'transforms.preview': {
    os2: [
      'a read of the transform named "_preview" (GET /_plugins/_transform/{id}: 404 "Transform not found", or 400 with a body)',
      "the 2.x client sends GET: OpenSearch's index-management plugin previews on POST only (RestPreviewTransformAction); the 3.x client posts",
    ],
  },
};

export function notServed(api: string, client: string): { reason: string; answersAs?: string } | undefined {
  if (SERVED_FOR[api]?.includes(client)) return undefined;
  const answered = ANSWERED_AS_FOR[api]?.[client] ?? ANSWERED_AS[api];
  if (answered) return { reason: answered[1], answersAs: answered[0] };
  const reason = NOT_SERVED.find(([pattern]) => pattern.test(api))?.[1];
  return reason ? { reason } : undefined;
}

/**
 * The Security plugin's API as the OpenSearch clients call it (`/_plugins/_security/…`): the gateway
 * answers it from its own model (lib/auth/security-plugin-config-api.ts): what is a fact of that
 * model is served; the rest (internal users, roles, role mappings, action groups, tenants, tokens,
 * certificates, writes of configuration it has no such thing for) is refused in the plugin's shape,
 * `{"status","message"}` or its plain text, with the reason. Who the caller is stays served as above.
 */
const GATEWAY_SECURITY_PLUGIN = /^security\.(?!(authinfo|get_account_details|(get|post)_dashboards_info|health|who_am_i|who_am_i_?protected)$)/;

export function answeredByGatewaySecurityPlugin(api: string, client: string): string | undefined {
  return client.startsWith('os') && GATEWAY_SECURITY_PLUGIN.test(api)
    ? "the Security plugin's API, answered by the gateway from its own model: facts of it served, the multi-grant configuration (internal users, roles, mappings, action groups, tenants, tokens) refused in the plugin's shape"
    : undefined;
}

/** Members of a client's API surface that are not calls of a server API of their own. */
const NOT_CALLED: Record<string, string> = {
  'http.connect': 'HTTP CONNECT opens a proxy tunnel: no REST API takes it, and the client\'s own transport (undici) refuses it',
  'http.request': "OpenSearch 2's raw call, (method, params): every other http.* method goes through it, and each is called",
};

export function notCalled(api: string): string | undefined {
  return NOT_CALLED[api];
}

/**
 * What a read-only credential scoped to the run's indices may not do, and why: each is called,
 * and must be refused (403 `security_exception`), as Elasticsearch refuses a role with index
 * `read` alone.
 */
export const READ_REFUSED: Record<string, string> = {
  info: 'cluster:monitor/main is a cluster privilege (Elasticsearch refuses GET / to a role with index privileges only)',
  ping: 'HEAD / is cluster:monitor/main too',
  index: 'a write',
  delete: 'a delete',
  'indices.delete': "an index's deletion",
};

/** The APIs a read-only credential scoped to the run's indices calls: these must work. */
export const READ_APIS = new Set([
  ...Object.keys(READ_REFUSED), 'indices.exists', 'search', 'count', 'get', 'get_source', 'exists', 'exists_source', 'mget', 'msearch', 'explain', 'field_caps',
  'termvectors', 'mtermvectors', 'search_template', 'msearch_template', 'indices.get_mapping', 'indices.get_field_mapping',
  'open_point_in_time', 'terms_enum', 'validate_query', 'indices.validate_query',
]);
