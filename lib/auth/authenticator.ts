import type { Subscription } from 'rxjs';
import type { ChangeBus } from '../changes/index.js';
import { errors } from '../errors/index.js';
import { parseBasic } from './basic-header.js';
import { hashSecret, verifySecret } from './secret-hash.js';
import type { StoredCredential } from './admin-credential.js';
import { CredentialCache, followCredentialChanges, type CredentialChangeFeed } from './credentials/credential-cache.js';
import type { CredentialStore } from './credentials/credential-store.js';
import { CATEGORIES, OPS, isExpired, publicCredential, type Credential, type Role } from './credentials/credential.js';

/** Who a request authenticated as: the credential record (never its hash). */
export interface Principal {
  username: string;
  role: Role;
  /** The scoped credential; for the bootstrap admin, a synthesized all-access record with role `admin`. */
  credential: Credential;
}

export interface AuthenticatorOptions {
  /** Scoped credentials; without it only the admin authenticates. */
  store?: CredentialStore;
  /** Changes made on other nodes drop this node's cached entries (absent: this node's writes only). */
  bus?: ChangeBus;
  /** How long a verified header is remembered when nothing changes (default 60 s). */
  cacheTtlMs?: number;
  log?: (line: string) => void;
}

/**
 * Verifies HTTP Basic credentials: the admin first, then scoped credentials from the store.
 * An unknown username costs a scrypt like a wrong password and gets the same 401, so responses
 * do not tell which usernames exist; an expired credential (right password) gets a 401 saying so.
 * Verified headers are cached (see CredentialCache); a write on this node drops the entries of
 * that user at once, a write on another node within the bus's delivery time.
 */
export class Authenticator {
  readonly cache: CredentialCache<Principal>;
  private readonly adminPrincipal: Principal;
  private readonly feed: CredentialChangeFeed | undefined;
  private readonly localWrites: Subscription | undefined;
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly admin: StoredCredential,
    private readonly realm: string,
    private readonly options: AuthenticatorOptions = {},
  ) {
    this.cache = new CredentialCache<Principal>({ ttlMs: options.cacheTtlMs });
    this.adminPrincipal = { username: admin.username, role: 'admin', credential: adminCredential(admin) };
    this.localWrites = options.store?.written.subscribe((username) => this.cache.dropUser(username));
    this.feed = options.bus ? followCredentialChanges(options.bus, this.cache, options.log) : undefined;
  }

  /** Resolves once changes from other nodes reach this node's cache. */
  ready(): Promise<void> {
    return this.feed?.live ?? Promise.resolve();
  }

  async authenticate(header: string | undefined, path: string): Promise<Principal> {
    const creds = parseBasic(header);
    if (!creds || header === undefined) {
      throw errors.unauthenticated(`missing authentication credentials for REST request [${path}]`, this.realm);
    }
    const hit = this.cache.get(header);
    if (hit) {
      if (isExpired(hit.credential)) {
        this.cache.dropUser(hit.username);
        throw this.expired(hit.credential, path);
      }
      return hit;
    }
    const ticket = this.cache.ticket();
    const principal = await this.verify(creds.username, creds.password);
    if (!principal) {
      throw errors.unauthenticated(`unable to authenticate user [${creds.username}] for REST request [${path}]`, this.realm);
    }
    if (isExpired(principal.credential)) throw this.expired(principal.credential, path);
    this.cache.set(header, principal, ticket);
    return principal;
  }

  /** Stops following changes; the authenticator still works (uncached from other nodes' view). */
  close(): void {
    this.feed?.stop();
    this.localWrites?.unsubscribe();
  }

  private async verify(username: string, password: string): Promise<Principal | undefined> {
    if (username === this.admin.username) {
      return (await verifySecret(password, this.admin.hash)) ? this.adminPrincipal : undefined;
    }
    const record = await this.options.store?.findForLogin(username);
    if (!record) {
      await verifySecret(password, await this.dummy()); // same cost as a wrong password
      return undefined;
    }
    if (!(await verifySecret(password, record.hash))) return undefined;
    const credential = publicCredential(record);
    return { username, role: credential.role, credential };
  }

  private expired(credential: Credential, path: string) {
    return errors.unauthenticated(
      `credential [${credential.username}] expired at [${credential.expires_at}]; unable to authenticate for REST request [${path}]`,
      this.realm,
    );
  }

  private dummy(): Promise<string> {
    return (this.dummyHash ??= hashSecret('not a password of anyone'));
  }
}

function adminCredential(admin: StoredCredential): Credential {
  return {
    username: admin.username,
    description: 'the admin credential',
    indices: ['*'],
    categories: [...CATEGORIES],
    ops: [...OPS],
    sources: [],
    referers: [],
    allow_raw_dsl: true,
    role: 'admin',
    created_at: admin.created_at,
    updated_at: admin.created_at,
  };
}
