/**
 * Preloaded into a bench's gateway child (`node --import <this file>`): the longest stretch of CPU
 * the main thread spent between two looks of a 5 ms timer, that is, the longest piece of work that
 * held the event loop, counted in the thread's own CPU time (Linux, 10 ms ticks). Unlike the
 * event-loop delay, it does not grow when a loaded machine deschedules the process. SIGUSR2 prints
 * `loop-cpu-max <ms> gc-max <ms> <kind>` on stdout (the longest GC pause too) and starts over (bench:isolation reads it around each load).
 * With LOOP_CPU_LOG_MS=n in its environment, each stretch of n ms of CPU or more is also printed as
 * `loop-cpu-block <ms> <from µs> <to µs>` (the monotonic clock a V8 CPU profile's timestamps use), so
 * bench/support/long-blocks.ts can say what ran in it.
 */
import { existsSync } from 'node:fs';
import { threadCpuMs as threadCpuMsOrNone } from '../../lib/cooperative/thread-clock.js';
import { constants, PerformanceObserver } from 'node:perf_hooks';

const STAT = '/proc/thread-self/stat';
const threadCpuMs = () => threadCpuMsOrNone() ?? 0;

const logMs = Number(process.env.LOOP_CPU_LOG_MS ?? Infinity);
const monotonicUs = () => process.hrtime.bigint() / 1000n;

if (existsSync(STAT)) {
  let last = threadCpuMs();
  let lastAt = monotonicUs();
  let longest = 0;
  setInterval(() => {
    const now = threadCpuMs();
    const at = monotonicUs();
    longest = Math.max(longest, now - last);
    if (now - last >= logMs) process.stdout.write(`loop-cpu-block ${now - last} ${lastAt} ${at}\n`);
    last = now;
    lastAt = at;
  }, 5).unref();
  // the longest garbage-collection pause (the main thread's, as V8 reports it) since the last ask:
  // a major collection of a large heap holds the loop whatever the request code does
  let longestGc = 0;
  let longestGcKind = '-';
  const KINDS: Record<number, string> = { [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major', [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor', [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb' };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration <= longestGc) continue;
      longestGc = entry.duration;
      longestGcKind = KINDS[((entry as unknown as { detail?: { kind?: number } }).detail)?.kind ?? -1] ?? 'other';
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGUSR2', () => {
    process.stdout.write(`loop-cpu-max ${longest} gc-max ${longestGc.toFixed(0)} ${longestGcKind}\n`);
    longest = 0;
    longestGc = 0;
    longestGcKind = '-';
  });
}
