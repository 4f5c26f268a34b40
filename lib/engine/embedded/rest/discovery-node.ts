import { ES_VERSION } from '../../../rest-compat/index.js';
import { INDEX_VERSION_CREATED } from '../indices/settings.js';
import { OPENSEARCH_NODE_ATTRIBUTES, speaksOpenSearch } from './dialect.js';
import type { EngineContext, RestRequest } from './types.js';

/**
 * The node, as DiscoveryNode.toXContent writes it under its id (shard stores, search shards):
 * Elasticsearch 8's with its external id, roles and versions (`versions: false` leaves those out,
 * as cluster state's nodes do), OpenSearch 2's with its name, ids, address and attributes only.
 */
export function discoveryNode(req: RestRequest, ctx: EngineContext, versions = true): Record<string, unknown> {
  const node = ctx.node;
  const address = { name: node.name, ephemeral_id: node.ephemeralId, transport_address: node.transportAddress };
  if (speaksOpenSearch(req, ctx)) return { ...address, attributes: OPENSEARCH_NODE_ATTRIBUTES };
  const described = { ...address, external_id: node.name, attributes: node.attributes, roles: node.roles };
  if (!versions) return described;
  return { ...described, version: ES_VERSION.number, min_index_version: 7000099, max_index_version: Number(INDEX_VERSION_CREATED) };
}
