/**
 * Asks `check` again, every 20 ms, until it says yes: how long that took, or a failure past `ms`.
 * For what another process makes true at a time of its own (a bus event reaching another node):
 * the answer it gives is the signal waited for.
 */
export async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
