// `mocha` runs every spec file, in one process, or in SPEC_JOBS parallel worker processes when
// set (2 or more). SPEC=unit takes only the unit specs (no I/O: seconds), SPEC=integration the
// rest; SPEC_SERIAL=1 forces one process. Files come longest first (spec/support/spec-files.cjs). One file: `mocha --no-config
// --timeout 60000 --exit dist/spec/<path>.spec.js`.
'use strict';
const { selectSpecFiles } = require('./spec/support/spec-files.cjs');

// Serial unless SPEC_JOBS asks for workers: on this 2-core machine four workers finish sooner
// (a fresh clone's CI in about 10.5 minutes, against more than 13 serially) but the load they add
// made time-limited cases (pipeline scripts' 100 ms budget) fail in 2 runs of 4.
const jobs = Number(process.env.SPEC_JOBS) || 0;
const serial = process.env.SPEC_SERIAL === '1' || jobs < 2;

module.exports = {
  spec: selectSpecFiles(process.env.SPEC || 'all'),
  reporter: './spec/support/tally-reporter.cjs',
  timeout: 20000,
  exit: true,
  ...(serial ? {} : { parallel: true, jobs }),
  // SPEC_TIMINGS=<file>: each file's wall time, for `node spec/support/spec-files.cjs --record <file>`
  ...(!serial && process.env.SPEC_TIMINGS ? { require: ['./spec/support/file-timings.cjs'] } : {}),
};
