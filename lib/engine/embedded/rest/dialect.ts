import { ES_VERSION, warningHeader } from '../../../rest-compat/index.js';
import type { EngineContext, RestRequest } from './types.js';

/**
 * Whose answers the engine gives where Elasticsearch 8 and OpenSearch 2 differ: `auto` answers as
 * OpenSearch 2 to a request from an OpenSearch client (its User-Agent names one), `elasticsearch`
 * and `opensearch` answer every request as that engine does. Everything both serve alike, and
 * every path only one of them has, is answered the same in every dialect.
 */
export type ApiDialect = 'auto' | 'elasticsearch' | 'opensearch';

/** OpenSearch's clients name themselves first: `opensearch-js/2.13.0 (…)`, `opensearch-py/2.7.1 (…)`, `opensearch-java/…`. */
const OPENSEARCH_CLIENT = /^opensearch-[a-z]+\//i;

/** Whether this request is answered as OpenSearch 2 answers it. */
export function speaksOpenSearch(req: RestRequest, ctx: EngineContext): boolean {
  const dialect = ctx.apiDialect ?? 'auto';
  if (dialect !== 'auto') return dialect === 'opensearch';
  const agent = req.headers['user-agent'];
  return OPENSEARCH_CLIENT.test(Array.isArray(agent) ? agent[0] : agent ?? '');
}

/** `GET /`'s `version` as OpenSearch 2.19 answers it (its `distribution` is what its clients and tools read). */
export const OPENSEARCH_VERSION = {
  distribution: 'opensearch',
  number: '2.19.0',
  build_type: 'tar',
  build_hash: 'fd9a9d90df25bea1af2c6a85039692e815b894f5',
  build_date: '2025-02-04T19:21:38.017716254Z',
  build_snapshot: false,
  lucene_version: '9.12.1',
  minimum_wire_compatibility_version: '7.10.0',
  minimum_index_compatibility_version: '7.0.0',
};

export const OPENSEARCH_TAGLINE = 'The OpenSearch Project: https://opensearch.org/';

/** The attributes a default OpenSearch 2 node advertises (no X-Pack's; shard indexing pressure's switch). */
export const OPENSEARCH_NODE_ATTRIBUTES: Readonly<Record<string, string>> = { shard_indexing_pressure_enabled: 'true' };

/** Lucene's version, as segments and `_upgrade` report it: Elasticsearch 8.15's, or OpenSearch 2.19's. */
export function luceneVersion(req: RestRequest, ctx: EngineContext): string {
  return speaksOpenSearch(req, ctx) ? OPENSEARCH_VERSION.lucene_version : ES_VERSION.lucene_version;
}

/** A deprecation warning as the dialect's HeaderWarning writes it: OpenSearch's agent text, or Elasticsearch's. */
export function dialectWarning(req: RestRequest, ctx: EngineContext, message: { openSearch: string; elasticsearch: string }): string {
  if (!speaksOpenSearch(req, ctx)) return warningHeader([message.elasticsearch]);
  return warningHeader([message.openSearch], `OpenSearch-${OPENSEARCH_VERSION.number}-${OPENSEARCH_VERSION.build_hash}`);
}

/**
 * The roles of a default OpenSearch 2 node, sorted by name as DiscoveryNode keeps them
 * (DiscoveryNodeRole.BUILT_IN_ROLES: no data tiers, machine learning or transform roles), and
 * their `_cat/nodes` abbreviations.
 */
const OPENSEARCH_NODE_ROLES: ReadonlyArray<[role: string, abbreviation: string]> = [
  ['cluster_manager', 'm'], ['data', 'd'], ['ingest', 'i'], ['remote_cluster_client', 'r'],
];

/** The node's roles in the dialect's names. */
export function nodeRoles(req: RestRequest, ctx: EngineContext): string[] {
  return speaksOpenSearch(req, ctx) ? OPENSEARCH_NODE_ROLES.map(([r]) => r) : ctx.node.roles;
}

/** The roles' abbreviations, sorted (RestNodesAction.getRoleAbbreviationString): `dimr` to OpenSearch clients. */
export function nodeRoleAbbreviations(req: RestRequest, ctx: EngineContext): string {
  return speaksOpenSearch(req, ctx) ? OPENSEARCH_NODE_ROLES.map(([, a]) => a).sort().join('') : ctx.node.roleAbbreviations;
}

/** The node's attributes: OpenSearch's own, or those of an Elasticsearch node with X-Pack. */
export function nodeAttributes(req: RestRequest, ctx: EngineContext): Readonly<Record<string, string>> {
  return speaksOpenSearch(req, ctx) ? OPENSEARCH_NODE_ATTRIBUTES : ctx.node.attributes;
}
