/**
 * `node dist/bench/support/long-blocks.js <file.cpuprofile> [minMs] [loop-cpu-blocks.txt]`: the stretches of a V8 CPU
 * profile in which the main thread ran without a break (no `(idle)` or `(program)` sample) for at
 * least minMs (20 by default), longest first, each with the functions that held it (self time) and
 * the project's frames under which it ran (total time). It is how bench:isolation's loop-block
 * column is explained. Work that gives the event loop a turn between its slices, with no idle time
 * between, reads as one stretch here; given the `loop-cpu-block` lines of bench/support/loop-cpu.ts
 * (LOOP_CPU_LOG_MS), the stretches are those windows instead: the ones that held the loop.
 */
import { readFileSync } from 'node:fs';
import { CpuProfile, type ProfileNode } from './cpu-profile.js';

const [file, minArg, windowsFile] = process.argv.slice(2);
const minMs = Number(minArg ?? 20);
const read = new CpuProfile(file!);
const { profile, byId } = read;
const idle = (id: number) => ['(idle)', '(program)'].includes(byId.get(id)!.callFrame.functionName) && !(process.env.PROGRAM_BUSY && byId.get(id)!.callFrame.functionName === '(program)');
const label = (n: ProfileNode) => read.label(n);

interface Block { startMs: number; ms: number; self: Map<string, number>; ours: Map<string, number> }
const blocks: Block[] = [];
let current: Block | undefined;
let t = 0;
/** The loop-cpu windows, in ms since the profile's start (empty: split at idle samples). */
const windows = windowsFile
  ? readFileSync(windowsFile, 'utf8').split('\n').filter((l) => l.startsWith('loop-cpu-block ')).map((l) => {
    const [, , from, to] = l.split(' ').map(Number);
    return { from: (from - profile.startTime) / 1000, to: (to - profile.startTime) / 1000 };
  }).filter((w) => w.to > 0)
  : [];
const windowAt = (ms: number) => windows.findIndex((w) => ms >= w.from && ms <= w.to);
let currentWindow = -1;
profile.samples.forEach((id, i) => {
  const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  t += (profile.timeDeltas[i] ?? 0) / 1000;
  // a block ends at an idle sample, or (given windows) where its window ends
  const w = windows.length ? windowAt(t) : 0;
  const ends = windows.length ? w !== currentWindow : idle(id);
  if (ends) {
    if (current && current.ms >= minMs) blocks.push(current);
    current = undefined;
    currentWindow = w;
  }
  if (idle(id) || w < 0) return;
  current ??= { startMs: t, ms: 0, self: new Map(), ours: new Map() };
  current.ms += dt;
  const self = label(byId.get(id)!);
  current.self.set(self, (current.self.get(self) ?? 0) + dt);
  for (const l of read.projectFrames(id)) current.ours.set(l, (current.ours.get(l) ?? 0) + dt);
});
if (current && current.ms >= minMs) blocks.push(current);
const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([l, ms]) => `    ${ms.toFixed(1).padStart(7)} ms  ${l}`).join('\n');
for (const b of blocks.sort((a, b) => b.ms - a.ms).slice(0, Number(process.env.TOP ?? 15))) {
  console.log(`block of ${b.ms.toFixed(1)} ms at ${(b.startMs / 1000).toFixed(2)} s\n  self:\n${top(b.self, 8)}\n  under (project frames):\n${top(b.ours, 12)}`);
}
console.log(`${blocks.length} blocks of ${minMs} ms or more`);
