/**
 * How many times a `setImmediate` chain ran while `work` was in progress: this thread's event-loop
 * turns. Work done a time slice at a time (or on another thread) gives some; work that holds the
 * loop from start to end gives none.
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let done = false;
  const spin = () => {
    if (done) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const value = await work();
  done = true;
  return { value, turns };
}
