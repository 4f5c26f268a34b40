// `mocha` runs every spec file, in parallel worker processes (SPEC_JOBS of them, default two per
// core: the integration specs wait on servers and processes much of the time). SPEC=unit takes
// only the unit specs (no I/O: seconds), SPEC=integration the rest; SPEC_SERIAL=1 runs in one
// process. Files come longest first (spec/support/spec-files.cjs). One file: `mocha --no-config
// --timeout 60000 --exit dist/spec/<path>.spec.js`.
'use strict';
const os = require('node:os');
const { selectSpecFiles } = require('./spec/support/spec-files.cjs');

const serial = process.env.SPEC_SERIAL === '1';
const jobs = Number(process.env.SPEC_JOBS) || Math.max(2, os.availableParallelism() * 2);

module.exports = {
  spec: selectSpecFiles(process.env.SPEC || 'all'),
  reporter: './spec/support/tally-reporter.cjs',
  timeout: 20000,
  exit: true,
  ...(serial ? {} : { parallel: true, jobs }),
  // SPEC_TIMINGS=<file>: each file's wall time, for `node spec/support/spec-files.cjs --record <file>`
  ...(!serial && process.env.SPEC_TIMINGS ? { require: ['./spec/support/file-timings.cjs'] } : {}),
};
