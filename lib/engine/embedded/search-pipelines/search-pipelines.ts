/**
 * The engine's search pipelines (`_search/pipeline`, OpenSearch 2.9+), durable as cluster
 * metadata in the store like ingest pipelines (one record per pipeline under `search_pipeline:`).
 * A definition is kept as sent (what GET answers) and compiled when stored, so one that would
 * not compile is refused at PUT; a change is made in memory at once and acknowledged once stored.
 */
import { EsError } from '../../../errors/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import { isMap, type JsonMap } from '../ingest/index.js';
import type { Store } from '../store/index.js';
import { compileSearchPipeline, type SearchPipeline } from './search-pipeline.js';

const KEY_PREFIX = 'search_pipeline:';

interface Entry {
  definition: JsonMap;
  compiled?: SearchPipeline;
}

export class SearchPipelines {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly store: Store) {
    for (const { key, value } of store.loadCluster()) {
      if (key.startsWith(KEY_PREFIX) && isMap(value)) this.entries.set(key.slice(KEY_PREFIX.length), { definition: value });
    }
  }

  /** The compiled pipeline `id` (compiled on first use after a restart), or undefined. */
  get(id: string): SearchPipeline | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    entry.compiled ??= compileSearchPipeline(id, entry.definition);
    return entry.compiled;
  }

  /** Definitions whose ids match any of `ids` (comma-separated, wildcards), in id order; all when none given. */
  definitions(ids?: string): Array<[string, JsonMap]> {
    const patterns = ids === undefined || ids === '' ? ['*'] : ids.split(',').map((s) => s.trim());
    return [...this.entries.keys()]
      .filter((id) => patterns.some((p) => (p.includes('*') ? simpleMatch(p, id) : p === id)))
      .sort()
      .map((id) => [id, this.entries.get(id)!.definition]);
  }

  /** PUT _search/pipeline/{id}: compiled first (its errors are OpenSearch's), then stored. */
  async put(id: string, definition: unknown): Promise<void> {
    if (!isMap(definition)) throw new EsError(400, 'parse_exception', 'request body is required');
    const stored: JsonMap = { ...definition };
    const compiled = compileSearchPipeline(id, stored);
    this.entries.set(id, { definition: stored, compiled });
    await this.store.write([{ kind: 'cluster', key: KEY_PREFIX + id, value: stored }]);
  }

  /** DELETE _search/pipeline/{id} (wildcards allowed): 404 when nothing matches, unless the id is `*`. */
  async delete(id: string): Promise<void> {
    const matching = [...this.entries.keys()].filter((k) => simpleMatch(id, k));
    if (!matching.length) {
      if (id === '*') return;
      throw new EsError(404, 'resource_not_found_exception', `pipeline [${id}] is missing`);
    }
    for (const p of matching) this.entries.delete(p);
    await this.store.write(matching.map((p) => ({ kind: 'cluster' as const, key: KEY_PREFIX + p, value: undefined })));
  }
}
