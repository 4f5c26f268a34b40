import { dataStreamOfBackingName } from './data-stream-names.js';
import { simpleMatch } from '../wildcard/index.js';

/**
 * What index patterns mean for access, on both sides of the engine's door: the gateway's
 * authorization (lib/auth) and the embedded engine's own check where it acts.
 */

/** Indices of the gateway's own configuration: reachable by the admin alone. */
export const SYSTEM_INDEX_PREFIX = '.gateway-';

/**
 * The system indices the engine's own plugins keep (OpenSearch's system index descriptors, which
 * its security plugin protects from every user, the admin included): reachable through their
 * plugins' APIs only — the Observability plugin's saved objects (`_plugins/_observability`), the
 * Flow Framework plugin's workflow templates, states and configuration (`_plugins/_flow_framework`),
 * ML Commons' model groups (`_plugins/_ml/model_groups`).
 */
export const PLUGIN_SYSTEM_INDICES: readonly string[] = ['.opensearch-observability', '.plugins-flow-framework-templates', '.plugins-flow-framework-state', '.plugins-flow-framework-config', '.plugins-ml-model-group'];

/**
 * Each kind of system index, the one statement of which names are system indices: every name that
 * starts with a prefix (the gateway's `.gateway-*`), or one exact name (a plugin's index). What a
 * name, a wildcard or an exclusion reaches of them is derived from these alone.
 */
export type SystemIndexFamily = { readonly prefix: string } | { readonly name: string };

export const SYSTEM_INDEX_FAMILIES: readonly SystemIndexFamily[] = [{ prefix: SYSTEM_INDEX_PREFIX }, ...PLUGIN_SYSTEM_INDICES.map((name) => ({ name }))];

/** Is the concrete index name one of the family's? */
export function familyHolds(family: SystemIndexFamily, name: string): boolean {
  return 'prefix' in family ? name.startsWith(family.prefix) : name === family.name;
}

/** Could a wildcard whose literal text before its first `*` is `prefix` match one of the family's names? */
export function familyReachedFrom(family: SystemIndexFamily, prefix: string): boolean {
  return 'prefix' in family ? family.prefix.startsWith(prefix) || prefix.startsWith(family.prefix) : family.name.startsWith(prefix);
}

/** The exclusion that takes every one of the family's names out of a list (`-.gateway-*`, `-.opensearch-observability`). */
export function familyExclusion(family: SystemIndexFamily): string {
  return 'prefix' in family ? `-${family.prefix}*` : `-${family.name}`;
}

/** Does the pattern (an exclusion's, without its `-`) match every one of the family's names? */
export function familyCoveredBy(family: SystemIndexFamily, pattern: string): boolean {
  // a prefix family's names are every continuation of its prefix: only a trailing `*` after a start of it matches them all
  return 'prefix' in family ? pattern.indexOf('*') === pattern.length - 1 && family.prefix.startsWith(pattern.slice(0, -1)) : wildcardMatches(pattern, family.name);
}

export interface AuthorizeIndicesOptions {
  /** The admin reaches every index, system indices included. */
  admin?: boolean;
  /**
   * For expressions the caller cannot rewrite (a `_bulk` line's `_index`, an unreadable body
   * reported as `*`): a wildcard must then be covered whole instead of being narrowed.
   */
  strictWildcards?: boolean;
  /**
   * With `strictWildcards`: `_all` is written by the caller (in the path, a parameter or the body),
   * not the reading of a request on no named index. It then stands for every index when the engine
   * acts, one created since the check among them, and must be within the patterns as `*` would be.
   */
  allWritten?: boolean;
}

export function isSystemIndex(name: string): boolean {
  return SYSTEM_INDEX_FAMILIES.some((family) => familyHolds(family, name));
}

/**
 * Could a wildcard whose literal text before its first `*` is `prefix` match a system index
 * (`*`, `.g*`, `.gateway-c*`, `.opensearch-*`)?
 */
export function prefixReachesSystemIndex(prefix: string): boolean {
  return SYSTEM_INDEX_FAMILIES.some((family) => familyReachedFrom(family, prefix));
}

/** `*`-wildcard match, as index patterns match names. */
export function wildcardMatches(pattern: string, name: string): boolean {
  return simpleMatch(pattern, name);
}

/**
 * Do a credential's patterns (names and wildcards) cover this concrete index name? System indices:
 * admin only. As Elasticsearch grants a data stream's backing indices with the stream, a backing
 * index (`.ds-<stream>-<date>-<generation>`, known by its name on both engines) is covered when
 * its stream's name is: `logs-*` reaches `.ds-logs-app-…`.
 */
export function patternsCover(patterns: readonly string[], name: string, options: AuthorizeIndicesOptions = {}): boolean {
  if (options.admin) return true;
  if (isSystemIndex(name)) return false;
  if (patterns.some((p) => wildcardMatches(p, name))) return true;
  const stream = dataStreamOfBackingName(name);
  return stream !== undefined && patternsCover(patterns, stream, options);
}

/**
 * Does every name the index pattern `requested` could ever match fall under the credential's
 * patterns? (For patterns granted in bodies — a new credential's `indices` — and for deciding that
 * a wildcard needs no narrowing.) A pattern that could match a system index is never covered.
 */
export function patternsCoverPattern(patterns: readonly string[], requested: string, options: AuthorizeIndicesOptions = {}): boolean {
  if (options.admin) return true;
  if (!requested.includes('*')) return patternsCover(patterns, requested, options);
  const prefix = requested.slice(0, requested.indexOf('*'));
  if (prefixReachesSystemIndex(prefix)) return false;
  // A pattern whose wildcards can absorb `requested`'s wildcards matches every name `requested` matches.
  return patterns.some((p) => wildcardMatches(p, requested));
}
