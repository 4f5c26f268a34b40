/** A float32 value as Java prints a `float`: the shortest decimal that reads back as the same float. */
export function float32Text(x: number): number {
  const f = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const d = Number(f.toPrecision(p));
    if (Math.fround(d) === f) return d;
  }
  return f;
}
