/**
 * The document a pipeline works on, as Elasticsearch's IngestDocument: the source, the metadata
 * fields (`_index`, `_id`, `_routing`, `_version`, `_version_type`…) addressed like top-level
 * fields, and the ingest metadata under `_ingest` (`timestamp`, `on_failure_*`, `_value`…),
 * which is never stored. Field paths are dotted; a numeric segment indexes a list; a `_source.`
 * prefix names the source explicitly.
 */
import { EsError } from '../../../errors/index.js';
import { withExactIntegers } from '../../../ndjson/index.js';
import { fromJson, javaToString } from '../painless/index.js';
import { IngestBudget } from './ingest-budget.js';

export type JsonMap = Record<string, unknown>;

/** Metadata fields a pipeline may read and (most) write, with their place in the document. */
export const METADATA_FIELDS = new Set(['_index', '_id', '_routing', '_version', '_version_type', '_if_seq_no', '_if_primary_term', '_dynamic_templates']);

export function isMap(v: unknown): v is JsonMap {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The Java class Elasticsearch names in its messages for a JSON value. */
export function javaType(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return 'java.lang.String';
  if (typeof v === 'boolean') return 'java.lang.Boolean';
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) return 'java.lang.Double';
    return Math.abs(v) <= 2147483647 ? 'java.lang.Integer' : 'java.lang.Long';
  }
  if (Array.isArray(v)) return 'java.util.ArrayList';
  return 'java.util.LinkedHashMap';
}

/** Java's `toString` of a JSON value (`[a, b]`, `{k=v}`), what string conversions write. */
export function javaText(v: unknown): string {
  return typeof v === 'string' ? v : javaToString(fromJson(v));
}

export function illegalArgument(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

/** A deep copy of a JSON value (what `copy_from` and document snapshots take). */
export function deepCopy<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(deepCopy) as T;
  const out: JsonMap = {};
  for (const [k, x] of Object.entries(v as JsonMap)) out[k] = deepCopy(x);
  return out as T;
}

interface Resolved {
  /** The object the path starts from: the source, the metadata or the ingest metadata. */
  root: JsonMap;
  segments: string[];
}

export interface DocumentMetadata {
  _index: string;
  _id?: string;
  _routing?: string;
  _version?: number;
  _version_type?: string;
  [key: string]: unknown;
}

export class IngestDocument {
  /** The ids of the pipelines running, outermost first (for `pipeline` recursion detection). */
  readonly pipelineStack: string[] = [];
  /** What the document's processors may still produce and run (ingest-budget.ts). */
  readonly budget = new IngestBudget();
  /** Set by `terminate`: the running pipeline runs no further processor (the pipeline runner resets it as the pipeline ends). */
  terminated = false;
  /** Set by `reroute`: every running pipeline stops, and the write goes on with the new target's pipelines (run-pipelines.ts). */
  rerouted = false;

  constructor(
    public source: JsonMap,
    readonly metadata: DocumentMetadata,
    readonly ingest: JsonMap = { timestamp: new Date().toISOString() },
  ) {}

  /** The document goes to `index`; no processor of the pipelines running runs any more. */
  reroute(index: string): void {
    this.metadata._index = index;
    this.rerouted = true;
  }

  private resolve(path: string): Resolved {
    if (typeof path !== 'string' || path === '') throw illegalArgument('path cannot be null nor empty');
    if (path.startsWith('_ingest.')) return { root: this.ingest, segments: path.slice(8).split('.') };
    if (path === '_ingest') return { root: { _ingest: this.ingest }, segments: ['_ingest'] };
    if (path.startsWith('_source.')) return { root: this.source, segments: path.slice(8).split('.') };
    const segments = path.split('.');
    if (METADATA_FIELDS.has(segments[0])) return { root: this.metadata as JsonMap, segments };
    return { root: this.source, segments };
  }

  /** The value at `path`; ES's errors when it is missing, unless `ignoreMissing` (then undefined). */
  get(path: string, ignoreMissing = false): unknown {
    const { root, segments } = this.resolve(path);
    let node: unknown = root;
    for (const seg of segments) {
      if (isMap(node)) {
        if (!Object.prototype.hasOwnProperty.call(node, seg) || node[seg] === undefined) {
          if (ignoreMissing) return undefined;
          throw illegalArgument(`field [${seg}] not present as part of path [${path}]`);
        }
        node = node[seg];
      } else if (Array.isArray(node)) {
        node = node[listIndex(node, seg, path)];
      } else {
        if (ignoreMissing) return undefined;
        if (node === null) throw illegalArgument(`cannot resolve [${seg}] from null as part of path [${path}]`);
        throw illegalArgument(`cannot resolve [${seg}] from object of type [${javaType(node)}] as part of path [${path}]`);
      }
    }
    return node;
  }

  has(path: string): boolean {
    try {
      const { root, segments } = this.resolve(path);
      let node: unknown = root;
      for (const seg of segments) {
        if (isMap(node)) {
          if (!Object.prototype.hasOwnProperty.call(node, seg) || node[seg] === undefined) return false;
          node = node[seg];
        } else if (Array.isArray(node)) {
          if (!/^\d+$/.test(seg) || Number(seg) >= node.length) return false;
          node = node[Number(seg)];
        } else return false;
      }
      return true;
    } catch {
      return false;
    }
  }

  /** Sets `path` to `value`, creating missing objects on the way; `append` adds to a list instead. */
  set(path: string, value: unknown, append = false, allowDuplicates = true): void {
    const { root, segments } = this.resolve(path);
    let node: unknown = root;
    for (let i = 0; i < segments.length - 1; i++) {
      const seg = segments[i];
      if (isMap(node)) {
        let next = node[seg];
        if (next === undefined) node[seg] = next = {};
        node = next;
      } else if (Array.isArray(node)) {
        node = node[listIndex(node, seg, path)];
      } else if (node === null) {
        throw illegalArgument(`cannot set [${seg}] with null parent as part of path [${path}]`);
      } else {
        throw illegalArgument(`cannot set [${seg}] with parent object of type [${javaType(node)}] as part of path [${path}]`);
      }
    }
    const leaf = segments[segments.length - 1];
    if (isMap(node)) {
      if (append) {
        const current = node[leaf];
        node[leaf] = appendValues(current === undefined ? [] : current, value, allowDuplicates);
      } else {
        if (node === (this.metadata as JsonMap)) checkMetadataValue(leaf, value);
        node[leaf] = value;
      }
    } else if (Array.isArray(node)) {
      const i = listIndex(node, leaf, path);
      node[i] = append ? appendValues(node[i], value, allowDuplicates) : value;
    } else if (node === null) {
      throw illegalArgument(`cannot set [${leaf}] with null parent as part of path [${path}]`);
    } else {
      throw illegalArgument(`cannot set [${leaf}] with parent object of type [${javaType(node)}] as part of path [${path}]`);
    }
  }

  remove(path: string): void {
    const { root, segments } = this.resolve(path);
    let node: unknown = root;
    for (let i = 0; i < segments.length - 1; i++) {
      const seg = segments[i];
      if (isMap(node)) {
        if (node[seg] === undefined) throw illegalArgument(`field [${seg}] not present as part of path [${path}]`);
        node = node[seg];
      } else if (Array.isArray(node)) {
        node = node[listIndex(node, seg, path)];
      } else {
        throw illegalArgument(`cannot remove [${seg}] from object of type [${javaType(node)}] as part of path [${path}]`);
      }
    }
    const leaf = segments[segments.length - 1];
    if (isMap(node)) {
      if (!Object.prototype.hasOwnProperty.call(node, leaf)) throw illegalArgument(`field [${leaf}] not present as part of path [${path}]`);
      if (node === (this.metadata as JsonMap) && (leaf === '_index' || leaf === '_id' || leaf === '_version')) {
        throw illegalArgument(`${leaf} cannot be removed`);
      }
      delete node[leaf];
    } else if (Array.isArray(node)) {
      node.splice(listIndex(node, leaf, path), 1);
    } else {
      throw illegalArgument(`cannot remove [${leaf}] from object of type [${javaType(node)}] as part of path [${path}]`);
    }
  }

  /** Source, metadata and `_ingest` in one map: what templates render from. */
  /**
   * The integers past 2^53 the document's text held (exactIntegersOf): a template renders them with
   * their digits, as mustache renders the BigInteger Elasticsearch read.
   */
  exactIntegers?: ReadonlyMap<number, bigint | null>;

  templateModel(): JsonMap {
    const model = { ...this.source, ...this.metadata, _ingest: this.ingest };
    return this.exactIntegers ? withExactIntegers(model, this.exactIntegers) as JsonMap : model;
  }

  /** The document as simulate shows it (`doc`): metadata as strings, the source, the ingest metadata. */
  toJson(): JsonMap {
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(this.metadata)) {
      if (v !== undefined && v !== null) out[k] = typeof v === 'object' ? v : String(v);
    }
    out._source = deepCopy(this.source);
    out._ingest = deepCopy(this.ingest);
    return out;
  }
}

function listIndex(list: unknown[], seg: string, path: string): number {
  if (!/^-?\d+$/.test(seg)) throw illegalArgument(`[${seg}] is not an integer, cannot be used as an index as part of path [${path}]`);
  const i = Number(seg);
  if (i < 0 || i >= list.length) throw illegalArgument(`[${i}] is out of bounds for array with length [${list.length}] as part of path [${path}]`);
  return i;
}

/** `_index`, `_id` and `_routing` take strings, `_version` a number: as ES's ingest metadata checks them. */
function checkMetadataValue(key: string, value: unknown): void {
  if ((key === '_index' || key === '_id') && typeof value !== 'string') {
    throw illegalArgument(`${key} [${javaText(value)}] is wrong type, expected assignable to [java.lang.String], not [${javaType(value)}]`);
  }
  if (key === '_routing' && value !== null && typeof value !== 'string') {
    throw illegalArgument(`${key} [${javaText(value)}] is wrong type, expected assignable to [java.lang.String], not [${javaType(value)}]`);
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));
}

/** ES's appendValues: the current value made a list, then each new value added (once, without duplicates). */
function appendValues(current: unknown, value: unknown, allowDuplicates: boolean): unknown[] {
  const list = Array.isArray(current) ? current : [current];
  const values = Array.isArray(value) ? value : [value];
  for (const v of values) {
    if (allowDuplicates || !list.some((x) => sameValue(x, v))) list.push(v);
  }
  return list;
}
