import { isSystemIndex, patternsCover, patternsCoverPattern, wildcardMatches, type AuthorizeIndicesOptions } from '../../engine/index.js';
import type { ExpressionKind, ResolvedIndices } from './resolve-indices.js';

export { SYSTEM_INDEX_PREFIX, PLUGIN_SYSTEM_INDICES, SYSTEM_INDEX_FAMILIES, familyCoveredBy, familyExclusion, familyReachedFrom, isSystemIndex, prefixReachesSystemIndex, type SystemIndexFamily, wildcardMatches, patternsCover, patternsCoverPattern, type AuthorizeIndicesOptions } from '../../engine/index.js';

/**
 * - `allow`: use the expression as written.
 * - `narrow`: a wildcard or `_all` reaching indices the credential may not see: rewrite it to
 *   `narrowExpression(expression, allowed)` (which may be empty).
 * - `deny`: a name or alias the credential may not use: 403.
 */
export type Verdict = 'allow' | 'narrow' | 'deny';

export interface ExpressionDecision {
  expression: string;
  kind: ExpressionKind;
  verdict: Verdict;
  /** Concrete indices the expression reaches that the credential may see. */
  allowed: string[];
  /** Concrete indices (or, for a name that does not exist, the name) it reaches that the credential may not. */
  denied: string[];
}

export interface IndexAuthorization {
  /** False when any expression is denied. */
  allowed: boolean;
  decisions: ExpressionDecision[];
  /** The expressions denied, for the 403 message. */
  denied: string[];
}

/**
 * Decides, expression by expression, whether a credential whose index patterns are `patterns` may
 * reach what `resolved` says the request's expressions stand for: a name must be covered (existing
 * or not); an alias only if every index it points to is; a wildcard or `_all` is narrowed to the
 * indices the credential may see, unless the wildcard is itself within the credential's patterns
 * and reaches nothing else; an exclusion only ever narrows. With `strictWildcards` (an expression
 * that cannot be rewritten: a parameter's, a body's, a write's) a wildcard or `_all` must be within
 * the patterns whole, or it is denied (`_all` the caller wrote as `*`; the `_all` of a request
 * naming no index: reach none of another's indices).
 */
export function authorizeIndices(patterns: readonly string[], resolved: ResolvedIndices, options: AuthorizeIndicesOptions = {}): IndexAuthorization {
  const covered = (name: string) => patternsCover(patterns, name, options);
  const decisions = resolved.expressions.map(({ expression, kind, indices }): ExpressionDecision => {
    const split = (names: string[]) => ({ allowed: names.filter(covered), denied: names.filter((n) => !covered(n)) });
    switch (kind) {
      case 'exclusion':
        return { expression, kind, verdict: 'allow', allowed: [], denied: [] };
      case 'index':
      case 'missing': {
        const ok = covered(expression);
        return { expression, kind, verdict: ok ? 'allow' : 'deny', allowed: ok ? indices : [], denied: ok ? [] : indices.length ? indices : [expression] };
      }
      case 'alias': {
        const members = resolved.aliases[expression]?.length ? resolved.aliases[expression] : indices;
        const { denied } = split(members);
        const ok = options.admin || (members.length > 0 && denied.length === 0 && !isSystemIndex(expression));
        return { expression, kind, verdict: ok ? 'allow' : 'deny', allowed: ok ? indices : [], denied: ok ? [] : denied.length ? denied : [expression] };
      }
      case 'wildcard':
      case 'all': {
        const { allowed, denied } = split(indices);
        if (options.admin) return { expression, kind, verdict: 'allow', allowed, denied };
        const whole = kind === 'wildcard' && denied.length === 0 && patternsCoverPattern(patterns, expression, options);
        if (whole) return { expression, kind, verdict: 'allow', allowed, denied };
        // a wildcard that cannot be rewritten is used as written: it reaches whatever matches when
        // the engine acts (an index created since it was resolved, a date math name of another
        // day), so it must be within the patterns whole — reaching none of another's indices now is
        // not enough (the system indices are always there: one the expansion reaches is `denied`).
        // `_all` the caller wrote is held as `*`; one standing for no named index (the reading of a
        // request on none, a gateway-answered one among them) stays held to what it reaches now
        if (options.strictWildcards) {
          const asWildcard = kind === 'all' ? (options.allWritten ? '*' : undefined) : expression;
          const within = denied.length === 0 && (asWildcard === undefined || patterns.some((p) => wildcardMatches(p, asWildcard)));
          return { expression, kind, verdict: within ? 'allow' : 'deny', allowed, denied };
        }
        return { expression, kind, verdict: 'narrow', allowed, denied };
      }
    }
  });
  const denied = decisions.filter((d) => d.verdict === 'deny').map((d) => d.expression);
  return { allowed: denied.length === 0, decisions, denied };
}

/**
 * The comma list a wildcard or `_all` expression is rewritten to for a credential: the allowed
 * concrete indices it expands to (a decision's `allowed`), unencoded. Empty means it reaches no
 * index the credential may see — the caller answers as Elasticsearch does for a wildcard matching
 * nothing. A name or alias is never narrowed: it is returned as written.
 */
export function narrowExpression(expression: string, allowedConcrete: readonly string[]): string {
  if (expression !== '_all' && !expression.includes('*')) return expression;
  return [...new Set(allowedConcrete)].join(',');
}
