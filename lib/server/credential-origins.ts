import type { Subscription } from 'rxjs';
import { CREDENTIALS_INDEX, type Credential, type CredentialStore } from '../auth/index.js';
import type { ChangeBus } from '../changes/index.js';
import { simpleMatch } from '../wildcard/index.js';

/**
 * The browser origins a credential's `referers` allow: for each pattern, the part that an origin
 * can match — up to the path of a `scheme://host…/path` pattern (`https://shop.example/*` →
 * `https://shop.example`, `https://*.shop.example/app/*` → `https://*.shop.example`), the whole
 * pattern otherwise (`*` allows any origin, as it allows any referer).
 */
export function originPatterns(referers: readonly string[]): string[] {
  return referers.map((pattern) => {
    const authority = pattern.indexOf('://');
    if (authority < 0) return pattern;
    const path = pattern.indexOf('/', authority + 3);
    return path < 0 ? pattern : pattern.slice(0, path);
  });
}

/** Whether `credential`'s referers allow a page of `origin` (`https://shop.example`) to call with it. */
export function credentialAllowsOrigin(credential: Pick<Credential, 'referers'>, origin: string): boolean {
  return originPatterns(credential.referers ?? []).some((p) => simpleMatch(p, origin, true));
}

/**
 * Every origin some stored credential's `referers` allow, kept on each node: a browser's preflight
 * carries no credentials, so the one from an origin a credential allows is answered from this
 * set. Read from the credential store on first use, after subscribing to its changes on the bus
 * (so that no change falls between), then kept true to every credential written or deleted on any
 * node: a document change of `.gateway-credentials` carries the record (without its hash), a
 * change of the index as a whole (deleted, closed) reads the store again; a write on this node is
 * seen at once through the store's `written`. If the bus's feed fails, the set is read again on
 * the next use.
 */
export class CredentialOrigins {
  private readonly byUser = new Map<string, string[]>();
  private loading: Promise<void> | undefined;
  private subscriptions: Subscription[] = [];

  constructor(private readonly store: CredentialStore, private readonly bus?: ChangeBus, private readonly log: (line: string) => void = () => {}) {}

  /** True when a stored credential's referers allow `origin`. */
  async allow(origin: string): Promise<boolean> {
    try {
      await (this.loading ??= this.load());
    } catch (err) {
      this.log(`credential origins: the credentials could not be read: ${(err as Error).message}`);
      return false;
    }
    for (const patterns of this.byUser.values()) if (patterns.some((p) => simpleMatch(p, origin, true))) return true;
    return false;
  }

  stop(): void {
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions = [];
    this.loading = undefined;
  }

  private async load(): Promise<void> {
    this.stop();
    const again = () => {
      this.stop(); // read afresh on the next use
    };
    this.subscriptions.push(this.store.written.subscribe((username) => {
      this.store.get(username).then((c) => this.keep(username, c), () => this.byUser.delete(username));
    }));
    if (this.bus) {
      this.subscriptions.push(this.bus.changes(CREDENTIALS_INDEX).subscribe({
        next: (event) => {
          if (event.kind !== 'document') return again();
          if (event.op === 'delete' || !event.source) this.byUser.delete(event.id);
          else this.keep(event.id, event.source as unknown as Credential);
        },
        error: (err: Error) => {
          this.log(`credential origins: change feed failed, read again on next use: ${err.message}`);
          again();
        },
      }));
      await this.bus.subscribed(CREDENTIALS_INDEX);
    }
    try {
      const credentials = await this.store.list();
      this.byUser.clear();
      for (const c of credentials) this.keep(c.username, c);
    } catch (err) {
      again();
      throw err;
    }
  }

  private keep(username: string, credential: Pick<Credential, 'referers'>): void {
    const patterns = originPatterns(Array.isArray(credential.referers) ? credential.referers : []);
    if (patterns.length) this.byUser.set(username, patterns);
    else this.byUser.delete(username);
  }
}
