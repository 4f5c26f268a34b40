export type TestStatus = 'passed' | 'failed' | 'skipped';

/** Where and why a test failed. */
export interface Failure {
  section: 'setup' | 'test' | 'teardown';
  /** 1-based index of the step within its section. */
  step: number;
  op: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
}

export interface TestResult {
  /** Test file path relative to the conformance directory. */
  file: string;
  /** Reporting group: suite plus the file's folder (`es7/index`). */
  folder: string;
  test: string;
  status: TestStatus;
  /** Why the test was skipped. */
  reason?: string;
  failure?: Failure;
  durationMs: number;
}
