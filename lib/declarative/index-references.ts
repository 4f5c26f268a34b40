import type { Principal } from '../auth/index.js';
import { authorizeIndices, resolveIndices } from '../auth/classify/index.js';
import { searchBodyTargets } from '../auth/classify/index.js';
import type { Backend } from '../engine/index.js';
import { EsError } from '../errors/index.js';

/** What the indices a reference names are resolved through: the engine. */
export type ReferenceResolver = Backend;

/**
 * The indices a declarative request reads besides its components' own: raw DSL (`defaultQuery`,
 * `customQuery`) may hold a terms lookup, a `more_like_this` document, an indexed shape, a
 * percolated document, a `pinned` document — each a read of another index. They are read from the
 * translated engine DSL by the classifier's structural search-body reader (`searchBodyTargets`) and
 * authorized against the credential as Elasticsearch authorizes such a lookup: every index named
 * must be the credential's (a wildcard as a whole; one it cannot read, `*`, is every index). A
 * reference the credential may not read is a 403. The admin is not asked. Without `engine` to
 * resolve names with, any reference of a scoped credential is refused (fail closed).
 */
export async function checkIndexReferences(searches: readonly unknown[], principal: Principal, engine: ReferenceResolver | undefined): Promise<void> {
  if (principal.role === 'admin') return;
  const named = new Set<string>();
  for (const body of searches) {
    for (const target of searchBodyTargets(JSON.stringify(body), {})) if (target.expression !== null) named.add(target.expression);
  }
  if (!named.size) return;
  const expressions = [...named];
  if (!engine) throw forbidden(principal, expressions);
  const verdict = authorizeIndices(principal.credential.indices, await resolveIndices(engine, expressions), { strictWildcards: true });
  const denied = verdict.decisions.filter((d) => d.verdict === 'deny');
  // named as the request wrote them: what a pattern expanded to (other tenants' indices) is not told
  if (denied.length) throw forbidden(principal, denied.map((d) => d.expression));
}

const forbidden = (principal: Principal, indices: string[]) =>
  new EsError(403, 'security_exception', `action [indices:data/read/search] is unauthorized for user [${principal.username}] on indices [${indices.join(',')}]`);
