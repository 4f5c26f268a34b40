/**
 * The layers of lib/, enforced in `make test` (npm run lint:layers):
 *   core (errors, config, request, ndjson, wildcard, cooperative, breakers, connections,
 *         rest-compat, point-in-time)
 *   → engine (the Backend contract, both engines, index-pattern semantics)
 *   → changes, records → interceptors and features (auth, streams, cache, logs, …)
 *   → metrics, server → main.ts
 * A folder imports only from its own layer or the ones before it, and from another folder only
 * through one of that folder's index.ts barrels. No two folders import each other, directly or
 * through others: dependency-cruiser has no folder-level cycle rule, so spec/unit/layers.spec.ts
 * checks that on the folder graph it reports.
 */
const CORE = '^lib/(errors|config|request|ndjson|wildcard|cooperative|breakers|connections|rest-compat|point-in-time)/';
const ENGINE = '^lib/engine/';
const BUS = '^lib/(changes|records)/';
const TOP = '^lib/(server/|metrics/|main\\.ts)';

module.exports = {
  forbidden: [
    {
      name: 'core-imports-core-only',
      severity: 'error',
      from: { path: CORE },
      to: { path: '^lib/', pathNot: [CORE] },
    },
    {
      name: 'engine-imports-core-only',
      severity: 'error',
      from: { path: ENGINE },
      to: { path: '^lib/', pathNot: [CORE, ENGINE] },
    },
    {
      name: 'bus-imports-engine-and-core',
      severity: 'error',
      from: { path: BUS },
      to: { path: '^lib/', pathNot: [CORE, ENGINE, BUS] },
    },
    {
      name: 'nothing-imports-server',
      severity: 'error',
      from: { path: '^lib/', pathNot: TOP },
      to: { path: TOP },
    },
    {
      name: 'through-index',
      comment: 'Another folder is reached through its index.ts.',
      severity: 'error',
      from: { path: '^lib/([^/]+)/' },
      to: { path: '^lib/([^/]+)/.+', pathNot: ['^lib/$1/', '/index\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '^(dist|spec|bench|conformance|console)/' },
  },
};
