// The specs `npm run test:engines` runs against real engines (spec/engines/run.ts): the ones that
// iterate BACKENDS (spec/support/backends.ts), which under TEST_ENGINES holds the real-engine targets.
// With STREAM_MATCHING=engine (run.ts's second pass) only the stream specs run, every live search
// then decided by the engine.
'use strict';

const specs = (...files) => files.map((f) => `dist/spec/${f}.spec.js`);

const STREAMS = specs('streams/document-streams', 'streams/search-streams');
const ALL = [
  // the proxy path
  ...specs('server/elasticsearch-client', 'server/es7-typed-paths', 'server/bad-input', 'server/cors'),
  // app style
  ...specs('apps/app-addressed'),
  ...STREAMS,
  // access control
  ...specs('auth/access-control'),
  // declarative
  ...specs('declarative/reactivesearch', 'declarative/appbase-js5'),
  // pipelines
  ...specs('pipelines/pipelines'),
  // cache (its pipeline stage and cache preferences included)
  ...specs('cache/cache', 'cache/coverage', 'cache/race'),
  // analytics
  ...specs('analytics/recording', 'analytics/queries'),
];

module.exports = {
  spec: process.env.STREAM_MATCHING === 'engine' ? STREAMS : ALL,
  reporter: './spec/support/tally-reporter.cjs',
  // a real engine refreshes every second: searches that wait for a write take longer than on the embedded one
  timeout: 60000,
  exit: true,
};
