import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Backend, EngineRequest, EngineResponse } from '../backend.js';
import { ConfigFiles } from './analysis/index.js';
import { ClusterSettings } from './cluster-settings/index.js';
import { DEFAULT_MAX_SHARDS_PER_NODE, Indices, setPointInTimeBudget } from './indices/index.js';
import { IngestPipelines } from './ingest/index.js';
import { LocalNode } from './node/index.js';
import { QueryRules } from './query-rules/index.js';
import { SearchPipelines } from './search-pipelines/index.js';
import { IsmPolicies, ManagementJobs } from './index-state-management/index.js';
import { LtrStores } from './learning-to-rank/index.js';
import { RestHandler } from './rest/index.js';
import type { ApiDialect } from './rest/dialect.js';
import { StoredScripts } from './scripts/index.js';
import { TaskManager } from './tasks/index.js';
import { Store } from './store/index.js';

export interface EmbeddedEngineOptions {
  dataDir: string;
  /**
   * The config directory analysis settings read files from (`hyphenation_patterns_path`,
   * `word_list_path`), as Elasticsearch's `config/`; default `<dataDir>/config`.
   */
  configDir?: string;
  /** http.max_content_length in bytes (default 100mb). */
  maxContentLength?: number;
  /**
   * `search.default_search_timeout` in ms: how long a search that names no `timeout` may collect
   * before it answers what it has with `timed_out: true` (-1: none). Default 30 s (DEFAULT_SEARCH_TIMEOUT_MS).
   */
  defaultSearchTimeoutMs?: number;
  /**
   * Bytes the views of all open points in time may hold together (default an eighth of the heap
   * limit); past it, opening one is a 429 circuit_breaking_exception. Process-wide.
   */
  pointInTimeBytes?: number;
  /** Whose answers the engine gives where Elasticsearch 8 and OpenSearch 2 differ (default `auto`: OpenSearch's to its clients). */
  apiDialect?: ApiDialect;
}

/**
 * The in-process, Elasticsearch 8-compatible engine behind the Backend interface.
 * Acknowledged writes are on disk (LMDB, synced commits); reads see every acknowledged write.
 */
export class EmbeddedEngine implements Backend {
  readonly kind = 'embedded' as const;
  private closed = false;

  private constructor(
    private readonly store: Store,
    readonly indices: Indices,
    private readonly rest: RestHandler,
  ) {}

  static open(opts: EmbeddedEngineOptions): EmbeddedEngine {
    const dataDir = path.resolve(opts.dataDir);
    mkdirSync(dataDir, { recursive: true });
    const store = Store.open(dataDir);
    if (opts.pointInTimeBytes !== undefined) setPointInTimeBudget(opts.pointInTimeBytes);
    // API_DIALECT=opensearch: scores (LegacyBM25Similarity) and mapping parameters as OpenSearch 2's. Not per request under
    // `auto`: the gateway's search cache shares one answer between every client asking the same.
    const indices = new Indices(store, new ConfigFiles(opts.configDir ?? path.join(dataDir, 'config')), opts.apiDialect === 'opensearch');
    const clusterUuid = createHash('sha256').update(dataDir).digest('base64url').slice(0, 22);
    const nodeName = os.hostname() || 'embedded';
    const storedScripts = new StoredScripts(store);
    const node = new LocalNode(nodeName, dataDir);
    const clusterSettings = new ClusterSettings(store);
    indices.maxShardsPerNode = () => Number(clusterSettings.get('cluster.max_shards_per_node') ?? DEFAULT_MAX_SHARDS_PER_NODE);
    indices.autoCreateIndex = () => {
      const value = clusterSettings.get('action.auto_create_index');
      return Array.isArray(value) ? value.join(',') : value ?? 'true';
    };
    const rest = new RestHandler(
      {
        indices, queryRules: new QueryRules(store), storedScripts, ingestPipelines: new IngestPipelines(store, storedScripts, opts.apiDialect === 'opensearch'), searchPipelines: new SearchPipelines(store), ism: new IsmPolicies(store), ltr: new LtrStores(store), jobs: new ManagementJobs(store), clusterSettings, node, tasks: new TaskManager(node.id, store),
        nodeName, clusterName: 'search-gateway', clusterUuid, defaultSearchTimeoutMs: opts.defaultSearchTimeoutMs,
        apiDialect: opts.apiDialect,
      },
      opts.maxContentLength ?? 100 * 1024 * 1024,
    );
    return new EmbeddedEngine(store, indices, rest);
  }

  request(req: EngineRequest): Promise<EngineResponse> {
    return this.rest.handle(req);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Snapshots of the in-memory indices: the next start loads them instead of re-analysing every
    // document (a cache only: a snapshot that does not match the store is ignored).
    for (const handle of this.indices.all()) {
      try {
        handle.saveSnapshot();
      } catch {
        // Best effort: without a snapshot the next start rebuilds from the store.
      }
    }
    await this.store.close();
  }
}

export async function openEmbeddedEngine(opts: EmbeddedEngineOptions): Promise<EmbeddedEngine> {
  return EmbeddedEngine.open(opts);
}
