import type { ChangeBus } from '../changes/index.js';
import type { Backend } from '../engine/index.js';
import { SystemRecords } from '../records/index.js';
import type { QueryRule } from './rule.js';
import { RuleSet } from './rule-set.js';

export const RULES_INDEX = '.gateway-rules';
/** The record holding the evaluation order (rule ids cannot start with a dot). */
const ORDER_ID = '.order';

type RuleRecord = { rule: QueryRule } | { order: string[] };

/**
 * The stored query rules (system index `.gateway-rules`, every node holding them, see
 * SystemRecords), their evaluation order, and the compiled RuleSet a search consults. The order
 * is one record: rules it does not list (new ones) come after it, oldest… by id.
 */
export class RuleStore {
  private readonly records: SystemRecords<RuleRecord>;
  private current = new RuleSet([]);
  /** How many times each rule fired, since this node started (per rule id). */
  private readonly usage = new Map<string, number>();

  constructor(backend: Backend, bus: ChangeBus, private readonly log: (line: string) => void = () => {}) {
    this.records = new SystemRecords<RuleRecord>(backend, bus, { index: RULES_INDEX, what: 'rule', log, changed: () => this.rebuild() });
  }

  start(): Promise<void> {
    return this.records.start();
  }

  close(): void {
    this.records.close();
  }

  /** The compiled enabled rules, for searches. */
  get rules(): RuleSet {
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
    const rules = new Map<string, QueryRule>();
    for (const [id, r] of this.records.entries()) if ('rule' in r) rules.set(id, r.rule);
    const ordered: QueryRule[] = [];
    for (const id of this.order()) {
      const rule = rules.get(id);
      if (!rule) continue;
      ordered.push(rule);
      rules.delete(id);
    }
    return [...ordered, ...[...rules.values()].sort((a, b) => a.id.localeCompare(b.id))];
  }

  /** Stores the rule (creating or replacing it); a new rule goes last in the order. True when new. */
  async put(rule: QueryRule): Promise<boolean> {
    const isNew = this.get(rule.id) === undefined;
    if (isNew) await this.setOrder([...this.list().map((r) => r.id), rule.id]);
    return (await this.records.put(rule.id, { rule })) || isNew;
  }

  async delete(id: string): Promise<boolean> {
    return this.records.delete(id);
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

  private rebuild(): void {
    this.current = new RuleSet(this.list(), this.log);
  }
}
