/**
 * The engine's ingest pipelines (`_ingest/pipeline`), durable as cluster metadata in the store
 * like stored scripts (one record per pipeline under `ingest_pipeline:`). Each definition is
 * kept as sent (what GET answers) and compiled when stored, so a pipeline that would fail to
 * compile is refused at PUT and a stored one runs without parsing again. A change is made in
 * memory at once and acknowledged once stored.
 */
import { EsError } from '../../../errors/index.js';
import { exactIntegersOf, exactJson, jsonTextKeepingIntegers } from '../../../ndjson/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import type { StoredScripts } from '../painless/index.js';
import type { Store } from '../store/index.js';
import { isMap, type JsonMap } from './ingest-document.js';
import { compilePipeline, type Pipeline } from './pipeline.js';

const KEY_PREFIX = 'ingest_pipeline:';
/**
 * A definition's JSON text with its integers past 2^53 exact, stored beside the definition only
 * when it holds some (the definition record is a JS value, where they would be rounded).
 */
const EXACT_PREFIX = 'ingest_pipeline_exact:';

interface Entry {
  definition: JsonMap;
  /** The definition's text, when it holds integers past 2^53: GET answers them exactly, and documents get them exactly. */
  exactText?: string;
  compiled?: Pipeline;
}

/** Who uses a pipeline as `index.default_pipeline` / `index.final_pipeline` (delete refuses those). */
export type PipelineUsers = (id: string) => { setting: 'default' | 'final'; indices: string[] } | undefined;

export class IngestPipelines {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly store: Store,
    private readonly storedScripts: StoredScripts,
    /** OpenSearch's own processors are served (the engine speaks its dialect). */
    private readonly openSearch = false,
  ) {
    const exactTexts = new Map<string, string>();
    for (const { key, value } of store.loadCluster()) {
      if (key.startsWith(KEY_PREFIX) && isMap(value)) this.entries.set(key.slice(KEY_PREFIX.length), { definition: value });
      else if (key.startsWith(EXACT_PREFIX) && typeof value === 'string') exactTexts.set(key.slice(EXACT_PREFIX.length), value);
    }
    for (const [id, text] of exactTexts) {
      const entry = this.entries.get(id);
      if (entry) entry.exactText = text;
    }
  }

  /** The text of pipeline `id`'s definition when it holds integers past 2^53 (see Entry.exactText). */
  exactTextOf(id: string): string | undefined {
    return this.entries.get(id)?.exactText;
  }

  /** A pipeline definition compiled with the processors this engine serves (a simulated one too). */
  compile(id: string, definition: unknown): Pipeline {
    return compilePipeline(id, definition, this.storedScripts, this.openSearch);
  }

  /** The compiled pipeline `id` (compiled on first use after a restart), or undefined. */
  get(id: string): Pipeline | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    entry.compiled ??= this.compile(id, entry.definition);
    return entry.compiled;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Definitions whose ids match any of `ids` (comma-separated, wildcards), in id order; all when none given. */
  definitions(ids?: string): Array<[string, JsonMap]> {
    const patterns = ids === undefined || ids === '' ? ['*'] : ids.split(',').map((s) => s.trim());
    return [...this.entries.keys()]
      .filter((id) => patterns.some((p) => (p.includes('*') ? simpleMatch(p, id) : p === id)))
      .sort()
      .map((id) => {
        const entry = this.entries.get(id)!;
        return [id, entry.exactText === undefined ? entry.definition : (exactJson(entry.exactText) as JsonMap)];
      });
  }

  /** PUT _ingest/pipeline/{id}: compiled first (errors are ES's), with `if_version` checked as ES checks it. */
  async put(id: string, definition: unknown, ifVersion: number | undefined, text?: string): Promise<void> {
    if (!isMap(definition)) throw new EsError(400, 'parse_exception', 'request body is required');
    const stored: JsonMap = { ...definition };
    if (ifVersion !== undefined) {
      const current = this.entries.get(id);
      if (!current) {
        throw new EsError(409, 'concurrent_modification_exception', `version conflict, required version [${ifVersion}] for pipeline [${id}] but no pipeline was found`);
      }
      const currentVersion = current.definition.version ?? null;
      if (currentVersion !== ifVersion) {
        throw new EsError(409, 'concurrent_modification_exception', `version conflict, required version [${ifVersion}] for pipeline [${id}] but current version is [${currentVersion}]`);
      }
      if (stored.version !== undefined && stored.version === currentVersion) {
        throw new EsError(400, 'illegal_argument_exception', `cannot update pipeline [${id}] with the same version [${ifVersion}]`);
      }
      // as ES: an update that names no version of its own takes the next one
      if (stored.version === undefined) stored.version = ifVersion + 1;
    }
    const compiled = this.compile(id, stored);
    const exactText = text !== undefined && exactIntegersOf(text) !== undefined ? jsonTextKeepingIntegers(stored, text) : undefined;
    this.entries.set(id, { definition: stored, exactText, compiled });
    await this.store.write([
      { kind: 'cluster', key: KEY_PREFIX + id, value: stored },
      { kind: 'cluster', key: EXACT_PREFIX + id, value: exactText },
    ]);
  }

  /** DELETE _ingest/pipeline/{id} (wildcards allowed): 404 when nothing matches a name without `*`. */
  async delete(id: string, users: PipelineUsers): Promise<void> {
    const matching = this.definitions(id).map(([k]) => k);
    if (!matching.length) {
      if (id.split(',').every((p) => p.includes('*'))) return;
      throw new EsError(404, 'resource_not_found_exception', `pipeline [${id}] is missing`);
    }
    for (const p of matching) {
      const use = users(p);
      if (use) {
        throw new EsError(400, 'illegal_argument_exception',
          `pipeline [${p}] cannot be deleted because it is the ${use.setting} pipeline for ${use.indices.length} index(es) including [${use.indices.slice(0, 3).join(', ')}]`);
      }
    }
    for (const p of matching) this.entries.delete(p);
    await this.store.write(matching.flatMap((p) => [
      { kind: 'cluster' as const, key: KEY_PREFIX + p, value: undefined },
      { kind: 'cluster' as const, key: EXACT_PREFIX + p, value: undefined },
    ]));
  }
}
