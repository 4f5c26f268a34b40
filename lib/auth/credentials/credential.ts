import { TimeSlice } from '../../cooperative/index.js';
import { errors } from '../../errors/index.js';
import { cidrOf } from './credential-access.js';

import { CATEGORIES, CLUSTER_PRIVILEGES, OPERATIONS, type Category, type ClusterPrivilege, type Operation } from '../../request/index.js';

/** What a credential may touch and do: the classifier's categories and operations, one definition. */
export { CATEGORIES, type Category };
export const OPS = OPERATIONS;
export type Op = Operation;

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

/** Named cluster-level rights (lib/request's, which the route table names): one definition. */
export { CLUSTER_PRIVILEGES, type ClusterPrivilege };

export const USERNAME_PATTERN = /^[a-zA-Z0-9_.@-]{1,64}$/;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

export interface RateLimit {
  per_second?: number;
  per_ip_per_hour?: number;
}

/** A credential as the API shows it: every member of the stored record except `hash`. */
export interface Credential {
  username: string;
  description?: string;
  /** Index names and `*` patterns the credential may reach. */
  indices: string[];
  categories: Category[];
  ops: Op[];
  /** CIDR ranges (IPv4 or IPv6) requests must come from; empty = anywhere. */
  sources: string[];
  /** `Referer` patterns with `*`; empty = any (or none). */
  referers: string[];
  /** ISO 8601; from then on the credential is refused with 401. */
  expires_at?: string;
  rate_limit?: RateLimit;
  include_fields?: string[];
  exclude_fields?: string[];
  /** Largest `size` a search may ask for. */
  max_size?: number;
  allow_raw_dsl: boolean;
  role: Role;
  /** Cluster-level rights beyond the index patterns; absent = none. */
  cluster_privileges?: ClusterPrivilege[];
  /** The app (index) the credential was issued for, if any. */
  app?: string;
  created_at: string;
  updated_at: string;
}

/** The document in `.gateway-credentials` (id = username). Never leaves the store's callers. */
export interface StoredUserCredential extends Credential {
  /** `secret-hash.ts` format. */
  hash: string;
}

/** The members a caller may set; the server sets `created_at`/`updated_at`. */
export type CredentialFields = Omit<Credential, 'username' | 'created_at' | 'updated_at'>;

/** A validated create request. */
export interface CredentialSpec extends Partial<CredentialFields> {
  username?: string;
  password?: string;
}

/**
 * A validated PATCH: `null` clears an optional member; `password` re-hashes.
 * (Only members present are changed.)
 */
export type CredentialPatch = {
  [K in keyof CredentialFields]?: CredentialFields[K] | null;
} & { password?: string };

/** A freshly issued credential with its plaintext password — shown to the caller once. */
export interface IssuedCredential {
  credential: Credential;
  password: string;
}

/** Defaults for a create request that leaves members out: least privilege. */
export const CREDENTIAL_DEFAULTS = {
  indices: [] as string[],
  categories: [] as Category[],
  ops: ['read'] as Op[],
  sources: [] as string[],
  referers: [] as string[],
  allow_raw_dsl: false,
  role: 'user' as Role,
};

/** The record without its hash: what every response and principal carries. */
export function publicCredential(record: StoredUserCredential | Credential): Credential {
  const { hash: _hash, ...rest } = record as StoredUserCredential;
  return rest;
}

export function isExpired(credential: Pick<Credential, 'expires_at'>, now?: number): boolean {
  // the clock is read only for a credential that expires (every request checks its credential)
  return credential.expires_at !== undefined && Date.parse(credential.expires_at) <= (now ?? Date.now());
}

// ---------------------------------------------------------------------------------------------
// Validation. Hand-written so each message names the member and says what it must be; a
// password is never echoed back in a message.

type Json = Record<string, unknown>;

const invalid = (member: string, must: string) => errors.illegalArgument(`invalid credential: [${member}] ${must}`);

const SETTABLE = [
  'description', 'indices', 'categories', 'ops', 'sources', 'referers', 'expires_at', 'rate_limit',
  'include_fields', 'exclude_fields', 'max_size', 'allow_raw_dsl', 'role', 'cluster_privileges', 'app',
] as const;
const SERVER_SET = ['created_at', 'updated_at', 'hash'];

/**
 * A create body (`POST /_credentials`) → a spec; 400 naming the first bad member. A list member
 * (100,000 index patterns) is checked a time slice at a time, giving other requests their turns.
 */
export async function validateCreate(body: unknown): Promise<CredentialSpec> {
  const obj = requireObject(body ?? {});
  checkMembers(obj, ['username', 'password', ...SETTABLE]);
  const spec: CredentialSpec = {};
  if (obj.username !== undefined) spec.username = username(obj.username);
  if (obj.password !== undefined) spec.password = password(obj.password);
  for (const key of SETTABLE) {
    const value = obj[key];
    if (value === undefined || value === null) continue;
    (spec as Json)[key] = await MEMBER_VALIDATORS[key](value, key);
  }
  return spec;
}

/** A PATCH body → a patch; `username` may be given only if unchanged. Lists are checked as `validateCreate` checks them. */
export async function validatePatch(body: unknown, currentUsername: string): Promise<CredentialPatch> {
  const obj = requireObject(body ?? {});
  checkMembers(obj, ['username', 'password', ...SETTABLE]);
  if (obj.username !== undefined && obj.username !== currentUsername) {
    throw invalid('username', 'cannot be changed; create a new credential and delete this one');
  }
  const patch: CredentialPatch = {};
  if (obj.password !== undefined) patch.password = password(obj.password);
  for (const key of SETTABLE) {
    const value = obj[key];
    if (value === undefined) continue;
    if (value === null) {
      if (!CLEARABLE.has(key)) throw invalid(key, 'cannot be null');
      (patch as Json)[key] = null;
    } else {
      (patch as Json)[key] = await MEMBER_VALIDATORS[key](value, key);
    }
  }
  return patch;
}

/** Members whose absence means something, so a PATCH may clear them with null. */
const CLEARABLE = new Set<string>(['description', 'expires_at', 'rate_limit', 'include_fields', 'exclude_fields', 'max_size', 'cluster_privileges', 'app']);

export function username(value: unknown): string {
  if (typeof value !== 'string' || !USERNAME_PATTERN.test(value)) {
    throw invalid('username', 'must be 1 to 64 characters from [a-zA-Z0-9_.@-]');
  }
  return value;
}

function password(value: unknown): string {
  if (typeof value !== 'string' || value.length < MIN_PASSWORD_LENGTH || value.length > MAX_PASSWORD_LENGTH) {
    throw invalid('password', `must be a string of ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`);
  }
  return value;
}

function requireObject(body: unknown): Json {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.parse('request body must be a JSON object');
  }
  return body as Json;
}

function checkMembers(obj: Json, allowed: readonly string[]): void {
  for (const key of Object.keys(obj)) {
    if (SERVER_SET.includes(key)) throw invalid(key, 'is set by the server and cannot be given');
    if (!allowed.includes(key)) throw invalid(key, `is not a credential member; known members: ${allowed.join(', ')}`);
  }
}

type Validator = (value: unknown, member: string) => unknown;

/** List items checked between two looks at the clock (a look costs more than checking an item). */
const ITEMS_PER_LOOK = 512;

/**
 * `check` names the item it refuses by `member()`: a list of 100,000 index patterns builds no name
 * for the items it accepts. A long list is checked a time slice at a time (`TimeSlice`).
 */
function stringArray(check: (item: string, member: () => string) => void = () => {}): Validator {
  return async (value, member) => {
    if (!Array.isArray(value)) throw invalid(member, 'must be an array of strings');
    const out = new Set<string>();
    const slice = new TimeSlice();
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'string' || item === '') throw invalid(`${member}][${i}`, 'must be a non-empty string');
      check(item, () => `${member}][${i}`);
      out.add(item);
      if (i % ITEMS_PER_LOOK === ITEMS_PER_LOOK - 1) await slice.pause();
    }
    return out.size === value.length ? value : [...out];
  };
}

function oneOf(allowed: readonly string[]): Validator {
  return stringArray((item, member) => {
    if (!allowed.includes(item)) throw invalid(member(), `must be one of [${allowed.join(', ')}]; got [${item}]`);
  });
}

/** Index names and patterns: Elasticsearch's name rules, with `*` allowed. */
const BAD_INDEX_CHARS = /[\\/?"<>| ,#:A-Z]/;
function indexPattern(item: string, member: string | (() => string)): void {
  // (a name of at most 85 UTF-16 units is at most 255 bytes: most are not measured)
  const first = item.charCodeAt(0);
  if (BAD_INDEX_CHARS.test(item) || (item.length > 85 && Buffer.byteLength(item) > 255) || first === 45 /* - */ || first === 43 /* + */ || first === 95 /* _ */) {
    throw invalid(typeof member === 'string' ? member : member(), `must be a lowercase index name or pattern without [\\ / ? " < > | space , # :] that does not start with [-, +, _]; got [${item}]`);
  }
}

function indexName(value: unknown, member: string): string {
  if (typeof value !== 'string' || value === '' || value.includes('*')) throw invalid(member, 'must be an index name');
  indexPattern(value, member);
  return value;
}

function positiveInteger(value: unknown, member: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalid(member, 'must be a positive integer');
  return value;
}

const MEMBER_VALIDATORS: Record<(typeof SETTABLE)[number], Validator> = {
  description: (value, member) => {
    if (typeof value !== 'string' || value.length > 1024) throw invalid(member, 'must be a string of at most 1024 characters');
    return value;
  },
  indices: stringArray(indexPattern),
  categories: oneOf(CATEGORIES),
  ops: oneOf(OPS),
  sources: stringArray((item, member) => {
    if (!cidrOf(item)) throw invalid(member(), `must be an IPv4 or IPv6 address or CIDR range (e.g. 10.0.0.0/8, 2001:db8::/32); got [${item}]`);
  }),
  referers: stringArray((item, member) => {
    if (item.length > 2048) throw invalid(member(), 'must be at most 2048 characters');
  }),
  expires_at: (value, member) => {
    const time = typeof value === 'string' ? Date.parse(value) : NaN;
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time)) {
      throw invalid(member, 'must be an ISO 8601 date, e.g. 2030-01-31T00:00:00Z');
    }
    return new Date(time).toISOString();
  },
  rate_limit: (value, member) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw invalid(member, 'must be an object with per_second and/or per_ip_per_hour');
    }
    const limit: RateLimit = {};
    for (const [key, v] of Object.entries(value as Json)) {
      if (key !== 'per_second' && key !== 'per_ip_per_hour') throw invalid(`${member}.${key}`, 'is not a rate limit member; known: per_second, per_ip_per_hour');
      if (v === null) continue;
      limit[key] = positiveInteger(v, `${member}.${key}`);
    }
    return limit;
  },
  include_fields: stringArray(),
  exclude_fields: stringArray(),
  max_size: (value, member) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalid(member, 'must be a non-negative integer');
    return value;
  },
  allow_raw_dsl: (value, member) => {
    if (typeof value !== 'boolean') throw invalid(member, 'must be true or false');
    return value;
  },
  role: (value, member) => {
    if (typeof value !== 'string' || !(ROLES as readonly string[]).includes(value)) throw invalid(member, `must be one of [${ROLES.join(', ')}]`);
    return value;
  },
  cluster_privileges: oneOf(CLUSTER_PRIVILEGES),
  app: indexName,
};
