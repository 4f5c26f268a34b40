import { randomBytes } from 'node:crypto';
import { EsError, errors } from '../../../errors/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import type { ConfigFiles } from '../analysis/index.js';
import { checkMappingLimits, mappingLimitsOf, mergeMappings, refuseTypedIndexMappings, validateMappings, type Mappings } from '../mapping/index.js';
import { MAX_INDEX_DATABASES, type AliasDefinition, type IndexMetadata, type Store, type StoreWrite } from '../store/index.js';
import { aliasDefinition, applyAliasActions, type AliasAction } from './aliases.js';
import { isPlainObject, type JsonObject } from './deep.js';
import { IndexHandle, type PreparedWrite } from './index-handle.js';
import { checkIndexTimeAnalyzers } from './index-time-analyzers.js';
import { validateIndexSort } from './index-sort.js';
import { validateIndexName } from './index-name.js';
import { parseExpandWildcards, type WildcardStates } from './resolve.js';
import { checkAutoCreate } from './auto-create-index.js';
import { applySettingsUpdate, creationSettings, flattenSettings, nestSettings } from './settings.js';
import { checkIndexBlocks, onlyBlockSettings } from './index-blocks.js';
import { SynonymsSets } from './synonyms-sets.js';
import { DataStreams, ONLY_CREATE, type WriteIntent } from '../data-streams/index.js';
import { Templates } from './templates.js';
import { resolveDateMathExpression, resolveDateMathName } from './date-math-name.js';

export interface ResolveOptions {
  /** Default states a wildcard expands to (`expand_wildcards`). */
  expandWildcards?: string;
  defaultStates?: WildcardStates;
  ignoreUnavailable?: boolean;
  allowNoIndices?: boolean;
  /** Aliases do not resolve (delete index): a concrete alias name is a 400, wildcards skip aliases. */
  ignoreAliases?: boolean;
}

/** `cluster.max_shards_per_node`'s default, as Elasticsearch's. */
export const DEFAULT_MAX_SHARDS_PER_NODE = 1000;

/** Base64url uuid, 22 chars, as ES prints index uuids. */
export function newUuid(): string {
  return randomBytes(16).toString('base64url').slice(0, 22);
}

const OPEN_ONLY: WildcardStates = { open: true, closed: false, hidden: false };
const ALL_STATES: WildcardStates = { open: true, closed: true, hidden: true };

/** ES's answer when a single-index operation names a data stream. */
function matchesDataStream(name: string): EsError {
  return new EsError(400, 'illegal_argument_exception', `The provided expression [${name}] matches a data stream, specify the corresponding concrete indices instead.`);
}

/**
 * The set of indices of the engine: creation, deletion, name resolution (lists, wildcards,
 * aliases), open/close, mapping and settings changes. In-memory changes happen synchronously;
 * the returned promises resolve once they are durable.
 */
export class Indices {
  private readonly handles = new Map<string, IndexHandle>();
  /** Index templates, applied by `createInMemory` (explicit creation and auto-creation alike). */
  readonly templates: Templates;
  /** Synonyms sets, read by the indices' `synonyms_set` filters. */
  readonly synonyms: SynonymsSets;
  /** Data streams: names that resolve to their backing indices, and take `create` writes only. */
  readonly dataStreams: DataStreams;
  /**
   * `cluster.max_shards_per_node` as the cluster settings say now (the engine wires it). Each
   * index is one shard here: one copy, one document database, whatever `number_of_shards` says.
   */
  maxShardsPerNode: () => number = () => DEFAULT_MAX_SHARDS_PER_NODE;
  /** `action.auto_create_index` as the cluster settings say now (the engine wires it): checkAutoCreate reads it. */
  autoCreateIndex: () => string = () => 'true';

  constructor(
    private readonly store: Store,
    /** The engine's config directory, read by analysis settings that name files. */
    readonly configFiles?: ConfigFiles,
    /**
     * The engine answers every request as OpenSearch 2 (API_DIALECT=opensearch): its geo_shape
     * queries score 0 as OpenSearch 2's, and mappings take OpenSearch 2's field parameters.
     */
    private readonly openSearch = false,
  ) {
    this.templates = new Templates(store, { openSearch });
    this.synonyms = new SynonymsSets(store);
    for (const meta of store.loadIndices()) {
      const handle = new IndexHandle(meta, store, this.synonyms, configFiles);
      handle.openSearch = openSearch;
      handle.load();
      this.handles.set(meta.name, handle);
    }
    this.dataStreams = new DataStreams(store, this);
  }

  all(): IndexHandle[] {
    return [...this.handles.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get(name: string): IndexHandle | undefined {
    return this.handles.get(name);
  }

  /** Persists writes, then settles the prepared writes (whatever the outcome) and applies them (when durable). */
  async commit(prepared: PreparedWrite[], extra: StoreWrite[] = []): Promise<void> {
    const writes = [...extra];
    for (const p of prepared) for (const w of p.writes) writes.push(w);
    try {
      await this.store.write(writes);
    } catch (err) {
      // Nothing of a failed write stays in memory.
      for (let i = prepared.length - 1; i >= 0; i--) prepared[i].rollback?.();
      throw err;
    } finally {
      for (const p of prepared) p.settle();
    }
    // Durable: now visible to searches.
    for (const p of prepared) p.apply?.();
  }

  /**
   * Creates an index in memory; the returned write makes it durable. `templated`: the index takes
   * the templates matching its name (a data stream's backing index takes its stream's instead).
   */
  createInMemory(name: string, body: JsonObject = {}, templated = true): { handle: IndexHandle; writes: StoreWrite[] } {
    name = resolveDateMathName(name);
    validateIndexName(name);
    if (this.handles.has(name) || this.aliasTargets(name).length || this.dataStreams.get(name)) {
      const existing = this.handles.get(name);
      throw new EsError(400, 'resource_already_exists_exception', `index [${name}/${existing?.uuid ?? '_na_'}] already exists`, {
        index_uuid: existing?.uuid ?? '_na_',
        index: name,
      });
    }
    for (const k of Object.keys(body)) {
      if (k !== 'settings' && k !== 'mappings' && k !== 'aliases') throw new EsError(400, 'parse_exception', `unknown key [${k}] for create index`);
    }
    this.checkShardLimit();
    refuseTypedIndexMappings(body.mappings);
    if (templated) {
      this.dataStreams.checkIndexCreation(name);
      body = this.templates.apply(name, body);
    }
    const uuid = newUuid();
    const creationDate = Date.now();
    const settings = creationSettings(flattenSettings(body.settings), name, uuid, creationDate);
    const registry = IndexHandle.analysisFor(settings, this.synonyms, this.configFiles); // refuses an invalid analysis definition
    const mappings = body.mappings === undefined ? {} : validateMappings(body.mappings, undefined, { openSearch: this.openSearch });
    checkIndexTimeAnalyzers(mappings, registry);
    checkMappingLimits(mappings, mappingLimitsOf(settings));
    validateIndexSort(settings, mappings);
    const aliases = this.parseAliases(body.aliases);
    const meta: IndexMetadata = { name, uuid, creationDate, state: 'open', settings, mappings, aliases, docFormat: 2 };
    const handle = new IndexHandle(meta, this.store, this.synonyms, this.configFiles);
    handle.openSearch = this.openSearch;
    handle.inverted = undefined;
    handle.load();
    this.handles.set(name, handle);
    return { handle, writes: [{ kind: 'meta', meta }] };
  }

  /**
   * Elasticsearch's shard limit (ShardLimitValidator) for one more index: open and closed indices
   * alike hold a database, so both count. The limit never exceeds what the store can hold.
   */
  private checkShardLimit(): void {
    const limit = Math.min(this.maxShardsPerNode(), MAX_INDEX_DATABASES);
    const current = this.handles.size;
    if (current + 1 <= limit) return;
    throw new EsError(400, 'validation_exception',
      `Validation Failed: 1: this action would add [1] shards, but this cluster currently has [${current}]/[${limit}] maximum normal shards open;`);
  }

  async create(name: string, body: JsonObject = {}): Promise<IndexHandle> {
    const { handle, writes } = this.createInMemory(name, body);
    await this.store.write(writes);
    return handle;
  }

  private parseAliases(input: unknown): Record<string, AliasDefinition> {
    if (input === undefined) return {};
    if (!isPlainObject(input)) throw new EsError(400, 'parse_exception', 'Failed to parse [aliases]: expected an object');
    const out: Record<string, AliasDefinition> = {};
    for (const [alias, def] of Object.entries(input)) {
      try {
        validateIndexName(alias);
      } catch (e) {
        throw new EsError(400, 'invalid_alias_name_exception', `Invalid alias name [${alias}]: ${(e as EsError).reason.replace(/^Invalid index name \[[^\]]*\], /, '')}`);
      }
      if (this.handles.has(alias)) {
        throw new EsError(400, 'invalid_alias_name_exception', `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`);
      }
      out[alias] = isPlainObject(def) ? aliasDefinition(def, 'alias') : {};
    }
    return out;
  }

  /** Indices an alias points to. */
  aliasTargets(alias: string): IndexHandle[] {
    return this.all().filter((h) => Object.prototype.hasOwnProperty.call(h.meta.aliases, alias));
  }

  /**
   * An index expression (comma list, wildcards, `_all`, aliases, `-exclusions`) → indices.
   * A missing concrete name is a 404 index_not_found_exception unless ignore_unavailable.
   */
  resolve(expression: string | undefined, opts: ResolveOptions = {}): IndexHandle[] {
    expression = resolveDateMathExpression(expression);
    let states: WildcardStates;
    try {
      states = parseExpandWildcards(opts.expandWildcards, opts.defaultStates ?? OPEN_ONLY);
    } catch (e) {
      throw new EsError(400, 'illegal_argument_exception', (e as Error).message);
    }
    // each name as written, as Elasticsearch splits a list (at commas, trimming nothing): `a\u2028` is not `a`
    const parts = !expression || expression === '_all' ? ['*'] : expression.split(',').filter(Boolean);
    const result = new Map<string, IndexHandle>();
    let sawWildcard = false;
    for (const part of parts) {
      if (part.startsWith('-') && sawWildcard) {
        const pattern = part.slice(1);
        for (const name of [...result.keys()]) if (simpleMatch(pattern, name)) result.delete(name);
        for (const h of this.aliasTargetsMatching(pattern)) result.delete(h.name);
        for (const s of this.dataStreams.matching(pattern, ALL_STATES)) for (const h of this.dataStreams.backingHandles(s)) result.delete(h.name);
        continue;
      }
      if (part.includes('*') || part === '_all') {
        sawWildcard = true;
        const pattern = part === '_all' ? '*' : part;
        let matched = 0;
        for (const h of this.all()) {
          if (!simpleMatch(pattern, h.name)) continue;
          if (h.name.startsWith('.') && !pattern.startsWith('.')) continue;
          // a hidden index is reached by `expand_wildcards=hidden`, or by a pattern starting with a dot when its name does too (`.ds-*`), as in Elasticsearch
          if (h.meta.settings['index.hidden'] === 'true' && !states.hidden && !(pattern.startsWith('.') && h.name.startsWith('.'))) continue;
          if (h.isOpen ? !states.open : !states.closed) continue;
          result.set(h.name, h);
          matched++;
        }
        if (!opts.ignoreAliases) {
          for (const h of this.aliasTargetsMatching(pattern, states)) {
            if (h.isOpen ? states.open : states.closed) {
              result.set(h.name, h);
              matched++;
            }
          }
          // A data stream a wildcard reaches stands for all its backing indices (hidden as they are).
          for (const s of this.dataStreams.matching(pattern, states)) {
            for (const h of this.dataStreams.backingHandles(s)) result.set(h.name, h);
            matched++;
          }
        }
        // allow_no_indices=false holds for each wildcard expression on its own, as in ES.
        if (opts.allowNoIndices === false && matched === 0 && parts.length > 1) throw errors.indexNotFound(part);
        continue;
      }
      const handle = this.handles.get(part);
      if (handle) {
        result.set(part, handle);
        continue;
      }
      const stream = this.dataStreams.get(part);
      if (stream && opts.ignoreAliases) {
        if (opts.ignoreUnavailable) continue;
        throw matchesDataStream(part);
      }
      if (stream) {
        for (const h of this.dataStreams.backingHandles(stream)) result.set(h.name, h);
        continue;
      }
      const targets = this.aliasTargets(part);
      if (targets.length && opts.ignoreAliases) {
        if (opts.ignoreUnavailable) continue;
        throw new EsError(400, 'illegal_argument_exception', `The provided expression [${part}] matches an alias, specify the corresponding concrete indices instead.`);
      }
      if (targets.length) {
        for (const h of targets) result.set(h.name, h);
        continue;
      }
      if (part.startsWith('_')) {
        throw new EsError(400, 'invalid_index_name_exception', `Invalid index name [${part}], must not start with '_'.`, { index_uuid: '_na_', index: part });
      }
      if (!opts.ignoreUnavailable) throw errors.indexNotFound(part);
    }
    if (result.size === 0 && opts.allowNoIndices === false) throw errors.indexNotFound(expression ?? '_all');
    return [...result.values()];
  }

  /**
   * Indices behind the aliases a wildcard reaches: a dot-prefixed alias only by a dot pattern; given
   * the `states` of expand_wildcards, a hidden alias (`is_hidden`) only with `hidden` or by a dot
   * pattern when its name has the dot too, as Elasticsearch's WildcardExpressionResolver.
   */
  private aliasTargetsMatching(pattern: string, states?: WildcardStates): IndexHandle[] {
    if (!pattern.includes('*')) return [];
    const dotted = pattern.startsWith('.');
    const reached = (alias: string, def: AliasDefinition): boolean => simpleMatch(pattern, alias)
      && (dotted || !alias.startsWith('.'))
      && (states === undefined || states.hidden || def.is_hidden !== true || (dotted && alias.startsWith('.')));
    return this.all().filter((h) => Object.entries(h.meta.aliases).some(([a, def]) => reached(a, def)));
  }

  /**
   * The index a document write goes to: an index, or an alias's write index; a missing name
   * auto-creates an index (with dynamic mapping) whose creation joins the write.
   */
  writeTarget(name: string, requireAlias = false, intent: WriteIntent = { op: 'index' }): { handle: IndexHandle; writes: StoreWrite[] } {
    name = resolveDateMathName(name);
    const streamTarget = requireAlias ? undefined : this.dataStreams.writeTarget(name, intent);
    if (streamTarget) return streamTarget;
    if (requireAlias && !this.aliasTargets(name).length) {
      const e = errors.indexNotFound(name);
      throw new EsError(404, e.type, `${e.reason} and [require_alias] request flag is [true] and [${name}] is not an alias`, e.extra);
    }
    const handle = this.handles.get(name);
    if (handle) return { handle, writes: [] };
    const targets = this.aliasTargets(name);
    if (targets.length === 1) return { handle: targets[0], writes: [] };
    if (targets.length > 1) {
      const write = targets.filter((h) => h.meta.aliases[name]?.is_write_index === true);
      if (write.length === 1) return { handle: write[0], writes: [] };
      throw new EsError(400, 'illegal_argument_exception',
        `no write index is defined for alias [${name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`);
    }
    checkAutoCreate(name, this.autoCreateIndex(), this.templates.matchingIndexTemplate(name)?.template);
    return this.createInMemory(name);
  }

  /**
   * The index a document read (or, `forDelete`, a delete by id) goes to: an index or a
   * single-index alias; 404 otherwise. A data stream is refused: a document is read from, and
   * deleted through, its backing index.
   */
  readTarget(name: string, forDelete = false): IndexHandle {
    name = resolveDateMathName(name);
    const handle = this.handles.get(name);
    if (handle) return handle;
    if (this.dataStreams.get(name)) throw forDelete ? new EsError(400, 'illegal_argument_exception', ONLY_CREATE) : matchesDataStream(name);
    const targets = this.aliasTargets(name);
    if (targets.length === 1) return targets[0];
    if (targets.length > 1) {
      throw new EsError(400, 'illegal_argument_exception', `alias [${name}] has more than one index associated with it [${targets.map((t) => t.name).join(', ')}], can't execute a single index op`);
    }
    throw errors.indexNotFound(name);
  }

  /** Deletes indices; a data stream's write index is refused, its other backing indices leave the stream. */
  async delete(handles: IndexHandle[]): Promise<void> {
    this.dataStreams.checkIndexDeletion(handles);
    for (const h of handles) this.handles.delete(h.name);
    for (const h of handles) await this.store.deleteIndex(h.meta);
    const streamWrites = this.dataStreams.indicesDeleted(handles.map((h) => h.name));
    if (streamWrites.length) await this.store.write(streamWrites);
  }

  /** Indices whose analysis reads this synonyms set, by name. */
  synonymsSetUsers(set: string): string[] {
    return this.all().filter((h) => h.usesSynonymsSet(set)).map((h) => h.name);
  }

  async setState(handles: IndexHandle[], state: 'open' | 'close'): Promise<void> {
    const writes: StoreWrite[] = [];
    // An index being opened builds its analyzers anew (reading its synonyms sets now), as in ES;
    // one that cannot refuses the whole request before anything changed.
    const opening = state === 'open' ? handles.filter((h) => !h.isOpen) : [];
    const reopened = new Map(opening.map((h) => [h, IndexHandle.analysisFor(h.meta.settings, this.synonyms, this.configFiles)]));
    for (const h of handles) {
      if (h.meta.state === state) continue;
      h.setMeta({ ...h.meta, state });
      const registry = reopened.get(h);
      if (registry) h.setAnalysis(registry);
      if (state === 'open') h.load();
      else h.inverted = undefined;
      writes.push({ kind: 'meta', meta: h.meta });
    }
    await this.store.write(writes);
  }

  /** Applies alias actions atomically (`POST /_aliases`, put/delete alias). */
  async updateAliases(actions: AliasAction[]): Promise<void> {
    const current = new Map(this.all().map((h) => [h.name, h.meta.aliases]));
    const { changed, removeIndices } = applyAliasActions(current, actions, (n) => this.handles.has(n));
    const writes: StoreWrite[] = [];
    for (const [name, aliases] of changed) {
      const h = this.handles.get(name);
      if (!h) continue;
      h.setMeta({ ...h.meta, aliases });
      writes.push({ kind: 'meta', meta: h.meta });
    }
    await this.store.write(writes);
    const removed = removeIndices.map((n) => this.handles.get(n)).filter((h): h is IndexHandle => h !== undefined);
    if (removed.length) await this.delete(removed);
  }

  async putMapping(handles: IndexHandle[], input: unknown): Promise<void> {
    const update = validateMappings(input, undefined, { openSearch: this.openSearch });
    for (const h of handles) checkIndexBlocks(h.name, h.meta.settings, 'metadata_write');
    const merged = handles.map((h) => ({ h, mappings: mergeMappings(h.meta.mappings, update) as Mappings }));
    for (const { h, mappings } of merged) {
      checkIndexTimeAnalyzers(mappings, h.registry);
      checkMappingLimits(mappings, mappingLimitsOf(h.meta.settings));
    }
    const writes: StoreWrite[] = [];
    for (const { h, mappings } of merged) {
      h.setMeta({ ...h.meta, mappings });
      writes.push({ kind: 'meta', meta: h.meta });
    }
    await this.store.write(writes);
  }

  /** `preserveExisting`: only settings the index does not have yet are set (`preserve_existing=true`). */
  async putSettings(handles: IndexHandle[], input: unknown, preserveExisting = false): Promise<void> {
    const body = isPlainObject(input) && isPlainObject(input.settings) ? input.settings : input;
    const update = flattenSettings(body);
    if (Object.keys(update).length === 0) {
      throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no settings to update;');
    }
    // a block is lifted by a settings update, so one that only changes blocks passes them
    if (!onlyBlockSettings(update)) for (const h of handles) checkIndexBlocks(h.name, h.meta.settings, 'metadata_write');
    const next = handles.map((h) => {
      const own = preserveExisting ? Object.fromEntries(Object.entries(update).filter(([k]) => !(k in h.meta.settings))) : update;
      const settings = applySettingsUpdate(h.meta.settings, own, h.isOpen, `${h.name}/${h.uuid}`);
      checkIndexTimeAnalyzers(h.meta.mappings, IndexHandle.analysisFor(settings, this.synonyms, this.configFiles));
      return { h, settings };
    });
    const writes: StoreWrite[] = [];
    for (const { h, settings } of next) {
      h.setMeta({ ...h.meta, settings });
      writes.push({ kind: 'meta', meta: h.meta });
    }
    await this.store.write(writes);
  }
}
