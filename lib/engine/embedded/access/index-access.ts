import { EsError } from '../../../errors/index.js';
import { isSystemIndex, patternsCover, patternsCoverPattern } from '../../index-patterns.js';
import type { EngineAccess, IndexGrant } from '../../backend.js';
import type { Operation } from '../../../request/index.js';
import { countDisagreement } from './disagreements.js';
import { FieldSubset } from './field-subset.js';

/** Compiled once per EngineAccess value (callers reuse them, one per principal). */
const compiled = new WeakMap<EngineAccess, IndexAccess>();

/**
 * A request's rights as the engine checks them where it acts: may this caller do `op` on this
 * concrete index? (`op` undefined: any operation at all — reach, for the index administration
 * whose operation the engine does not tell apart.) The name matching is the gateway's own
 * (lib/auth/classify), so that both checks read a grant alike. System indices are never reachable.
 */
export class IndexAccess {
  private constructor(
    readonly user: string,
    private readonly grants: readonly IndexGrant[],
    /** The fields the caller may read, when its field rules hide some (FieldSubset). */
    readonly fields: FieldSubset | undefined,
  ) {}

  static of(access: EngineAccess): IndexAccess {
    let a = compiled.get(access);
    if (!a) compiled.set(access, (a = new IndexAccess(access.user, access.indices, FieldSubset.of(access.fields))));
    return a;
  }

  allows(index: string, op: Operation | undefined): boolean {
    if (isSystemIndex(index)) return false;
    return this.grants.some((g) => (op === undefined || g.ops.includes(op)) && patternsCover(g.names, index));
  }

  /** Every name the pattern (an alias pattern of `_aliases`) could match is allowed. */
  allowsPattern(pattern: string, op: Operation | undefined): boolean {
    if (isSystemIndex(pattern)) return false;
    return this.grants.some((g) => (op === undefined || g.ops.includes(op)) && patternsCoverPattern(g.names, pattern));
  }

  /** Throws Elasticsearch's 403 naming the indices of `names` this caller may not `op`. */
  require(names: Iterable<string>, op: Operation | undefined, action: string): void {
    let denied: string[] | undefined;
    for (const name of names) if (!this.allows(name, op)) (denied ??= []).push(name);
    if (denied) throw this.refusal(action, denied);
  }

  /**
   * As `require`, for the indices a name the request wrote stands for (an alias's, a data stream's
   * backing indices): the refusal names what the request wrote, never what it stood for (another
   * tenant's index, a `.ds-` backing index).
   */
  requireWritten(names: Iterable<string>, written: string, op: Operation | undefined, action: string): void {
    for (const name of names) if (!this.allows(name, op)) throw this.refusal(action, [written]);
  }

  /**
   * The refusal of an action that would read a field the caller's field rules hide (`what`: the
   * field, or the part that reads any field), as the gateway words it. Counted, as `refusal`.
   */
  fieldRefusal(action: string, what: { field: string } | { member: string; why: string }): EsError {
    countDisagreement();
    const reason = 'field' in what ? `field [${what.field}] is hidden by the credential's field rules` : `[${what.member}] ${what.why}, and the credential's field rules hide some fields`;
    return new EsError(403, 'security_exception', `action [${action}] is unauthorized for user [${this.user}]: ${reason}`);
  }

  /**
   * Elasticsearch's refusal of an action on indices. Counted: a request carrying rights reached
   * the engine, so the gateway let through what the engine refuses.
   */
  refusal(action: string, indices: readonly string[]): EsError {
    countDisagreement();
    return new EsError(403, 'security_exception', `action [${action}] is unauthorized for user [${this.user}] on indices [${[...new Set(indices)].join(',')}]`);
  }
}
