import { simpleMatch } from '../../../wildcard/index.js';
import type { NestedIndex, InvertedIndex } from '../index/index.js';
import type { IndexHandle, LiveDocument, SupersededVersions } from '../indices/index.js';
import { UNMAPPED_LOOKUP, type FieldMapping, type Mappings } from '../mapping/index.js';
import type { FieldRules } from './field-rules.js';

/** Metadata fields: never hidden (Elasticsearch's field-level security always grants them). */
const METADATA_FIELDS = new Set([
  '_id', '_index', '_score', '_doc', '_shard_doc', '_seq_no', '_primary_term', '_version', '_routing', '_ignored', '_tier', '_source',
  '_doc_count', '_nested_path', '_data_stream_timestamp', '_feature', '_size', '_type',
]);

/** A rule pattern reaches the names it matches and everything under them (`user` reaches `user.name`). */
function covers(rule: string, name: string): boolean {
  return simpleMatch(rule, name) || simpleMatch(`${rule}.*`, name);
}

/** Does the pattern match some name that starts with `prefix` (a name under an object)? */
function matchesSomeUnder(pattern: string, prefix: string): boolean {
  // the pattern positions reachable after reading `prefix`; any one is enough, the rest of the name being free
  let states = new Set([0]);
  const closeStars = (s: Set<number>) => {
    for (const i of [...s]) for (let j = i; j < pattern.length && pattern[j] === '*'; j++) s.add(j + 1);
    return s;
  };
  states = closeStars(states);
  for (const ch of prefix) {
    const next = new Set<number>();
    for (const i of states) {
      if (i >= pattern.length) continue;
      if (pattern[i] === '*') next.add(i);
      else if (pattern[i] === ch) next.add(i + 1);
    }
    if (!next.size) return false;
    states = closeStars(next);
  }
  return true;
}

/**
 * Marks a `_source` the view took hidden members out of (a symbol, never serialized): an answer
 * that still carries it as it is shows the document as read, that is without the narrowing the
 * gateway puts on `_source` — hideFields counts it as a disagreement.
 */
export const HIDDEN_MEMBERS: unique symbol = Symbol('hidden members');

/** Compiled once per rules value (an EngineAccess's `fields`, one per principal). */
const compiled = new WeakMap<FieldRules, FieldSubset>();

/**
 * A credential's field rules as the engine reads an index for it (Elasticsearch's field-level
 * security, its FieldSubsetReader): a hidden field does not exist for the request — no mapping,
 * no postings, no doc values, no `_source` member. Metadata fields are always there. A rule
 * reaches what it matches and everything under it (`user` hides `user.name` and a multi-field
 * `user.raw`), as the gateway's rules do (lib/auth/field-rules.ts).
 */
export class FieldSubset {
  private readonly include: readonly string[];
  private readonly exclude: readonly string[];
  private readonly shown = new Map<string, boolean>();

  private constructor(rules: FieldRules) {
    this.include = rules.include ?? [];
    this.exclude = rules.exclude ?? [];
  }

  /** The subset for these rules; undefined when they hide nothing. */
  static of(rules: FieldRules | undefined): FieldSubset | undefined {
    if (!rules || !(rules.include?.length || rules.exclude?.length)) return undefined;
    let s = compiled.get(rules);
    if (!s) compiled.set(rules, (s = new FieldSubset(rules)));
    return s;
  }

  /** May the caller read this field's values (a leaf's full path)? */
  shows(field: string): boolean {
    let shown = this.shown.get(field);
    if (shown === undefined) {
      shown = METADATA_FIELDS.has(field) || (!this.exclude.some((e) => covers(e, field)) && (!this.include.length || this.include.some((i) => covers(i, field))));
      // a bounded memo: field names come from mappings and indices, and from requests
      if (this.shown.size < 10_000) this.shown.set(field, shown);
    }
    return shown;
  }

  /** Is the object at `path` visible: itself, or through some field under it? */
  reaches(path: string): boolean {
    if (this.exclude.some((e) => covers(e, path))) return false;
    return !this.include.length || this.include.some((i) => covers(i, path) || matchesSomeUnder(i, `${path}.`));
  }

  /** A document's `_source` without the hidden fields (the same object when nothing is hidden). */
  source(source: Record<string, unknown>): Record<string, unknown> {
    let changed = false;
    const value = (v: unknown, path: string): unknown => {
      if (Array.isArray(v)) {
        const items = v.map((x) => value(x, path)).filter((x) => x !== undefined);
        return items.length || !v.length ? items : undefined;
      }
      if (v !== null && typeof v === 'object') {
        if (!this.reaches(path)) {
          changed = true;
          return undefined;
        }
        const o = v as Record<string, unknown>;
        const sub = object(o, path);
        return Object.keys(sub).length || !Object.keys(o).length ? sub : undefined;
      }
      if (this.shows(path)) return v;
      changed = true;
      return undefined;
    };
    const object = (o: Record<string, unknown>, prefix: string): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(o)) {
        const kept = value(v, prefix ? `${prefix}.${k}` : k);
        if (kept !== undefined) out[k] = kept;
      }
      return out;
    };
    const out = object(source, '');
    if (!changed) return source;
    Object.defineProperty(out, HIDDEN_MEMBERS, { value: true });
    return out;
  }

  /**
   * The first field a partial document (`_update`'s `doc`) writes that the caller may not read:
   * merged into the stored document, it answers `noop` exactly when that field held the value.
   */
  hiddenIn(doc: unknown, prefix = '', depth = 0): string | undefined {
    if (depth > 100) return prefix || 'doc';
    if (Array.isArray(doc) && doc.length) {
      for (const item of doc) {
        const hidden = this.hiddenIn(item, prefix, depth + 1);
        if (hidden) return hidden;
      }
      return undefined;
    }
    if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
      for (const [key, v] of Object.entries(doc)) {
        const hidden = this.hiddenIn(v, prefix ? `${prefix}.${key}` : key, depth + 1);
        if (hidden) return hidden;
      }
      return undefined;
    }
    return prefix && !this.shows(prefix) ? prefix : undefined;
  }

  /**
   * Mappings without the hidden fields: leaves (and their multi-fields) the caller may not read,
   * objects with nothing visible under them, runtime fields, and aliases to a hidden field.
   */
  mappings(mappings: Mappings): Mappings {
    const out: Mappings = { ...mappings };
    if (mappings.properties) out.properties = this.properties(mappings.properties, '');
    const runtime = mappings.runtime;
    if (runtime && typeof runtime === 'object') out.runtime = Object.fromEntries(Object.entries(runtime).filter(([name]) => this.shows(name)));
    const derived = mappings.derived;
    if (derived && typeof derived === 'object') out.derived = Object.fromEntries(Object.entries(derived).filter(([name]) => this.shows(name)));
    return out;
  }

  private properties(properties: Record<string, FieldMapping>, prefix: string): Record<string, FieldMapping> {
    const out: Record<string, FieldMapping> = {};
    for (const [name, mapping] of Object.entries(properties)) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (mapping.properties || mapping.type === 'object' || mapping.type === 'nested') {
        if (!this.reaches(path)) continue;
        out[name] = mapping.properties ? { ...mapping, properties: this.properties(mapping.properties, path) } : mapping;
        continue;
      }
      if (!this.shows(path)) continue;
      if (mapping.type === 'alias' && typeof mapping.path === 'string' && !this.shows(mapping.path)) continue;
      if (mapping.fields) {
        const fields = Object.fromEntries(Object.entries(mapping.fields).filter(([sub]) => this.shows(`${path}.${sub}`)));
        out[name] = { ...mapping, fields };
      } else out[name] = mapping;
    }
    return out;
  }
}

/** Views of an in-memory index by the subset they show (the index outlives requests; so do its views). */
const indexViews = new WeakMap<InvertedIndex, WeakMap<FieldSubset, InvertedIndex>>();

/**
 * The index without the hidden fields: `field` of one is undefined (no postings, no doc values,
 * as an unmapped field), field names and nested paths skip them. Everything else is the index
 * itself, read live (liveness is the index's own at every read).
 */
export function fieldSubsetIndex(base: InvertedIndex, subset: FieldSubset): InvertedIndex {
  let bySubset = indexViews.get(base);
  if (!bySubset) indexViews.set(base, (bySubset = new WeakMap()));
  let view = bySubset.get(subset);
  if (view) return view;
  view = Object.create(base) as InvertedIndex;
  const nestedViews = new WeakMap<NestedIndex, NestedIndex>();
  // the view keeps no state of its own: what the index caches it caches on itself
  view.liveOrdinals = () => base.liveOrdinals();
  view.field = (name: string) => (subset.shows(name) ? base.field(name) : undefined);
  view.fieldNames = function* () {
    for (const name of base.fieldNames()) if (subset.shows(name)) yield name;
  };
  view.nested = (path: string) => {
    const nested = subset.reaches(path) ? base.nested(path) : undefined;
    if (!nested) return undefined;
    let nv = nestedViews.get(nested);
    if (!nv) {
      nv = Object.create(nested, { index: { get: () => fieldSubsetIndex(nested.index, subset) } }) as NestedIndex;
      nestedViews.set(nested, nv);
    }
    return nv;
  };
  view.nestedPaths = function* () {
    for (const path of base.nestedPaths()) if (subset.reaches(path)) yield path;
  };
  bySubset.set(subset, view);
  return view;
}

/**
 * One index as a request with field rules reads it: its mappings, in-memory index and documents
 * without the hidden fields, so every reader (queries and their rewrite, wildcard field
 * expansion, aggregations, sort, collapse, scripts' `doc` and `params._source`, highlighting,
 * suggesters, term vectors, lookups, field caps, mappings) finds a hidden field as it finds one
 * never indexed. For reads only: a write goes to the index itself. Everything else is the
 * index's own, read live. `onHidden` is told when the request looks a hidden field up by name.
 */
export function fieldSubsetView(handle: IndexHandle, subset: FieldSubset, onHidden?: () => void): IndexHandle {
  let metaOf: IndexHandle['meta'] | undefined;
  let meta: IndexHandle['meta'] | undefined;
  // a lookup of a hidden field by name: the request named it (the gateway refuses that)
  const lookedUp = onHidden && ((path: string) => {
    if (!subset.shows(path)) onHidden();
  });
  const view = Object.create(handle, {
    meta: {
      get: () => {
        if (metaOf !== handle.meta) {
          const mappings = subset.mappings(handle.meta.mappings);
          if (lookedUp) mappings[UNMAPPED_LOOKUP] = lookedUp;
          meta = { ...(metaOf = handle.meta), mappings };
        }
        return meta!;
      },
    },
    inverted: { get: () => handle.inverted && fieldSubsetIndex(handle.inverted, subset) },
  }) as IndexHandle;
  view.get = (id: string, asOf?: SupersededVersions): LiveDocument | undefined => {
    const doc = handle.get(id, asOf);
    if (!doc) return undefined;
    const source = subset.source(doc.source);
    return source === doc.source ? doc : { ...doc, source, sourceText: JSON.stringify(source) };
  };
  return view;
}
