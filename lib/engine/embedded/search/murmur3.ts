/** Lucene's StringHelper.murmurhash3_x86_32 over a term's bytes (a string: its UTF-8 bytes). */
export function murmur3(input: string | Uint8Array, seed: number): number {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h1 = seed | 0;
  const len = bytes.length;
  const rounded = len & ~3;
  for (let i = 0; i < rounded; i += 4) {
    let k1 = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h1 ^= k1;
    h1 = (h1 << 13) | (h1 >>> 19);
    h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
  }
  const tail = len & 3;
  if (tail > 0) {
    let k1 = 0;
    if (tail === 3) k1 = (bytes[rounded + 2] & 0xff) << 16;
    if (tail >= 2) k1 |= (bytes[rounded + 1] & 0xff) << 8;
    k1 |= bytes[rounded] & 0xff;
    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h1 ^= k1;
  }
  h1 ^= len;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1;
}
