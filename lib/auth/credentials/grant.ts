import net from 'node:net';
import { EsError } from '../../errors/index.js';
import { simpleMatch } from '../../wildcard/index.js';
import { patternsCover, patternsCoverPattern } from '../classify/authorize-indices.js';
import { holdsClusterPrivilege } from '../classify/cluster-privileges.js';
import { cidrOf } from './credential-access.js';
import type { ClusterPrivilege, Credential, CredentialSpec, RateLimit } from './credential.js';

/** The members of a credential that say what it may do, where and for how long: what a grant compares. */
export type Rights = Pick<Credential, 'indices' | 'categories' | 'ops' | 'sources' | 'referers' | 'allow_raw_dsl' | 'role'> &
  Partial<Pick<Credential, 'expires_at' | 'rate_limit' | 'include_fields' | 'exclude_fields' | 'max_size' | 'cluster_privileges' | 'app'>>;

const RATE_LIMITS = ['per_second', 'per_ip_per_hour'] as const satisfies ReadonlyArray<keyof RateLimit>;

/**
 * Rights only narrow: where the credential `granted` would be wider than `grantor` (the caller who
 * creates or changes it), one line per member; empty when `granted` lies within `grantor`.
 *
 * A member a credential leaves out is read as Elasticsearch and the authorizer read it: no
 * `sources`/`referers` = from anywhere, no `expires_at` = forever, no `rate_limit` member, no
 * `max_size`, no (or empty) `include_fields` = no limit; no `exclude_fields` and no
 * `cluster_privileges` = none. So leaving out a restriction the grantor has is wider.
 * The admin role is never granted here: the admin is not a grantor this check is asked about.
 */
export function excessOf(grantor: Rights, granted: Rights): string[] {
  const excess: string[] = [];
  const wider = (member: string, why: string) => excess.push(`[${member}] ${why}`);

  if (granted.role !== 'user') wider('role', `[${granted.role}] cannot be granted by a scoped credential`);
  const outside = granted.indices.filter((p) => !patternsCoverPattern(grantor.indices, p));
  if (outside.length) wider('indices', `[${outside.join(',')}] not within [${grantor.indices.join(',')}]`);
  if (granted.app !== undefined && !patternsCover(grantor.indices, granted.app)) wider('app', `[${granted.app}] not within [${grantor.indices.join(',')}]`);
  const categories = granted.categories.filter((c) => !grantor.categories.includes(c));
  if (categories.length) wider('categories', `[${categories.join(',')}] not held`);
  const ops = granted.ops.filter((o) => !grantor.ops.includes(o));
  if (ops.length) wider('ops', `[${ops.join(',')}] not held`);
  if (granted.allow_raw_dsl && !grantor.allow_raw_dsl) wider('allow_raw_dsl', 'not held');
  const privileges = (granted.cluster_privileges ?? []).filter((p) => !holdsClusterPrivilege(grantor.cluster_privileges, p));
  if (privileges.length) wider('cluster_privileges', `[${privileges.join(',')}] not held`);

  const grantorIncludes = nonEmpty(grantor.include_fields);
  if (grantorIncludes) {
    const includes = nonEmpty(granted.include_fields);
    if (!includes) wider('include_fields', `must be given, within [${grantorIncludes.join(',')}]`);
    else {
      const extra = includes.filter((f) => !grantorIncludes.some((own) => fieldPatternCovers(own, f)));
      if (extra.length) wider('include_fields', `[${extra.join(',')}] not within [${grantorIncludes.join(',')}]`);
    }
  }
  const kept = granted.exclude_fields ?? [];
  const dropped = (grantor.exclude_fields ?? []).filter((own) => !kept.some((f) => fieldPatternCovers(f, own)));
  if (dropped.length) wider('exclude_fields', `must keep [${dropped.join(',')}]`);

  if (grantor.max_size !== undefined && !(granted.max_size !== undefined && granted.max_size <= grantor.max_size)) {
    wider('max_size', `must be at most ${grantor.max_size}`);
  }
  if (grantor.expires_at !== undefined && !(granted.expires_at !== undefined && Date.parse(granted.expires_at) <= Date.parse(grantor.expires_at))) {
    wider('expires_at', `must be no later than ${grantor.expires_at}`);
  }
  for (const key of RATE_LIMITS) {
    const own = grantor.rate_limit?.[key];
    const asked = granted.rate_limit?.[key];
    if (own !== undefined && !(asked !== undefined && asked <= own)) wider(`rate_limit.${key}`, `must be at most ${own}`);
  }

  if (grantor.sources.length) {
    const ranges = granted.sources.filter((s) => !grantor.sources.some((own) => cidrContains(own, s)));
    if (!granted.sources.length) wider('sources', `must be given, within [${grantor.sources.join(',')}]`);
    else if (ranges.length) wider('sources', `[${ranges.join(',')}] not within [${grantor.sources.join(',')}]`);
  }
  if (grantor.referers.length) {
    const patterns = granted.referers.filter((r) => !grantor.referers.some((own) => simpleMatch(own, r, true)));
    if (!granted.referers.length) wider('referers', `must be given, within [${grantor.referers.join(',')}]`);
    else if (patterns.length) wider('referers', `[${patterns.join(',')}] not within [${grantor.referers.join(',')}]`);
  }
  return excess;
}

/** True when `granted` lies within `grantor` (see `excessOf`). */
export function isWithin(granted: Rights, grantor: Rights): boolean {
  return excessOf(grantor, granted).length === 0;
}

/** A scoped caller creating or changing a credential: its own credential and the request's action (for the 403). */
export interface Grantor {
  credential: Credential;
  action: string;
}

/**
 * The store's `admit` for a write on `grantor`'s behalf: refuses, with Elasticsearch's 403
 * `security_exception`, a credential wider than the grantor's own.
 */
export function admitWithin(grantor: Grantor): (credential: Credential) => void {
  return (credential) => {
    const excess = excessOf(grantor.credential, credential);
    if (!excess.length) return;
    throw new EsError(403, 'security_exception',
      `action [${grantor.action}] is unauthorized for user [${grantor.credential.username}]: a credential can only grant rights it holds; wider in ${excess.join('; ')}`);
  };
}

/**
 * A create request by a scoped credential inherits the grantor's restrictions it leaves out —
 * sources, referers, expires_at, each rate limit, include_fields, exclude_fields, max_size — so
 * "a narrower credential" needs no restating of every limit the caller lives under. Members it
 * gives are kept as given (and then checked by `excessOf`); members whose default is already the
 * narrowest (indices, categories, ops, allow_raw_dsl, role, cluster_privileges) are not inherited.
 * A PATCH inherits nothing: its result is checked as it stands.
 */
export function inheritRestrictions(grantor: Rights, spec: CredentialSpec): CredentialSpec {
  const out: CredentialSpec = { ...spec };
  if (out.sources === undefined && grantor.sources.length) out.sources = [...grantor.sources];
  if (out.referers === undefined && grantor.referers.length) out.referers = [...grantor.referers];
  if (out.expires_at === undefined && grantor.expires_at !== undefined) out.expires_at = grantor.expires_at;
  if (out.max_size === undefined && grantor.max_size !== undefined) out.max_size = grantor.max_size;
  if (out.include_fields === undefined && nonEmpty(grantor.include_fields)) out.include_fields = [...grantor.include_fields!];
  if (out.exclude_fields === undefined && nonEmpty(grantor.exclude_fields)) out.exclude_fields = [...grantor.exclude_fields!];
  const limits: RateLimit = { ...out.rate_limit };
  for (const key of RATE_LIMITS) if (limits[key] === undefined && grantor.rate_limit?.[key] !== undefined) limits[key] = grantor.rate_limit[key];
  if (Object.keys(limits).length) out.rate_limit = limits;
  return out;
}

const nonEmpty = (list: string[] | undefined): string[] | undefined => (list?.length ? list : undefined);

/** `manage` holds every cluster privilege, as in Elasticsearch. */
/**
 * Does the `_source` field pattern `outer` reach every field `inner` reaches? A pattern reaches
 * the fields it matches and everything under them (`user` reaches `user.name`); `*` in `inner`
 * must be absorbed by a `*` of `outer`.
 */
function fieldPatternCovers(outer: string, inner: string): boolean {
  return simpleMatch(outer, inner) || simpleMatch(`${outer}.*`, inner);
}

/** Is every address of the range `inner` inside the range `outer`? (Same family only.) */
function cidrContains(outer: string, inner: string): boolean {
  const a = cidrOf(outer);
  const b = cidrOf(inner);
  if (!a || !b || a.family !== b.family || b.prefix < a.prefix) return false;
  // `inner` is at least as long a prefix: it lies inside `outer` iff one of its addresses does
  const range = new net.BlockList();
  range.addSubnet(a.address, a.prefix, a.family);
  return range.check(b.address, b.family);
}
