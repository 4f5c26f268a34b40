import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { errors } from '../errors/index.js';
import { parseBasic } from './basic-header.js';
import { verifySecret } from './secret-hash.js';
import type { StoredCredential } from './admin-credential.js';

export interface Principal {
  username: string;
  role: 'admin';
}

/**
 * Verifies HTTP Basic credentials. scrypt is slow by design, so a verified header is remembered
 * for a short while under an HMAC of its value with a per-process key: neither the password nor
 * a reusable hash of it is kept in memory.
 */
export class Authenticator {
  private readonly cacheKey = randomBytes(32);
  private readonly verified = new LRUCache<string, Principal>({ max: 10_000, ttl: 60_000 });

  constructor(private readonly admin: StoredCredential, private readonly realm: string) {}

  async authenticate(header: string | undefined, path: string): Promise<Principal> {
    const creds = parseBasic(header);
    if (!creds) {
      throw errors.unauthenticated(`missing authentication credentials for REST request [${path}]`, this.realm);
    }
    const key = createHmac('sha256', this.cacheKey).update(header!).digest('base64');
    const hit = this.verified.get(key);
    if (hit) return hit;
    if (creds.username === this.admin.username && (await verifySecret(creds.password, this.admin.hash))) {
      const principal: Principal = { username: creds.username, role: 'admin' };
      this.verified.set(key, principal);
      return principal;
    }
    throw errors.unauthenticated(`unable to authenticate user [${creds.username}] for REST request [${path}]`, this.realm);
  }
}
