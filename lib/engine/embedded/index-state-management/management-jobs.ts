/**
 * The index-management plugin's rollup and transform jobs, as stored configuration (what
 * `_plugins/_rollup/jobs` and `_plugins/_transform` keep in `.opendistro-ism-config`, with a
 * sequence number and primary term a conditional update names). Durable as cluster metadata in the
 * store (`im_job:{kind}:{id}`). No job runs here: starting or stopping one changes its `enabled`
 * flag only, it never reads its source or writes its target, and explain answers as the plugin
 * does before a job's first run (no metadata).
 */
import { EsError } from '../../../errors/index.js';
import { isMap, type JsonMap } from '../ingest/index.js';
import type { Store } from '../store/index.js';
import { checkRevision, type Revision } from './ism-policies.js';

const JOB_KEY = 'im_job:';
/** The index-management plugin's job schema version (OpenSearch 2.19). */
const SCHEMA_VERSION = 21;

export type JobKind = 'rollup' | 'transform';

export interface StoredJob {
  kind: JobKind;
  id: string;
  version: number;
  seqNo: number;
  primaryTerm: number;
  /** The job as GET answers it (`{kind}_id`, `last_updated_time`, `enabled_time`, `schema_version` added). */
  job: JsonMap;
}

/** What each kind's job must name (the plugin's Rollup and Transform parsers). */
const REQUIRED: Record<JobKind, readonly string[]> = {
  rollup: ['source_index', 'target_index', 'schedule', 'dimensions'],
  transform: ['source_index', 'target_index', 'schedule', 'groups'],
};

export class ManagementJobs {
  private readonly jobs = new Map<string, StoredJob>();
  private seqNo = -1;

  constructor(private readonly store: Store) {
    for (const { key, value } of store.loadCluster()) {
      if (!key.startsWith(JOB_KEY) || !isMap(value)) continue;
      const stored = value as unknown as StoredJob;
      this.jobs.set(`${stored.kind}:${stored.id}`, stored);
      this.seqNo = Math.max(this.seqNo, stored.seqNo);
    }
  }

  get(kind: JobKind, id: string): StoredJob | undefined {
    return this.jobs.get(`${kind}:${id}`);
  }

  /** The job, or the plugin's 404. */
  require(kind: JobKind, id: string): StoredJob {
    const job = this.get(kind, id);
    if (!job) throw new EsError(404, 'status_exception', kind === 'rollup' ? 'Rollup not found' : 'Transform not found');
    return job;
  }

  all(kind: JobKind): StoredJob[] {
    return [...this.jobs.values()].filter((j) => j.kind === kind).sort((a, b) => a.id.localeCompare(b.id));
  }

  /** PUT a job: created once, or updated at the revision named (checkRevision). */
  async put(kind: JobKind, id: string, body: unknown, cond: Revision): Promise<{ stored: StoredJob; created: boolean }> {
    const job = parseJob(kind, id, body);
    const current = this.get(kind, id);
    checkRevision(id, current, cond);
    const stored: StoredJob = { kind, id, version: (current?.version ?? 0) + 1, seqNo: ++this.seqNo, primaryTerm: 1, job };
    return { stored: await this.save(stored), created: !current };
  }

  /** Starts or stops a job: its `enabled` flag (and when it was enabled); nothing runs. */
  async enable(kind: JobKind, id: string, enabled: boolean): Promise<void> {
    const current = this.require(kind, id);
    const now = Date.now();
    const job = { ...current.job, enabled, enabled_time: enabled ? now : null, last_updated_time: now };
    await this.save({ ...current, version: current.version + 1, seqNo: ++this.seqNo, job });
  }

  async delete(kind: JobKind, id: string): Promise<StoredJob | undefined> {
    const current = this.get(kind, id);
    if (!current) return undefined;
    this.jobs.delete(`${kind}:${id}`);
    await this.store.write([{ kind: 'cluster', key: `${JOB_KEY}${kind}:${id}`, value: undefined }]);
    return { ...current, version: current.version + 1, seqNo: ++this.seqNo };
  }

  private async save(stored: StoredJob): Promise<StoredJob> {
    this.jobs.set(`${stored.kind}:${stored.id}`, stored);
    await this.store.write([{ kind: 'cluster', key: `${JOB_KEY}${stored.kind}:${stored.id}`, value: stored }]);
    return stored;
  }
}

function parseJob(kind: JobKind, id: string, body: unknown): JsonMap {
  const job = isMap(body) ? body[kind] : undefined;
  if (!isMap(job)) throw new EsError(400, 'illegal_argument_exception', `Required field [${kind}] is missing`);
  const missing = REQUIRED[kind].filter((f) => job[f] === undefined);
  if (missing.length) throw new EsError(400, 'illegal_argument_exception', `Required field [${missing[0]}] is missing in ${kind} [${id}]`);
  const list = kind === 'rollup' ? job.dimensions : job.groups;
  if (!Array.isArray(list) || list.length === 0) throw new EsError(400, 'illegal_argument_exception', `Must specify at least one ${kind === 'rollup' ? 'dimension' : 'group'}`);
  if (job.source_index === job.target_index) throw new EsError(400, 'illegal_argument_exception', 'Your source and target index cannot be the same');
  const now = Date.now();
  const enabled = job.enabled !== false;
  return {
    [`${kind}_id`]: id, ...job, enabled, enabled_time: enabled ? now : null, last_updated_time: now,
    description: job.description ?? '', page_size: job.page_size ?? 1000, schema_version: SCHEMA_VERSION,
  };
}
