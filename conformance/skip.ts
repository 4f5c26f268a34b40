/**
 * Whether a `skip` (or `requires`) section excludes a test for the version and runner
 * features we claim. Version ranges follow the suites: "min - max" with either bound open,
 * several ranges separated by commas, and "all".
 */

export type Version = readonly [number, number, number];

/** The Elasticsearch version the gateway claims to be. */
export const CLAIMED_VERSION = '8.11.0';

/** Runner features this runner implements (or may safely ignore, like node_selector). */
export const SUPPORTED_FEATURES: ReadonlySet<string> = new Set([
  'headers',
  'stash_in_path',
  'stash_in_key',
  'embedded_stash_key',
  'warnings',
  'warnings_regex',
  'allowed_warnings',
  'allowed_warnings_regex',
  'contains',
  'close_to',
  'is_after',
  'exists',
  'catch_unauthorized',
  'default_shards',
  'node_selector',
  'transform_and_set',
  'arbitrary_key',
]);

export function parseVersion(text: string): Version {
  const parts = text.trim().split('.');
  const number = (i: number): number => {
    const match = /^\d+/.exec(parts[i] ?? '');
    return match ? Number(match[0]) : 0;
  };
  return [number(0), number(1), number(2)];
}

export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return 0;
}

/** True when `version` falls in any of the comma-separated ranges of `ranges`. */
export function versionInRanges(ranges: string, version: Version): boolean {
  const text = ranges.trim();
  if (text === 'all') return true;
  return text.split(',').some((range) => {
    const dash = range.indexOf(' - ') >= 0 ? range.indexOf(' - ') : range.indexOf('-');
    if (dash < 0) {
      const only = range.trim();
      return only !== '' && compareVersions(parseVersion(only), version) === 0;
    }
    const lower = range.slice(0, dash).trim();
    const upper = range.slice(dash + (range[dash] === ' ' ? 3 : 1)).trim();
    const aboveLower = lower === '' || compareVersions(version, parseVersion(lower)) >= 0;
    const belowUpper = upper === '' || compareVersions(version, parseVersion(upper)) <= 0;
    return aboveLower && belowUpper;
  });
}

export interface SkipContext {
  version: Version;
  features: ReadonlySet<string>;
}

/** The reason a `skip:` section excludes the test, or undefined when the test runs. */
export function skipReason(section: unknown, context: SkipContext): string | undefined {
  if (section === null || typeof section !== 'object') return undefined;
  const skip = section as Record<string, unknown>;
  const reason = typeof skip.reason === 'string' ? skip.reason : 'no reason given';
  if (typeof skip.version === 'string' && versionInRanges(skip.version, context.version)) {
    return `version ${skip.version}: ${reason}`;
  }
  const missing = listOf(skip.features).filter((feature) => !context.features.has(feature));
  if (missing.length > 0) return `feature not supported: ${missing.join(', ')}`;
  if (skip.awaits_fix !== undefined) return `awaits fix: ${String(skip.awaits_fix)}`;
  if (skip.cluster_features !== undefined) return `cluster features: ${listOf(skip.cluster_features).join(', ')}`;
  return undefined;
}

/**
 * The reason a `requires:` section (a file-level document in the client tests, or a step in
 * newer suites) excludes the test. We are a stack (not serverless) deployment.
 */
export function requiresReason(section: unknown, context: SkipContext): string | undefined {
  if (section === null || typeof section !== 'object') return undefined;
  const requires = section as Record<string, unknown>;
  if (requires.stack === false) return 'requires serverless (we are a stack deployment)';
  const missing = listOf(requires.test_runner_features).filter((feature) => !context.features.has(feature));
  if (missing.length > 0) return `feature not supported: ${missing.join(', ')}`;
  const clusterFeatures = listOf(requires.cluster_features);
  if (clusterFeatures.length > 0) return `requires cluster features: ${clusterFeatures.join(', ')}`;
  return undefined;
}

function listOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}
