// `mocha` runs every spec file, in four parallel worker processes unless SPEC_JOBS or SPEC_SERIAL
// says otherwise (below). SPEC=unit takes only the unit specs (no I/O: seconds), SPEC=integration
// the rest. Files come longest first (spec/support/spec-files.cjs). One file: `mocha --no-config
// --timeout 60000 --exit dist/spec/<path>.spec.js`.
'use strict';
const { selectSpecFiles } = require('./spec/support/spec-files.cjs');

// Four parallel worker processes by default (SPEC_JOBS=n for another count, SPEC_SERIAL=1 or
// SPEC_JOBS=1 for one process): most specs wait on servers, sockets and child processes, so four
// workers fill this 2-core machine's CPUs. The time budgets that made loaded runs flaky (pipeline
// scripts, Painless) are charged in the CPU time of their thread, not in wall-clock time.
const jobs = Number(process.env.SPEC_JOBS) || 4;
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
