import type { EngineAccess } from '../engine/index.js';
import type { Principal } from './authenticator.js';

/** One per principal (the authenticator caches principals): nothing is built per request. */
const accessByPrincipal = new WeakMap<Principal, EngineAccess>();

/**
 * The rights an engine call made for `principal` carries (EngineRequest.access): the scoped
 * credential's index patterns with its operations; none for the admin, who reaches everything.
 * Every caller that forwards a client's request to the engine sets it, so that the embedded
 * engine authorizes where it acts.
 */
export function engineAccessOf(principal: Principal): EngineAccess | undefined {
  if (principal.role === 'admin') return undefined;
  let access = accessByPrincipal.get(principal);
  if (!access) {
    const { indices, ops, include_fields: include, exclude_fields: exclude } = principal.credential;
    access = { user: principal.username, indices: [{ names: indices, ops }] };
    if (include?.length || exclude?.length) access.fields = { include, exclude };
    accessByPrincipal.set(principal, access);
  }
  return access;
}
