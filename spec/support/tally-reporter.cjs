// Mocha's spec reporter, closing with the line CI reads: "N passed, N failed[, N skipped]".
// With SPEC_TIMINGS=<file> in a serial run it appends each spec file's wall time to <file>, as
// spec/support/file-timings.cjs does in a parallel run (where the reporter only sees each file's
// events replayed once it is done).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;
const { EVENT_SUITE_BEGIN, EVENT_SUITE_END } = Mocha.Runner.constants;

class TallyReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    const out = process.env.SPEC_TIMINGS;
    if (!out || options.parallel || process.argv.includes('--parallel')) return;
    const started = new Map();
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.file && suite.parent && suite.parent.root && !started.has(suite.file)) started.set(suite.file, Date.now());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      if (!suite.file || !suite.parent || !suite.parent.root) return;
      const ms = Date.now() - started.get(suite.file);
      fs.appendFileSync(out, JSON.stringify({ file: path.relative(process.cwd(), suite.file), ms }) + '\n');
    });
  }

  epilogue() {
    super.epilogue();
    const s = this.stats;
    const skipped = s.pending ? `, ${s.pending} skipped` : '';
    process.stdout.write(`${s.passes} passed, ${s.failures} failed${skipped}\n`);
  }
}
module.exports = TallyReporter;
