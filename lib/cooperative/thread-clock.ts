import { existsSync, readFileSync } from 'node:fs';

const THREAD_STAT = '/proc/thread-self/stat';
let available = existsSync(THREAD_STAT);

/**
 * CPU time the calling thread has used, in ms (the kernel's 10 ms ticks), or undefined where the
 * system does not tell (not Linux). Time budgets of user code (pipeline scripts, Painless runs)
 * read it once their wall-clock budget has passed, so a run that waited for a CPU on a busy
 * machine is charged for the time it ran, not for the wait. About 20–100 µs a read: not per step.
 */
export function threadCpuMs(): number | undefined {
  if (!available) return undefined;
  try {
    return statCpuMs(readFileSync(THREAD_STAT, 'latin1'));
  } catch {
    available = false;
    return undefined;
  }
}

/** The CPU time, in ms, a thread's `/proc/…/stat` line tells (user + system). */
export function statCpuMs(stat: string): number {
  // the fields after the command name (which may hold spaces and parentheses): utime is the 14th
  // field of the line and stime the 15th, the 12th and 13th after the name
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** However starved of CPU, a run charged by its CPU time ends after this many times its budget in wall-clock time. */
export const WALL_FACTOR = 10;
