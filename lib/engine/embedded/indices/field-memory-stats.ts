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

/** Records that a request loaded the field data of a text field of the index (sorting, aggregating, a script's doc access). */
export function noteFielddataLoaded(handle: IndexHandle, field: string): void {
  const inverted = handle.inverted;
  if (!inverted) return;
  // a search reads the index through views of it (a reader, field rules): the index's own entry
  let loaded = LOADED.get(inverted.origin);
  if (!loaded) LOADED.set(inverted.origin, (loaded = new Set()));
  loaded.add(field);
}

/** `_cache/clear` with `fielddata` (or every cache): the index's field data dropped, of the fields named or all. */
export function clearFielddata(handle: IndexHandle, fields?: readonly string[]): void {
  const loaded = handle.inverted && LOADED.get(handle.inverted.origin);
  if (!loaded) return;
  if (!fields?.length) loaded.clear();
  else for (const f of [...loaded]) if (fields.some((p) => simpleMatch(p, f))) loaded.delete(f);
}

interface MemorySection {
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
  return fields === undefined ? { ...rest, evictions: 0 } : { ...rest, evictions: 0, fields };
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
