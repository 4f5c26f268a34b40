import { randomBytes } from 'node:crypto';
import { EsError } from '../../../errors/index.js';
import { splitSynonymRule, type SynonymsSource } from '../analysis/index.js';
import type { Store, StoreWrite } from '../store/index.js';

/** ES's limit on the rules of one synonyms set. */
export const MAX_SYNONYM_RULES = 10_000;

/** One rule of a set; `id` is absent in a request that lets the engine name the rule. */
export interface SynonymRule {
  id: string;
  synonyms: string;
}

export type UpdateResult = 'created' | 'updated';

/** Cluster metadata keys: a marker per set (a set may have no rules) and a record per rule. */
const SET_PREFIX = 'synonyms_set:';
const RULE_PREFIX = 'synonyms_rule:';

interface StoredRule {
  set: string;
  id: string;
  synonyms: string;
}

/** A set's rules by id. Replaced on every change, never changed in place. */
type Rules = ReadonlyMap<string, string>;

const ruleKey = (set: string, id: string) => RULE_PREFIX + JSON.stringify([set, id]);
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function synonymsSetNotFound(set: string): EsError {
  return new EsError(404, 'resource_not_found_exception', `synonyms set [${set}] not found`);
}

/**
 * What is wrong with a rule's Solr syntax, checked without an analyzer (ES's SynonymRule.validate:
 * the API refuses such a rule before it reaches any index); undefined for a rule that parses.
 */
export function synonymRuleSyntaxError(synonyms: string): string | undefined {
  if (synonyms.length === 0) return "[synonyms] field can't be empty";
  const sides = splitSynonymRule(synonyms, '=>');
  if (sides.length > 2) return `More than one explicit mapping specified in the same synonyms rule: [${synonyms}]`;
  const entries = sides.length === 2 ? [...splitSynonymRule(sides[0], ','), ...splitSynonymRule(sides[1], ',')] : splitSynonymRule(synonyms, ',');
  if (entries.some((e) => e.trim().length === 0)) return `Incorrect syntax for [synonyms]: [${synonyms}]`;
  return undefined;
}

/** A rule id as ES generates one when the request names none (20 url-safe base64 characters). */
function generatedRuleId(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * The engine's synonyms sets (the synonyms management API), durable as cluster metadata in the
 * store, and the `SynonymsSource` that `synonyms_set` in a synonym filter reads.
 *
 * Contract: a change is visible at once and durable when its promise resolves; a change whose
 * write fails is undone (unless a later change replaced the set meanwhile). Reloading the
 * analyzers that read a set is the caller's, once the change is durable.
 */
export class SynonymsSets implements SynonymsSource {
  private readonly sets = new Map<string, Rules>();
  /** Each set's rules in id order (ES reads a set's rules sorted by id), built when first read. */
  private readonly ordered = new Map<string, Array<[string, string]>>();

  constructor(private readonly store: Store) {
    const loaded = new Map<string, Map<string, string>>();
    const of = (set: string) => loaded.get(set) ?? loaded.set(set, new Map()).get(set)!;
    for (const { key, value } of store.loadCluster()) {
      if (key.startsWith(SET_PREFIX)) of(key.slice(SET_PREFIX.length));
      else if (key.startsWith(RULE_PREFIX)) {
        const rule = value as StoredRule;
        of(rule.set).set(rule.id, rule.synonyms);
      }
    }
    for (const [set, rules] of loaded) this.sets.set(set, rules);
  }

  has(set: string): boolean {
    return this.sets.has(set);
  }

  rules(set: string): readonly string[] | undefined {
    return this.sorted(set)?.map(([, synonyms]) => synonyms);
  }

  /** The set's rule count and the rules `from`…`from + size` in id order; 404 for a missing set. */
  page(set: string, from: number, size: number): { count: number; rules: SynonymRule[] } {
    const rules = this.sorted(set);
    if (!rules) throw synonymsSetNotFound(set);
    return { count: rules.length, rules: rules.slice(from, from + size).map(([id, synonyms]) => ({ id, synonyms })) };
  }

  rule(set: string, id: string): SynonymRule {
    const rules = this.sets.get(set);
    if (!rules) throw synonymsSetNotFound(set);
    const synonyms = rules.get(id);
    if (synonyms === undefined) throw new EsError(404, 'resource_not_found_exception', `synonym rule [${id}] not found`);
    return { id, synonyms };
  }

  /** Sets with at least one rule, by name, with their rule counts (an empty set is not listed, as in ES). */
  summaries(): Array<{ synonyms_set: string; count: number }> {
    return [...this.sets]
      .filter(([, rules]) => rules.size > 0)
      .map(([set, rules]) => ({ synonyms_set: set, count: rules.size }))
      .sort((a, b) => byId(a.synonyms_set, b.synonyms_set));
  }

  /** Creates or replaces a set; rules without an id get a generated one. */
  async put(set: string, rules: Array<{ id?: string; synonyms: string }>): Promise<UpdateResult> {
    if (rules.length > MAX_SYNONYM_RULES) {
      throw new EsError(400, 'illegal_argument_exception', `The number of synonyms rules in a synonym set cannot exceed ${MAX_SYNONYM_RULES}`);
    }
    const before = this.sets.get(set);
    const next = new Map(rules.map((r) => [r.id ?? generatedRuleId(), r.synonyms]));
    const writes: StoreWrite[] = [{ kind: 'cluster', key: SET_PREFIX + set, value: {} }];
    for (const id of before?.keys() ?? []) if (!next.has(id)) writes.push({ kind: 'cluster', key: ruleKey(set, id), value: undefined });
    for (const [id, synonyms] of next) writes.push({ kind: 'cluster', key: ruleKey(set, id), value: { set, id, synonyms } satisfies StoredRule });
    await this.commit(set, next, writes);
    return before ? 'updated' : 'created';
  }

  /** Creates or replaces one rule of an existing set. */
  async putRule(set: string, id: string, synonyms: string): Promise<UpdateResult> {
    const before = this.sets.get(set);
    if (!before) throw synonymsSetNotFound(set);
    if (before.size - (before.has(id) ? 1 : 0) >= MAX_SYNONYM_RULES) {
      throw new EsError(400, 'illegal_argument_exception', `The number of synonym rules in a synonyms set cannot exceed ${MAX_SYNONYM_RULES}`);
    }
    await this.commit(set, new Map(before).set(id, synonyms), [{ kind: 'cluster', key: ruleKey(set, id), value: { set, id, synonyms } satisfies StoredRule }]);
    return before.has(id) ? 'updated' : 'created';
  }

  async deleteRule(set: string, id: string): Promise<void> {
    const before = this.sets.get(set);
    if (!before) throw synonymsSetNotFound(set);
    if (!before.has(id)) throw new EsError(404, 'resource_not_found_exception', `synonym rule [${id}] not found on synonyms set [${set}]`);
    const next = new Map(before);
    next.delete(id);
    await this.commit(set, next, [{ kind: 'cluster', key: ruleKey(set, id), value: undefined }]);
  }

  /** Deletes a set; whether an index still uses it is the caller's to check first. */
  async delete(set: string): Promise<void> {
    const before = this.sets.get(set);
    if (!before) throw synonymsSetNotFound(set);
    const writes: StoreWrite[] = [{ kind: 'cluster', key: SET_PREFIX + set, value: undefined }];
    for (const id of before.keys()) writes.push({ kind: 'cluster', key: ruleKey(set, id), value: undefined });
    await this.commit(set, undefined, writes);
  }

  private sorted(set: string): Array<[string, string]> | undefined {
    const rules = this.sets.get(set);
    if (!rules) return undefined;
    let sorted = this.ordered.get(set);
    if (!sorted) this.ordered.set(set, (sorted = [...rules].sort(([a], [b]) => byId(a, b))));
    return sorted;
  }

  private install(set: string, rules: Rules | undefined): void {
    if (rules) this.sets.set(set, rules);
    else this.sets.delete(set);
    this.ordered.delete(set);
  }

  private async commit(set: string, next: Rules | undefined, writes: StoreWrite[]): Promise<void> {
    const before = this.sets.get(set);
    this.install(set, next);
    try {
      await this.store.write(writes);
    } catch (err) {
      if (this.sets.get(set) === next) this.install(set, before);
      throw err;
    }
  }
}
