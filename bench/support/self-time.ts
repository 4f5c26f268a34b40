/**
 * `node dist/bench/support/self-time.js <file.cpuprofile> [top]`: where a V8 CPU profile's time
 * went, per function: self time (the samples in which it was the running frame) and, for the
 * project's own functions (dist/lib/), total time (the samples in which it was on the stack), each
 * as milliseconds and as a share of the busy samples (neither `(idle)` nor `(program)`). How
 * bench:proxy's CPU per request (BENCH_CPU_PROF) is taken apart. A third argument `<from µs>-<to µs>`
 * (the monotonic clock of `process.hrtime`, which a profile's timestamps use) counts only the samples
 * in that window (bench/support/crowd-cost.ts prints its measuring window so).
 */
import { CpuProfile } from './cpu-profile.js';

const [file, topArg, windowArg] = process.argv.slice(2);
const top = Number(topArg ?? 40);
const [from, to] = windowArg ? windowArg.split('-').map(Number) : [-Infinity, Infinity];
const read = new CpuProfile(file!);
const { profile, byId } = read;

const self = new Map<string, number>();
const total = new Map<string, number>();
let busy = 0;
let idle = 0;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (at < from! || at > to!) return;
  const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  const node = byId.get(id)!;
  if (['(idle)', '(program)'].includes(node.callFrame.functionName)) return void (idle += dt);
  busy += dt;
  const l = read.label(node);
  self.set(l, (self.get(l) ?? 0) + dt);
  for (const name of read.projectFrames(id)) total.set(name, (total.get(name) ?? 0) + dt);
});
const rows = (m: Map<string, number>) =>
  [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([l, ms]) => `${ms.toFixed(1).padStart(9)} ms ${((ms / busy) * 100).toFixed(1).padStart(5)}%  ${l}`).join('\n');
console.log(`busy ${busy.toFixed(0)} ms, idle or program ${idle.toFixed(0)} ms\nself time:\n${rows(self)}\ntotal time, project functions:\n${rows(total)}`);
