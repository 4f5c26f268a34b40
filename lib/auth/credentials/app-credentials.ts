import type { CredentialStore } from './credential-store.js';
import { validateCreate, type Category, type CredentialSpec, type IssuedCredential } from './credential.js';
import { admitWithin, inheritRestrictions, type Grantor } from './grant.js';

/**
 * What an app's own credentials may do: its documents, searches, streams and declarative queries —
 * and, as readers of the app's index, read its metadata: its mappings (`GET /{app}/_mapping`,
 * appbase-js's `getMappings()`), field capabilities, statistics, and its line in `_cat/indices` and
 * `_cat/count` (classifying.ts, `readsIndexMetadata`). Never index administration: no mapping
 * or settings change, no deleting the index (`indices` is not among them).
 */
export const APP_CATEGORIES: Category[] = ['docs', 'search', 'streams', 'declarative'];

/**
 * The credentials issued for one app (an index): a read-write pair for the app's server side and
 * read-only pairs for browsers. The app name is checked like any credential's
 * `indices`. Each is a plain scoped credential, tagged with `app`, so
 * `GET /{index}/_credentials` lists it and it can be changed or deleted like any other.
 *
 * With a `grantor` (a scoped caller, not the admin), the pair inherits the grantor's restrictions
 * and is refused (403) unless it lies within the grantor's rights: a caller without raw query DSL,
 * `delete` or one of the app categories gets no read-write pair (grant.ts).
 */
export class AppCredentials {
  constructor(private readonly store: CredentialStore) {}

  /** Read, write and delete on `app` alone; may send raw query DSL to the declarative API. */
  createAppPair(app: string, extra: Pick<CredentialSpec, 'description' | 'expires_at'> = {}, grantor?: Grantor): Promise<IssuedCredential> {
    return this.issue({
      description: `read-write credential for app [${app}]`,
      ...extra,
      indices: [app],
      categories: [...APP_CATEGORIES],
      ops: ['read', 'write', 'delete'],
      allow_raw_dsl: true,
      role: 'user',
      app,
    }, grantor);
  }

  /** Read only, for code that runs in browsers: no writes, no raw query DSL. */
  createReadOnly(app: string, extra: Pick<CredentialSpec, 'description' | 'expires_at'> = {}, grantor?: Grantor): Promise<IssuedCredential> {
    return this.issue({
      description: `read-only credential for app [${app}]`,
      ...extra,
      indices: [app],
      categories: [...APP_CATEGORIES],
      ops: ['read'],
      allow_raw_dsl: false,
      role: 'user',
      app,
    }, grantor);
  }

  private async issue(body: CredentialSpec, grantor: Grantor | undefined): Promise<IssuedCredential> {
    const spec = await validateCreate(body);
    if (!grantor) return this.store.create(spec);
    return this.store.create(inheritRestrictions(grantor.credential, spec), { admit: admitWithin(grantor) });
  }

  /** Deletes every credential issued for `app` (for when the app or index is deleted); returns their usernames. */
  async deleteAll(app: string): Promise<string[]> {
    const issued = (await this.store.list()).filter((c) => c.app === app);
    for (const { username } of issued) {
      await this.store.delete(username).catch((err: { status?: number }) => {
        if (err?.status !== 404) throw err; // deleted meanwhile: fine
      });
    }
    return issued.map((c) => c.username);
  }
}
