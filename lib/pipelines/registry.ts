import type { ChangeBus } from '../changes/index.js';
import type { Backend } from '../engine/index.js';
import { SystemRecords } from '../records/index.js';
import { patternParam, patternSegments } from '../request/index.js';
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
  /** The pattern's segments: a literal one (matched as the request's decoded segment reads) or a `{name}` parameter. */
  segments: Array<{ literal: string } | { param: string }>;
}

/**
 * The registered pipelines, stored through the Backend in `.gateway-pipelines` and held in memory
 * by every node (SystemRecords: a write applies on the writing node at once and on every other
 * node when its change event arrives, well within a second). The enabled pipelines' routes are
 * compiled again on every change.
 */
export class PipelineRegistry {
  private readonly records: SystemRecords<Pipeline>;
  private routes: CompiledRoute[] = [];

  constructor(backend: Backend, bus: ChangeBus, log: (line: string) => void = () => {}) {
    this.records = new SystemRecords<Pipeline>(backend, bus, { index: PIPELINES_INDEX, what: 'pipeline', field: 'pipeline', log, changed: () => this.compile() });
  }

  /**
   * Follows the change bus, then loads every stored pipeline. An engine that cannot be read yet
   * does not stop the gateway: loading is retried every second until it succeeds.
   */
  start(): Promise<void> {
    return this.records.start();
  }

  close(): void {
    this.records.close();
  }

  /** The enabled pipeline of highest priority that claims a request (its method and decoded path segments, as the edge read them). */
  match(method: string, segments: readonly string[]): PipelineMatch | undefined {
    for (const r of this.routes) {
      if (r.route.method !== undefined && r.route.method !== method && !(method === 'HEAD' && r.route.method === 'GET')) continue;
      const params = matchSegments(r.segments, segments);
      if (params) return { pipeline: r.pipeline, route: r.route, params };
    }
    return undefined;
  }

  get size(): number {
    return this.records.size;
  }

  list(): Pipeline[] {
    return [...this.records.entries()].map(([, p]) => p).sort((a, b) => a.id.localeCompare(b.id));
  }

  get(id: string): Pipeline | undefined {
    return this.records.get(id);
  }

  /** Stores the pipeline (creating or replacing it); true when it is new. */
  put(pipeline: Pipeline): Promise<boolean> {
    return this.records.put(pipeline.id, pipeline);
  }

  /** Removes the pipeline; false when there was none. */
  delete(id: string): Promise<boolean> {
    return this.records.delete(id);
  }

  /** Reads every stored pipeline again. */
  reload(): Promise<void> {
    return this.records.reload();
  }

  /** Enabled pipelines' routes, highest priority first (ties: by id, for a stable choice). */
  private compile(): void {
    const routes: CompiledRoute[] = [];
    const enabled = this.list().filter((p) => p.enabled);
    enabled.sort((a, b) => b.priority - a.priority || a.id.localeCompare(b.id));
    for (const pipeline of enabled) {
      for (const route of pipeline.routes) {
        // a route pattern is read as the route table reads its own (lib/request's patternSegments)
        const segments = patternSegments(route.path).map((segment) => {
          const param = patternParam(segment);
          return param !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(param) ? { param } : { literal: segment };
        });
        routes.push({ pipeline, route, segments });
      }
    }
    this.routes = routes;
  }
}

/** The parameters of a pattern that a request's decoded segments match, one segment each; undefined when they do not. */
function matchSegments(pattern: CompiledRoute['segments'], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i];
    if ('param' in part) params[part.param] = segments[i];
    else if (part.literal !== segments[i]) return undefined;
  }
  return params;
}
