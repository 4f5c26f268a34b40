// With SPEC_TIMINGS=<file>, each spec file's wall time (its hooks and tests) is appended to <file>
// as a line {"file","ms"}: the input of spec/support/durations.json (spec-files.cjs turns the lines
// into the table). A root hook plugin: in parallel mode (the default run) root hooks run once per
// file, in the worker that runs it; a serial run has the tally reporter write the same lines.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

let started = 0;
exports.mochaHooks = {
  beforeAll() {
    started = Date.now();
  },
  afterAll() {
    const root = this.test.parent;
    const file = root.file ?? root.suites.find((s) => s.file)?.file ?? root.tests.find((t) => t.file)?.file;
    if (!file || !process.env.SPEC_TIMINGS) return;
    fs.appendFileSync(process.env.SPEC_TIMINGS, JSON.stringify({ file: path.relative(process.cwd(), file), ms: Date.now() - started }) + '\n');
  },
};
