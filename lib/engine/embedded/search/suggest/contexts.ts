import { EsError } from '../../../../errors/index.js';
import { decodeGeohash, encodeGeohash, parseDistance, parseGeoPoint } from '../../mapping/geo-point.js';
import type { GeoPoint } from '../query/query.js';
import type { FieldMapping, Mappings } from '../../mapping/types.js';

/**
 * The contexts of a context-enabled `completion` field (Elasticsearch's context suggester): each
 * suggestion carries category values and geohashes, given with its inputs (`contexts`) or read
 * from another field of its document (`path`); a completion query names the contexts it wants
 * and a suggestion is kept when any of them matches, its score its weight times that context's
 * boost (the best one).
 */
export interface ContextMapping {
  name: string;
  type: 'category' | 'geo';
  path?: string;
  /** Geohash length of a geo context (GeoContextMapping's default: 6). */
  precision: number;
}

/** A suggestion's contexts: context name → values (categories as given; geohashes at the mapping's precision). */
export type SuggestionContexts = Map<string, string[]>;

/** One context a query accepts. */
interface QueryContext {
  name: string;
  value: string;
  boost: number;
  prefix: boolean;
}

const EARTH_EQUATOR = 2 * Math.PI * 6378137;
const EARTH_POLAR_DISTANCE = Math.PI * 6356752.314245;
const GEO_DEFAULT_PRECISION = 6;
const QUERY_DEFAULT_PRECISION = 12;

function bad(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

/** GeoUtils.geoHashLevelsForPrecision: the geohash length whose cells are no larger (diagonally) than `meters`. */
function geohashLevelsFor(meters: number): number {
  if (meters <= 0) return 12;
  const ratio = 1 + EARTH_POLAR_DISTANCE / EARTH_EQUATOR;
  const width = Math.sqrt((meters * meters) / (ratio * ratio));
  const part = Math.ceil(EARTH_EQUATOR / width);
  if (part === 1) return 1;
  const bits = Math.ceil(Math.log(part) / Math.log(2));
  const full = Math.floor(bits / 5);
  const left = bits - full * 5;
  return full + (left > 0 ? 1 : 0) + full + (left > 3 ? 1 : 0);
}

/** A `precision` given as a geohash length or as a distance (`"5km"`). */
function precisionOf(raw: unknown, fallback: number): number {
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw === 'number') return Math.max(1, Math.min(12, Math.trunc(raw)));
  if (typeof raw === 'string' && /^\d+$/.test(raw.trim())) return Math.max(1, Math.min(12, Number(raw)));
  return geohashLevelsFor(parseDistance(raw));
}

/** A completion field's `contexts` mapping, checked as CompletionFieldMapper checks it. */
export function contextMappingsOf(mapping: FieldMapping | undefined): ContextMapping[] {
  const raw = mapping?.contexts;
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((c) => {
    if (c === null || typeof c !== 'object') throw bad('contexts must be a list of context definitions');
    const d = c as Record<string, unknown>;
    if (typeof d.name !== 'string') throw bad('field [name] is missing');
    if (d.type !== 'category' && d.type !== 'geo') throw bad(`unknown context type [${String(d.type)}]`);
    return { name: d.name, type: d.type, path: typeof d.path === 'string' ? d.path : undefined, precision: d.type === 'geo' ? precisionOf(d.precision, GEO_DEFAULT_PRECISION) : 0 };
  });
}

/** The (up to eight) geohashes around a cell, at its length: the cell's width and height away from its centre, no further than the poles. */
function neighbours(hash: string): string[] {
  const lonBits = Math.ceil((5 * hash.length) / 2);
  const latBits = Math.floor((5 * hash.length) / 2);
  const width = 360 / 2 ** lonBits;
  const height = 180 / 2 ** latBits;
  const { lat, lon } = decodeGeohash(hash)!;
  const out = new Set<string>();
  for (const dy of [-1, 0, 1]) {
    for (const dx of [-1, 0, 1]) {
      if (!dx && !dy) continue;
      const nLat = lat + dy * height;
      if (nLat > 90 || nLat < -90) continue;
      let nLon = lon + dx * width;
      if (nLon >= 180) nLon -= 360;
      if (nLon < -180) nLon += 360;
      out.add(encodeGeohash(nLat, nLon, hash.length));
    }
  }
  out.delete(hash);
  return [...out];
}

function pointsOf(value: unknown): GeoPoint[] {
  if (value === undefined || value === null) return [];
  const one = parseGeoPoint(value);
  if (one) return [one];
  return Array.isArray(value) ? value.flatMap((v) => pointsOf(v)) : [];
}

function categoriesOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(categoriesOf);
  if (typeof value === 'object') throw bad('category contexts must be strings, numbers or booleans');
  return [String(value)];
}

/** A value of a document's `_source` at a dotted path (objects only; none through arrays). */
export function valueAt(source: unknown, path: string): unknown {
  let v = source;
  for (const p of path.split('.')) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

/** The contexts of one completion entry: those given with it (`contexts`), then those its document's `path` fields hold. */
export function entryContexts(mappings: ContextMapping[], given: unknown, source: unknown): SuggestionContexts {
  const out: SuggestionContexts = new Map();
  const explicit = given !== null && typeof given === 'object' && !Array.isArray(given) ? (given as Record<string, unknown>) : {};
  for (const m of mappings) {
    const raw = [explicit[m.name], m.path === undefined ? undefined : valueAt(source, m.path)];
    const values = m.type === 'category'
      ? raw.flatMap(categoriesOf)
      : raw.flatMap(pointsOf).map((p) => encodeGeohash(p.lat, p.lon, m.precision));
    if (values.length) out.set(m.name, [...new Set(values)]);
  }
  return out;
}

/** The error a context-enabled completion entry without any context gets (at indexing). */
export function contextsMandatory(field: string): EsError {
  return new EsError(400, 'document_parsing_exception', `failed to parse: Contexts are mandatory in context enabled completion field [${field}]`, {
    caused_by: { type: 'illegal_argument_exception', reason: `Contexts are mandatory in context enabled completion field [${field}]` },
  });
}

/** A completion query's `contexts` against the field's mappings; at least one context is required. */
export function queryContexts(mappings: ContextMapping[], raw: unknown): QueryContext[] {
  const out: QueryContext[] = [];
  const given = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  for (const [name, value] of Object.entries(given)) {
    const m = mappings.find((c) => c.name === name);
    if (!m) throw bad(`Unknown context name [${name}], must be one of [${mappings.map((c) => c.name).join(', ')}]`);
    for (const entry of Array.isArray(value) && !(m.type === 'geo' && value.length === 2 && value.every((x) => typeof x === 'number')) ? value : [value]) {
      if (m.type === 'category') out.push(categoryQuery(name, entry));
      else out.push(...geoQuery(m, entry));
    }
  }
  if (!out.length) throw bad('Missing mandatory contexts in context query');
  return out;
}

function categoryQuery(name: string, entry: unknown): QueryContext {
  if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
    const o = entry as Record<string, unknown>;
    if (o.context === undefined) throw bad('category context must have a [context] value');
    return { name, value: String(o.context), boost: Number(o.boost ?? 1), prefix: o.prefix === true };
  }
  return { name, value: String(entry), boost: 1, prefix: false };
}

/**
 * GeoContextMapping.toInternalQueryContexts: the point's geohash at the smaller of the query's and
 * the mapping's precision, and its neighbours (at the mapping's precision, or at each length
 * `neighbours` names); a hash shorter than the mapping's precision matches as a prefix.
 */
function geoQuery(m: ContextMapping, entry: unknown): QueryContext[] {
  const o = entry !== null && typeof entry === 'object' && !Array.isArray(entry) && 'context' in (entry as object) ? (entry as Record<string, unknown>) : { context: entry };
  const point = parseGeoPoint(o.context);
  if (!point) throw bad('geo context must be a geo point');
  const precision = Math.min(m.precision, precisionOf(o.precision, QUERY_DEFAULT_PRECISION));
  const hash = encodeGeohash(point.lat, point.lon, precision);
  const locations = new Set([hash]);
  const listed = (Array.isArray(o.neighbours) ? o.neighbours : o.neighbours === undefined ? [] : [o.neighbours]).map((n) => precisionOf(n, precision));
  if (!listed.length && hash.length === m.precision) for (const n of neighbours(hash)) locations.add(n);
  for (const length of listed.filter((n) => n < hash.length)) {
    const truncated = hash.slice(0, length);
    locations.add(truncated);
    for (const n of neighbours(truncated)) locations.add(n);
  }
  const boost = Number(o.boost ?? 1);
  return [...locations].map((value) => ({ name: m.name, value, boost, prefix: value.length < m.precision }));
}

/** The best context of a suggestion a query accepts: its boost, and the context to show; undefined when none matches. */
export function bestContext(queries: QueryContext[], contexts: SuggestionContexts): { boost: number; name: string; value: string } | undefined {
  let best: { boost: number; name: string; value: string } | undefined;
  for (const q of queries) {
    for (const value of contexts.get(q.name) ?? []) {
      if (q.prefix ? !value.startsWith(q.value) : value !== q.value) continue;
      if (!best || q.boost > best.boost) best = { boost: q.boost, name: q.name, value };
    }
  }
  return best;
}

const CONTEXT_FIELDS = new WeakMap<Mappings, Array<{ path: string; contexts: ContextMapping[] }>>();

/** The context-enabled completion fields of a mapping (top-level and object sub-fields), found once per mappings object. */
function contextFields(mappings: Mappings): Array<{ path: string; contexts: ContextMapping[] }> {
  let found = CONTEXT_FIELDS.get(mappings);
  if (found) return found;
  found = [];
  const walk = (props: Record<string, FieldMapping> | undefined, prefix: string) => {
    for (const [name, m] of Object.entries(props ?? {})) {
      if (m.type === 'completion' && m.contexts !== undefined) found!.push({ path: prefix + name, contexts: contextMappingsOf(m) });
      if (m.properties) walk(m.properties, `${prefix}${name}.`);
    }
  };
  walk(mappings.properties, '');
  CONTEXT_FIELDS.set(mappings, found);
  return found;
}

/** Refuses a document with a context-enabled completion entry that has no context (given, or from its `path`), as Elasticsearch does. */
export function checkCompletionContexts(mappings: Mappings, source: Record<string, unknown>): void {
  for (const { path, contexts } of contextFields(mappings)) {
    const value = valueAt(source, path);
    if (value === undefined || value === null) continue;
    for (const entry of Array.isArray(value) ? value : [value]) {
      const given = entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>).contexts : undefined;
      if (entryContexts(contexts, given, source).size === 0) throw contextsMandatory(path);
    }
  }
}
