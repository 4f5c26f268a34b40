import { callJson, type Backend } from '../engine/index.js';
import { createAnalysisRegistry, type MatchContext, type Mappings } from '../engine/embedded/index.js';

interface Entry {
  ctx: Promise<MatchContext | undefined>;
  fetchedAt: number;
}

/**
 * The mappings and analyzers of an index, as the document matcher needs them, read from the
 * engine (`GET /{index}`) so both backends work the same way. Cached briefly; refreshed when a
 * changed document brings fields the cached mappings do not know (dynamic mapping).
 */
export class MatchContexts {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly backend: Backend, private readonly ttlMs = 30_000) {}

  get(index: string): Promise<MatchContext | undefined> {
    const hit = this.entries.get(index);
    if (hit && Date.now() - hit.fetchedAt < this.ttlMs) return hit.ctx;
    const entry: Entry = { ctx: this.fetch(index), fetchedAt: Date.now() };
    this.entries.set(index, entry);
    entry.ctx.catch(() => this.entries.delete(index));
    return entry.ctx;
  }

  invalidate(index: string): void {
    this.entries.delete(index);
  }

  /** True when the source has a top-level field the mappings do not list (a dynamic mapping change). */
  static bringsNewFields(ctx: MatchContext, source: Record<string, unknown> | undefined): boolean {
    if (!source) return false;
    const props = (ctx.mappings as Mappings).properties ?? {};
    for (const key of Object.keys(source)) if (!(key in props)) return true;
    return false;
  }

  private async fetch(index: string): Promise<MatchContext | undefined> {
    const res = await callJson<Record<string, { mappings?: Mappings; settings?: { index?: Record<string, unknown> } }>>(
      this.backend, 'GET', `/${encodeURIComponent(index)}`,
    );
    if (res.status !== 200 || !res.body) return undefined;
    const name = res.body[index] ? index : Object.keys(res.body)[0];
    const meta = name === undefined ? undefined : res.body[name];
    if (!meta) return undefined;
    const settings = meta.settings?.index ?? {};
    const limit = (v: unknown) => (v === undefined ? undefined : Number(v));
    const registry = createAnalysisRegistry(settings.analysis, {
      maxNgramDiff: limit(settings.max_ngram_diff),
      maxShingleDiff: limit(settings.max_shingle_diff),
    });
    return { mappings: meta.mappings ?? {}, registry, indexName: name };
  }
}
