export { buildCall, choosePath, chooseMethod, loadApiSpecs, ParamError, serialiseBody, toApiSpec } from './api-spec.js';
export type { ApiPath, ApiSpec, ApiSpecs, HttpCall } from './api-spec.js';
export {
  AssertionFailure,
  assertComparison,
  assertContains,
  assertIsFalse,
  assertIsTrue,
  assertLength,
  assertMatch,
  isTruthy,
} from './assertions.js';
export { parseTestFile, loadTestFile, listYamlFiles } from './load-suite.js';
export type { Step, TestCase, TestFile } from './load-suite.js';
export { lookup, splitPath } from './object-path.js';
export { formatSummary, formatFailure, tally } from './report.js';
export { runSuites } from './run-suites.js';
export type { RunOptions } from './run-suites.js';
export { startServer } from './server-process.js';
export { CLAIMED_VERSION, parseVersion, requiresReason, skipReason, versionInRanges } from './skip.js';
export { callSkipReason, fileSkipReason, loadSkipList, testSkipReason } from './skip-list.js';
export type { SkipList } from './skip-list.js';
export { Stash, StashMissError } from './stash.js';
export type { TestResult, TestStatus, Failure } from './test-result.js';
