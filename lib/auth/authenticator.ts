import { Subject, type Observable, type Subscription } from 'rxjs';
import type { ChangeBus } from '../changes/index.js';
import { EsError, errors } from '../errors/index.js';
import { parseBasic } from './basic-header.js';
import { hashSecret, verifySecret } from './secret-hash.js';
import type { StoredCredential } from './admin-credential.js';
import { CredentialCache, followCredentialChanges, type CredentialChangeFeed, type InvalidatableCache } from './credentials/credential-cache.js';
import type { CredentialStore } from './credentials/credential-store.js';
import { CATEGORIES, OPS, isExpired, publicCredential, type Credential, type Role } from './credentials/credential.js';
import type { LoginThrottle } from './login-throttle.js';

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
  /** Failed logins per username and per client address (absent: not throttled). */
  throttle?: LoginThrottle;
  /** Failed headers remembered, so repeating one costs no scrypt (default 10,000; 0 = none). */
  rememberedFailures?: number;
  log?: (line: string) => void;
}

/** Failed authentications since start, by reason, and those refused by the login throttle (429). */
export interface AuthenticationStats {
  /** No (or no readable) Basic credentials. */
  missing: number;
  /** An unknown username or a wrong password. */
  invalid: number;
  /** The right password of an expired credential. */
  expired: number;
  throttled: number;
  /** Verified headers this node remembers now (a gauge: dropped on a change, a flush, or their expiry). */
  cached: number;
}

/**
 * Verifies HTTP Basic credentials: the admin first, then scoped credentials from the store.
 * An unknown username costs a scrypt like a wrong password and gets the same 401, so responses
 * do not tell which usernames exist; an expired credential (right password) gets a 401 saying so.
 * Verified headers are cached (see CredentialCache); a write on this node drops the entries of
 * that user at once, a write on another node within the bus's delivery time. Headers that failed
 * are remembered the same way (keyed digests, dropped when the user's credential changes), so a
 * flood of one wrong header answers 401 without a scrypt. Every attempt that is not a cached
 * success goes through the throttle first (see LoginThrottle): past its budget, 429 and no scrypt.
 */
export class Authenticator {
  readonly cache: CredentialCache<Principal>;
  /** Headers that failed to authenticate (the username only is kept, to drop them on a change). */
  private readonly failures: CredentialCache<{ username: string }> | undefined;
  private readonly adminPrincipal: Principal;
  private readonly feed: CredentialChangeFeed | undefined;
  private readonly changed = new Subject<string>();
  /** The usernames whose credentials changed or were deleted, on this node or another (through the bus). */
  readonly credentialChanges: Observable<string> = this.changed.asObservable();
  private readonly localWrites: Subscription | undefined;
  private dummyHash: Promise<string> | undefined;
  /** Verifications under way, by client address and keyed digest of the header. */
  private readonly inFlight = new Map<string, Promise<Principal>>();
  private readonly counts: Omit<AuthenticationStats, 'cached'> = { missing: 0, invalid: 0, expired: 0, throttled: 0 };

  constructor(
    private readonly admin: StoredCredential,
    private readonly realm: string,
    private readonly options: AuthenticatorOptions = {},
  ) {
    this.cache = new CredentialCache<Principal>({ ttlMs: options.cacheTtlMs });
    const remembered = options.rememberedFailures ?? 10_000;
    this.failures = remembered > 0 ? new CredentialCache({ max: remembered, ttlMs: options.cacheTtlMs }) : undefined;
    this.adminPrincipal = { username: admin.username, role: 'admin', credential: adminCredential(admin) };
    const both = bothCaches(this.cache, this.failures);
    // every username dropped is a credential changed or deleted (here or on another node): its open streams end
    const changed = this.changed;
    const caches: InvalidatableCache = {
      get enabled() {
        return both.enabled;
      },
      set enabled(v: boolean) {
        both.enabled = v;
      },
      dropUser(username: string) {
        both.dropUser(username);
        changed.next(username);
      },
      clear: () => both.clear(),
    };
    this.localWrites = options.store?.written.subscribe((username) => caches.dropUser(username));
    this.feed = options.bus ? followCredentialChanges(options.bus, caches, options.log) : undefined;
  }

  /** Resolves once changes from other nodes reach this node's cache. */
  ready(): Promise<void> {
    return this.feed?.live ?? Promise.resolve();
  }

  /** `ip`: the client address, for the per-address failure budget (absent: not counted by address). */
  async authenticate(header: string | undefined, path: string, ip?: string): Promise<Principal> {
    return this.verified(header, path, ip) ?? this.verifyNew(header, path, ip);
  }

  /**
   * A header verified before, found synchronously (the common case: no promise on its way); it is
   * refused as `authenticate` would refuse it (a blocked username or address, an expired
   * credential). Undefined when the header is not known: `authenticate` verifies it.
   */
  verified(header: string | undefined, path: string, ip?: string): Principal | undefined {
    // a header verified before is found as it is: only an unknown one needs decoding
    const hit = header === undefined ? undefined : this.cache.get(header);
    if (!hit) return undefined;
    try {
      this.options.throttle?.refuseIfBlocked(hit.username, ip);
    } catch (err) {
      throw this.counted(err);
    }
    if (isExpired(hit.credential)) {
      this.cache.dropUser(hit.username);
      throw this.expired(hit.credential, path);
    }
    return hit;
  }

  /**
   * A header not verified before. Concurrent requests with the same header share one verification
   * (one throttle reservation, one scrypt): a burst of a client's requests when its cached entry
   * has expired is one login, not a burst of attempts that would spend its failure budget.
   */
  private verifyNew(header: string | undefined, path: string, ip?: string): Promise<Principal> {
    if (header === undefined) return this.verifyOnce(header, path, ip);
    const key = `${ip ?? ''}\u0000${this.cache.keyOf(header)}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const verifying = this.verifyOnce(header, path, ip).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, verifying);
    return verifying;
  }

  private async verifyOnce(header: string | undefined, path: string, ip?: string): Promise<Principal> {
    const throttle = this.options.throttle;
    const creds = parseBasic(header);
    if (!creds || header === undefined) {
      this.counts.missing++;
      throw errors.unauthenticated(`missing authentication credentials for REST request [${path}]`, this.realm);
    }
    await throttle?.attempt(creds.username, ip).catch((err: unknown) => {
      throw this.counted(err);
    });
    const wrong = () => {
      this.counts.invalid++;
      return errors.unauthenticated(`unable to authenticate user [${creds.username}] for REST request [${path}]`, this.realm);
    };
    if (this.failures?.get(header)) throw wrong();
    const ticket = this.cache.ticket();
    const failedTicket = this.failures?.ticket() ?? 0;
    const principal = await this.verify(creds.username, creds.password);
    if (!principal) {
      this.failures?.set(header, { username: creds.username }, failedTicket);
      throw wrong();
    }
    if (isExpired(principal.credential)) throw this.expired(principal.credential, path);
    await throttle?.succeeded(creds.username, ip);
    this.cache.set(header, principal, ticket);
    return principal;
  }

  /**
   * A password the authenticated caller gives again (the Security plugin's account API asks its
   * `current_password`), checked as a login is: a failure reserved in the username's and the
   * address's budgets before the hash is verified (429 once one is spent), given back when it is
   * right, counted as an invalid login when it is wrong. Otherwise such a check would be an
   * unthrottled password oracle (and a free scrypt per request).
   */
  async passwordMatches(username: string, password: string, ip?: string): Promise<boolean> {
    const throttle = this.options.throttle;
    await throttle?.attempt(username, ip).catch((err: unknown) => {
      throw this.counted(err);
    });
    if (!(await this.verify(username, password))) {
      this.counts.invalid++;
      return false;
    }
    await throttle?.succeeded(username, ip);
    return true;
  }

  stats(): AuthenticationStats {
    return { ...this.counts, cached: this.cache.size() };
  }

  /**
   * Forgets every verified and failed header on this node (the Security plugin's cache flush):
   * each is verified against the store again on its next request. No credential changed, so no
   * stream ends; other nodes keep theirs until a change or their expiry drops them.
   */
  flush(): void {
    this.cache.clear();
    this.failures?.clear();
  }

  /** A throttle's error, its refusal (429) counted. */
  private counted(err: unknown): unknown {
    if (err instanceof EsError && err.status === 429) this.counts.throttled++;
    return err;
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
    this.counts.expired++;
    return errors.unauthenticated(
      `credential [${credential.username}] expired at [${credential.expires_at}]; unable to authenticate for REST request [${path}]`,
      this.realm,
    );
  }

  private dummy(): Promise<string> {
    return (this.dummyHash ??= hashSecret('not a password of anyone'));
  }
}

/** One change feed keeps the verified and the failed headers true to credential changes. */
function bothCaches(verified: InvalidatableCache, failed: InvalidatableCache | undefined): InvalidatableCache {
  if (!failed) return verified;
  return {
    get enabled() {
      return verified.enabled;
    },
    set enabled(on: boolean) {
      verified.enabled = on;
      failed.enabled = on;
    },
    dropUser(username: string) {
      verified.dropUser(username);
      failed.dropUser(username);
    },
    clear() {
      verified.clear();
      failed.clear();
    },
  };
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
