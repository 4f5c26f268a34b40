import { mappingReadsFields } from '../engine/embedded/index.js';
import { EsError } from '../errors/index.js';
import { parseJsonText, readBulk, readMsearch, type BulkEntry } from '../ndjson/index.js';
import type { Classification, GatewayRequest } from '../request/index.js';
import { simpleMatch } from '../wildcard/index.js';
import type { Principal } from './authenticator.js';
import type { Credential } from './credentials/credential.js';

/**
 * A credential's field rules (`include_fields` / `exclude_fields`, `*` patterns) held wherever a
 * request reads fields, as Elasticsearch's field-level security holds them — decided on the
 * parsed request, as an allow-list: every place a field name appears structurally in a search
 * body (queries, aggregations, sort, collapse, `fields`, doc values, stored fields, highlight,
 * suggest, rescore, kNN, inner hits) or in the query parameters is checked, and a request that
 * names a hidden field — or a pattern that could match one, or a part whose fields cannot be told
 * (a script, runtime mappings, a query type this file does not know, a query text searching the
 * index's default fields) — is refused. `_source` itself is filtered by the authorizer's source
 * filter where the URL's parameters govern it; where a body's own `_source` governs (inner hits,
 * `top_hits`, `_msearch` searches, `_mget` items) it must name allowed fields or be `false`.
 *
 * A rule reaches the fields it matches and everything under them (`user` hides `user.name` and a
 * multi-field `user.raw`); a request's reference reaches likewise, so an object (`exists` on
 * `user` when `user.secret` is hidden) is refused too. Metadata fields (`_id`, `_index`, …) are
 * never hidden. Pure and synchronous: every function answers the reason of a refusal, or
 * undefined when the request may go on.
 */
export interface FieldRules {
  /** Fields the credential may read (empty or absent: every field not excluded). */
  readonly include?: readonly string[];
  /** Fields hidden from the credential. */
  readonly exclude?: readonly string[];
}

/**
 * What the mappings of the indices a request reaches derive from other fields (lib/auth's
 * `ScriptedFields` reads them): fields computed by a script (runtime fields, fields mapped with a
 * `script`), and `alias` fields with the path each stands for.
 */
export interface DerivedFields {
  readonly scripted: ReadonlySet<string>;
  readonly aliases: ReadonlyMap<string, string>;
}

export const NO_DERIVED_FIELDS: DerivedFields = { scripted: new Set(), aliases: new Map() };

/** The reason a request is refused (the 403's text after `…is unauthorized for user [u]: `). */
export type FieldRefusal = string;

/** True when the rules restrict anything: the only case where a request is walked at all. */
export function hasFieldRules(rules: FieldRules | undefined): rules is FieldRules {
  return Boolean(rules && (rules.include?.length || rules.exclude?.length));
}

const hidden = (field: string): FieldRefusal => `field [${field}] is hidden by the credential's field rules`;
const unreadable = (member: string, why: string): FieldRefusal => `[${member}] ${why}, and the credential's field rules hide some fields`;

/** Thrown inside a walk, caught at its entry point: the walk stops at the first refusal. */
class Refused extends Error {
  constructor(readonly reason: FieldRefusal) {
    super(reason);
  }
}

const METADATA_FIELDS = new Set([
  '_id', '_index', '_score', '_doc', '_shard_doc', '_seq_no', '_primary_term', '_version', '_routing', '_ignored', '_tier',
]);

/** Longest field reference compared: a longer one is refused rather than matched. */
const MAX_REFERENCE_LENGTH = 1024;

/**
 * Do two `*` patterns (Elasticsearch's simple match) match a common name? A star may stand for
 * nothing or absorb the other pattern's characters (a star included), one at a time.
 */
export function patternsIntersect(a: string, b: string): boolean {
  if (!a.includes('*') && !b.includes('*')) return a === b;
  if (!a.includes('*')) return simpleMatch(b, a);
  if (!b.includes('*')) return simpleMatch(a, b);
  // reachable[j] for the current i, filled from the ends backwards: O(|a| × |b|)
  const n = a.length;
  const m = b.length;
  let next = new Array<boolean>(m + 1).fill(false);
  // i = n: only b's trailing stars can match nothing
  next[m] = true;
  for (let j = m - 1; j >= 0; j--) next[j] = b[j] === '*' && next[j + 1];
  for (let i = n - 1; i >= 0; i--) {
    const row = new Array<boolean>(m + 1).fill(false);
    row[m] = a[i] === '*' && next[m];
    for (let j = m - 1; j >= 0; j--) {
      if (a[i] === '*') row[j] = next[j] || row[j + 1];
      else if (b[j] === '*') row[j] = row[j + 1] || next[j];
      else row[j] = a[i] === b[j] && next[j + 1];
    }
    next = row;
  }
  return next[0];
}

/** Does the rule pattern `rule` reach every name the reference `ref` reaches (a `*` of `ref` read literally)? */
function covers(rule: string, ref: string): boolean {
  return simpleMatch(rule, ref) || simpleMatch(`${rule}.*`, ref);
}

/** Do the names `ref` reaches (it and what lies under it) meet the names `rule` reaches? */
function meets(ref: string, rule: string): boolean {
  return patternsIntersect(ref, rule) || patternsIntersect(ref, `${rule}.*`) || patternsIntersect(`${ref}.*`, rule);
}

/**
 * What a credential's rules let a request name. `field` is a field (or field pattern) whose values
 * the request reads; `path` is an object path a query descends into (`nested`), which reads no
 * value of its own.
 */
export class FieldVisibility {
  private readonly include: readonly string[];
  private readonly exclude: readonly string[];

  /**
   * `derived`: the fields the target indices' mappings derive from other fields. A script reads
   * any field, so reading a scripted one is refused as a hidden field's is; an `alias` field reads
   * the field it stands for, so it is hidden when that field is (Elasticsearch's field-level
   * security applies to the concrete field an alias resolves to).
   */
  constructor(rules: FieldRules, private readonly derived: DerivedFields = NO_DERIVED_FIELDS) {
    this.include = rules.include ?? [];
    this.exclude = rules.exclude ?? [];
  }

  /** The same rules, with the derived fields of the indices a request reaches. */
  withDerived(derived: DerivedFields): FieldVisibility {
    return derived.scripted.size || derived.aliases.size ? new FieldVisibility({ include: this.include, exclude: this.exclude }, derived) : this;
  }

  /** The refusal for reading `ref` (a name or a `*` pattern), or undefined when every field it reaches is visible. */
  refusalOfField(ref: string): FieldRefusal | undefined {
    if (METADATA_FIELDS.has(ref)) return undefined;
    if (ref.length > MAX_REFERENCE_LENGTH || ref === '') return hidden(ref.slice(0, 64));
    for (const name of this.derived.scripted) if (meets(ref, name)) return `field [${ref}] is computed by a script in the index's mapping, which may read the fields the credential's rules hide`;
    for (const [alias, path] of this.derived.aliases) {
      if (meets(ref, alias) && this.hides(path)) return `field [${ref}] is an alias of a field the credential's field rules hide`;
    }
    return this.hides(ref) ? hidden(ref) : undefined;
  }

  /** Do the rules hide a field that `ref` reaches? */
  private hides(ref: string): boolean {
    if (this.exclude.some((e) => meets(ref, e))) return true;
    return this.include.length > 0 && !this.include.some((i) => covers(i, ref));
  }

  /** Does a `_source` filter excluding `excludes` hide every field these rules hide (whatever it includes)? */
  hiddenByExcluding(excludes: readonly unknown[]): boolean {
    return !this.include.length && this.exclude.every((e) => excludes.includes(e));
  }

  /** An object path (`nested.path`): refused only when the path itself is hidden (its fields are checked where named). */
  refusalOfPath(path: string): FieldRefusal | undefined {
    if (path.length > MAX_REFERENCE_LENGTH || path === '') return hidden(path.slice(0, 64));
    if (this.exclude.some((e) => patternsIntersect(path, e) || patternsIntersect(path, `${e}.*`))) return hidden(path);
    if (this.include.length && !this.include.some((i) => covers(i, path) || patternsIntersect(`${path}.*`, i))) return hidden(path);
    return undefined;
  }

  /** Is the field (or object) at `path` in a mapping visible, itself or through a visible field under it? */
  showsMapping(path: string): boolean {
    if (this.exclude.some((e) => covers(e, path))) return false;
    return !this.include.length || this.include.some((i) => covers(i, path) || patternsIntersect(`${path}.*`, i));
  }
}

// ---------------------------------------------------------------------------------------------
// The walk

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

/** A search body's members and how each is read. Unknown members are refused (fail closed). */
type Walk = (w: Walker, value: unknown, member: string) => void;

class Walker {
  constructor(readonly visibility: FieldVisibility) {}

  field(ref: unknown, member: string): void {
    if (typeof ref !== 'string') throw new Refused(unreadable(member, 'is not a field name'));
    const refusal = this.visibility.refusalOfField(ref);
    if (refusal) throw new Refused(refusal);
  }

  /** A field with an optional `^boost` (`multi_match`, `query_string` fields). */
  boostedField(ref: unknown, member: string): void {
    if (typeof ref !== 'string') throw new Refused(unreadable(member, 'is not a field name'));
    const caret = ref.lastIndexOf('^');
    this.field(caret > 0 ? ref.slice(0, caret) : ref, member);
  }

  path(ref: unknown, member: string): void {
    if (typeof ref !== 'string') throw new Refused(unreadable(member, 'is not a field path'));
    const refusal = this.visibility.refusalOfPath(ref);
    if (refusal) throw new Refused(refusal);
  }

  /** `fields` / `docvalue_fields`: names, patterns or `{field, format}` objects. */
  fieldList(value: unknown, member: string): void {
    for (const item of listOf(value)) this.field(isObject(item) ? item.field : item, member);
  }

  /** `stored_fields`: names or a comma list (`_none_` reads nothing). */
  storedFields(value: unknown, member: string): void {
    for (const item of listOf(value)) {
      if (typeof item !== 'string') throw new Refused(unreadable(member, 'is not a field name'));
      for (const name of item.split(',')) if (name !== '_none_' && name !== '') this.field(name.trim(), member);
    }
  }

  refuse(member: string, why: string): never {
    throw new Refused(unreadable(member, why));
  }

  /**
   * A `_source` that a body's own member governs (no URL parameter narrows it): `false`, or only
   * allowed fields; absent or `true` would return every field.
   */
  sourceFetch(value: unknown, member: string): void {
    if (value === false) return;
    if (value === undefined || value === true) this.refuse(member, 'returns the whole _source when left out or true: name the fields to return, or false');
    if (typeof value === 'string' || Array.isArray(value)) {
      const list = listOf(value);
      if (!list.length) this.refuse(member, 'returns the whole _source when empty');
      for (const f of list) this.field(f, member);
      return;
    }
    if (!isObject(value)) this.refuse(member, 'is not a _source filter');
    const includes = value.includes ?? value.include;
    // excluding every field the rules hide (what the authorizer narrows a search to): whatever it includes, nothing hidden is returned
    if (this.visibility.hiddenByExcluding(listOf(value.excludes ?? value.exclude))) return;
    if (!listOf(includes).length) this.refuse(`${member}.includes`, 'returns the whole _source when left out: name the fields to return');
    for (const f of listOf(includes)) this.field(f, `${member}.includes`);
  }

  /**
   * A partial document (`_update`'s `doc`): every field it writes. Merged into the stored one, it
   * answers `noop` exactly when a hidden field already held the value it writes there.
   */
  documentFields(value: unknown, member: string, prefix = '', depth = 0): void {
    if (depth > 100) this.refuse(member, 'is nested too deeply to be read');
    // a value (null and [] included) is written at `prefix`
    if (Array.isArray(value) && value.length) {
      for (const item of value) this.documentFields(item, member, prefix, depth + 1);
    } else if (isObject(value)) {
      for (const [key, v] of Object.entries(value)) this.documentFields(v, member, prefix ? `${prefix}.${key}` : key, depth + 1);
    } else if (prefix) this.field(prefix, member);
  }

  query(value: unknown, member: string): void {
    if (!isObject(value)) this.refuse(member, 'is not a query');
    for (const [type, body] of Object.entries(value)) {
      const walk = QUERIES[type];
      if (!walk) this.refuse(`${member}.${type}`, 'is a query type whose fields cannot be told');
      walk(this, body, `${member}.${type}`);
    }
  }

  queries(value: unknown, member: string): void {
    for (const q of listOf(value)) this.query(q, member);
  }

  search(value: unknown, member: string, members: Readonly<Record<string, Walk>> = SEARCH_MEMBERS): void {
    if (value === undefined || value === null) return;
    if (!isObject(value)) this.refuse(member, 'is not an object');
    for (const [key, v] of Object.entries(value)) {
      const walk = members[key];
      if (!walk) this.refuse(member ? `${member}.${key}` : key, 'is a search member whose fields cannot be told');
      walk(this, v, member ? `${member}.${key}` : key);
    }
  }

  aggs(value: unknown, member: string): void {
    if (value === undefined) return;
    if (!isObject(value)) this.refuse(member, 'is not an object');
    for (const [name, agg] of Object.entries(value)) {
      if (!isObject(agg)) this.refuse(`${member}.${name}`, 'is not an aggregation');
      for (const [type, body] of Object.entries(agg)) {
        const at = `${member}.${name}.${type}`;
        if (type === 'aggs' || type === 'aggregations') this.aggs(body, at);
        else if (type === 'meta') continue;
        else {
          const walk = AGGREGATIONS[type];
          if (!walk) this.refuse(at, 'is an aggregation type whose fields cannot be told');
          walk(this, body, at);
        }
      }
    }
  }

  sort(value: unknown, member: string): void {
    for (const item of listOf(value)) {
      if (typeof item === 'string') {
        this.field(item, member);
        continue;
      }
      if (!isObject(item)) this.refuse(member, 'is not a sort');
      for (const [key, spec] of Object.entries(item)) {
        if (key === '_script') this.refuse(`${member}._script`, 'reads any field through a script');
        if (key === '_geo_distance') {
          if (!isObject(spec)) this.refuse(`${member}._geo_distance`, 'is not an object');
          for (const [k, v] of Object.entries(spec)) {
            if (k === 'nested') this.nestedSort(v, `${member}._geo_distance.nested`);
            else if (!GEO_DISTANCE_SORT_OPTIONS.has(k)) this.field(k, `${member}._geo_distance`);
          }
          continue;
        }
        this.field(key, member);
        if (isObject(spec) && spec.nested !== undefined) this.nestedSort(spec.nested, `${member}.${key}.nested`);
      }
    }
  }

  private nestedSort(value: unknown, member: string): void {
    if (!isObject(value)) this.refuse(member, 'is not an object');
    if (value.path !== undefined) this.path(value.path, `${member}.path`);
    if (value.filter !== undefined) this.query(value.filter, `${member}.filter`);
    if (value.nested !== undefined) this.nestedSort(value.nested, `${member}.nested`);
  }

  highlight(value: unknown, member: string): void {
    if (!isObject(value)) this.refuse(member, 'is not an object');
    for (const [key, v] of Object.entries(value)) {
      if (key === 'fields') {
        const entries = Array.isArray(v) ? v.flatMap((e) => (isObject(e) ? Object.entries(e) : [[undefined, e]])) : isObject(v) ? Object.entries(v) : [[undefined, v]];
        for (const [name, options] of entries) {
          this.field(name, `${member}.fields`);
          if (isObject(options)) this.highlightOptions(options, `${member}.fields.${String(name)}`);
        }
      }
    }
    this.highlightOptions(value, member);
  }

  private highlightOptions(options: Json, member: string): void {
    if (options.highlight_query !== undefined) this.query(options.highlight_query, `${member}.highlight_query`);
    if (options.matched_fields !== undefined) this.fieldList(options.matched_fields, `${member}.matched_fields`);
  }

  innerHits(value: unknown, member: string): void {
    for (const hits of listOf(value)) {
      if (!isObject(hits)) this.refuse(member, 'is not an object');
      this.search(hits, member, INNER_HITS_MEMBERS);
      this.sourceFetch(hits._source, `${member}._source`);
    }
  }

  /** `query_string` text and `q=`: every `field:` it names, and `_exists_:field`. */
  queryText(text: unknown, member: string): void {
    if (typeof text !== 'string') return;
    for (const f of queryTextFields(text)) this.field(f, member);
  }
}

/** Members of a `_geo_distance` sort that are options, not the field. */
const GEO_DISTANCE_SORT_OPTIONS = new Set(['order', 'unit', 'mode', 'distance_type', 'ignore_unmapped', 'validation_method', 'nested', '_name']);

const ignore: Walk = () => {};
const refuseScript: Walk = (w, _v, member) => w.refuse(member, 'reads any field through a script');
const refuseNonEmpty = (why: string): Walk => (w: Walker, v: unknown, member: string) => {
  if (isObject(v) && !Object.keys(v).length) return;
  if (v !== undefined && v !== null) w.refuse(member, why);
};
const query: Walk = (w, v, m) => w.query(v, m);
const fieldList: Walk = (w, v, m) => w.fieldList(v, m);
const storedFields: Walk = (w, v, m) => w.storedFields(v, m);

/** Members of a search body (`_search`, `_count`, `_explain`, `_validate/query`, `_async_search`, `_knn_search`). */
const SEARCH_MEMBERS: Readonly<Record<string, Walk>> = {
  query, post_filter: query,
  aggs: (w, v, m) => w.aggs(v, m),
  aggregations: (w, v, m) => w.aggs(v, m),
  sort: (w, v, m) => w.sort(v, m),
  collapse: (w, v, m) => collapse(w, v, m),
  fields: fieldList,
  docvalue_fields: fieldList,
  stored_fields: storedFields,
  script_fields: refuseNonEmpty('reads any field through a script'),
  runtime_mappings: refuseNonEmpty('defines fields by scripts that read any field'),
  highlight: (w, v, m) => w.highlight(v, m),
  suggest: (w, v, m) => suggest(w, v, m),
  rescore: (w, v, m) => rescore(w, v, m),
  knn: (w, v, m) => knn(w, v, m),
  slice: (w, v, m) => {
    if (isObject(v) && v.field !== undefined) w.field(v.field, `${m}.field`);
  },
  // the URL's `_source` parameters govern a search's `_source` (the authorizer's source filter)
  _source: ignore,
  from: ignore, size: ignore, timeout: ignore, terminate_after: ignore, track_total_hits: ignore, track_scores: ignore,
  explain: ignore, version: ignore, seq_no_primary_term: ignore, search_after: ignore, pit: ignore, indices_boost: ignore,
  stats: ignore, profile: ignore, min_score: ignore, allow_partial_search_results: ignore, batched_reduce_size: ignore,
  max_docs: ignore, conflicts: ignore,
  // `_none` (written by the authorizer for a bounded credential) runs no pipeline; any other may read any field
  search_pipeline: (w, v, m) => {
    if (v !== '_none') w.refuse(m, 'runs a search pipeline, whose query and answer may read any field');
  },
  // `_update_by_query` and `_reindex` scripts read the whole document
  script: refuseScript,
};

/** Members of inner hits (`nested`/`has_child`/`has_parent`/`collapse` inner hits, `top_hits`). */
const INNER_HITS_MEMBERS: Readonly<Record<string, Walk>> = {
  name: ignore, from: ignore, size: ignore, explain: ignore, version: ignore, seq_no_primary_term: ignore, track_scores: ignore,
  ignore_unmapped: ignore,
  sort: SEARCH_MEMBERS.sort,
  highlight: SEARCH_MEMBERS.highlight,
  fields: fieldList,
  docvalue_fields: fieldList,
  stored_fields: storedFields,
  script_fields: SEARCH_MEMBERS.script_fields,
  collapse: SEARCH_MEMBERS.collapse,
  _source: ignore, // checked by `sourceFetch`
};

function collapse(w: Walker, v: unknown, member: string): void {
  if (!isObject(v)) w.refuse(member, 'is not an object');
  w.field(v.field, `${member}.field`);
  if (v.inner_hits !== undefined) w.innerHits(v.inner_hits, `${member}.inner_hits`);
  if (v.collapse !== undefined) collapse(w, v.collapse, `${member}.collapse`);
}

function knn(w: Walker, v: unknown, member: string): void {
  for (const one of listOf(v)) {
    if (!isObject(one)) w.refuse(member, 'is not an object');
    w.field(one.field, `${member}.field`);
    if (one.filter !== undefined) w.queries(one.filter, `${member}.filter`);
    if (one.inner_hits !== undefined) w.innerHits(one.inner_hits, `${member}.inner_hits`);
  }
}

/** OpenSearch's knn query, keyed by its field: `{<field>: {vector, k, filter}}`. */
function knnByField(w: Walker, v: Record<string, unknown>, member: string): void {
  const entries = Object.entries(v);
  if (entries.length !== 1) w.refuse(member, 'names no single field');
  const [field, spec] = entries[0];
  w.field(field, member);
  if (isObject(spec) && spec.filter !== undefined) w.queries(spec.filter, `${member}.${field}.filter`);
}

function rescore(w: Walker, v: unknown, member: string): void {
  for (const one of listOf(v)) {
    if (!isObject(one)) w.refuse(member, 'is not an object');
    for (const [key, body] of Object.entries(one)) {
      if (key === 'window_size') continue;
      if (key !== 'query' || !isObject(body)) w.refuse(`${member}.${key}`, 'is a rescorer whose fields cannot be told');
      if (body.rescore_query !== undefined) w.query(body.rescore_query, `${member}.query.rescore_query`);
    }
  }
}

function suggest(w: Walker, v: unknown, member: string): void {
  if (!isObject(v)) w.refuse(member, 'is not an object');
  for (const [name, suggester] of Object.entries(v)) {
    if (name === 'text') continue;
    if (!isObject(suggester)) w.refuse(`${member}.${name}`, 'is not a suggester');
    for (const [type, body] of Object.entries(suggester)) {
      const at = `${member}.${name}.${type}`;
      if (type === 'text' || type === 'prefix' || type === 'regex') continue;
      if (!['term', 'phrase', 'completion'].includes(type) || !isObject(body)) w.refuse(at, 'is a suggester whose fields cannot be told');
      w.field(body.field, `${at}.field`);
      if (body.collate !== undefined) w.refuse(`${at}.collate`, 'runs a query template whose fields cannot be told');
      for (const g of listOf(body.direct_generator)) w.field(isObject(g) ? g.field : g, `${at}.direct_generator`);
    }
  }
}

// Queries ---------------------------------------------------------------------------------------

/** Options every query takes. */
const COMMON = ['boost', '_name'];

/** A query whose members are fields (`{term: {f: …}}`), besides the named options. */
const fieldKeyed = (...options: string[]): Walk => {
  const known = new Set([...COMMON, ...options]);
  return (w: Walker, body: unknown, member: string) => {
    if (!isObject(body)) w.refuse(member, 'is not an object');
    for (const [key, value] of Object.entries(body)) {
      if (known.has(key)) continue;
      w.field(key, member);
      // a terms lookup and an indexed shape read `path` of a document: a field too
      if (isObject(value) && value.id !== undefined && value.path !== undefined) w.field(value.path, `${member}.${key}.path`);
      if (isObject(value) && isObject(value.indexed_shape)) w.field(value.indexed_shape.path ?? 'shape', `${member}.${key}.indexed_shape.path`);
    }
  };
};

/** A query whose field is its `field` member. */
const fieldMember: Walk = (w: Walker, body: unknown, member: string) => {
  if (!isObject(body)) w.refuse(member, 'is not an object');
  w.field(body.field, `${member}.field`);
};

/** A query over a list of fields that defaults to the index's default fields (`*`): the list must be given. */
const fieldsMember = (required = true): Walk => (w: Walker, body: unknown, member: string) => {
  if (!isObject(body)) w.refuse(member, 'is not an object');
  const fields = listOf(body.fields);
  if (!fields.length && required) w.refuse(`${member}.fields`, 'defaults to every field when left out');
  for (const f of fields) w.boostedField(f, `${member}.fields`);
};

const compound = (...members: string[]): Walk => (w: Walker, body: unknown, member: string) => {
  if (!isObject(body)) w.refuse(member, 'is not an object');
  for (const m of members) if (body[m] !== undefined) w.queries(body[m], `${member}.${m}`);
};

const withInnerHits = (inner: Walk): Walk => (w: Walker, body: unknown, member: string) => {
  inner(w, body, member);
  if (isObject(body) && body.inner_hits !== undefined) w.innerHits(body.inner_hits, `${member}.inner_hits`);
};

/** The decay functions' members that are options, not the field. */
const DECAY_OPTIONS = new Set(['multi_value_mode']);

function scoreFunction(w: Walker, fn: Json, member: string): void {
  for (const [key, body] of Object.entries(fn)) {
    const at = `${member}.${key}`;
    if (key === 'filter') w.query(body, at);
    else if (key === 'weight' || key === 'boost' || key === 'score_mode' || key === 'boost_mode' || key === 'max_boost' || key === 'min_score' || key === 'query' || key === 'functions') continue;
    else if (key === 'field_value_factor') fieldMember(w, body, at);
    else if (key === 'random_score') {
      if (isObject(body) && body.field !== undefined) w.field(body.field, `${at}.field`);
    } else if (key === 'gauss' || key === 'exp' || key === 'linear') {
      if (!isObject(body)) w.refuse(at, 'is not an object');
      for (const f of Object.keys(body)) if (!DECAY_OPTIONS.has(f)) w.field(f, at);
    } else w.refuse(at, key === 'script_score' ? 'reads any field through a script' : 'is a score function whose fields cannot be told');
  }
}

const QUERIES: Readonly<Record<string, Walk>> = {
  match_all: ignore,
  match_none: ignore,
  ids: ignore,
  term: fieldKeyed(),
  terms: fieldKeyed(),
  range: fieldKeyed(),
  prefix: fieldKeyed(),
  wildcard: fieldKeyed(),
  regexp: fieldKeyed(),
  fuzzy: fieldKeyed(),
  match: fieldKeyed(),
  match_phrase: fieldKeyed(),
  match_phrase_prefix: fieldKeyed(),
  match_bool_prefix: fieldKeyed(),
  term_set: fieldKeyed(),
  intervals: (w: Walker, body: unknown, member: string) => {
    fieldKeyed()(w, body, member);
    // a rule may match on another field (`use_field`)
    const useFields = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(useFields);
      else if (isObject(v)) for (const [k, sub] of Object.entries(v)) k === 'use_field' ? w.field(sub, `${member}.use_field`) : useFields(sub);
    };
    useFields(body);
  },
  span_term: fieldKeyed(),
  geo_shape: fieldKeyed('ignore_unmapped'),
  shape: fieldKeyed('ignore_unmapped'),
  xy_shape: fieldKeyed('ignore_unmapped'),
  geo_distance: fieldKeyed('distance', 'distance_type', 'validation_method', 'ignore_unmapped'),
  geo_bounding_box: fieldKeyed('validation_method', 'type', 'ignore_unmapped'),
  geo_polygon: fieldKeyed('validation_method', 'ignore_unmapped'),
  exists: fieldMember,
  rank_feature: fieldMember,
  distance_feature: fieldMember,
  knn: (w: Walker, body: unknown, member: string) => (isObject(body) && body.field === undefined ? knnByField(w, body, member) : knn(w, body, member)),
  multi_match: fieldsMember(),
  combined_fields: fieldsMember(),
  simple_query_string: fieldsMember(),
  more_like_this: fieldsMember(),
  query_string: (w: Walker, body: unknown, member: string) => {
    if (!isObject(body)) w.refuse(member, 'is not an object');
    if (body.all_fields) w.refuse(`${member}.all_fields`, 'searches every field');
    const fields = listOf(body.fields);
    if (!fields.length && body.default_field === undefined) w.refuse(`${member}.fields`, 'defaults to every field when neither fields nor default_field is given');
    const suffix = typeof body.quote_field_suffix === 'string' ? body.quote_field_suffix : '';
    for (const f of [...fields, ...listOf(body.default_field)]) {
      w.boostedField(f, `${member}.fields`);
      if (suffix && typeof f === 'string') w.boostedField(f + suffix, `${member}.quote_field_suffix`);
    }
    w.queryText(body.query, `${member}.query`);
  },
  bool: compound('must', 'should', 'filter', 'must_not'),
  dis_max: compound('queries'),
  // OpenSearch's hybrid query: its sub-queries and the filter applied to each (pagination_depth is an option)
  hybrid: compound('queries', 'filter'),
  constant_score: compound('filter'),
  boosting: compound('positive', 'negative'),
  pinned: compound('organic'),
  span_near: compound('clauses'),
  span_or: compound('clauses'),
  span_not: compound('include', 'exclude'),
  span_first: compound('match'),
  span_containing: compound('big', 'little'),
  span_within: compound('big', 'little'),
  span_multi: compound('match'),
  field_masking_span: (w: Walker, body: unknown, member: string) => {
    compound('query')(w, body, member);
    fieldMember(w, body, member);
  },
  nested: withInnerHits((w: Walker, body: unknown, member: string) => {
    if (!isObject(body)) w.refuse(member, 'is not an object');
    w.path(body.path, `${member}.path`);
    w.query(body.query, `${member}.query`);
  }),
  has_child: withInnerHits(compound('query')),
  has_parent: withInnerHits(compound('query')),
  parent_id: ignore,
  function_score: (w: Walker, body: unknown, member: string) => {
    if (!isObject(body)) w.refuse(member, 'is not an object');
    if (body.query !== undefined) w.query(body.query, `${member}.query`);
    scoreFunction(w, body, member);
    for (const fn of listOf(body.functions)) {
      if (!isObject(fn)) w.refuse(`${member}.functions`, 'is not an object');
      scoreFunction(w, fn, `${member}.functions`);
    }
  },
  script: refuseScript,
  script_score: refuseScript,
};

// Aggregations ----------------------------------------------------------------------------------

/** An aggregation over its `field` (a `script` instead reads any field). */
const onField: Walk = (w: Walker, body: unknown, member: string) => {
  if (!isObject(body)) w.refuse(member, 'is not an object');
  if (body.script !== undefined) w.refuse(`${member}.script`, 'reads any field through a script');
  if (body.field !== undefined) w.field(body.field, `${member}.field`);
  else if (body.fields === undefined) w.refuse(`${member}.field`, 'is missing');
  if (body.fields !== undefined) w.fieldList(body.fields, `${member}.fields`);
  if (body.background_filter !== undefined) w.query(body.background_filter, `${member}.background_filter`);
  if (body.filter !== undefined) w.query(body.filter, `${member}.filter`);
  if (body.source_fields !== undefined) w.fieldList(body.source_fields, `${member}.source_fields`);
};

/** An aggregation with field-reading members named `names` (`weighted_avg`'s `value`/`weight`, `t_test`'s `a`/`b`). */
const onMembers = (...names: string[]): Walk => (w: Walker, body: unknown, member: string) => {
  if (!isObject(body)) w.refuse(member, 'is not an object');
  for (const n of names) for (const one of listOf(body[n])) onField(w, one, `${member}.${n}`);
  if (body.sort !== undefined) w.sort(body.sort, `${member}.sort`);
};

/** A pipeline aggregation: reads other aggregations' results (`buckets_path`), no field. */
const pipeline: Walk = ignore;

const AGGREGATIONS: Readonly<Record<string, Walk>> = {
  ...Object.fromEntries([
    'terms', 'rare_terms', 'significant_terms', 'significant_text', 'avg', 'sum', 'min', 'max', 'stats', 'extended_stats', 'cardinality',
    'value_count', 'percentiles', 'percentile_ranks', 'median_absolute_deviation', 'boxplot', 'string_stats', 'histogram', 'date_histogram',
    'auto_date_histogram', 'variable_width_histogram', 'range', 'date_range', 'ip_range', 'ip_prefix', 'missing', 'geo_bounds', 'geo_centroid',
    'geohash_grid', 'geotile_grid', 'geohex_grid', 'geo_distance', 'diversified_sampler', 'categorize_text', 'matrix_stats', 'rate',
  ].map((t) => [t, t === 'diversified_sampler' || t === 'rate' ? optionalField : onField])),
  weighted_avg: onMembers('value', 'weight'),
  t_test: onMembers('a', 'b'),
  top_metrics: onMembers('metrics'),
  geo_line: onMembers('point', 'sort'),
  multi_terms: onMembers('terms'),
  frequent_item_sets: (w: Walker, body: unknown, member: string) => {
    onMembers('fields')(w, body, member);
    if (isObject(body) && body.filter !== undefined) w.query(body.filter, `${member}.filter`);
  },
  composite: (w: Walker, body: unknown, member: string) => {
    if (!isObject(body)) w.refuse(member, 'is not an object');
    for (const source of listOf(body.sources)) {
      if (!isObject(source)) w.refuse(`${member}.sources`, 'is not an object');
      for (const [name, spec] of Object.entries(source)) {
        if (!isObject(spec)) w.refuse(`${member}.sources.${name}`, 'is not an object');
        for (const [type, agg] of Object.entries(spec)) onField(w, agg, `${member}.sources.${name}.${type}`);
      }
    }
  },
  filter: query,
  filters: (w: Walker, body: unknown, member: string) => {
    if (!isObject(body)) w.refuse(member, 'is not an object');
    const filters = body.filters;
    w.queries(isObject(filters) ? Object.values(filters) : filters, `${member}.filters`);
  },
  adjacency_matrix: (w: Walker, body: unknown, member: string) => {
    if (!isObject(body) || !isObject(body.filters)) w.refuse(member, 'is not an object');
    w.queries(Object.values(body.filters as Json), `${member}.filters`);
  },
  nested: (w: Walker, body: unknown, member: string) => w.path(isObject(body) ? body.path : undefined, `${member}.path`),
  reverse_nested: (w: Walker, body: unknown, member: string) => {
    if (isObject(body) && body.path !== undefined) w.path(body.path, `${member}.path`);
  },
  global: ignore,
  sampler: ignore,
  random_sampler: ignore,
  children: ignore,
  parent: ignore,
  top_hits: (w: Walker, body: unknown, member: string) => {
    if (!isObject(body)) w.refuse(member, 'is not an object');
    w.search(body, member, INNER_HITS_MEMBERS);
    w.sourceFetch(body._source, `${member}._source`);
  },
  ...Object.fromEntries([
    'avg_bucket', 'max_bucket', 'min_bucket', 'sum_bucket', 'stats_bucket', 'extended_stats_bucket', 'percentiles_bucket', 'derivative',
    'cumulative_sum', 'cumulative_cardinality', 'serial_diff', 'bucket_sort', 'normalize', 'moving_percentiles', 'bucket_count_ks_test',
    'bucket_correlation', 'bucket_script', 'bucket_selector', 'moving_fn',
  ].map((t) => [t, pipeline])),
  scripted_metric: refuseScript,
};

/** `diversified_sampler`, `rate`: a field is optional. */
function optionalField(w: Walker, body: unknown, member: string): void {
  if (!isObject(body)) w.refuse(member, 'is not an object');
  if (body.script !== undefined) w.refuse(`${member}.script`, 'reads any field through a script');
  if (body.field !== undefined) w.field(body.field, `${member}.field`);
}

// Query text ------------------------------------------------------------------------------------

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\u3000']);
/** Characters Lucene's classic query syntax never takes into a term (`+`/`-` only where one starts; `\\` escapes). */
const TERM_END = new Set([...WHITESPACE, '!', '(', ')', ':', '^', '[', ']', '"', '{', '}', '~', '/']);

/** The character an escape at `at` stands for (`\x`, or `\uXXXX` as Lucene undoes it) and its length. */
function escapeAt(text: string, at: number): [string, number] {
  if (text[at + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) return [String.fromCharCode(parseInt(text.slice(at + 2, at + 6), 16)), 6];
  return [text[at + 1] ?? '', 2];
}

/** Where a `"…"` starting at `at` ends (just past its closing quote), or -1 when it is not closed. */
function quotedEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

/** Where a range (`[a TO b]`, `{a TO b}`) starting at `at` ends, read as Lucene's range state reads it. */
function rangeEnd(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === ']' || c === '}') return i + 1;
    if (WHITESPACE.has(c)) {
      i++;
      continue;
    }
    let goop = i;
    while (goop < text.length && !WHITESPACE.has(text[goop]) && text[goop] !== ']' && text[goop] !== '}') goop++;
    // the longest token wins: a quoted bound, or the run up to a space or the range's end
    const quoted = c === '"' ? quotedEnd(text, i) : -1;
    i = quoted >= goop ? quoted : goop;
  }
  return i;
}

/**
 * The fields a Lucene query string (`query_string`'s `query`, `q=`) names: each `field:` prefix
 * (escapes undone: `user.\\*:x` names the pattern `user.*`, `\\u0073ecret` is `secret`), and each
 * field `_exists_:` names. Phrases, regular expressions and ranges are skipped as Lucene's
 * tokenizer skips them, never further. What the syntax leaves unqualified searches the default
 * fields, which the caller checks.
 */
export function queryTextFields(text: string): string[] {
  const fields: string[] = [];
  let term = '';
  let exists = false;
  // the term a blank ended: Lucene's grammar skips blanks between a field and its colon (`f :x`)
  let beforeBlank = '';
  const endTerm = () => {
    if (exists && term) {
      fields.push(term);
      exists = false;
    }
    term = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (WHITESPACE.has(c)) {
      if (term !== '') beforeBlank = exists ? '' : term;
      endTerm();
      continue;
    }
    const named = term !== '' ? term : beforeBlank;
    beforeBlank = '';
    if (c === '\\') {
      const [char, length] = escapeAt(text, i);
      term += char;
      i += length - 1;
    } else if (c === '"') {
      endTerm();
      const end = quotedEnd(text, i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (c === '/') {
      endTerm();
      let j = i + 1;
      while (j < text.length && text[j] !== '/') j += text[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '[' || c === '{') {
      endTerm();
      i = rangeEnd(text, i) - 1;
    } else if (c === ':') {
      // `field:` (or `field :`) — a colon with no name before it qualifies nothing Elasticsearch accepts;
      // `_exists_:` names a field by the term after it (and by anything else, fields this does not tell: `*`)
      if (named === '_exists_') {
        const next = text[i + 1];
        if (next !== undefined && (next === '\\' || !TERM_END.has(next)) && next !== '+' && next !== '-') exists = true;
        else fields.push('*');
      } else if (named !== '') fields.push(named);
      term = '';
    } else if ((c === '+' || c === '-') && term === '') {
      continue;
    } else if (TERM_END.has(c)) endTerm();
    else term += c;
  }
  endTerm();
  return fields;
}

// Entry points ----------------------------------------------------------------------------------

function walked(visibility: FieldVisibility, walk: (w: Walker) => void): FieldRefusal | undefined {
  try {
    walk(new Walker(visibility));
    return undefined;
  } catch (err) {
    if (err instanceof Refused) return err.reason;
    throw err;
  }
}

/** Query parameters that name fields or search text: what a search, count or get may carry in its URL. */
/** The request's query parameters as the edge decoded them (`GatewayRequest.params`). */
export type FieldParameters = ReadonlyMap<string, string>;

/** A parameter's values: the edge keeps each parameter's last one, as Elasticsearch reads it. */
const valuesOf = (params: FieldParameters, name: string): string[] => {
  const value = params.get(name);
  return value === undefined ? [] : [value];
};

/**
 * A search-like body (`_search`, `_count`, `_explain`, `_validate/query`, `_async_search`,
 * `_knn_search`, `_delete_by_query`, `_update_by_query`, a live search) and its URL parameters.
 * `ownSource`: the body's `_source` governs (an `_msearch` search), so it must name allowed fields.
 */
export function searchRefusal(visibility: FieldVisibility, body: unknown, params?: FieldParameters, ownSource = false): FieldRefusal | undefined {
  return walked(visibility, (w: Walker) => {
    if (params) searchParameters(w, params);
    w.search(body, '');
    if (ownSource) w.sourceFetch(isObject(body) ? body._source : undefined, '_source');
  });
}

/** `_suggest`: the body is the suggesters themselves. */
export function suggestRefusal(visibility: FieldVisibility, body: unknown): FieldRefusal | undefined {
  return walked(visibility, (w: Walker) => {
    if (body !== undefined) suggest(w, body, 'suggest');
  });
}

function searchParameters(w: Walker, params: FieldParameters): void {
  const q = params.get('q');
  if (q !== undefined) {
    const df = params.get('df');
    if (df === undefined) w.refuse('q', 'searches every field when df is not given');
    w.field(df, 'df');
    w.queryText(q, 'q');
  }
  for (const sort of valuesOf(params, 'sort')) {
    for (const item of sort.split(',')) {
      if (!item) continue;
      // `field:order`: the order follows the last colon
      const colon = item.lastIndexOf(':');
      const order = colon > 0 ? item.slice(colon + 1).toLowerCase() : '';
      w.field(order === 'asc' || order === 'desc' ? item.slice(0, colon) : item, 'sort');
    }
  }
  for (const name of ['docvalue_fields', 'stored_fields', 'fields', 'suggest_field']) {
    for (const value of valuesOf(params, name)) w.storedFields(value, name);
  }
}

/** A document read (`GET /{index}/_doc/{id}`, `_source`, a document stream): its URL's field parameters. */
export function documentRefusal(visibility: FieldVisibility, params: FieldParameters): FieldRefusal | undefined {
  return walked(visibility, (w: Walker) => {
    for (const value of valuesOf(params, 'stored_fields')) w.storedFields(value, 'stored_fields');
  });
}

/** `_mget`: each item's `stored_fields`, and an item's own `_source` (it overrides the URL's). */
export function mgetRefusal(visibility: FieldVisibility, body: unknown, params: FieldParameters): FieldRefusal | undefined {
  return walked(visibility, (w: Walker) => {
    for (const value of valuesOf(params, 'stored_fields')) w.storedFields(value, 'stored_fields');
    if (!isObject(body)) return;
    for (const doc of listOf(body.docs)) {
      if (!isObject(doc)) continue;
      if (doc.stored_fields !== undefined) w.storedFields(doc.stored_fields, 'docs.stored_fields');
      if (doc._source !== undefined) w.sourceFetch(doc._source, 'docs._source');
    }
  });
}

/** `_update`: a script reads the whole document, an answer with `_source` would show it, and merging `doc` compares the fields it sets. */
export function updateRefusal(visibility: FieldVisibility, body: unknown, params: FieldParameters): FieldRefusal | undefined {
  return walked(visibility, (w: Walker) => {
    const includes = params.get('_source_includes') ?? params.get('_source_include') ?? params.get('_source');
    // excludes alone ask for the source too, all of it but them (Elasticsearch's FetchSourceContext: any of the three fetches)
    const excludes = params.get('_source_excludes') ?? params.get('_source_exclude');
    const whole = includes === undefined || includes === 'true' || includes === '';
    if (excludes !== undefined && includes !== 'false') w.sourceFetch({ ...(whole ? {} : { includes: includes.split(',') }), excludes: excludes.split(',') }, '_source');
    else if (includes !== undefined) w.sourceFetch(includes === 'false' ? false : whole ? true : includes.split(','), '_source');
    if (!isObject(body)) return;
    if (body.script !== undefined) w.refuse('script', 'reads any field through a script');
    if (body._source !== undefined) w.sourceFetch(body._source, '_source');
    if (body.doc !== undefined) w.documentFields(body.doc, 'doc');
  });
}

/** `_bulk`: its updates are `_update`s (a script reads the whole document; a `_source` asked back shows it; a partial document's `noop` tells a hidden value). */
export function bulkRefusal(visibility: FieldVisibility, entries: readonly Pick<BulkEntry, 'action' | 'meta' | 'sourceText'>[], params: FieldParameters): FieldRefusal | undefined {
  const updates = entries.filter((e) => e.action === 'update');
  if (!updates.length) return undefined;
  const asked = updateRefusal(visibility, undefined, params);
  if (asked) return asked;
  return walked(visibility, (w: Walker) => {
    for (const e of updates) {
      if (e.meta._source !== undefined) w.sourceFetch(e.meta._source, '_source');
      let body: unknown;
      try {
        body = e.sourceText === undefined ? undefined : JSON.parse(e.sourceText);
      } catch {
        w.refuse('update', 'could not be read');
      }
      if (!isObject(body)) continue;
      if (body.script !== undefined) w.refuse('script', 'reads any field through a script');
      if (body._source !== undefined) w.sourceFetch(body._source, '_source');
      if (body.doc !== undefined) w.documentFields(body.doc, 'doc');
    }
  });
}

/**
 * `_reindex`: copies documents as the caller reads them (no script). Its source's `_source`, when
 * it has one, must name visible fields; left out (or `true`), the authorizer narrows it to the
 * credential's rules (`reindexSourceFilter`): the copy holds the visible fields only, as
 * Elasticsearch's reindex under field-level security copies what the user's search reads.
 */
export function reindexRefusal(visibility: FieldVisibility, body: unknown): FieldRefusal | undefined {
  return walked(visibility, (w: Walker) => {
    if (!isObject(body)) w.refuse('source', 'is missing');
    if (body.script !== undefined) w.refuse('script', 'reads any field through a script');
    const source = isObject(body.source) ? body.source : {};
    if (source.query !== undefined) w.query(source.query, 'source.query');
    const asked = source._source;
    // left out or `true`: narrowed by the authorizer
    if (asked === undefined || asked === true) return;
    w.sourceFetch(asked, 'source._source');
  });
}

/**
 * A `_reindex` body whose source reads every field (`_source` left out or `true`) with the
 * credential's rules as its source filter; undefined when it names its fields itself (checked by
 * `reindexRefusal`) or is no reindex body.
 */
export function reindexSourceFilter(body: unknown, rules: FieldRules): Record<string, unknown> | undefined {
  if (!isObject(body) || !isObject(body.source)) return undefined;
  const asked = body.source._source;
  if (asked !== undefined && asked !== true) return undefined;
  const filter: Json = {};
  if (rules.include?.length) filter.includes = [...rules.include];
  if (rules.exclude?.length) filter.excludes = [...rules.exclude];
  return { ...body, source: { ...body.source, _source: filter } };
}

/**
 * The `_source` includes a request asks for (`asked`, patterns) within a credential's include list
 * (`granted`): the intersection, pair by pair — the narrower of two patterns when one reaches
 * everything the other does; a pair neither of which covers the other is left out (a field it
 * alone would show is not returned: narrower than the intersection, never wider). Empty: nothing
 * in common.
 */
export function intersectIncludes(asked: readonly string[], granted: readonly string[]): string[] {
  const out = new Set<string>();
  for (const a of asked) {
    for (const g of granted) {
      if (covers(g, a)) out.add(a);
      else if (covers(a, g)) out.add(g);
    }
  }
  return [...out];
}

/** `_field_caps`: the fields asked for (its answer lists only what they match), and its `index_filter`. */
export function fieldCapsRefusal(visibility: FieldVisibility, body: unknown, params: FieldParameters): FieldRefusal | undefined {
  return walked(visibility, (w: Walker) => {
    const asked = [...valuesOf(params, 'fields'), ...listOf(isObject(body) ? body.fields : undefined)];
    if (!asked.length) w.refuse('fields', 'is missing');
    for (const f of asked) w.storedFields(f, 'fields');
    if (isObject(body) && body.index_filter !== undefined) w.query(body.index_filter, 'index_filter');
    if (isObject(body) && body.runtime_mappings !== undefined) SEARCH_MEMBERS.runtime_mappings(w, body.runtime_mappings, 'runtime_mappings');
  });
}

/**
 * Routes that name fields with their field data or completion sizes (index and nodes stats'
 * `fields`, `fielddata_fields`, `completion_fields`; `_cat/fielddata`): a hidden field's name, and
 * its size (how many distinct values it holds), are not the credential's to read.
 */
const FIELD_MEMORY_ROUTES = new Set(['indices.stats', 'nodes.stats', 'cat.fielddata']);

/** The fields a stats request or `_cat/fielddata` lists: each pattern must match visible fields only. */
export function fieldMemoryRefusal(visibility: FieldVisibility, req: Pick<GatewayRequest, 'route' | 'params' | 'pathParams'>): FieldRefusal | undefined {
  return walked(visibility, (w: Walker) => {
    const names = ['fields', 'fielddata_fields', 'completion_fields'];
    // `_cat/fielddata` lists every field when it names none
    if (req.route === 'cat.fielddata') w.storedFields(req.pathParams.fields ?? req.params.get('fields') ?? '*', 'fields');
    else for (const name of names) for (const value of valuesOf(req.params, name)) w.storedFields(value, name);
  });
}

/** `_terms_enum`: the field whose terms it lists, and its `index_filter`. */
export function termsEnumRefusal(visibility: FieldVisibility, body: unknown): FieldRefusal | undefined {
  return walked(visibility, (w: Walker) => {
    if (!isObject(body)) w.refuse('field', 'is missing');
    w.field(body.field, 'field');
    if (body.index_filter !== undefined) w.query(body.index_filter, 'index_filter');
  });
}

/**
 * A field mappings answer (`GET /{index}/_mapping/field/{fields}`: `{index: {mappings: {name:
 * {full_name, mapping: {leaf: …}}}}}`) without the fields the rules hide, as Elasticsearch answers
 * it under field-level security: a hidden field (or an alias of one) is not in it, nor a hidden
 * multi-field of a visible one. A copy; the answer is not changed.
 */
export function visibleFieldMappings(visibility: FieldVisibility, answer: unknown): unknown {
  return eachIndexMappings(answer, (mappings) => {
    const kept: Json = {};
    for (const [name, field] of Object.entries(mappings)) {
      if (!isObject(field) || typeof field.full_name !== 'string' || !isObject(field.mapping)) continue;
      const fullName = field.full_name;
      if (visibility.refusalOfField(fullName) !== undefined) continue;
      const dot = fullName.lastIndexOf('.');
      const shown = visibleMapping(visibility, { properties: field.mapping }, dot > 0 ? fullName.slice(0, dot) : '').properties;
      if (isObject(shown) && Object.keys(shown).length) kept[name] = { ...field, mapping: shown };
    }
    return kept;
  });
}

/** An answer by index (`{index: {mappings: …}}`) with each index's `mappings` made anew by `change`; other members kept. */
function eachIndexMappings(answer: unknown, change: (mappings: Json) => unknown): unknown {
  if (!isObject(answer)) return answer;
  const out: Json = {};
  for (const [index, entry] of Object.entries(answer)) out[index] = isObject(entry) && isObject(entry.mappings) ? { ...entry, mappings: change(entry.mappings) } : entry;
  return out;
}

/**
 * A mappings answer (`GET /{index}/_mapping`, `GET /{index}`: `{index: {mappings: {properties}}}`)
 * with the fields the rules hide taken out (and the multi-fields under them). A copy; the answer
 * is not changed.
 */
export function visibleMappings(visibility: FieldVisibility, answer: unknown): unknown {
  return eachIndexMappings(answer, (mappings) => visibleMappings7(visibility, mappings));
}

/**
 * An index's mappings, typeless (`{properties, runtime…}`) or in Elasticsearch 7's typed form
 * (`{"_doc": {properties…}}`, what `include_type_name` and a compatible-with=7 client get): each
 * type's mapping narrowed as a typeless one is.
 */
function visibleMappings7(visibility: FieldVisibility, mappings: Json): Json {
  if (isObject(mappings.properties) || isObject(mappings.runtime) || Object.keys(mappings).length === 0) return visibleMapping(visibility, mappings, '');
  const out: Json = {};
  for (const [key, value] of Object.entries(mappings)) {
    // a member that is itself a mapping is a type's; the typeless members (dynamic, _source, _meta…) pass
    out[key] = isObject(value) && (isObject(value.properties) || isObject(value.runtime)) ? visibleMapping(visibility, value, '') : value;
  }
  return out;
}

function visibleMapping(visibility: FieldVisibility, mapping: Json, prefix: string): Json {
  const out: Json = { ...mapping };
  for (const member of ['properties', 'fields']) {
    const fields = mapping[member];
    if (!isObject(fields)) continue;
    const kept: Json = {};
    for (const [name, sub] of Object.entries(fields)) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (!visibility.showsMapping(path)) continue;
      // an alias names the field it stands for
      if (isObject(sub) && sub.type === 'alias' && typeof sub.path === 'string' && !visibility.showsMapping(sub.path)) continue;
      kept[name] = isObject(sub) ? visibleMapping(visibility, sub, path) : sub;
    }
    out[member] = kept;
  }
  // runtime fields are scripts over any field: their names alone could say what is hidden
  if (isObject(mapping.runtime)) {
    out.runtime = Object.fromEntries(Object.entries(mapping.runtime).filter(([name]) => visibility.showsMapping(prefix ? `${prefix}.${name}` : name)));
  }
  return out;
}

/**
 * An answer that shows alias definitions (`GET /{index}/_alias[/{name}]`, `GET /{index}`:
 * `{index: {aliases: {name: {filter, …}}}}`) without the aliases whose filter reads a field the
 * rules hide: the filter would print the field's name and the value it compares (a search through
 * such an alias is refused too). A copy; the answer is not changed.
 */
export function visibleAliases(visibility: FieldVisibility, answer: unknown): unknown {
  if (!isObject(answer)) return answer;
  const out: Json = {};
  for (const [index, entry] of Object.entries(answer)) {
    if (!isObject(entry) || !isObject(entry.aliases)) {
      out[index] = entry;
      continue;
    }
    const kept = Object.entries(entry.aliases).filter(([, definition]) => !isObject(definition) || definition.filter === undefined
      || searchRefusal(visibility, { query: definition.filter, _source: false }) === undefined);
    out[index] = { ...entry, aliases: Object.fromEntries(kept) };
  }
  return out;
}

/** Members of a declarative component that name a field (ReactiveSearch's API; lib/declarative translates them). */
const COMPONENT_FIELDS = ['aggregationField', 'categoryField', 'distinctField', 'vectorDataField', 'urlField'];

/**
 * A declarative request (`_declarative`, `_reactivesearch`): each component's field members
 * (`dataField`, `sortField`, `highlightField`, `nestedField`, …; `includeFields` is a `_source`
 * filter, which the declarative API narrows by the credential's rules itself), its raw
 * `defaultQuery`/`customQuery` (a query, or a search body), a query-string value, and scripts.
 */
export function declarativeRefusal(visibility: FieldVisibility, body: unknown): FieldRefusal | undefined {
  return walked(visibility, (w: Walker) => {
    if (!isObject(body)) return;
    for (const c of listOf(body.query)) {
      if (!isObject(c)) continue;
      const at = `query[${String(c.id)}]`;
      for (const f of listOf(c.dataField)) w.field(isObject(f) ? f.field : f, `${at}.dataField`);
      for (const name of COMPONENT_FIELDS) if (c[name] !== undefined) w.field(c[name], `${at}.${name}`);
      if (c.nestedField !== undefined) w.path(c.nestedField, `${at}.nestedField`);
      for (const f of listOf(c.highlightField)) w.field(f, `${at}.highlightField`);
      for (const s of listOf(c.sortField)) w.sort(s, `${at}.sortField`);
      if (isObject(c.rankFeature)) for (const f of Object.keys(c.rankFeature)) w.field(f, `${at}.rankFeature`);
      for (const h of ['highlightConfig', 'customHighlight']) if (isObject(c[h])) w.highlight(c[h], `${at}.${h}`);
      if (isObject(c.distinctFieldConfig) && c.distinctFieldConfig.inner_hits !== undefined) w.innerHits(c.distinctFieldConfig.inner_hits, `${at}.distinctFieldConfig.inner_hits`);
      if (c.script !== undefined) w.refuse(`${at}.script`, 'reads any field through a script');
      if (c.queryString === true) w.queryText(c.value, `${at}.value`);
      for (const raw of ['defaultQuery', 'customQuery']) if (c[raw] !== undefined) rawQuery(w, c[raw], `${at}.${raw}`);
    }
  });
}

/** A component's raw DSL: a search body when it has a search body's members, else a query. */
function rawQuery(w: Walker, raw: unknown, member: string): void {
  if (!isObject(raw)) w.refuse(member, 'is not an object');
  if (Object.keys(raw).some((k) => k in SEARCH_MEMBERS && !(k in QUERIES))) w.search(raw, member);
  else w.query(raw, member);
}

// The decision for a classified request -----------------------------------------------------------

/**
 * APIs that read fields in a text or shape of their own, which a field rule cannot be checked on;
 * and OpenSearch's kept asynchronous search answer, read by id: hits and aggregations another
 * credential's search computed, which no source parameter narrows (the plugin takes none).
 */
const UNCHECKABLE = new Set([
  'indices:data/read/tv', 'indices:data/read/mtv', 'indices:data/read/sql', 'indices:data/read/esql', 'indices:data/read/eql',
  'indices:data/read/rank_eval', 'indices:data/read/msearch/template', 'indices:data/read/search/template', 'indices:data/read/knn_search',
  'cluster:admin/opendistro/asynchronous_search/get',
]);
/** Actions whose body is a search body (or its `query`), checked with their URL parameters. */
const SEARCH_BODIES = new Set([
  'indices:data/read/search', 'indices:data/read/async_search/submit', 'cluster:admin/opendistro/asynchronous_search/submit', 'indices:data/read/explain', 'indices:admin/validate/query',
  'indices:data/write/delete/byquery', 'indices:data/write/update/byquery',
]);
/** Actions the decision reads the body of (as JSON, an `_msearch` as its searches). */
/** Actions whose bodies define mappings: a credential with field rules may not add scripted fields there. */
const MAPPING_WRITES = ['indices:admin/mapping/put', 'indices:admin/create', 'indices:admin/rollover'];
/** Actions whose bodies may carry alias filters, read as queries (a value oracle otherwise). */
const ALIAS_WRITES = ['indices:admin/aliases', 'indices:admin/create'];

/** The filters of an alias body: `PUT /{index}/_alias/{name}` (`filter`), `_aliases` add actions, an index creation's `aliases`. */
function aliasFilters(body: unknown): unknown[] {
  if (!isObject(body)) return [];
  const out: unknown[] = [];
  if (body.filter !== undefined) out.push(body.filter);
  for (const action of listOf(body.actions)) {
    if (!isObject(action)) continue;
    for (const spec of Object.values(action)) if (isObject(spec) && spec.filter !== undefined) out.push(spec.filter);
  }
  if (isObject(body.aliases)) for (const spec of Object.values(body.aliases)) if (isObject(spec) && spec.filter !== undefined) out.push(spec.filter);
  return out;
}

const BODY_ACTIONS = new Set([
  ...SEARCH_BODIES, 'indices:data/read/msearch', 'indices:data/read/field_caps', 'indices:data/read/xpack/termsenum/list',
  'indices:data/read/mget', 'indices:data/write/update', 'indices:data/write/reindex', 'indices:data/write/bulk',
  ...MAPPING_WRITES, ...ALIAS_WRITES,
]);

/** Does the decision on `info` read its body? (A caller reads it only then.) */
export function fieldRulesReadBody(info: Classification): boolean {
  return info.category === 'declarative' || (BODY_ACTIONS.has(info.action) && !UNCHECKABLE.has(info.action));
}

/**
 * The body as the decision reads it: `json` the request's JSON value (undefined when it has
 * none), `searches` an `_msearch` body's search bodies (lib/ndjson's `readMsearch`). Called only
 * for the requests `fieldRulesReadBody` says, and at most once.
 */
export interface FieldRulesBody {
  json(): unknown;
  searches(): unknown[];
  /** A `_bulk` body's items (lib/ndjson's `readBulk`). */
  bulk(): readonly BulkEntry[];
}

/**
 * Whether a classified request reads a field a credential's rules hide, in any place but the
 * `_source` the authorizer filters: the reason it is refused, or undefined. One decision for
 * every caller that forwards a client's request (the HTTP middleware, WebSocket frames, pipeline
 * stages). Requests of the `search`, `docs`, `streams` and `declarative` categories are read;
 * a field mapping by name is checked; other categories read no field.
 */
export function fieldReadRefusal(visibility: FieldVisibility, req: Pick<GatewayRequest, 'info' | 'route' | 'params' | 'pathParams'>, body: FieldRulesBody): FieldRefusal | undefined {
  const { info, params } = req;
  const { action } = info;
  if (FIELD_MEMORY_ROUTES.has(req.route)) return fieldMemoryRefusal(visibility, req);
  // rendering a template reads no document: only a search made of it does
  if (UNCHECKABLE.has(action) && req.route !== 'render_search_template') return 'this API reads fields that cannot be checked against the credential\'s field rules';
  // a field mappings answer is narrowed (visibleFieldMappings): asking for a hidden field answers nothing of it
  if (info.category === 'declarative') return declarativeRefusal(visibility, body.json());
  if (MAPPING_WRITES.includes(action) && info.operation === 'write' && mappingReadsFields(body.json())) {
    return 'a runtime or scripted field, copy_to or an alias field may read the fields the credential\'s rules hide';
  }
  if (ALIAS_WRITES.includes(action) && info.operation === 'write') {
    for (const filter of aliasFilters(body.json())) {
      const refusal = searchRefusal(visibility, { query: filter, _source: false });
      if (refusal) return refusal;
    }
  }
  if (info.category !== 'search' && info.category !== 'docs' && info.category !== 'streams') return undefined;
  if (SEARCH_BODIES.has(action)) return searchRefusal(visibility, body.json(), params);
  switch (action) {
    case 'indices:data/read/msearch':
      for (const search of body.searches()) {
        const refusal = searchRefusal(visibility, search, undefined, true);
        if (refusal) return refusal;
      }
      return undefined;
    case 'indices:data/read/field_caps':
      return fieldCapsRefusal(visibility, body.json(), params);
    case 'indices:data/read/xpack/termsenum/list':
      return termsEnumRefusal(visibility, body.json());
    case 'indices:data/read/get':
      return documentRefusal(visibility, params);
    case 'indices:data/read/mget':
      return mgetRefusal(visibility, body.json(), params);
    case 'indices:data/write/update':
      return updateRefusal(visibility, body.json(), params);
    case 'indices:data/write/reindex':
      return reindexRefusal(visibility, body.json());
    case 'indices:data/write/bulk':
      return bulkRefusal(visibility, body.bulk(), params);
    default:
      return undefined;
  }
}

/** What each credential's field rules let it read; null for a credential without rules (nothing more to do). */
const visibilities = new WeakMap<Credential, FieldVisibility | null>();

/** A credential's field visibility, built once per credential record; undefined when it has no field rules. */
export function fieldVisibilityOf(credential: Credential): FieldVisibility | undefined {
  let visibility = visibilities.get(credential);
  if (visibility === undefined) {
    const rules = { include: credential.include_fields, exclude: credential.exclude_fields };
    visibility = hasFieldRules(rules) ? new FieldVisibility(rules) : null;
    visibilities.set(credential, visibility);
  }
  return visibility ?? undefined;
}

/**
 * A scoped caller's request that reads a field its credential's rules hide is refused (403, as the
 * HTTP path refuses it): for callers that hold the request's body as text (WebSocket frames,
 * pipeline stages). The admin and credentials without field rules pass at no cost.
 */
export function checkFieldRules(principal: Principal, req: GatewayRequest, derived?: DerivedFields): void {
  const { info, body: text } = req;
  if (principal.role === 'admin') return;
  const rules = fieldVisibilityOf(principal.credential);
  if (!rules) return;
  const visibility = derived ? rules.withDerived(derived) : rules;
  const body: FieldRulesBody = {
    json: () => (text === undefined || text.trim() === '' ? undefined : parseJsonText(text)),
    searches: () => (text ? readMsearch(text).map((entry) => entry.body) : []),
    bulk: () => (text ? readBulk(text) : []),
  };
  const refusal = fieldReadRefusal(visibility, req, body);
  if (refusal) throw new EsError(403, 'security_exception', `action [${info.action}] is unauthorized for user [${principal.username}]: ${refusal}`);
}
