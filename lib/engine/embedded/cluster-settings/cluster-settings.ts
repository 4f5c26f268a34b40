import { EsError } from '../../../errors/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import type { Store } from '../store/index.js';

/** Flat cluster settings: dotted keys, values as ES keeps them (strings, or lists of strings). */
export type ClusterSettingValues = Record<string, string | string[]>;
type Scope = 'persistent' | 'transient';

const PERSISTENT_KEY = 'cluster_settings:persistent';

/**
 * Namespaces of the dynamic cluster-level settings Elasticsearch 8.15 registers, and those OpenSearch
 * 2's bundled plugins register (`plugins.` — ml_commons, neural_search, security, index state
 * management… — the k-NN plugin's `knn.`, and the SQL plugin's legacy `opendistro.sql.`,
 * `opendistro.ppl.` and `opendistro.query.`; kept, without effect here, as index settings keep
 * theirs): a key under one of them is accepted, any other is refused as ES refuses an unknown setting.
 */
const DYNAMIC_PREFIXES = [
  'plugins.', 'knn.', 'opendistro.sql.', 'opendistro.ppl.', 'opendistro.query.',
  'action.', 'cluster.routing.', 'cluster.blocks.', 'cluster.info.', 'cluster.indices.', 'cluster.max_shards_per_node',
  'cluster.persistent_tasks.', 'cluster.remote.', 'cluster.search.', 'cluster.service.', 'cluster.auto_shrink_voting_configuration',
  'cluster.default.', 'cluster.metadata.', 'cluster.nodes.', 'cluster.deprecation_indexing.', 'cluster.logsdb.',
  'data_streams.', 'health.', 'indices.', 'ingest.', 'logger.', 'network.breaker.', 'script.', 'search.', 'snapshot.',
  'stack.templates.', 'transport.tracer.', 'http.tracer.', 'xpack.',
];

function recognized(key: string): boolean {
  return DYNAMIC_PREFIXES.some((p) => (p.endsWith('.') ? key.startsWith(p) : key === p || key.startsWith(`${p}.`)));
}

function flatten(out: Record<string, string | string[] | null>, value: unknown, prefix: string, scope: Scope): void {
  if (value === null) out[prefix] = null;
  else if (Array.isArray(value)) out[prefix] = value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)));
  else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flatten(out, v, prefix ? `${prefix}.${k}` : k, scope);
  } else out[prefix] = String(value);
}

/**
 * The cluster's dynamic settings (`PUT/GET _cluster/settings`). Persistent settings are cluster
 * metadata, durable in the store like index templates and query rulesets (one record); transient
 * ones live in memory and are gone after a restart, as after a full cluster restart in ES. An
 * update is applied in memory at once and acknowledged once stored.
 */
export class ClusterSettings {
  private persistent: ClusterSettingValues = {};
  private transient: ClusterSettingValues = {};

  constructor(private readonly store: Store) {
    for (const { key, value } of store.loadCluster()) {
      if (key === PERSISTENT_KEY && value && typeof value === 'object') this.persistent = value as ClusterSettingValues;
    }
  }

  current(): { persistent: ClusterSettingValues; transient: ClusterSettingValues } {
    return { persistent: { ...this.persistent }, transient: { ...this.transient } };
  }

  /** A setting's value, transient over persistent (as ES resolves them). */
  get(key: string): string | string[] | undefined {
    return this.transient[key] ?? this.persistent[key];
  }

  /**
   * Applies `{persistent, transient}` (nested or dotted; `null` resets a key, and a `*` key resets
   * every key it matches) and answers what was set in each scope. Keys `only` does not match are
   * dropped unread (the SQL plugin's settings endpoint passes on its own settings only).
   */
  async update(
    body: Record<string, unknown>,
    validate: (key: string, value: string | string[]) => void = () => {},
    only: (key: string) => boolean = () => true,
  ): Promise<{ persistent: ClusterSettingValues; transient: ClusterSettingValues }> {
    for (const k of Object.keys(body)) {
      if (k !== 'persistent' && k !== 'transient') throw new EsError(400, 'illegal_argument_exception', `[cluster_update_settings_request] unknown field [${k}]`);
    }
    const changes = {} as Record<Scope, Record<string, string | string[] | null>>;
    for (const scope of ['persistent', 'transient'] as const) {
      const input = body[scope];
      if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input))) {
        throw new EsError(400, 'illegal_argument_exception', `[cluster_update_settings_request] ${scope} doesn't support values of type: VALUE_${typeof input === 'string' ? 'STRING' : 'NUMBER'}`);
      }
      const flat: Record<string, string | string[] | null> = {};
      flatten(flat, input ?? {}, '', scope);
      for (const key of Object.keys(flat)) if (!only(key)) delete flat[key];
      for (const [key, v] of Object.entries(flat)) {
        if (v !== null && !recognized(key)) throw new EsError(400, 'illegal_argument_exception', `${scope} setting [${key}], not recognized`);
        if (v !== null) validate(key, v);
      }
      changes[scope] = flat;
    }
    if (Object.keys(changes.persistent).length === 0 && Object.keys(changes.transient).length === 0) {
      throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no settings to update;');
    }
    const applied = { persistent: apply(this.persistent, changes.persistent), transient: apply(this.transient, changes.transient) };
    this.persistent = applied.persistent.next;
    this.transient = applied.transient.next;
    if (Object.keys(changes.persistent).length) {
      await this.store.write([{ kind: 'cluster', key: PERSISTENT_KEY, value: this.persistent }]);
    }
    return { persistent: applied.persistent.set, transient: applied.transient.set };
  }
}

function apply(current: ClusterSettingValues, changes: Record<string, string | string[] | null>): { next: ClusterSettingValues; set: ClusterSettingValues } {
  const next = { ...current };
  const set: ClusterSettingValues = {};
  for (const [key, v] of Object.entries(changes)) {
    if (v === null) {
      for (const k of Object.keys(next)) if (k === key || (key.includes('*') && simpleMatch(key, k))) delete next[k];
    } else {
      next[key] = v;
      set[key] = v;
    }
  }
  return { next, set };
}
