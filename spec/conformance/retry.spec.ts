import { expect } from 'chai';
import { retryFailed } from '../../conformance/run-suites.js';
import type { TestResult } from '../../conformance/test-result.js';

const result = (file: string, test: string, status: TestResult['status']): TestResult => ({
  file,
  folder: 'es7/x',
  test,
  status,
  durationMs: 1,
  ...(status === 'failed' ? { failure: { section: 'test', step: 1, op: 'match', message: 'no' } } : {}),
});

describe('conformance runner: --retry-failed', () => {
  it('runs only the files with a failure again, and counts a test that passes then as flaky', async () => {
    const first = [result('a.yml', 'one', 'passed'), result('b.yml', 'two', 'failed'), result('c.yml', 'three', 'failed')];
    const asked: string[][] = [];
    const flaky: string[] = [];
    const out = await retryFailed(
      first,
      async (files) => {
        asked.push(files);
        return [result('b.yml', 'two', 'passed'), result('c.yml', 'three', 'failed')];
      },
      (r) => flaky.push(r.test),
    );
    expect(asked).to.deep.equal([['b.yml', 'c.yml']]);
    expect(out.map((r) => r.status)).to.deep.equal(['passed', 'passed', 'failed']);
    expect(flaky).to.deep.equal(['two']);
  });

  it('does not run anything again when nothing failed', async () => {
    const first = [result('a.yml', 'one', 'passed')];
    const out = await retryFailed(first, async () => expect.fail('ran again'), () => expect.fail('flaky'));
    expect(out).to.equal(first);
  });
});
