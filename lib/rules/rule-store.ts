import type { ChangeBus } from '../changes/index.js';
import type { Backend } from '../engine/index.js';
import { SystemRecords } from '../records/index.js';
import type { QueryRule } from './rule.js';
import { compileAhead, RuleSet } from './rule-set.js';

export const RULES_INDEX = '.gateway-rules';
/** The record holding the evaluation order (rule ids cannot start with a dot). */
const ORDER_ID = '.order';

/** A rule, and when it was created (ms; ordered after the order record's rules by it, then by id). */
type RuleRecord = { rule: QueryRule; created?: number } | { order: string[] };

/**
 * The stored query rules (system index `.gateway-rules`, every node holding them, see
 * SystemRecords), their evaluation order, and the compiled RuleSet a search consults. The order
 * is one record: rules it does not list (new ones) come after it, oldest first (by creation time,
 * then id), so creating a rule writes that rule alone, whatever the number of rules. The RuleSet
 * is rebuilt on the first search after a change (a burst of writes costs one rebuild), and each
 * rule is compiled once (rule-set.ts).
 */
export class RuleStore {
  private readonly records: SystemRecords<RuleRecord>;
  private current = new RuleSet([]);
  private stale = false;
  private compiling: Promise<void> | undefined;
  private changedMeanwhile = false;
  /** The latest creation time handed out or seen, so that a new rule sorts after every other. */
  private lastCreated = 0;
  /** How many times each rule fired, since this node started (per rule id). */
  private readonly usage = new Map<string, number>();

  constructor(backend: Backend, bus: ChangeBus, private readonly log: (line: string) => void = () => {}) {
    this.records = new SystemRecords<RuleRecord>(backend, bus, { index: RULES_INDEX, what: 'rule', log, changed: () => {
      this.stale = true;
      this.compileAhead();
    } });
  }

  start(): Promise<void> {
    return this.records.start();
  }

  close(): void {
    this.records.close();
  }

  /**
   * Resolves once the rules a change left to compile are compiled (a slice of the event loop at a
   * time): a search awaits it before it reads `rules`, rather than compile 2,000 rules and their
   * pattern sets in one piece (~330 ms of the loop) when it comes before the compile has ended.
   */
  async ready(): Promise<void> {
    while (this.stale && this.compiling) await this.compiling;
  }

  /** The compiled enabled rules, for searches (after `ready()`: built at once from what is compiled). */
  get rules(): RuleSet {
    if (this.stale) this.rebuild();
    return this.current;
  }

  /** Stored rules. */
  get size(): number {
    const r = this.records.get(ORDER_ID);
    return this.records.size - (r ? 1 : 0);
  }

  get(id: string): QueryRule | undefined {
    const r = this.records.get(id);
    return r && 'rule' in r ? r.rule : undefined;
  }

  /** Every rule, in evaluation order. */
  list(): QueryRule[] {
    const rules = new Map<string, { rule: QueryRule; created: number }>();
    for (const [id, r] of this.records.entries()) {
      if (!('rule' in r)) continue;
      rules.set(id, { rule: r.rule, created: r.created ?? 0 });
      if (r.created !== undefined && r.created > this.lastCreated) this.lastCreated = r.created;
    }
    const ordered: QueryRule[] = [];
    for (const id of this.order()) {
      const entry = rules.get(id);
      if (!entry) continue;
      ordered.push(entry.rule);
      rules.delete(id);
    }
    const rest = [...rules.values()].sort((a, b) => a.created - b.created || a.rule.id.localeCompare(b.rule.id));
    return [...ordered, ...rest.map((e) => e.rule)];
  }

  /** Stores the rule (creating or replacing it); a new rule goes last in the order. True when new. */
  async put(rule: QueryRule): Promise<boolean> {
    const previous = this.records.get(rule.id);
    const isNew = previous === undefined || !('rule' in previous);
    // a rule stored before creation times were kept keeps its place (by id)
    let created = isNew ? undefined : previous.created;
    if (isNew) {
      created = Math.max(Date.now(), this.lastCreated + 1);
      this.lastCreated = created;
      // a new rule goes last: an order that still names the id (a rule deleted elsewhere) lets it go
      if (this.order().includes(rule.id)) await this.setOrder(this.order().filter((id) => id !== rule.id));
    }
    return (await this.records.put(rule.id, { rule, created })) || isNew;
  }

  async delete(id: string): Promise<boolean> {
    const deleted = await this.records.delete(id);
    if (deleted && this.order().includes(id)) await this.setOrder(this.order().filter((o) => o !== id));
    return deleted;
  }

  /** Puts `ids` first, in that order; the rules it does not name keep their relative order after them. */
  async reorder(ids: string[]): Promise<QueryRule[]> {
    const rest = this.list().map((r) => r.id).filter((id) => !ids.includes(id));
    await this.setOrder([...ids, ...rest]);
    return this.list();
  }

  /** Counts a rule that fired. */
  used(id: string): void {
    this.usage.set(id, (this.usage.get(id) ?? 0) + 1);
  }

  usageOf(id: string): number {
    return this.usage.get(id) ?? 0;
  }

  private order(): string[] {
    const r = this.records.get(ORDER_ID);
    return r && 'order' in r ? r.order : [];
  }

  private async setOrder(order: string[]): Promise<void> {
    await this.records.put(ORDER_ID, { order });
  }

  /**
   * After a change, the rules are compiled a slice of the event loop at a time (compileAhead),
   * then the set is rebuilt from them. A search meanwhile waits for it (`ready`); one that reads
   * `rules` without waiting rebuilds it at once, and what was compiled by then is not compiled
   * again. A change while they compile compiles them again.
   */
  private compileAhead(): void {
    if (this.compiling) {
      this.changedMeanwhile = true;
      return;
    }
    this.compiling = compileAhead(this.list()).catch((err: unknown) => this.log(`query rules not compiled ahead: ${(err as Error).message}`)).finally(() => {
      this.compiling = undefined;
      if (this.changedMeanwhile) {
        this.changedMeanwhile = false;
        this.compileAhead();
      } else if (this.stale) this.rebuild();
    });
  }

  private rebuild(): void {
    this.stale = false;
    this.current = new RuleSet(this.list(), this.log);
  }
}
