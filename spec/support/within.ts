/**
 * The one wait of the specs: asks `check` again until it says yes (every 20 ms), and answers how
 * long that took; past `ms` it fails, naming what it waited for. For what another process makes
 * true at a time of its own (a bus event reaching another node): the answer `check` gives is the
 * signal waited for, never a fixed sleep. `eventually` (stream-client.ts) is the same wait for an
 * assertion.
 */
export async function within(ms: number, check: () => boolean | Promise<boolean>, what: () => string = () => 'condition'): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
