import { EsError } from '../../../errors/index.js';
import type { FlatSettings } from '../store/index.js';
import { refuseUnknownSettings } from './known-settings.js';

export type SettingsUpdate = Record<string, string | string[] | null>;

/** The version id ES 8.15 writes under `index.version.created`. */
export const INDEX_VERSION_CREATED = '8512000';

function flattenInto(out: SettingsUpdate, value: unknown, prefix: string): void {
  if (value === null) {
    out[prefix] = null;
  } else if (Array.isArray(value)) {
    out[prefix] = value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)));
  } else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flattenInto(out, v, prefix ? `${prefix}.${k}` : k);
  } else {
    out[prefix] = String(value);
  }
}

/** Settings as a client sends them (nested or dotted, with or without `index.`) → flat `index.*` keys. */
export function flattenSettings(input: unknown): SettingsUpdate {
  if (input === undefined) return {};
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new EsError(400, 'illegal_argument_exception', 'Malformed [settings] section, expected an object');
  }
  const raw: SettingsUpdate = {};
  flattenInto(raw, input, '');
  const out: SettingsUpdate = {};
  for (const [k, v] of Object.entries(raw)) out[k.startsWith('index.') ? k : `index.${k}`] = v;
  return out;
}

/** Flat settings → the nested form ES shows by default. */
export function nestSettings(flat: FlatSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(flat).sort()) {
    const parts = key.split('.');
    let node = out;
    for (let i = 0; i < parts.length - 1; i++) {
      const next = node[parts[i]];
      if (next === undefined || typeof next !== 'object' || Array.isArray(next)) node[parts[i]] = {};
      node = node[parts[i]] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = flat[key];
  }
  return out;
}

function positiveInteger(flat: SettingsUpdate, key: string, min: number, max: number): void {
  const v = flat[key];
  if (v === undefined || v === null) return;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) {
    throw new EsError(400, 'illegal_argument_exception', `Failed to parse value [${String(v)}] for setting [${key}]`);
  }
  const n = Number(v);
  if (n < min) throw new EsError(400, 'illegal_argument_exception', `Failed to parse value [${v}] for setting [${key}] must be >= ${min}`);
  if (n > max) throw new EsError(400, 'illegal_argument_exception', `Failed to parse value [${v}] for setting [${key}] must be <= ${max}`);
}

export function validateSettingValues(flat: SettingsUpdate): void {
  positiveInteger(flat, 'index.number_of_shards', 1, 1024);
  positiveInteger(flat, 'index.number_of_replicas', 0, 1024);
  positiveInteger(flat, 'index.max_result_window', 1, 2147483647);
}

/**
 * Elasticsearch 8 refuses the translog retention settings of an index created since 8.0 (soft
 * deletes keep the history instead): MetadataCreateIndexService.validateTranslogRetentionSettings.
 */
function refuseTranslogRetention(flat: SettingsUpdate): void {
  if (flat['index.translog.retention.age'] == null && flat['index.translog.retention.size'] == null) return;
  throw new EsError(400, 'illegal_argument_exception',
    'Translog retention settings [index.translog.retention.age] and [index.translog.retention.size] are no longer supported. Please do not specify values for these settings');
}

/** The settings of a new index: the client's, plus the ones ES adds. */
export function creationSettings(input: SettingsUpdate, name: string, uuid: string, creationDate: number): FlatSettings {
  refuseUnknownSettings(Object.keys(input));
  validateSettingValues(input);
  refuseTranslogRetention(input);
  const out: FlatSettings = {
    'index.routing.allocation.include._tier_preference': 'data_content',
    'index.number_of_shards': '1',
    'index.number_of_replicas': '1',
  };
  for (const [k, v] of Object.entries(input)) if (v !== null) out[k] = v;
  out['index.provided_name'] = name;
  out['index.creation_date'] = String(creationDate);
  out['index.uuid'] = uuid;
  out['index.version.created'] = INDEX_VERSION_CREATED;
  return out;
}

const FINAL = new Set(['index.number_of_shards', 'index.uuid', 'index.creation_date', 'index.provided_name', 'index.version.created', 'index.routing_partition_size']);
const STATIC_PREFIXES = ['index.analysis.', 'index.codec', 'index.sort.', 'index.similarity.', 'index.mode', 'index.store.', 'index.shard.check_on_startup'];

export function isStaticSetting(key: string): boolean {
  return STATIC_PREFIXES.some((p) => key.startsWith(p));
}

/**
 * Applies a settings update (PUT /{index}/_settings) with ES's rules: final settings never change,
 * static ones (analysis…) only while the index is closed. Null resets a setting.
 */
export function applySettingsUpdate(current: FlatSettings, update: SettingsUpdate, open: boolean, indexLabel: string): FlatSettings {
  refuseUnknownSettings(Object.keys(update));
  validateSettingValues(update);
  refuseTranslogRetention(update);
  const keys = Object.keys(update);
  // `index.sort.*` are final: on an open index refused as any static setting, on a closed one as final
  const final = keys.filter((k) => FINAL.has(k) || (!open && k.startsWith('index.sort.')));
  if (final.length) {
    if (open && final.includes('index.number_of_shards')) {
      throw new EsError(400, 'illegal_argument_exception', `Can't update non dynamic settings [[${final.join(', ')}]] for open indices [[${indexLabel}]]`);
    }
    throw new EsError(400, 'illegal_argument_exception', `final index setting [${final[0]}], not updateable`);
  }
  const statics = keys.filter(isStaticSetting);
  if (open && statics.length) {
    throw new EsError(400, 'illegal_argument_exception', `Can't update non dynamic settings [[${statics.join(', ')}]] for open indices [[${indexLabel}]]`);
  }
  const next: FlatSettings = { ...current };
  for (const [k, v] of Object.entries(update)) {
    if (v === null) delete next[k];
    else next[k] = v;
  }
  return next;
}
