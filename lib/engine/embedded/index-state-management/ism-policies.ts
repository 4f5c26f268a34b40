/**
 * OpenSearch's Index State Management plugin, as stored configuration: its policies (what
 * `_plugins/_ism/policies` keeps in `.opendistro-ism-config`, with a sequence number and primary
 * term a conditional update names) and which index each manages. Durable as cluster metadata in
 * the store (`ism_policy:{id}`, `ism_managed:{index uuid}`). No ISM job runs here: a managed
 * index is never initialised into a state, so it never transitions, acts or fails — explain
 * answers what the plugin answers before its first run. An entry names its index by uuid, so a
 * deleted (or deleted and made again) index is no longer managed.
 */
import { EsError } from '../../../errors/index.js';
import { isMap, type JsonMap } from '../ingest/index.js';
import type { Store } from '../store/index.js';

const POLICY_KEY = 'ism_policy:';
const MANAGED_KEY = 'ism_managed:';
/** The ISM plugin's policy schema version (IndexManagementIndices' mapping of OpenSearch 2.19). */
const SCHEMA_VERSION = 21;

export interface StoredPolicy {
  id: string;
  version: number;
  seqNo: number;
  primaryTerm: number;
  /** The policy as GET answers it (`policy_id`, `last_updated_time`, `schema_version` added). */
  policy: JsonMap;
}

export interface ManagedIndex {
  index: string;
  indexUuid: string;
  policyId: string;
  enabled: boolean;
}

/** The revision a conditional write names, as the index-management plugins write their configuration. */
export interface Revision {
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
}

/**
 * A write of configuration kept as a document: without a revision a creation (a conflict when it
 * exists, op_type create), with one an update of that revision only.
 */
export function checkRevision(id: string, current: { version: number; seqNo: number; primaryTerm: number } | undefined, cond: Revision): void {
  const conditional = cond.ifSeqNo !== undefined || cond.ifPrimaryTerm !== undefined;
  if (!conditional && current) {
    throw new EsError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, document already exists (current version [${current.version}])`);
  }
  if (conditional && (!current || current.seqNo !== cond.ifSeqNo || current.primaryTerm !== cond.ifPrimaryTerm)) {
    const now = current ? `current document has seqNo [${current.seqNo}] and primary term [${current.primaryTerm}]` : 'document does not exist (expected seqNo and primary term)';
    throw new EsError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, required seqNo [${cond.ifSeqNo}], primary term [${cond.ifPrimaryTerm}]. ${now}`);
  }
}

export class IsmPolicies {
  private readonly policies = new Map<string, StoredPolicy>();
  private readonly managed = new Map<string, ManagedIndex>();
  private seqNo = -1;

  constructor(private readonly store: Store) {
    for (const { key, value } of store.loadCluster()) {
      if (key.startsWith(POLICY_KEY) && isMap(value)) {
        const stored = value as unknown as StoredPolicy;
        this.policies.set(stored.id, stored);
        this.seqNo = Math.max(this.seqNo, stored.seqNo);
      } else if (key.startsWith(MANAGED_KEY) && isMap(value)) {
        this.managed.set(key.slice(MANAGED_KEY.length), value as unknown as ManagedIndex);
      }
    }
  }

  get(id: string): StoredPolicy | undefined {
    return this.policies.get(id);
  }

  all(): StoredPolicy[] {
    return [...this.policies.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  /**
   * PUT a policy: without `ifSeqNo`/`ifPrimaryTerm` a creation (a conflict when it exists, as the
   * plugin indexes with op_type create), with them an update of that revision only.
   */
  async put(id: string, body: unknown, cond: Revision): Promise<{ stored: StoredPolicy; created: boolean }> {
    const policy = parsePolicy(id, body);
    const current = this.policies.get(id);
    checkRevision(id, current, cond);
    const stored: StoredPolicy = { id, version: (current?.version ?? 0) + 1, seqNo: ++this.seqNo, primaryTerm: 1, policy };
    this.policies.set(id, stored);
    await this.store.write([{ kind: 'cluster', key: POLICY_KEY + id, value: stored }]);
    return { stored, created: !current };
  }

  /** DELETE a policy: the deleted revision, or undefined when there was none. Indices it manages keep naming it, as in the plugin. */
  async delete(id: string): Promise<StoredPolicy | undefined> {
    const current = this.policies.get(id);
    if (!current) return undefined;
    this.policies.delete(id);
    await this.store.write([{ kind: 'cluster', key: POLICY_KEY + id, value: undefined }]);
    return { ...current, version: current.version + 1, seqNo: ++this.seqNo };
  }

  /** The index with this uuid's managed entry, if any. */
  managedIndex(indexUuid: string): ManagedIndex | undefined {
    return this.managed.get(indexUuid);
  }

  /** Every managed entry whose index `live` says is still there (name → uuid). */
  managedIndices(live: (uuid: string) => boolean): ManagedIndex[] {
    return [...this.managed.values()].filter((m) => live(m.indexUuid)).sort((a, b) => a.index.localeCompare(b.index));
  }

  async manage(entries: ManagedIndex[]): Promise<void> {
    for (const e of entries) this.managed.set(e.indexUuid, e);
    if (entries.length) await this.store.write(entries.map((e) => ({ kind: 'cluster' as const, key: MANAGED_KEY + e.indexUuid, value: e })));
  }

  async unmanage(indexUuids: string[]): Promise<void> {
    for (const uuid of indexUuids) this.managed.delete(uuid);
    if (indexUuids.length) await this.store.write(indexUuids.map((uuid) => ({ kind: 'cluster' as const, key: MANAGED_KEY + uuid, value: undefined })));
  }
}

/** A PUT body's `policy`, checked as the plugin's Policy parser checks it, with the members it adds. */
function parsePolicy(id: string, body: unknown): JsonMap {
  const policy = isMap(body) ? body.policy : undefined;
  if (!isMap(policy)) throw new EsError(400, 'illegal_argument_exception', 'Invalid policy: a [policy] object is required');
  const states = policy.states;
  if (!Array.isArray(states) || states.length === 0) throw new EsError(400, 'illegal_argument_exception', 'Policy must contain at least one State');
  const names = new Set<string>();
  for (const state of states) {
    if (!isMap(state) || typeof state.name !== 'string') throw new EsError(400, 'illegal_argument_exception', 'Each state of a policy needs a [name]');
    names.add(state.name);
  }
  if (typeof policy.default_state !== 'string' || !names.has(policy.default_state)) {
    throw new EsError(400, 'illegal_argument_exception', 'Policy must have a valid default state');
  }
  for (const state of states as JsonMap[]) {
    for (const t of Array.isArray(state.transitions) ? state.transitions : []) {
      if (isMap(t) && typeof t.state_name === 'string' && !names.has(t.state_name)) {
        throw new EsError(400, 'illegal_argument_exception', `Policy contains a transition to a state that does not exist [${t.state_name}]`);
      }
    }
  }
  return {
    policy_id: id,
    description: policy.description ?? '',
    last_updated_time: Date.now(),
    schema_version: SCHEMA_VERSION,
    error_notification: policy.error_notification ?? null,
    default_state: policy.default_state,
    states: (states as JsonMap[]).map((s) => ({ ...s, actions: s.actions ?? [], transitions: s.transitions ?? [] })),
    ism_template: policy.ism_template ?? null,
  };
}
