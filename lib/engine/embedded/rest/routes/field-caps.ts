import { EsError } from '../../../../errors/index.js';
import { simpleMatch } from '../../../../wildcard/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { fieldType, hasDocValues, isIndexed, NUMERIC_TYPES, OBJECT_TYPES, type FieldMapping } from '../../mapping/index.js';
import { requestBody } from '../body.js';
import { booleanParam } from '../params.js';
import { speaksOpenSearch } from '../dialect.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { leftByIndexFilter, resolveOpenTarget } from './search-target.js';

interface Capability {
  type: string;
  metadata_field: boolean;
  searchable: boolean;
  aggregatable: boolean;
  /** The mapping's `meta` (string values), merged across indices into sorted lists. */
  meta?: Readonly<Record<string, string>>;
}

/** Types whose values live in doc values (sortable, aggregatable) unless `doc_values: false`. */
const DOC_VALUE_TYPES = new Set([...NUMERIC_TYPES, 'keyword', 'constant_keyword', 'wildcard', 'date', 'date_nanos', 'boolean', 'ip', 'geo_point', 'version']);

/** Metadata fields as `_field_caps` lists them for `*`. */
const METADATA: Record<string, Omit<Capability, 'metadata_field'>> = {
  _id: { type: '_id', searchable: true, aggregatable: false },
  _index: { type: '_index', searchable: true, aggregatable: true },
  _routing: { type: '_routing', searchable: true, aggregatable: false },
  _seq_no: { type: '_seq_no', searchable: true, aggregatable: true },
  _source: { type: '_source', searchable: false, aggregatable: false },
  _version: { type: '_version', searchable: false, aggregatable: true },
};

function capability(m: FieldMapping): Capability {
  const type = fieldType(m);
  if (OBJECT_TYPES.has(type)) return { type, metadata_field: false, searchable: false, aggregatable: false };
  const aggregatable = type === 'text' ? m.fielddata === true : DOC_VALUE_TYPES.has(type) && hasDocValues(m);
  const cap: Capability = { type, metadata_field: false, searchable: isIndexed(m), aggregatable };
  return m.meta && typeof m.meta === 'object' ? { ...cap, meta: m.meta as Record<string, string> } : cap;
}

/** A type's `meta` across its indices as Elasticsearch's FieldCapabilities writes it: each key's distinct values, keys and values sorted. */
function mergedMeta(caps: readonly Capability[]): Record<string, string[]> | undefined {
  const merged = new Map<string, Set<string>>();
  for (const cap of caps) {
    for (const [key, value] of Object.entries(cap.meta ?? {})) {
      const values = merged.get(key) ?? new Set<string>();
      merged.set(key, values.add(String(value)));
    }
  }
  if (!merged.size) return undefined;
  return Object.fromEntries([...merged.keys()].sort().map((key) => [key, [...merged.get(key)!].sort()]));
}

/** Every field of a mapping, objects and multi-fields included, by full path. */
function collect(props: Record<string, FieldMapping> | undefined, prefix: string, out: Map<string, Capability>): void {
  for (const [name, m] of Object.entries(props ?? {})) {
    const path = prefix + name;
    out.set(path, capability(m));
    if (m.properties) collect(m.properties, `${path}.`, out);
    if (m.fields) collect(m.fields, `${path}.`, out);
  }
}

function indexFields(h: IndexHandle): Map<string, Capability> {
  const out = new Map<string, Capability>();
  for (const [name, cap] of Object.entries(METADATA)) out.set(name, { ...cap, metadata_field: true });
  collect(h.mappings.properties, '', out);
  return out;
}

function fieldsParam(req: RestRequest): string[] {
  const body = requestBody(req);
  const raw = req.params.get('fields') ?? (Array.isArray(body?.fields) ? (body.fields as unknown[]).map(String).join(',') : typeof body?.fields === 'string' ? body.fields : null);
  const fields = raw === null ? [] : raw.split(',').map((f) => f.trim()).filter(Boolean);
  if (!fields.length) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: specified fields can\'t be null or empty;');
  return fields;
}

/**
 * `_field_caps`: for each requested field, its type and whether it is searchable and aggregatable,
 * per type when indices disagree (with `indices` then naming which index has which type).
 */
function fieldCaps(req: RestRequest, ctx: EngineContext): RestResponse {
  const patterns = fieldsParam(req);
  const handles = leftByIndexFilter(ctx, resolveOpenTarget(ctx, req.pathParams.index ?? req.params.get('index') ?? undefined, req.params), requestBody(req)?.index_filter);
  const includeUnmapped = booleanParam(req.params, 'include_unmapped', false);
  const wanted = (name: string) => patterns.some((p) => simpleMatch(p, name));
  const byField = new Map<string, Map<string, { cap: Capability; caps: Capability[]; indices: string[] }>>();
  const perIndex = handles.map((h) => ({ h, fields: indexFields(h) }));
  // Elasticsearch reports a field's family type: match_only_text is of the text family (OpenSearch 2 names its own type)
  const families = !speaksOpenSearch(req, ctx);
  for (const { h, fields } of perIndex) {
    for (const [name, own] of fields) {
      if (!wanted(name)) continue;
      const cap = families && own.type === 'match_only_text' ? { ...own, type: 'text' } : own;
      let types = byField.get(name);
      if (!types) byField.set(name, (types = new Map()));
      const key = `${cap.type}/${cap.searchable}/${cap.aggregatable}`;
      const group = types.get(key) ?? { cap, caps: [], indices: [] };
      group.caps.push(cap);
      group.indices.push(h.name);
      types.set(key, group);
    }
  }
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of [...byField.keys()].sort()) {
    const types = byField.get(name)!;
    const entry: Record<string, unknown> = {};
    const byType = new Map<string, Array<{ cap: Capability; caps: Capability[]; indices: string[] }>>();
    for (const g of types.values()) byType.set(g.cap.type, [...(byType.get(g.cap.type) ?? []), g]);
    const missing = handles.map((h) => h.name).filter((n) => ![...types.values()].some((g) => g.indices.includes(n)));
    const split = byType.size > 1 || (includeUnmapped && missing.length > 0 && !types.values().next().value!.cap.metadata_field);
    for (const [type, groups] of byType) {
      const indices = groups.flatMap((g) => g.indices).sort();
      const searchable = groups.every((g) => g.cap.searchable);
      const aggregatable = groups.every((g) => g.cap.aggregatable);
      const cap: Record<string, unknown> = { type, metadata_field: groups[0].cap.metadata_field, searchable, aggregatable };
      if (split) cap.indices = indices;
      if (!searchable && groups.some((g) => g.cap.searchable)) cap.non_searchable_indices = groups.filter((g) => !g.cap.searchable).flatMap((g) => g.indices).sort();
      if (!aggregatable && groups.some((g) => g.cap.aggregatable)) cap.non_aggregatable_indices = groups.filter((g) => !g.cap.aggregatable).flatMap((g) => g.indices).sort();
      const meta = mergedMeta(groups.flatMap((g) => g.caps));
      if (meta) cap.meta = meta;
      entry[type] = cap;
    }
    if (includeUnmapped && missing.length && !types.values().next().value!.cap.metadata_field) {
      entry.unmapped = { type: 'unmapped', metadata_field: false, searchable: false, aggregatable: false, indices: missing.sort() };
    }
    out[name] = entry;
  }
  return { status: 200, body: { indices: handles.map((h) => h.name).sort(), fields: out } };
}

export const fieldCapsRoutes: Route[] = [
  { id: 'field_caps', handler: fieldCaps },
];
