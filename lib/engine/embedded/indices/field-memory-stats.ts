/**
 * The `fielddata` and `completion` sections of index stats, as Elasticsearch reports them: the
 * memory of the text fields whose field data a sort, an aggregation or a script has loaded
 * (uninverted from the postings; held until the index closes or `_cache/clear` drops it), and
 * the size of the completion fields' suggesters. Each with its fields' own figures when the
 * request names them (`fields`, `fielddata_fields`, `completion_fields`: names or patterns).
 */
import { simpleMatch } from '../../../wildcard/index.js';
import type { InvertedIndex } from '../index/index.js';
import { fieldType, type FieldMapping } from '../mapping/index.js';
import type { IndexHandle } from './index-handle.js';

/** The text fields whose field data was loaded, per in-memory index (a closed and opened index starts with none). */
const LOADED = new WeakMap<InvertedIndex, Set<string>>();

/** The fields whose global ordinals a request built, per in-memory index (Elasticsearch keeps them in the field data cache). */
const GLOBAL_ORDINALS = new WeakMap<InvertedIndex, Set<string>>();

function noted(registry: WeakMap<InvertedIndex, Set<string>>, handle: IndexHandle, field: string): void {
  const inverted = handle.inverted;
  if (!inverted) return;
  // a search reads the index through views of it (a reader, field rules): the index's own entry
  let fields = registry.get(inverted.origin);
  if (!fields) registry.set(inverted.origin, (fields = new Set()));
  fields.add(field);
}

/** Records that a request loaded the field data of a text field of the index (sorting, aggregating, a script's doc access). */
export function noteFielddataLoaded(handle: IndexHandle, field: string): void {
  noted(LOADED, handle, field);
}

/**
 * Records that an aggregation built the global ordinals of a keyword field or of a text field's
 * field data (a terms aggregation collecting by ordinals), as the `global_ordinals` of the
 * `fielddata` stats report them.
 */
export function noteGlobalOrdinals(handle: IndexHandle, field: string): void {
  noted(GLOBAL_ORDINALS, handle, field);
}

/** `_cache/clear` with `fielddata` (or every cache): the index's field data and global ordinals dropped, of the fields named or all. */
export function clearFielddata(handle: IndexHandle, fields?: readonly string[]): void {
  for (const registry of [LOADED, GLOBAL_ORDINALS]) {
    const loaded = handle.inverted && registry.get(handle.inverted.origin);
    if (!loaded) continue;
    if (!fields?.length) loaded.clear();
    else for (const f of [...loaded]) if (fields.some((p) => simpleMatch(p, f))) loaded.delete(f);
  }
}

interface MemorySection {
  [key: string]: number | Record<string, Record<string, number>> | GlobalOrdinalsSection;
}

interface GlobalOrdinalsSection {
  [key: string]: number | Record<string, Record<string, number>>;
}

/** What the field takes in memory: its terms, postings and doc values, as the index holds them. */
function fieldBytes(handle: IndexHandle, field: string): number {
  const fi = handle.inverted?.field(field);
  return fi && fi.docCount > 0 ? fi.memoryBytes(1) : 0;
}

/**
 * A completion field's suggester: what the field holds, and one entry per input of each document
 * (Lucene's FST keeps every input with its document's payload), so each suggestion indexed adds to
 * it even when the same input is already there.
 */
const COMPLETION_ENTRY_BYTES = 8;
function completionBytes(handle: IndexHandle, field: string): number {
  const fi = handle.inverted?.field(field);
  return fi && fi.docCount > 0 ? fi.memoryBytes(1) + fi.sumTotalTermFreq * COMPLETION_ENTRY_BYTES : 0;
}

/** Per field (those `patterns` name) and in total, the bytes `fields` take. */
function section(handle: IndexHandle, fields: Iterable<string>, patterns: readonly string[] | undefined, key: string, bytesOf = fieldBytes): MemorySection {
  let total = 0;
  const named: Record<string, Record<string, number>> = {};
  for (const f of fields) {
    const bytes = bytesOf(handle, f);
    total += bytes;
    if (patterns?.some((p) => simpleMatch(p, f))) named[f] = { [key]: bytes };
  }
  return patterns ? { [key]: total, fields: named } : { [key]: total };
}

export function fielddataSection(handle: IndexHandle, patterns: readonly string[] | undefined): MemorySection {
  const loaded = (handle.inverted && LOADED.get(handle.inverted)) ?? new Set<string>();
  const out = section(handle, [...loaded].sort(), patterns, 'memory_size_in_bytes');
  const { fields, ...rest } = out;
  const withFields = fields === undefined ? { ...rest, evictions: 0 } : { ...rest, evictions: 0, fields };
  return { ...withFields, global_ordinals: globalOrdinalsSection(handle, patterns) };
}

/**
 * The `global_ordinals` of the `fielddata` stats (Elasticsearch 8.8's FieldDataStats): the time
 * spent building them (the engine's terms dictionary is already sorted: nothing to build), and,
 * of the fields the request names, each one's build time and value count (its distinct terms: the
 * engine holds an index as one shard, so its count is the largest shard's). No `fields` when none
 * of them was built.
 */
function globalOrdinalsSection(handle: IndexHandle, patterns: readonly string[] | undefined): GlobalOrdinalsSection {
  const built = (handle.inverted && GLOBAL_ORDINALS.get(handle.inverted.origin)) ?? new Set<string>();
  const named: Record<string, Record<string, number>> = {};
  for (const f of [...built].sort()) {
    if (patterns?.some((p) => simpleMatch(p, f))) named[f] = { build_time_in_millis: 0, shard_max_value_count: handle.inverted?.field(f)?.termCount ?? 0 };
  }
  return Object.keys(named).length ? { build_time_in_millis: 0, fields: named } : { build_time_in_millis: 0 };
}

export function completionSection(handle: IndexHandle, patterns: readonly string[] | undefined): MemorySection {
  return section(handle, completionFields(handle.mappings.properties, ''), patterns, 'size_in_bytes', completionBytes);
}

/** The full names of the completion fields of a mapping, multi-fields included. */
function completionFields(properties: Record<string, FieldMapping> | undefined, prefix: string, out: string[] = []): string[] {
  for (const [name, mapping] of Object.entries(properties ?? {})) {
    const path = prefix + name;
    if (fieldType(mapping) === 'completion') out.push(path);
    completionFields(mapping.fields, `${path}.`, out);
    completionFields(mapping.properties, `${path}.`, out);
  }
  return out.sort();
}
