import type { ClusterPrivilege } from '../credentials/credential.js';

export type { ClusterPrivilege };

declare module '../../request/request-info.js' {
  interface Classification {
    /**
     * Named cluster privileges the request needs besides its category and operation, each one
     * (`manage` stands for them all). Cluster-level resources — ingest pipelines, stored scripts,
     * index and component templates, synonym sets, query rulesets, cluster settings — are shared
     * by every tenant: managing one, or running a pipeline on a write, is an admin-level right, as
     * Elasticsearch's `manage_*` privileges are. Absent: none.
     */
    clusterPrivileges?: ClusterPrivilege[];
  }
}

/** Does a credential holding `held` have `needed`? `manage` holds every named privilege. */
export function holdsClusterPrivilege(held: readonly string[] | undefined, needed: ClusterPrivilege): boolean {
  return held !== undefined && (held.includes('manage') || held.includes(needed));
}
