import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Secret hashing. A password a person chose (memorized: guessable) is hashed with scrypt (Node's
 * OpenSSL implementation), stored as `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` so parameters can
 * be raised without breaking old hashes. A secret the gateway generated (`generatePassword`: about
 * 139 bits of randomness) cannot be guessed whatever the hash costs, so it is stored as a salted
 * SHA-256, `ssha256$<salt b64>$<hash b64>`, as Elasticsearch stores its API keys (`ssha256`) and as
 * NIST SP 800-63B allows for random secrets: minting a credential, and creating an index with its
 * pair, costs microseconds instead of two scrypts of ~40 ms of CPU each.
 */
export type SecretKind = 'memorized' | 'generated';

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;
const SALT_BYTES = 16;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashSecret(password: string, kind: SecretKind = 'memorized'): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  if (kind === 'generated') return ['ssha256', salt.toString('base64'), sha256(salt, password).toString('base64')].join('$');
  const hash = await scrypt(password, salt, KEYLEN, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', N, R, P, salt.toString('base64'), hash.toString('base64')].join('$');
}

/**
 * Constant-time comparison; false (never a throw) for a malformed stored hash. Only the shapes
 * `hashSecret` writes verify: a salt of SALT_BYTES, a hash of KEYLEN (SHA-256's length), scrypt
 * parameters no weaker than N, R, P — a record of another shape (an empty salt, a truncated hash,
 * `N=2`, which would make a chosen password cheap to guess) opens nothing.
 */
export async function verifySecret(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length === 3 && parts[0] === 'ssha256') {
    const salt = exactBase64(parts[1], SALT_BYTES);
    const expected = exactBase64(parts[2], KEYLEN);
    if (!salt || !expected) return false;
    return timingSafeEqual(sha256(salt, password), expected);
  }
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = exactBase64(parts[4], SALT_BYTES);
  const expected = exactBase64(parts[5], KEYLEN);
  if (!salt || !expected || !Number.isSafeInteger(n) || !Number.isSafeInteger(r) || !Number.isSafeInteger(p) || n < N || r < R || p < P) return false;
  try {
    const actual = await scrypt(password, salt, KEYLEN, { N: n, r, p, maxmem: 64 * 1024 * 1024 });
    return timingSafeEqual(actual, expected);
  } catch {
    return false; // parameters scrypt refuses (N not a power of two, memory beyond maxmem)
  }
}

/** The bytes of a canonical base64 text of exactly `length` bytes; undefined for anything else. */
function exactBase64(text: string, length: number): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === length && bytes.toString('base64') === text ? bytes : undefined;
}

function sha256(salt: Buffer, secret: string): Buffer {
  return createHash('sha256').update(salt).update(secret, 'utf8').digest();
}

/** A random password: 24 characters from a URL- and shell-safe alphabet. */
export function generatePassword(length = 24): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
