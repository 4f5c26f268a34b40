import type { ChangeBus } from '../changes/index.js';
import { COMPONENT_TYPES, type Component, type ComponentType } from '../declarative-request/index.js';
import { shapeCheck, TUNING_PROPERTIES } from '../declarative-request/index.js';
import type { Backend } from '../engine/index.js';
import { SystemRecords } from '../records/index.js';
import type { SearchSettings } from './rule.js';
import { settingsFields } from './hidden-fields.js';

export const RELEVANCY_INDEX = '.gateway-searchrelevancy';
/** The record that applies to every index without one of its own (per component type). */
export const DEFAULT_RELEVANCY = '_default';

/** Per component type, the props a declarative component takes by default. */
export type RelevancySettings = Partial<Record<ComponentType, SearchSettings>>;

const RELEVANCY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: Object.fromEntries(COMPONENT_TYPES.map((t) => [t, { type: 'object', additionalProperties: false, properties: TUNING_PROPERTIES }])),
};

/** Checks a relevancy document with the declarative request's own schema for these props (400 naming the path). */
export const checkRelevancy: (body: unknown) => asserts body is RelevancySettings = shapeCheck<RelevancySettings>(RELEVANCY_SCHEMA, 'a search relevancy document');

/**
 * The search relevancy settings, per index and `_default`, stored in `.gateway-searchrelevancy`
 * and held by every node (SystemRecords).
 *
 * Precedence, per prop: the request's own value, then the index's setting for the component's
 * type, then `_default`'s. (A query rule's `search_settings` goes over all three, see curate.ts.)
 */
export class RelevancyStore {
  private readonly records: SystemRecords<RelevancySettings>;

  constructor(backend: Backend, bus: ChangeBus, log: (line: string) => void = () => {}) {
    this.records = new SystemRecords<RelevancySettings>(backend, bus, { index: RELEVANCY_INDEX, what: 'search relevancy setting', log });
  }

  start(): Promise<void> {
    return this.records.start();
  }

  close(): void {
    this.records.close();
  }

  get(index: string): RelevancySettings | undefined {
    return this.records.get(index);
  }

  put(index: string, settings: RelevancySettings): Promise<boolean> {
    return this.records.put(index, settings);
  }

  delete(index: string): Promise<boolean> {
    return this.records.delete(index);
  }

  /**
   * The component with the defaults of its index filled in where it has no value of its own;
   * `readable`: whether the caller may read the fields a default names (one it may not is left out).
   */
  withDefaults(component: Component, index: string, readable: (fields: string[]) => boolean = () => true): Component {
    const type = component.type ?? 'search';
    const own = this.records.get(index)?.[type];
    const fallback = this.records.get(DEFAULT_RELEVANCY)?.[type];
    if (!own && !fallback) return component;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries({ ...fallback, ...own })) if (readable(settingsFields({ [k]: v } as SearchSettings))) out[k] = v;
    for (const [k, v] of Object.entries(component)) if (v !== undefined) out[k] = v;
    return out as unknown as Component;
  }
}
