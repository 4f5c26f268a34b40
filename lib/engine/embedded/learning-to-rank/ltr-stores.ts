/**
 * OpenSearch's Learning to Rank plugin, as stored configuration: its feature stores (the plugin's
 * `.ltrstore` and `.ltrstore_{name}` indices) and what each holds — features, feature sets and
 * models, each a document `{type}-{name}` with the plugin's `_source` (`name`, `type`, and the
 * element under its type). Durable as cluster metadata in the store (`ltr_store:{store}`,
 * `ltr_element:{store}/{type}-{name}`). No model scores here (no `sltr` query): the elements are
 * kept, listed and read back as the plugin keeps them.
 */
import { EsError } from '../../../errors/index.js';
import { isMap, type JsonMap } from '../ingest/index.js';
import type { Store } from '../store/index.js';

const STORE_KEY = 'ltr_store:';
const ELEMENT_KEY = 'ltr_element:';
/** The plugin's name of the default store, and its index. */
export const DEFAULT_STORE = '_default_';
const DEFAULT_INDEX = '.ltrstore';
/** IndexFeatureStore's mapping version. */
const STORE_VERSION = 2;

export type ElementType = 'feature' | 'featureset' | 'model';
export const ELEMENT_TYPES: readonly ElementType[] = ['feature', 'featureset', 'model'];

export interface StoredElement {
  store: string;
  type: ElementType;
  name: string;
  version: number;
  seqNo: number;
  /** The document as the plugin indexes it: `{ name, type, [type]: element }`. */
  source: JsonMap;
}

/** The index that holds a store's elements. */
export function storeIndex(store: string): string {
  return store === DEFAULT_STORE ? DEFAULT_INDEX : `${DEFAULT_INDEX}_${store}`;
}

export function elementId(type: ElementType, name: string): string {
  return `${type}-${name}`;
}

export class LtrStores {
  private readonly stores = new Set<string>();
  /** By store, then `{type}-{name}`. */
  private readonly elements = new Map<string, Map<string, StoredElement>>();
  private seqNo = -1;

  constructor(private readonly store: Store) {
    for (const { key, value } of store.loadCluster()) {
      if (key.startsWith(STORE_KEY)) this.stores.add(key.slice(STORE_KEY.length));
      else if (key.startsWith(ELEMENT_KEY) && isMap(value)) {
        const e = value as unknown as StoredElement;
        this.elementsOf(e.store).set(elementId(e.type, e.name), e);
        this.seqNo = Math.max(this.seqNo, e.seqNo);
      }
    }
  }

  private elementsOf(store: string): Map<string, StoredElement> {
    let m = this.elements.get(store);
    if (!m) this.elements.set(store, (m = new Map()));
    return m;
  }

  storeNames(): string[] {
    return [...this.stores].sort();
  }

  exists(store: string): boolean {
    return this.stores.has(store);
  }

  /** The store, or the 404 the plugin's index lookup answers for a missing one. */
  require(store: string): void {
    if (!this.stores.has(store)) {
      throw new EsError(404, 'index_not_found_exception', `no such index [${storeIndex(store)}]`, { 'resource.type': 'index_or_alias', 'resource.id': storeIndex(store), index: storeIndex(store) });
    }
  }

  async create(store: string): Promise<void> {
    if (this.stores.has(store)) {
      throw new EsError(400, 'resource_already_exists_exception', `index [${storeIndex(store)}] already exists`, { index: storeIndex(store) });
    }
    this.stores.add(store);
    await this.store.write([{ kind: 'cluster', key: STORE_KEY + store, value: true }]);
  }

  async drop(store: string): Promise<void> {
    this.require(store);
    const gone = [...this.elementsOf(store).keys()];
    this.stores.delete(store);
    this.elements.delete(store);
    await this.store.write([
      { kind: 'cluster', key: STORE_KEY + store, value: undefined },
      ...gone.map((id) => ({ kind: 'cluster' as const, key: `${ELEMENT_KEY}${store}/${id}`, value: undefined })),
    ]);
  }

  counts(store: string): Record<ElementType, number> {
    const counts = { feature: 0, featureset: 0, model: 0 };
    for (const e of this.elementsOf(store).values()) counts[e.type]++;
    return counts;
  }

  get(store: string, type: ElementType, name: string): StoredElement | undefined {
    this.require(store);
    return this.elementsOf(store).get(elementId(type, name));
  }

  /** The elements of a type, by name, those whose name starts with `prefix` when given. */
  list(store: string, type: ElementType, prefix: string | undefined): StoredElement[] {
    this.require(store);
    return [...this.elementsOf(store).values()]
      .filter((e) => e.type === type && (prefix === undefined || e.name.startsWith(prefix)))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Index an element: `create` refuses one that exists (the plugin's PUT), otherwise it is replaced. */
  async put(store: string, type: ElementType, name: string, element: JsonMap, create: boolean): Promise<{ stored: StoredElement; created: boolean }> {
    this.require(store);
    const id = elementId(type, name);
    const current = this.elementsOf(store).get(id);
    if (current && create) {
      throw new EsError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, document already exists (current version [${current.version}])`,
        { index: storeIndex(store), shard: '0', index_uuid: storeIndex(store) });
    }
    const stored: StoredElement = { store, type, name, version: (current?.version ?? 0) + 1, seqNo: ++this.seqNo, source: { name, type, [type]: element } };
    this.elementsOf(store).set(id, stored);
    await this.store.write([{ kind: 'cluster', key: `${ELEMENT_KEY}${store}/${id}`, value: stored }]);
    return { stored, created: !current };
  }

  async delete(store: string, type: ElementType, name: string): Promise<StoredElement | undefined> {
    this.require(store);
    const id = elementId(type, name);
    const current = this.elementsOf(store).get(id);
    if (!current) return undefined;
    this.elementsOf(store).delete(id);
    await this.store.write([{ kind: 'cluster', key: `${ELEMENT_KEY}${store}/${id}`, value: undefined }]);
    return { ...current, version: current.version + 1, seqNo: ++this.seqNo };
  }
}
