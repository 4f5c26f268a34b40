import type { ChangeBus } from '../changes/index.js';
import { shapeCheck } from '../declarative-request/index.js';
import type { Backend } from '../engine/index.js';
import { SystemRecords } from '../records/index.js';
import { simpleMatch } from '../wildcard/index.js';

export const PREFERENCES_INDEX = '.gateway-cache-preferences';
const RECORD = 'preferences';

/** The cache's preferences, appbase's shape: what every node of the fleet applies. */
export interface CachePreferences {
  /** Whether answers are kept at all (a request's `useCache` goes over it). */
  enable_cache: boolean;
  /** How long an answer is kept at most, in seconds (a safety net: eviction is by change). */
  max_duration: number;
  /** Megabytes of answers a node keeps at most. */
  max_size: number;
  /** Index patterns whose answers are kept; empty = every index. */
  indices: string[];
}

const PREFERENCES_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enable_cache: { type: 'boolean' },
    max_duration: { type: 'integer', minimum: 1, maximum: 7 * 24 * 3600 },
    max_size: { type: 'number', exclusiveMinimum: 0, maximum: 64 * 1024 },
    indices: { type: 'array', maxItems: 1000, items: { type: 'string', minLength: 1, maxLength: 255 } },
  },
};

/** Throws a 400 naming the member at fault unless the body is (part of) a preferences document. */
export const checkPreferences: (body: unknown) => asserts body is Partial<CachePreferences> = shapeCheck<Partial<CachePreferences>>(PREFERENCES_SCHEMA, 'cache preferences');

/**
 * The cache preferences, stored in `.gateway-cache-preferences` and held by every node
 * (SystemRecords): a change made through one node reaches the others over the bus. Until one is
 * stored, the configuration's values hold (CACHE_MAX_BYTES, CACHE_TTL; enabled).
 */
export class PreferenceStore {
  private readonly records: SystemRecords<Partial<CachePreferences>>;

  constructor(backend: Backend, bus: ChangeBus, private readonly defaults: CachePreferences, options: { log?: (line: string) => void; changed?: (p: CachePreferences) => void } = {}) {
    this.records = new SystemRecords<Partial<CachePreferences>>(backend, bus, {
      index: PREFERENCES_INDEX,
      what: 'cache preferences',
      log: options.log,
      changed: () => options.changed?.(this.current()),
    });
  }

  start(): Promise<void> {
    return this.records.start();
  }

  close(): void {
    this.records.close();
  }

  /** The preferences in force: the stored ones over the configuration's. */
  current(): CachePreferences {
    return { ...this.defaults, ...this.records.get(RECORD) };
  }

  /** Stores the members given over those in force; answers the preferences now in force. */
  async update(change: Partial<CachePreferences>): Promise<CachePreferences> {
    const next = { ...this.records.get(RECORD), ...change };
    await this.records.put(RECORD, next);
    return this.current();
  }

  /** Does the preference's `indices` let answers of these indices be kept? */
  static covers(preferences: CachePreferences, indices: readonly string[]): boolean {
    const patterns = preferences.indices;
    return !patterns.length || indices.every((index) => patterns.some((p) => simpleMatch(p, index)));
  }
}
