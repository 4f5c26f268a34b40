/** Typed arrays that grow by doubling: the per-ordinal and per-term columns of the index. */
export function growInt32(a: Int32Array<ArrayBuffer>, minLength: number, fill = 0): Int32Array<ArrayBuffer> {
  if (minLength <= a.length) return a;
  let cap = Math.max(16, a.length * 2);
  while (cap < minLength) cap *= 2;
  const next = new Int32Array(cap);
  next.set(a);
  if (fill !== 0) next.fill(fill, a.length);
  return next;
}

export function growUint8(a: Uint8Array<ArrayBuffer>, minLength: number): Uint8Array<ArrayBuffer> {
  if (minLength <= a.length) return a;
  let cap = Math.max(16, a.length * 2);
  while (cap < minLength) cap *= 2;
  const next = new Uint8Array(cap);
  next.set(a);
  return next;
}
