import type { ChildServer } from '../../spec/support/servers.js';

/**
 * Everything a benchmark starts is stopped: `owned` registers a teardown, `cleanUp` runs them last
 * in, first out (at the end, on failure), and SIGINT/SIGTERM run them before the process exits.
 */
const cleanups: Array<() => Promise<void>> = [];

/** Registers a teardown; returns it, made idempotent. */
export function owned(fn: () => Promise<unknown> | unknown): () => Promise<void> {
  let done: Promise<void> | undefined;
  const once = () => (done ??= Promise.resolve().then(fn).then(() => undefined, (err) => console.error(`cleanup: ${(err as Error).message}`)));
  cleanups.push(once);
  return once;
}

export async function cleanUp(): Promise<void> {
  while (cleanups.length) await cleanups.pop()!();
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping everything the benchmark started`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/** A server the benchmark owns: stopped by `cleanUp`. */
export async function started(server: Promise<ChildServer>): Promise<ChildServer> {
  const s = await server;
  owned(() => s.stop());
  return s;
}

/**
 * Runs a benchmark's main: on failure, prints what was measured so far (`partial`) and the error,
 * and sets a failing exit code; whatever happened, stops everything it started.
 */
export function runBench(main: () => Promise<void>, partial: () => void): void {
  main()
    .catch((err) => {
      console.log('');
      partial();
      console.error(err);
      process.exitCode = 1;
    })
    .finally(() => cleanUp());
}
