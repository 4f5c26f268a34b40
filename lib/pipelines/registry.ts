import type { Subscription } from 'rxjs';
import type { ChangeBus, ChangeEvent } from '../changes/index.js';
import { callJson, type Backend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import type { Pipeline, PipelineRoute } from './definition.js';

export const PIPELINES_INDEX = '.gateway-pipelines';

/** A pipeline that claims a request, with the route that matched and its parameters. */
export interface PipelineMatch {
  pipeline: Pipeline;
  route: PipelineRoute;
  params: Record<string, string>;
}

interface CompiledRoute {
  pipeline: Pipeline;
  route: PipelineRoute;
  pattern: RegExp;
  names: string[];
}

interface StoredPipeline {
  pipeline: Pipeline;
  updated_at: string;
}

const INDEX_BODY = {
  settings: { 'index.hidden': true, number_of_shards: 1 },
  // definitions are kept as they are, never indexed: users' inputs have any shape
  mappings: { dynamic: false, properties: { pipeline: { type: 'object', enabled: false }, updated_at: { type: 'date' } } },
};

/**
 * The registered pipelines, stored through the Backend in `.gateway-pipelines` and held in memory
 * by every node. A write is applied on the writing node at once and published on the change bus;
 * every other node applies it when the event arrives (well within a second). Events older than
 * what a node holds (by `_version`) are ignored; if the feed fails, the node reloads everything
 * once it is back.
 */
export class PipelineRegistry {
  private readonly pipelines = new Map<string, { pipeline: Pipeline; version: number }>();
  /** Versions of deleted pipelines, so a late event does not bring one back. */
  private readonly deleted = new Map<string, number>();
  private routes: CompiledRoute[] = [];
  private subscription?: Subscription;
  private retry?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly backend: Backend, private readonly bus: ChangeBus, private readonly log: (line: string) => void = () => {}) {}

  /**
   * Follows the change bus, then loads every stored pipeline. An engine that cannot be read yet
   * does not stop the gateway: loading is retried every second until it succeeds.
   */
  async start(): Promise<void> {
    this.follow();
    await this.bus.subscribed(PIPELINES_INDEX).catch((err: Error) => this.log(`pipeline change feed not live: ${err.message}`));
    await this.loadUntilDone();
  }

  private async loadUntilDone(): Promise<void> {
    try {
      await this.reload();
    } catch (err) {
      this.log(`pipelines not loaded yet, retrying: ${(err as Error).message}`);
      if (this.closed) return;
      this.retry = setTimeout(() => void this.loadUntilDone(), 1_000);
      this.retry.unref?.();
    }
  }

  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.subscription?.unsubscribe();
  }

  /** The enabled pipeline of highest priority that claims (method, path). */
  match(method: string, path: string): PipelineMatch | undefined {
    for (const r of this.routes) {
      if (r.route.method !== undefined && r.route.method !== method && !(method === 'HEAD' && r.route.method === 'GET')) continue;
      const m = r.pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      r.names.forEach((name, i) => (params[name] = safeDecode(m[i + 1])));
      return { pipeline: r.pipeline, route: r.route, params };
    }
    return undefined;
  }

  get size(): number {
    return this.pipelines.size;
  }

  list(): Pipeline[] {
    return [...this.pipelines.values()].map((p) => p.pipeline).sort((a, b) => a.id.localeCompare(b.id));
  }

  get(id: string): Pipeline | undefined {
    return this.pipelines.get(id)?.pipeline;
  }

  /** Stores the pipeline (creating or replacing it); true when it is new. */
  async put(pipeline: Pipeline): Promise<boolean> {
    await this.ensureIndex();
    const doc: StoredPipeline = { pipeline, updated_at: new Date().toISOString() };
    const res = await callJson<{ result?: string; _version: number; _seq_no: number; _primary_term: number }>(
      this.backend, 'PUT', `/${PIPELINES_INDEX}/_doc/${encodeURIComponent(pipeline.id)}`, doc, 'refresh=true',
    );
    if (res.status >= 300) throw new EsError(500, 'exception', `pipeline [${pipeline.id}] could not be stored: ${JSON.stringify(res.body)}`);
    const { _version: version, _seq_no: seqNo, _primary_term: primaryTerm } = res.body;
    this.apply(pipeline.id, version, pipeline);
    await this.publish({ kind: 'document', index: PIPELINES_INDEX, type: '_doc', id: pipeline.id, op: 'index', version, seqNo, primaryTerm, source: doc as never });
    return res.body.result === 'created';
  }

  /** Removes the pipeline; false when there was none. */
  async delete(id: string): Promise<boolean> {
    const res = await callJson<{ result?: string; _version?: number; _seq_no?: number; _primary_term?: number }>(
      this.backend, 'DELETE', `/${PIPELINES_INDEX}/_doc/${encodeURIComponent(id)}`, undefined, 'refresh=true',
    );
    if (res.status === 404) {
      this.apply(id, this.pipelines.get(id)?.version ?? 0, undefined);
      return false;
    }
    if (res.status >= 300) throw new EsError(500, 'exception', `pipeline [${id}] could not be deleted: ${JSON.stringify(res.body)}`);
    const version = res.body._version ?? 0;
    this.apply(id, version, undefined);
    await this.publish({ kind: 'document', index: PIPELINES_INDEX, type: '_doc', id, op: 'delete', version, seqNo: res.body._seq_no ?? 0, primaryTerm: res.body._primary_term ?? 1 });
    return true;
  }

  /** Reads every stored pipeline again (at start, and after the change feed failed). */
  async reload(): Promise<void> {
    const res = await callJson<{ hits?: { hits: Array<{ _id: string; _version?: number; _source: StoredPipeline }> } }>(
      this.backend, 'GET', `/${PIPELINES_INDEX}/_search`, undefined, 'size=10000&version=true',
    );
    if (res.status === 404) return;
    if (res.status >= 300) throw new EsError(500, 'exception', `pipelines could not be loaded: ${JSON.stringify(res.body)}`);
    const seen = new Set<string>();
    for (const hit of res.body.hits?.hits ?? []) {
      seen.add(hit._id);
      this.apply(hit._id, hit._version ?? 0, hit._source.pipeline, true);
    }
    for (const id of [...this.pipelines.keys()]) if (!seen.has(id)) this.pipelines.delete(id);
    this.compile();
  }

  private follow(): void {
    this.subscription = this.bus.changes(PIPELINES_INDEX).subscribe({
      next: (event) => this.onChange(event),
      error: (err: Error) => {
        this.log(`pipeline change feed failed, reloading once it resumes: ${err.message}`);
        if (this.closed) return;
        this.retry = setTimeout(() => {
          this.follow();
          this.bus.subscribed(PIPELINES_INDEX).then(() => this.reload()).catch((e: Error) => this.log(`pipelines not reloaded: ${e.message}`));
        }, 1_000);
        this.retry.unref?.();
      },
    });
  }

  private onChange(event: ChangeEvent): void {
    if (event.kind === 'index') {
      this.pipelines.clear();
      this.compile();
      return;
    }
    if (event.op === 'delete') return this.apply(event.id, event.version, undefined);
    const stored = event.source as unknown as StoredPipeline | undefined;
    if (stored?.pipeline) this.apply(event.id, event.version, stored.pipeline);
    else void this.reload().catch((err: Error) => this.log(`pipelines not reloaded: ${err.message}`));
  }

  /** Applies a stored state unless a newer one is already held. */
  private apply(id: string, version: number, pipeline: Pipeline | undefined, batch = false): void {
    const held = this.pipelines.get(id)?.version ?? this.deleted.get(id) ?? -1;
    if (version < held) return;
    if (pipeline) {
      this.deleted.delete(id);
      this.pipelines.set(id, { pipeline, version });
    } else {
      this.pipelines.delete(id);
      this.deleted.set(id, version);
    }
    if (!batch) this.compile();
  }

  /** Enabled pipelines' routes, highest priority first (ties: by id, for a stable choice). */
  private compile(): void {
    const routes: CompiledRoute[] = [];
    const enabled = [...this.pipelines.values()].map((p) => p.pipeline).filter((p) => p.enabled);
    enabled.sort((a, b) => b.priority - a.priority || a.id.localeCompare(b.id));
    for (const pipeline of enabled) {
      for (const route of pipeline.routes) {
        const names: string[] = [];
        const source = route.path
          .replace(/\/$/, '')
          .split('/')
          .map((segment) => {
            const param = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(segment);
            if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            names.push(param[1]);
            return '([^/]+)';
          })
          .join('/');
        routes.push({ pipeline, route, pattern: new RegExp(`^${source}/?$`), names });
      }
    }
    this.routes = routes;
  }

  private async ensureIndex(): Promise<void> {
    const res = await callJson(this.backend, 'PUT', `/${PIPELINES_INDEX}`, INDEX_BODY);
    if (res.status >= 300 && !JSON.stringify(res.body).includes('resource_already_exists_exception')) {
      throw new EsError(500, 'exception', `index [${PIPELINES_INDEX}] could not be created: ${JSON.stringify(res.body)}`);
    }
  }

  private async publish(change: Parameters<ChangeBus['publish']>[0]): Promise<void> {
    try {
      await this.bus.publish(change);
    } catch (err) {
      this.log(`pipeline change [${change.kind === 'document' ? change.id : change.index}] not published: ${(err as Error).message}`);
    }
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
