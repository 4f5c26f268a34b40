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

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashSecret(password: string, kind: SecretKind = 'memorized'): Promise<string> {
  const salt = randomBytes(16);
  if (kind === 'generated') return ['ssha256', salt.toString('base64'), sha256(salt, password).toString('base64')].join('$');
  const hash = await scrypt(password, salt, KEYLEN, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', N, R, P, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Constant-time comparison; false (never a throw) for a malformed stored hash. */
export async function verifySecret(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length === 3 && parts[0] === 'ssha256') {
    const expected = Buffer.from(parts[2], 'base64');
    const actual = sha256(Buffer.from(parts[1], 'base64'), password);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  const actual = await scrypt(password, salt, expected.length, { N: n, r, p, maxmem: 64 * 1024 * 1024 });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
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
