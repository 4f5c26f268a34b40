// Mocha's spec reporter, closing with the line CI reads: "N passed, N failed[, N skipped]".
'use strict';
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;

class TallyReporter extends Spec {
  epilogue() {
    super.epilogue();
    const s = this.stats;
    const skipped = s.pending ? `, ${s.pending} skipped` : '';
    process.stdout.write(`${s.passes} passed, ${s.failures} failed${skipped}\n`);
  }
}
module.exports = TallyReporter;
