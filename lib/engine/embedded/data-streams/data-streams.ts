import { EsError, errors } from '../../../errors/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import { backingIndexName } from '../../data-stream-names.js';
import { isPlainObject, type JsonObject } from '../indices/deep.js';
import type { IndexHandle } from '../indices/index-handle.js';
import type { Indices } from '../indices/indices.js';
import { validateIndexName } from '../indices/index-name.js';
import type { WildcardStates } from '../indices/resolve.js';
import type { TemplateContent } from '../indices/templates.js';
import type { Mappings } from '../mapping/index.js';
import type { Store, StoreWrite } from '../store/index.js';
import { TIMESTAMP_FIELD, timestampFieldOf, type DataStreamMetadata } from './data-stream.js';

const KEY_PREFIX = 'data_stream:';

/** What a document write asks of its target, as far as data streams care. */
export interface WriteIntent {
  op: 'index' | 'create' | 'update' | 'delete';
  /** `if_seq_no` and `if_primary_term` were given (an optimistic-concurrency overwrite). */
  conditional?: boolean;
}

/** A change to the engine's data streams, made in memory; `writes` make it durable (one store write). */
interface Staged {
  writes: StoreWrite[];
}

export const ONLY_CREATE = 'only write ops with an op_type of create are allowed in data streams';

function streamWrite(stream: DataStreamMetadata): StoreWrite {
  return { kind: 'cluster', key: KEY_PREFIX + stream.name, value: stream };
}

function streamRemoval(name: string): StoreWrite {
  return { kind: 'cluster', key: KEY_PREFIX + name, value: undefined };
}

/**
 * The data streams of the engine: append-only, time-stamped targets backed by hidden indices
 * (`.ds-<stream>-<yyyy.MM.dd>-<generation>`), durable as cluster metadata next to the templates.
 *
 * Contract: a stream's last backing index is its write index; only `create` writes reach a stream
 * (and go to its write index); every backing index is created from the index template that
 * matches the stream's name and carries `data_stream` (its settings and mappings, `index.hidden`,
 * `@timestamp` mapped as `date` unless the template maps it, and the `_data_stream_timestamp`
 * meta field that makes every document carry exactly one `@timestamp`). A stream and its backing
 * indices are created, rolled over and deleted in one store write each.
 */
export class DataStreams {
  private readonly streams = new Map<string, DataStreamMetadata>();
  /** Backing index name → its data stream's name. */
  private readonly owners = new Map<string, string>();

  constructor(private readonly store: Store, private readonly indices: Indices) {
    for (const { key, value } of store.loadCluster()) {
      if (key.startsWith(KEY_PREFIX)) this.remember(value as DataStreamMetadata);
    }
  }

  private remember(stream: DataStreamMetadata): void {
    const previous = this.streams.get(stream.name);
    for (const b of previous?.indices ?? []) this.owners.delete(b.index_name);
    this.streams.set(stream.name, stream);
    for (const b of stream.indices) this.owners.set(b.index_name, stream.name);
  }

  private forget(name: string): void {
    for (const b of this.streams.get(name)?.indices ?? []) this.owners.delete(b.index_name);
    this.streams.delete(name);
  }

  get(name: string): DataStreamMetadata | undefined {
    return this.streams.get(name);
  }

  all(): DataStreamMetadata[] {
    return [...this.streams.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The data stream an index backs, if any. */
  ofIndex(index: string): DataStreamMetadata | undefined {
    const owner = this.owners.get(index);
    return owner === undefined ? undefined : this.streams.get(owner);
  }

  writeIndexOf(stream: DataStreamMetadata): string {
    return stream.indices[stream.indices.length - 1].index_name;
  }

  backingHandles(stream: DataStreamMetadata): IndexHandle[] {
    return stream.indices.map((b) => this.indices.get(b.index_name)).filter((h): h is IndexHandle => h !== undefined);
  }

  /**
   * Streams a wildcard reaches with these states: a hidden stream only with `hidden`, a name
   * starting with `.` only from a pattern that does too (as for indices); streams are always open.
   */
  matching(pattern: string, states: WildcardStates): DataStreamMetadata[] {
    return this.all().filter((s) => simpleMatch(pattern, s.name)
      && !(s.name.startsWith('.') && !pattern.startsWith('.'))
      && (s.hidden ? states.hidden : states.open));
  }

  /**
   * Data streams a name expression (`a,b*`, `*`, `_all`) stands for, in name order; a concrete
   * name that is no stream is a 404 (index_not_found_exception), as the data stream APIs answer.
   */
  select(expression: string | undefined, states: WildcardStates): DataStreamMetadata[] {
    const parts = !expression || expression === '_all' ? ['*'] : expression.split(',').filter(Boolean);
    const out = new Map<string, DataStreamMetadata>();
    for (const part of parts) {
      if (part.startsWith('-')) {
        for (const s of this.all()) if (simpleMatch(part.slice(1), s.name)) out.delete(s.name);
        continue;
      }
      if (part.includes('*')) {
        for (const s of this.matching(part, states)) out.set(s.name, s);
        continue;
      }
      const stream = this.streams.get(part);
      if (!stream) throw errors.indexNotFound(part);
      out.set(part, stream);
    }
    return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The composable template governing a stream's name, refused as Elasticsearch refuses it. */
  private templateFor(name: string): { name: string; dataStream: JsonObject; content: TemplateContent; meta?: JsonObject } {
    const found = this.indices.templates.matchingIndexTemplate(name);
    if (!found) throw new EsError(400, 'illegal_argument_exception', `no matching index template found for data stream [${name}]`);
    if (!found.template.data_stream) {
      throw new EsError(400, 'illegal_argument_exception', `matching index template [${found.name}] for data stream [${name}] has no data stream template`);
    }
    return { name: found.name, dataStream: found.template.data_stream, content: found.content, meta: found.template._meta };
  }

  /** A new index named `name` is refused when the template it would take makes data streams only. */
  checkIndexCreation(name: string): void {
    const found = this.indices.templates.matchingIndexTemplate(name);
    if (found?.template.data_stream) {
      throw new EsError(400, 'illegal_argument_exception',
        `cannot create index with name [${name}], because it matches with template [${found.name}] that creates data streams only, use create data stream api instead`);
    }
  }

  /** A backing index, created in memory from the stream's template content. */
  private createBackingIndex(stream: string, generation: number, content: TemplateContent, timestampField = TIMESTAMP_FIELD): { handle: IndexHandle; writes: StoreWrite[] } {
    // OpenSearch's custom timestamp field is named in the meta field (ES 8's has `enabled` alone)
    const meta = timestampField === TIMESTAMP_FIELD ? { enabled: true } : { enabled: true, timestamp_field: { name: timestampField } };
    const mappings: Mappings = { ...(content.mappings ?? {}), _data_stream_timestamp: meta };
    const properties = { ...(mappings.properties ?? {}) };
    if (!properties[timestampField]) properties[timestampField] = { type: 'date' };
    mappings.properties = properties;
    const settings = { ...(content.settings ?? {}), 'index.hidden': 'true' };
    return this.indices.createInMemory(backingIndexName(stream, generation), { settings, mappings: mappings as JsonObject }, false);
  }

  /** Validates a new stream's name as Elasticsearch does (the index name rules, worded for a data stream). */
  private validateName(name: string): void {
    try {
      validateIndexName(name);
    } catch (e) {
      if (!(e instanceof EsError)) throw e;
      throw new EsError(400, 'illegal_argument_exception', e.reason.replace(/^Invalid index name \[[^\]]*\], /, `data_stream [${name}] `));
    }
    if (name.startsWith('.ds-')) throw new EsError(400, 'illegal_argument_exception', `data_stream [${name}] must not start with '.ds-'`);
  }

  /** Creates a data stream and its first backing index in memory; `writes` make both durable. */
  createInMemory(name: string): Staged & { stream: DataStreamMetadata; handle: IndexHandle } {
    this.validateName(name);
    if (this.streams.has(name)) throw new EsError(400, 'resource_already_exists_exception', `data_stream [${name}] already exists`);
    if (this.indices.get(name) || this.indices.aliasTargets(name).length) {
      throw new EsError(400, 'illegal_argument_exception', `data_stream [${name}] conflicts with index or alias [${name}]`);
    }
    const template = this.templateFor(name);
    const timestampField = timestampFieldOf(template.dataStream);
    const { handle, writes } = this.createBackingIndex(name, 1, template.content, timestampField);
    const stream: DataStreamMetadata = {
      name,
      indices: [{ index_name: handle.name, index_uuid: handle.uuid }],
      generation: 1,
      template: template.name,
      hidden: template.dataStream.hidden === true,
      allowCustomRouting: template.dataStream.allow_custom_routing === true,
    };
    if (timestampField !== TIMESTAMP_FIELD) stream.timestampField = timestampField;
    if (isPlainObject(template.meta)) stream._meta = template.meta;
    this.remember(stream);
    return { stream, handle, writes: [...writes, streamWrite(stream)] };
  }

  async create(name: string): Promise<DataStreamMetadata> {
    const { stream, writes } = this.createInMemory(name);
    await this.store.write(writes);
    return stream;
  }

  /**
   * Where a document write to `name` goes when data streams are concerned, or undefined when they
   * are not (an ordinary index or alias). A stream takes `create` only, into its write index; a
   * name no index, alias or stream has yet whose template makes data streams creates the stream
   * (its creation joins the write). A backing index named directly takes updates and deletes, and
   * overwrites guarded by `if_seq_no`/`if_primary_term`, never appends.
   */
  writeTarget(name: string, intent: WriteIntent): { handle: IndexHandle; writes: StoreWrite[] } | undefined {
    const stream = this.streams.get(name);
    if (stream) {
      if (intent.op !== 'create') throw new EsError(400, 'illegal_argument_exception', ONLY_CREATE);
      const handle = this.indices.get(this.writeIndexOf(stream));
      if (!handle) throw errors.indexNotFound(this.writeIndexOf(stream));
      return { handle, writes: [] };
    }
    const owner = this.ofIndex(name);
    if (owner) {
      if (intent.op === 'create') {
        throw new EsError(400, 'illegal_argument_exception', `index request with op_type=create targeting backing indices is disallowed, target corresponding data stream [${owner.name}] instead`);
      }
      if (intent.op === 'index' && !intent.conditional) {
        throw new EsError(400, 'illegal_argument_exception',
          `index request with op_type=index and no if_primary_term and if_seq_no set targeting backing indices is disallowed, target corresponding data stream [${owner.name}] instead`);
      }
      return undefined;
    }
    if (this.indices.get(name) || this.indices.aliasTargets(name).length) return undefined;
    if (!this.indices.templates.matchingIndexTemplate(name)?.template.data_stream) return undefined;
    if (intent.op !== 'create') throw new EsError(400, 'illegal_argument_exception', ONLY_CREATE);
    const { handle, writes } = this.createInMemory(name);
    return { handle, writes };
  }

  /** Deletes data streams with their backing indices (`DELETE /_data_stream/{name}`). */
  async delete(expression: string, states: WildcardStates): Promise<void> {
    const streams = this.select(expression, states);
    if (!streams.length) return;
    const handles = streams.flatMap((s) => this.backingHandles(s));
    for (const s of streams) this.forget(s.name);
    await this.store.write(streams.map((s) => streamRemoval(s.name)));
    await this.indices.delete(handles);
  }

  /** A write index cannot be deleted on its own: its stream would have none (ES refuses it the same way). */
  checkIndexDeletion(handles: IndexHandle[]): void {
    for (const h of handles) {
      const stream = this.ofIndex(h.name);
      if (stream && this.writeIndexOf(stream) === h.name) {
        throw new EsError(400, 'illegal_argument_exception', `index [${h.name}] is the write index for data stream [${stream.name}] and cannot be deleted`);
      }
    }
  }

  /** Drops deleted indices from the streams they backed; the returned writes make that durable. */
  indicesDeleted(names: string[]): StoreWrite[] {
    const changed = new Map<string, DataStreamMetadata>();
    for (const n of names) {
      const stream = this.ofIndex(n);
      if (!stream) continue;
      const current = changed.get(stream.name) ?? stream;
      changed.set(stream.name, { ...current, indices: current.indices.filter((b) => b.index_name !== n) });
    }
    for (const s of changed.values()) this.remember(s);
    return [...changed.values()].map(streamWrite);
  }

  /**
   * Rolls a stream over in memory: a new write index of the next generation, from the template
   * that matches the stream's name now. `writes` make the index and the stream's new state durable.
   */
  private rolloverInMemory(stream: DataStreamMetadata): Staged & { oldIndex: string; newIndex: string; apply(): void } {
    const template = this.templateFor(stream.name);
    const generation = stream.generation + 1;
    const { handle, writes } = this.createBackingIndex(stream.name, generation, template.content, stream.timestampField);
    const next: DataStreamMetadata = { ...stream, generation, indices: [...stream.indices, { index_name: handle.name, index_uuid: handle.uuid }] };
    return {
      oldIndex: this.writeIndexOf(stream),
      newIndex: handle.name,
      writes: [...writes, streamWrite(next)],
      apply: () => this.remember(next),
    };
  }

  /** Rolls a stream over: its new write index and the stream's new generation, durable together. */
  async rollover(stream: DataStreamMetadata): Promise<{ oldIndex: string; newIndex: string }> {
    const staged = this.rolloverInMemory(stream);
    await this.store.write(staged.writes);
    staged.apply();
    return { oldIndex: staged.oldIndex, newIndex: staged.newIndex };
  }

  /** The name a rollover would give the stream's next write index (for `dry_run`). */
  nextBackingIndexName(stream: DataStreamMetadata): string {
    return backingIndexName(stream.name, stream.generation + 1);
  }

  /**
   * `POST /_data_stream/_modify`: adds and removes backing indices, all actions or none. An added
   * index becomes hidden and joins at the front (it is never the write index); the write index
   * cannot be removed.
   */
  async modify(actions: Array<{ op: 'add_backing_index' | 'remove_backing_index'; dataStream: string; index: string }>): Promise<void> {
    const next = new Map<string, DataStreamMetadata>();
    const hidden: IndexHandle[] = [];
    for (const a of actions) {
      const stream = next.get(a.dataStream) ?? this.streams.get(a.dataStream);
      if (!stream) throw new EsError(400, 'illegal_argument_exception', `data stream [${a.dataStream}] not found`);
      const handle = this.indices.get(a.index);
      if (!handle) throw errors.indexNotFound(a.index);
      if (a.op === 'add_backing_index') {
        const owner = this.ofIndex(a.index);
        if (owner && owner.name !== stream.name) {
          throw new EsError(400, 'illegal_argument_exception', `cannot add index [${a.index}] to data stream [${stream.name}] until its membership in data stream [${owner.name}] is removed`);
        }
        if (Object.keys(handle.meta.aliases).length) {
          throw new EsError(400, 'illegal_argument_exception', `cannot add index [${a.index}] to data stream [${stream.name}] until its alias(es) [${Object.keys(handle.meta.aliases).sort().join(', ')}] are removed`);
        }
        if (!stream.indices.some((b) => b.index_name === a.index)) {
          next.set(stream.name, { ...stream, indices: [{ index_name: handle.name, index_uuid: handle.uuid }, ...stream.indices] });
          hidden.push(handle);
        }
      } else {
        if (!stream.indices.some((b) => b.index_name === a.index)) {
          throw new EsError(400, 'illegal_argument_exception', `index [${a.index}] not found in data stream [${stream.name}]`);
        }
        if (this.writeIndexOf(stream) === a.index) {
          throw new EsError(400, 'illegal_argument_exception', `cannot remove backing index [${a.index}] of data stream [${stream.name}] because it is the write index`);
        }
        next.set(stream.name, { ...stream, indices: stream.indices.filter((b) => b.index_name !== a.index) });
      }
    }
    const writes: StoreWrite[] = [...next.values()].map(streamWrite);
    for (const h of hidden) {
      if (h.meta.settings['index.hidden'] === 'true') continue;
      h.setMeta({ ...h.meta, settings: { ...h.meta.settings, 'index.hidden': 'true' } });
      writes.push({ kind: 'meta', meta: h.meta });
    }
    await this.store.write(writes);
    for (const s of next.values()) this.remember(s);
  }
}
