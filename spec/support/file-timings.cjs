// With SPEC_TIMINGS=<file>, each spec file's wall time (its hooks and tests) is appended to <file>
// as a line {"file","ms","cpuMs"}: the input of spec/support/durations.json (spec-files.cjs turns
// the lines into the table). `cpuMs` is the CPU time the file cost on Linux: the worker's own
// (in-process gateways and engines), its children's that ended (spawned gateways, engines,
// Chromium) and the growth of those still running (the worker's shared standalone engine). On this
// 2-core machine a run is CPU-bound, so cpuMs, not ms, says what a file costs the run. A root hook
// plugin: in parallel mode (the default run) root hooks run once per file, in the worker that runs
// it; a serial run has the tally reporter write the same lines (without cpuMs).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const TICK_MS = 10; // the kernel's clock ticks (USER_HZ 100)

/** utime+stime+cutime+cstime (ms) of a process from /proc, or 0 when it is gone. */
function procCpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU ms of this process, its ended children and its live descendants; undefined off Linux. */
function treeCpuMs() {
  if (process.platform !== 'linux') return undefined;
  const parent = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'latin1');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parent) if (!mine.has(pid) && mine.has(ppid)) { mine.add(pid); grew = true; }
  }
  // a live child's own time, and what its ended children cost (cutime), are both in procCpuMs
  let total = 0;
  for (const pid of mine) total += procCpuMs(pid);
  return total;
}

let started = 0;
let startedCpu;
exports.mochaHooks = {
  beforeAll() {
    started = Date.now();
    startedCpu = process.env.SPEC_TIMINGS ? treeCpuMs() : undefined;
  },
  afterAll() {
    const root = this.test.parent;
    const file = root.file ?? root.suites.find((s) => s.file)?.file ?? root.tests.find((t) => t.file)?.file;
    if (!file || !process.env.SPEC_TIMINGS) return;
    const cpu = treeCpuMs();
    const line = { file: path.relative(process.cwd(), file), ms: Date.now() - started };
    if (cpu !== undefined && startedCpu !== undefined) line.cpuMs = cpu - startedCpu;
    fs.appendFileSync(process.env.SPEC_TIMINGS, JSON.stringify(line) + '\n');
  },
};
