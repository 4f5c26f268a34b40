import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Units of utime/stime in /proc/<pid>/stat (`getconf CLK_TCK`; 100 on nearly every Linux). */
export const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time a process has used so far, user + system over all its threads, in microseconds (Linux). */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name (field 2) may hold spaces and parentheses: count fields after its closing one
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[14 - 3]) + Number(fields[15 - 3]); // utime, stime: fields 14 and 15
  return (ticks * 1e6) / CLOCK_TICKS_PER_SECOND;
}
