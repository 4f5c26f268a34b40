import { randomBytes } from 'node:crypto';
import { eventLoopTurn } from '../../cooperative/index.js';
import { Subject, type Observable } from 'rxjs';
import type { Backend } from '../../engine/index.js';
import { callJson } from '../../engine/index.js';
import type { ChangeBus, DocumentOp } from '../../changes/index.js';
import { EsError, errors } from '../../errors/index.js';
import { CREDENTIALS_INDEX, ensureCredentialsIndex } from '../admin-credential.js';
import { generatePassword, hashSecret } from '../secret-hash.js';
import { accessOf } from './credential-access.js';
import {
  CREDENTIAL_DEFAULTS, USERNAME_PATTERN, publicCredential, username as checkUsername,
  type Credential, type CredentialPatch, type CredentialSpec, type IssuedCredential, type StoredUserCredential,
} from './credential.js';

export interface CredentialStoreOptions {
  /** Where writes are announced so every node drops its cached entries (absent: this node only). */
  bus?: ChangeBus;
  /** Usernames no scoped credential may take: the admin's (from configuration or generated). */
  reservedUsernames?: string[];
  /** For failures that must not fail the request (a publish after a successful write). */
  log?: (line: string) => void;
}

/** For a write on behalf of a caller: `admit` sees the credential exactly as it would be stored, and throws to refuse it. */
export interface WriteOptions {
  admit?: (credential: Credential) => void;
}

interface GetReply {
  found?: boolean;
  _source?: Record<string, unknown>;
  _seq_no?: number;
  _primary_term?: number;
}

interface WriteReply {
  _version?: number;
  _seq_no?: number;
  _primary_term?: number;
  result?: string;
}

/**
 * Scoped credentials, stored through the Backend in `.gateway-credentials` (document id =
 * username, `refresh=true` on every write), so they work on both engines and on every node.
 *
 * Contract: nothing this class returns carries `hash` except `findForLogin`, which only the
 * authenticator calls. Every successful write or delete is announced twice: at once on
 * `written` (this node's cache), and on the change bus as a document change of
 * `.gateway-credentials` (every node's cache). The bus event's `source` is the record without
 * its hash. A failed publish is logged, never turned into a failed write.
 *
 * Documents in the index that are not scoped credentials (the generated admin's) are invisible
 * here: not listed, not found, not changeable.
 */
export class CredentialStore {
  private readonly writes = new Subject<string>();
  /** Usernames written or deleted through this store, as soon as the engine acknowledged it. */
  readonly written: Observable<string> = this.writes.asObservable();
  private readonly reserved: Set<string>;
  /** The index exists with its mapping (created here when the admin came from configuration and nothing made it yet). */
  private indexReady: Promise<void> | undefined;

  constructor(private readonly backend: Backend, private readonly options: CredentialStoreOptions = {}) {
    this.reserved = new Set(['admin', ...(options.reservedUsernames ?? [])]);
  }

  /** Creates a credential; generates the username and password when absent. The password is returned here only. */
  async create(spec: CredentialSpec, options: WriteOptions = {}): Promise<IssuedCredential> {
    const username = spec.username ?? generateUsername();
    if (this.reserved.has(username)) {
      throw errors.illegalArgument(`invalid credential: [username] [${username}] is reserved`);
    }
    const password = spec.password ?? generatePassword();
    const now = new Date().toISOString();
    const { password: _plain, username: _name, ...fields } = spec;
    const credential: Credential = { username, ...CREDENTIAL_DEFAULTS, ...fields, created_at: now, updated_at: now };
    options.admit?.(credential);
    // a generated name and password are random (a fast salted hash suffices, secret-hash.ts); a
    // chosen password gets scrypt, and so does a generated one under a chosen name, whose sign-in
    // must cost what an unknown name's does (the authenticator's dummy scrypt)
    const generated = spec.username === undefined && spec.password === undefined;
    const record: StoredUserCredential = { ...credential, hash: await hashSecret(password, generated ? 'generated' : 'memorized') };
    await (this.indexReady ??= ensureCredentialsIndex(this.backend).catch((err) => {
      this.indexReady = undefined;
      throw err;
    }));
    const reply = await callJson<WriteReply>(this.backend, 'PUT', this.docPath('_create', username), record, 'refresh=true');
    if (reply.status === 409) throw alreadyExists(username);
    this.checkWrite('create', username, reply.status);
    await this.announce(username, 'create', reply.body, record);
    return { credential: publicCredential(record), password };
  }

  async get(username: string): Promise<Credential> {
    const found = await this.read(username);
    if (!found) throw notFound(username);
    return publicCredential(found.record);
  }

  /** The stored record with its hash, for verifying a login; undefined when there is none. */
  async findForLogin(username: string): Promise<StoredUserCredential | undefined> {
    if (this.reserved.has(username) || !USERNAME_PATTERN.test(username)) return undefined;
    return (await this.read(username))?.record;
  }

  /** Every scoped credential, by username. */
  async list(): Promise<Credential[]> {
    const reply = await callJson<{ hits?: { hits?: Array<{ _id: string; _source?: Record<string, unknown> }> } }>(
      this.backend, 'POST', `/${CREDENTIALS_INDEX}/_search`, { size: 10_000, query: { match_all: {} } },
    );
    if (reply.status === 404) return [];
    if (reply.status >= 300) throw storeFailure('listing credentials', reply.status);
    return (reply.body.hits?.hits ?? [])
      .filter((hit) => !this.reserved.has(hit._id) && isScopedCredential(hit._source))
      .map((hit) => publicCredential(hit._source as unknown as StoredUserCredential))
      .sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0));
  }

  /** The credentials whose index names or patterns cover the concrete index `index`. */
  async listForIndex(index: string): Promise<Credential[]> {
    return (await this.list()).filter((c) => accessOf(c).coversIndex(index));
  }

  /**
   * Applies a validated patch (null clears a member, `password` re-hashes). Optimistic
   * concurrency on `_seq_no`/`_primary_term`, retried, so concurrent patches do not lose members.
   * `admit` is asked about each attempt's result (the record as read then, patched).
   */
  async update(username: string, patch: CredentialPatch, options: WriteOptions = {}): Promise<Credential> {
    const hash = patch.password === undefined ? undefined : await hashSecret(patch.password);
    for (let attempt = 1; ; attempt++) {
      const found = await this.read(username);
      if (!found) throw notFound(username);
      const { password: _plain, ...members } = patch;
      const merged: Record<string, unknown> = { ...found.record, ...members };
      for (const [key, value] of Object.entries(merged)) if (value === null) delete merged[key];
      if (hash !== undefined) merged.hash = hash;
      merged.updated_at = new Date().toISOString();
      const record = merged as unknown as StoredUserCredential;
      options.admit?.(publicCredential(record));
      const reply = await callJson<WriteReply>(
        this.backend, 'PUT', this.docPath('_doc', username), record,
        `refresh=true&if_seq_no=${found.seqNo}&if_primary_term=${found.primaryTerm}`,
      );
      if (reply.status === 409 && attempt < 5) continue;
      if (reply.status === 404) throw notFound(username);
      if (reply.status === 409) throw conflict(username);
      this.checkWrite('update', username, reply.status);
      await this.announce(username, 'index', reply.body, record);
      return publicCredential(record);
    }
  }

  /**
   * Deletes a credential; `admit` is asked about the record as read, and the delete holds only if
   * it is still that record (a credential widened meanwhile is not deleted on the old verdict).
   */
  async delete(username: string, options: WriteOptions = {}): Promise<void> {
    const found = await this.read(username);
    if (!found) throw notFound(username);
    options.admit?.(publicCredential(found.record));
    const reply = await callJson<WriteReply>(this.backend, 'DELETE', this.docPath('_doc', username), undefined,
      `refresh=true&if_seq_no=${found.seqNo}&if_primary_term=${found.primaryTerm}`);
    if (reply.status === 404) throw notFound(username);
    if (reply.status === 409) throw conflict(username);
    this.checkWrite('delete', username, reply.status);
    await this.announce(username, 'delete', reply.body);
  }

  private async read(username: string): Promise<{ record: StoredUserCredential; seqNo: number; primaryTerm: number } | undefined> {
    checkUsername(username);
    if (this.reserved.has(username)) return undefined;
    const reply = await callJson<GetReply>(this.backend, 'GET', this.docPath('_doc', username));
    if (reply.status === 404) return undefined;
    if (reply.status >= 300) throw storeFailure(`reading credential [${username}]`, reply.status);
    if (!reply.body.found || !isScopedCredential(reply.body._source)) return undefined;
    return {
      record: reply.body._source as unknown as StoredUserCredential,
      seqNo: reply.body._seq_no ?? 0,
      primaryTerm: reply.body._primary_term ?? 1,
    };
  }

  private docPath(endpoint: '_doc' | '_create', username: string): string {
    return `/${CREDENTIALS_INDEX}/${endpoint}/${encodeURIComponent(username)}`;
  }

  private checkWrite(action: string, username: string, status: number): void {
    if (status >= 300) throw storeFailure(`${action} of credential [${username}]`, status);
  }

  private async announce(username: string, op: DocumentOp, ack: WriteReply, record?: StoredUserCredential): Promise<void> {
    this.writes.next(username);
    if (!this.options.bus) return;
    // the bus measures and keeps the record (100,000 index patterns, at most): a turn of its own,
    // not the write's nor the answer's
    await eventLoopTurn();
    try {
      await this.options.bus.publish({
        kind: 'document',
        index: CREDENTIALS_INDEX,
        type: '_doc',
        id: username,
        op,
        version: ack._version ?? 0,
        seqNo: ack._seq_no ?? 0,
        primaryTerm: ack._primary_term ?? 1,
        ...(record ? { source: publicCredential(record) as unknown as Record<string, unknown> } : {}),
      });
    } catch (err) {
      this.options.log?.(`credential change of [${username}] not published; other nodes keep their cached entry until it expires: ${(err as Error).message}`);
    }
    // and the answer is written in a turn of its own, not the announcement's
    await eventLoopTurn();
  }
}

/** Scoped credentials have `categories`; the bootstrap admin document does not. */
function isScopedCredential(source: Record<string, unknown> | undefined): boolean {
  return !!source && Array.isArray(source.categories) && typeof source.hash === 'string';
}

/** 16 characters from [a-zA-Z0-9]: ~95 bits. */
export function generateUsername(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (const b of randomBytes(16)) out += alphabet[b % alphabet.length];
  return out;
}

export const notFound = (username: string) =>
  new EsError(404, 'resource_not_found_exception', `credential [${username}] not found`, { 'resource.type': 'credential', 'resource.id': username });

/** Elasticsearch's answer to a write that lost a race, after the store's retries: the caller may retry. */
const conflict = (username: string) =>
  new EsError(409, 'version_conflict_engine_exception', `[${username}]: version conflict, the credential was changed concurrently; retry the request`);

export const alreadyExists = (username: string) =>
  new EsError(409, 'resource_already_exists_exception', `credential [${username}] already exists`, { 'resource.type': 'credential', 'resource.id': username });

const storeFailure = (action: string, status: number) =>
  new EsError(status === 429 || status >= 500 ? 503 : 500, 'exception', `credential store: ${action} failed with engine status [${status}]`);
