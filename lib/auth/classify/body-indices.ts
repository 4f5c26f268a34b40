import { bulkText, canonicalJson, isJsonObject, msearchText, parseJsonText, readBulk, readMsearch, type BulkEntry } from '../../ndjson/index.js';
import { decodePitId } from '../../point-in-time/index.js';
import type { Operation, PreparedBody, TextPieces } from '../../request/index.js';

/**
 * Index expressions named inside request bodies. Each reader returns the targets it found, one
 * per (expression, operation): `expression` is `null` for an item that names no index (it falls
 * back to the path's index, or to every index), and `*` for an index it cannot read (not a
 * string, a template it cannot render), so that authorization stays strict.
 *
 * A body the engine will read must be read here the way the engine reads it, or the check and
 * the engine could disagree about what it asks: a reader of an engine-bound body throws the
 * engine's own 400 for a body it cannot parse, and sets `read.forward` to the body rebuilt from
 * what it read — that, never the bytes as sent, is what the gateway forwards.
 */
export interface BodyTarget {
  expression: string | null;
  operation: Operation;
}

/** Where a reader leaves the body as it must be forwarded. */
export interface BodyReading {
  forward?: string;
  /** `forward` as the pieces it was written in (see Classification.forwardPieces). */
  forwardPieces?: TextPieces;
  /** The parsed body, when it says exactly what `forward` says (see Classification.parsed). */
  parsed?: unknown;
  /** A `_bulk` body's items read ahead, which `forward` says exactly (see Classification.bulk). */
  bulk?: readonly BulkEntry[];
  /** The body as a caller read it ahead (large bodies, read cooperatively). */
  readonly prepared?: PreparedBody;
  /**
   * The body runs an ingest pipeline (a `_bulk` item's `pipeline`, `_reindex`'s `dest.pipeline`) or
   * sets an index's default or final pipeline: a pipeline may send documents to any index.
   */
  namesPipeline?: boolean;
  /** A body's own `expand_wildcards` (an `_msearch` header's) reaches hidden indices. */
  expandsHidden?: boolean;
  /**
   * The body searches a point in time: `decoded` when every id is one the embedded engine made
   * (its indices are the targets), `opaque` when one is not (another engine's id, garbage): the
   * indices it reads are then unknown.
   */
  pointInTime?: 'decoded' | 'opaque';
}

/** Does an `expand_wildcards` value (a comma list, or a list) include hidden indices? */
export function expandsHiddenIndices(value: unknown): boolean {
  const values = Array.isArray(value) ? value : [value];
  return values.some((v) => typeof v === 'string' && /(^|,)\s*(all|hidden)\s*(,|$)/.test(v));
}

/** The expression reported when a body names an index the classifier cannot read. */
export const UNREADABLE = '*';

type Body = Buffer | string | undefined;

class Targets {
  /** The expressions listed so far, by operation (no key is built per expression: a body may name 100,000). */
  private readonly seen = new Map<Operation, Set<string | null>>();
  private lastExpression: string | null | undefined;
  private lastOperation: Operation | undefined;
  readonly list: BodyTarget[] = [];
  add(expression: string | null, operation: Operation): void {
    if (this.lastExpression === expression && this.lastOperation === operation) return;
    this.lastExpression = expression;
    this.lastOperation = operation;
    let seen = this.seen.get(operation);
    if (!seen) this.seen.set(operation, (seen = new Set()));
    const known = seen.size;
    if (seen.add(expression).size !== known) this.list.push({ expression, operation });
  }
  /** A JSON value standing for index names: a comma list, a list of names, or something unreadable. */
  addValue(value: unknown, operation: Operation): void {
    for (const e of expressionsOf(value)) this.add(e, operation);
  }
  /**
   * A JSON value that Elasticsearch reads as one name (a `_bulk` or `_mget` item's `_index`,
   * `_reindex`'s `dest.index`, a lookup's `index`) or a list of such names: each read whole, a
   * comma included, as the engine reads it.
   */
  addName(value: unknown, operation: Operation): void {
    for (const e of namesOf(value)) this.add(e, operation);
  }
}

/** A JSON value that holds one name, or a list of names, each whole → those names; `[UNREADABLE]` when it is not names. */
export function namesOf(value: unknown): string[] {
  if (typeof value === 'string') return [oneExpression(value)];
  if (Array.isArray(value) && value.length) return value.map((v) => (typeof v === 'string' ? oneExpression(v) : UNREADABLE));
  return [UNREADABLE];
}

/** A JSON value that names indices → the expressions it names; `[UNREADABLE]` when it is not names. */
export function expressionsOf(value: unknown): string[] {
  if (typeof value === 'string') return splitExpressions(value);
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const v of value) {
      if (typeof v !== 'string') out.push(UNREADABLE);
      else if (!v.includes(',')) out.push(oneExpression(v));
      else for (const e of splitExpressions(v)) out.push(e);
    }
    return out.length ? out : [UNREADABLE];
  }
  return [UNREADABLE];
}

/**
 * A comma list as written ("a,b*,-c") → its expressions, each exactly as written: Elasticsearch
 * splits at commas and trims nothing (`Strings.splitStringByCommaToArray`), so `tenant-a\u2028` is
 * another index than `tenant-a`, and is read as one. Empty items are dropped; a list of none is
 * unreadable.
 */
export function splitExpressions(list: string): string[] {
  if (!list.includes(',')) return [oneExpression(list)];
  const out = list.split(',').filter((s) => s.length > 0);
  return out.length ? out : [UNREADABLE];
}

/** An expression without a comma (a list of one), as written: unreadable when empty. */
function oneExpression(text: string): string {
  return text.length > 0 ? text : UNREADABLE;
}

const textOf = (body: Buffer | string) => (typeof body === 'string' ? body : body.toString('utf8'));
const isJsonBlank = (text: string) => /^[ \t\r\n]*$/.test(text);
const isObject = isJsonObject;

/**
 * An engine-bound JSON body: parsed as the engine parses it (or its 400), and the text to forward
 * (see `canonicalJson`).
 */
function engineJson(body: Body, read: BodyReading): unknown {
  if (body === undefined) return undefined;
  const text = textOf(body);
  if (read.prepared?.json) {
    read.forward = read.prepared.json.forward;
    if (read.prepared.json.forwardPieces) read.forwardPieces = read.prepared.json.forwardPieces;
    if (read.prepared.json.exact) read.parsed = read.prepared.json.value;
    return read.prepared.json.value;
  }
  if (isJsonBlank(text)) {
    read.forward = '';
    return undefined;
  }
  const value = parseJsonText(text);
  read.forward = canonicalJson(text, value);
  return value;
}

/**
 * Targets read from an engine-bound JSON body: none when there is no body; an unreadable target
 * for each of `unreadableAs` when it is not an object (or `readable` says no); else what
 * `collect` adds.
 */
function engineBodyTargets(
  body: Body,
  read: BodyReading,
  unreadableAs: Operation[],
  collect: (json: Record<string, unknown>, t: Targets) => void,
  readable: (json: Record<string, unknown>) => boolean = () => true,
): BodyTarget[] {
  const t = new Targets();
  const json = engineJson(body, read);
  if (json === undefined) return t.list;
  if (!isObject(json) || !readable(json)) {
    for (const op of unreadableAs) t.add(UNREADABLE, op);
    return t.list;
  }
  collect(json, t);
  return t.list;
}

/** The body as a JSON object for the gateway's own APIs: `undefined` when absent, `null` when unreadable. */
function gatewayJson(body: Body, read?: BodyReading): Record<string, unknown> | undefined | null {
  if (body === undefined) return undefined;
  // a large body was parsed ahead in pieces (prepareBody): the same value as JSON.parse's
  const prepared = read?.prepared?.json;
  if (prepared) return isObject(prepared.value) ? prepared.value : null;
  if (isJsonBlank(textOf(body))) return undefined;
  try {
    const v: unknown = JSON.parse(textOf(body));
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/** Targets of a body the gateway reads itself (its APIs answer malformed bodies their own way). */
function gatewayBodyTargets(body: Body, unreadableAs: Operation[], collect: (json: Record<string, unknown>, t: Targets) => void): BodyTarget[] {
  const t = new Targets();
  const json = gatewayJson(body);
  if (json === undefined) return t.list;
  if (json === null) {
    for (const op of unreadableAs) t.add(UNREADABLE, op);
    return t.list;
  }
  collect(json, t);
  return t.list;
}

/**
 * `_bulk`: the target of every action line, read by the one bulk reader (lib/ndjson) the engine
 * uses too; a malformed body throws the engine's own 400.
 */
export function bulkTargets(body: Body, read: BodyReading): BodyTarget[] {
  const t = new Targets();
  if (body === undefined) return t.list;
  const text = textOf(body);
  const entries = read.prepared?.bulk ?? readBulk(text);
  for (const e of entries) {
    t.add(e.index === undefined ? null : e.index.length ? e.index : UNREADABLE, e.action === 'delete' ? 'delete' : 'write');
    // an ingest pipeline may send the document to any index (`ctx._index = …`); an update item's runs on its upsert
    if (e.action !== 'delete' && runsPipeline(e.meta.pipeline)) read.namesPipeline = true;
  }
  read.forward = bulkText(entries, text);
  if (read.prepared?.bulk && read.forward === text) read.bulk = entries;
  return t.list;
}

/** Whether a `pipeline` value names a pipeline to run (`_none` names none). */
export function runsPipeline(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '_none';
}

/** The settings that make every write to an index run a pipeline (`index.` may be left out, as ES normalizes it). */
const PIPELINE_SETTINGS = new Set(['default_pipeline', 'final_pipeline']);
/** Members whose content holds no index setting: a mapping, an alias (checked as an alias). */
const HOLDS_NO_SETTING = new Set(['mappings', 'aliases']);

/**
 * Does a parsed settings-bearing body (index creation, settings update, index template) set
 * `index.default_pipeline` or `index.final_pipeline` to a pipeline? Every later write to the index
 * would run it, and a pipeline may send documents anywhere. Decided on the parsed value, however
 * the key is spelled in JSON: nested (`{"index":{"default_pipeline":…}}`), flat
 * (`"index.default_pipeline"`), wrapped (`settings`, `template.settings`) — any member whose last
 * dotted segment names the setting counts, at any depth outside mappings and aliases (fail-closed).
 */
export function setsPipeline(body: unknown): boolean {
  const setsOne = (v: Record<string, unknown>) => Object.keys(v).some((key) => {
    const child = v[key];
    if (HOLDS_NO_SETTING.has(key) || (typeof child === 'object' && child !== null)) return false;
    return PIPELINE_SETTINGS.has(key.slice(key.lastIndexOf('.') + 1)) && runsPipeline(child);
  });
  return someObject(body, setsOne, (key) => !HOLDS_NO_SETTING.has(key));
}

/**
 * Whether `visit` holds for some object within a JSON value, walked depth first without recursion
 * (nesting depth is the client's choice); `descend(key)` false leaves a member's subtree out.
 */
function someObject(root: unknown, visit: (obj: Record<string, unknown>) => boolean, descend: (key: string) => boolean = () => true): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) if (typeof x === 'object' && x !== null) stack.push(x);
      continue;
    }
    if (!isObject(v)) continue;
    if (visit(v)) return true;
    for (const key in v) {
      const child = v[key];
      if (typeof child === 'object' && child !== null && descend(key)) stack.push(child);
    }
  }
  return false;
}

/**
 * `PUT /{index}/_settings`: no index besides the path's; whether it sets a default or final
 * pipeline. Settings are values and lists of values (Elasticsearch: "only value lists are allowed
 * in serialized settings"): a body with an object or a list inside a list is not settings the
 * gateway reads, and is read as reaching every index (refused to a scoped credential).
 */
export function settingsTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['write'], (json) => {
    if (setsPipeline(json)) read.namesPipeline = true;
  }, onlySettingValues);
}

/** Whether every list in a settings body holds only values (strings, numbers, booleans, null). */
function onlySettingValues(json: Record<string, unknown>): boolean {
  const stack: unknown[] = [json];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) if (typeof x === 'object' && x !== null) return false;
    } else if (isObject(v)) {
      for (const key in v) if (typeof v[key] === 'object' && v[key] !== null) stack.push(v[key]);
    }
  }
  return true;
}

/**
 * A body that creates an index (`PUT /{index}`, `_shrink`/`_split`/`_clone`, `_rollover`): the
 * aliases it gives the new index (written; what their filters look up, read) and whether its
 * settings set a default or final pipeline.
 */
export function indexCreationTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['write'], (json, t) => aliasDefinitions(json.aliases, t), (json) => {
    // a body that would set a pipeline asks for the right to, read or not (one of unknown members is refused too)
    if (setsPipeline(json)) read.namesPipeline = true;
    return onlyCreationMembers(json);
  });
}

/**
 * The members an index's creation reads (create, rollover's `conditions`, resize's
 * `max_primary_shard_size`): Elasticsearch refuses any other ("unknown key [x] for create index"),
 * and a member the gateway does not read is not forwarded on a scoped credential's behalf.
 */
const CREATION_MEMBERS = new Set(['settings', 'mappings', 'aliases', 'conditions', 'max_primary_shard_size']);
function onlyCreationMembers(json: Record<string, unknown>): boolean {
  for (const key in json) if (!CREATION_MEMBERS.has(key)) return false;
  return true;
}

/**
 * An index template (`_index_template`, `_component_template`, legacy `_template`): the index
 * patterns it applies to and the aliases it gives (written), what alias filters look up (read),
 * and whether its settings set a default or final pipeline. Composable templates hold these under
 * `template`, legacy ones at the top.
 */
export function indexTemplateTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['write'], (json, t) => {
    if (setsPipeline(json)) read.namesPipeline = true;
    // component templates the request does not hold (another's, the admin's) give the new index their
    // settings and aliases: a default or final pipeline, aliases of any name — what it cannot tell
    if (json.composed_of !== undefined && !(Array.isArray(json.composed_of) && json.composed_of.length === 0)) {
      read.namesPipeline = true;
      t.add(UNREADABLE, 'write');
    }
    if ('index_patterns' in json) t.addValue(json.index_patterns, 'write');
    aliasDefinitions(json.aliases, t);
    if (json.template !== undefined) {
      if (!isObject(json.template)) t.add(UNREADABLE, 'write');
      else aliasDefinitions(json.template.aliases, t);
    }
  });
}

/** `{"aliases": {name: {filter, …}}}`: each name is written, each filter's lookups read. */
function aliasDefinitions(aliases: unknown, t: Targets): void {
  if (aliases === undefined) return;
  if (!isObject(aliases)) {
    t.add(UNREADABLE, 'write');
    return;
  }
  for (const [name, spec] of Object.entries(aliases)) {
    t.addValue(name, 'write');
    searchReferences(spec, t);
  }
}

/**
 * `_msearch` and `_msearch/template`: each header's `index` (or `indices`), and the indices each
 * search names inside its body; a header without an index targets the path's indices.
 */
export function msearchTargets(body: Body, read: BodyReading, template: boolean): BodyTarget[] {
  const t = new Targets();
  if (body === undefined) return t.list;
  const entries = readMsearch(textOf(body));
  for (const e of entries) {
    pointInTimeReferences(e.body.pit, t, read);
    const named = ['index', 'indices'].filter((k) => k in e.header);
    if (expandsHiddenIndices(e.header.expand_wildcards)) read.expandsHidden = true;
    if (!named.length) t.add(null, 'read');
    for (const k of named) t.addValue(e.header[k], 'read');
    // a body line that names an index as a header would is read as one: no reader may take it for a header unseen
    for (const k of ['index', 'indices']) if (k in e.body) t.addValue(e.body[k], 'read');
    if (template) templateReferences(e.body, t);
    else searchReferences(e.body, t);
  }
  read.forward = msearchText(entries);
  return t.list;
}

/** A search body (search, count, explain, validate, by-query, field caps…): the indices its queries reach. */
export function searchBodyTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['read'], (json, t) => {
    pointInTimeReferences(json.pit, t, read);
    searchReferences(json, t);
  });
}

/**
 * `DELETE /_pit` (`{"id": …}`) and OpenSearch's `DELETE /_search/point_in_time` (`{"pit_id": [ids]}`):
 * the indices of each point in time it closes; a body that names none (or not as a string) is
 * read as an opaque id, so that the request is authorized strictly.
 */
export function closePointInTimeTargets(body: Body, read: BodyReading, member: 'id' | 'pit_id'): BodyTarget[] {
  return engineBodyTargets(body, read, ['read'], (json, t) => {
    const named = json[member];
    const ids = member === 'pit_id' && Array.isArray(named) && named.length > 0 ? named : [named];
    for (const id of ids) pointInTimeReferences({ id }, t, read);
  });
}

/**
 * A search body's `pit` (`{"id": …}`): the indices the embedded engine encoded in the id. An id
 * it cannot decode names indices no one can tell: `read.pointInTime` says so, and the target is
 * unreadable, so that authorization stays strict.
 */
function pointInTimeReferences(pit: unknown, t: Targets, read: BodyReading): void {
  if (pit === undefined) return;
  const content = isObject(pit) ? decodePitId(pit.id) : undefined;
  if (!content) {
    read.pointInTime = 'opaque';
    t.add(UNREADABLE, 'read');
    return;
  }
  read.pointInTime ??= 'decoded';
  for (const name of content.indices) t.add(name, 'read');
}

/** A search template request (`id` or `source`, with `params`). */
export function templateBodyTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['read'], (json, t) => templateReferences(json, t));
}

/** A cluster-level body (allocation explain, reroute commands): every `index` member it holds, at any depth. */
export function namedIndexTargets(body: Body, read: BodyReading, operation: Operation): BodyTarget[] {
  return engineBodyTargets(body, read, [operation], (json, t) => {
    const stack: unknown[] = [json];
    while (stack.length) {
      const v = stack.pop();
      if (Array.isArray(v)) stack.push(...v);
      else if (isObject(v)) {
        for (const [k, x] of Object.entries(v)) {
          if (k === 'index') t.addValue(x, operation);
          else if (typeof x === 'object' && x !== null) stack.push(x);
        }
      }
    }
  });
}

/**
 * Index references inside a query, wherever it nests (queries, aggregations, rescorers…): `terms`
 * lookups, `more_like_this` documents, `geo_shape`/`shape` indexed shapes (index `shapes` when
 * unnamed, as in Elasticsearch), `percolate` documents, and any document reference
 * (`{_index, _id}`: `pinned` documents, `_rank_eval` ratings). A `rule` query pins
 * documents chosen by stored rulesets, and a template rendered by the engine inside a search
 * (`_rank_eval` templates, a suggester's `collate`) may say anything: they may reach any index. Walked without recursion: nesting
 * depth is the client's choice.
 */
function searchReferences(root: unknown, t: Targets): void {
  someObject(root, (v) => {
    // a document reference (`more_like_this` likes, `pinned` docs, `_rank_eval` ratings…)
    if ('_index' in v && '_id' in v) t.addName(v._index, 'read');
    for (const key in v) {
      const val = v[key];
      // templates rendered by the engine, inside a search (`_rank_eval`'s `templates`, a phrase
      // suggester's `collate` query): their text or parameters may name any index after rendering
      if ((key === 'templates' && Array.isArray(val) && val.length) || (key === 'collate' && val !== null && val !== undefined)) {
        t.add(UNREADABLE, 'read');
        continue;
      }
      if (!isObject(val)) continue;
      switch (key) {
        case 'terms':
          for (const spec of Object.values(val)) if (isObject(spec) && 'index' in spec) t.addName(spec.index, 'read');
          break;
        case 'more_like_this':
        case 'mlt':
          for (const side of ['like', 'unlike']) {
            const items = Array.isArray(val[side]) ? (val[side] as unknown[]) : [val[side]];
            for (const item of items) if (isObject(item) && '_index' in item) t.addName(item._index, 'read');
          }
          break;
        case 'geo_shape':
        case 'shape':
        case 'xy_shape': // OpenSearch's Cartesian geo_shape
          for (const spec of Object.values(val)) {
            const shape = isObject(spec) ? spec.indexed_shape : undefined;
            if (isObject(shape)) t.addName('index' in shape ? shape.index : 'shapes', 'read');
          }
          break;
        case 'percolate':
          if ('index' in val) t.addName(val.index, 'read');
          break;
        case 'rule':
        case 'rule_query':
          t.add(UNREADABLE, 'read');
          break;
      }
    }
    return false;
  });
}

/**
 * A template renders its query from `params` at the engine: a stored one (`id`) may say anything,
 * and an inline one names indices wherever its text or its parameters mention an index or a rule.
 */
function templateReferences(json: Record<string, unknown>, t: Targets): void {
  if (json.id !== undefined) return t.add(UNREADABLE, 'read');
  const text = JSON.stringify([json.source ?? null, json.params ?? null]);
  if (/index|rule/i.test(text)) return t.add(UNREADABLE, 'read');
  if (isObject(json.source)) searchReferences(json.source, t);
}

/** The geospatial plugin's GeoJSON upload: the one index its body names (`index`, a name read whole), created or written. */
export function uploadIndexTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['write'], (json, t) => t.addName(json.index, 'write'));
}

/** `_scripts/painless/_execute`: the index a script runs against (`context_setup.index`) is read. */
export function painlessContextTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['read'], (json, t) => {
    const setup = json.context_setup;
    if (setup === undefined) return;
    if (isObject(setup)) {
      if ('index' in setup) t.addName(setup.index, 'read');
      // the query the script's context runs against may look up other indices, as a search's may
      if ('query' in setup) searchReferences(setup.query, t);
    } else t.add(UNREADABLE, 'read');
  });
}

/**
 * `_mget` and `_mtermvectors`: `docs[]._index`; `ids` and docs without `_index` use the path's index,
 * or the `_index` of `_mtermvectors`' `parameters` (the template each of its documents starts from).
 */
export function docsTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['read'], (json, t) => {
    if (isObject(json.parameters) && '_index' in json.parameters) docTarget(json.parameters, t);
    if ('ids' in json) t.add(null, 'read');
    if (!('docs' in json)) return;
    if (!Array.isArray(json.docs)) {
      t.add(UNREADABLE, 'read');
      return;
    }
    for (const doc of json.docs) {
      if (isObject(doc)) docTarget(doc, t); // any other the engine rejects
    }
  });
}

/**
 * `_termvectors`: its body is one document of `_mtermvectors`' docs, read by the same parser
 * (TermVectorsRequest.parseRequest), so its `_index` replaces the path's as an item's does.
 */
export function termVectorsTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['read'], (json, t) => docTarget(json, t));
}

/** The index one document of `_mget` or `_mtermvectors` is read from: its `_index`, else the path's. */
function docTarget(doc: Record<string, unknown>, t: Targets): void {
  if (!('_index' in doc)) t.add(null, 'read');
  else t.addName(typeof doc._index === 'string' ? doc._index : undefined, 'read');
}

/** `_reindex`: reads `source.index` (a name, comma list or list) and what its query looks up, writes `dest.index`. */
export function reindexTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['read', 'write'], (json, t) => {
    const source = json.source;
    if (source !== undefined) {
      if (isObject(source) && 'index' in source) t.addValue(source.index, 'read');
      else t.add(UNREADABLE, 'read');
      if (isObject(source)) searchReferences(source.query, t);
    }
    const dest = json.dest;
    if (dest !== undefined) {
      if (isObject(dest) && 'index' in dest) t.addName(typeof dest.index === 'string' ? dest.index : undefined, 'write');
      else t.add(UNREADABLE, 'write');
      // a script (`ctx._index = …`) may send documents to any index; so may an ingest pipeline (see namesPipeline)
      if (json.script !== undefined) t.add(UNREADABLE, 'write');
      if (isObject(dest) && runsPipeline(dest.pipeline)) read.namesPipeline = true;
    }
  });
}

/**
 * An OpenSearch rollup or transform job (or a transform's preview): reads its `source_index` (and
 * what its `data_selection_query` looks up), writes its `target_index`; each read as a list, the
 * stricter reading. Only the cluster manager writes jobs: these are read for the checks every
 * request takes, the gateway's system indices first.
 */
export function managementJobTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['read', 'write'], (json, t) => {
    for (const kind of ['rollup', 'transform']) {
      const job = json[kind];
      if (!isObject(job)) continue;
      if (job.source_index !== undefined) t.addValue(job.source_index, 'read');
      if (job.target_index !== undefined) t.addValue(job.target_index, 'write');
      searchReferences(job.data_selection_query, t);
    }
  });
}

/** The declarative API: each `query[].index` (a query without one uses the path's index). */
export function declarativeTargets(body: Body): BodyTarget[] {
  return gatewayBodyTargets(body, ['read'], (json, t) => {
    const queries = Array.isArray(json.query) ? json.query : json.query === undefined ? [] : [json.query];
    for (const q of queries) {
      if (!isObject(q)) continue;
      if (!('index' in q) || q.index === undefined) t.add(null, 'read');
      else t.addValue(q.index, 'read');
    }
  });
}

/**
 * `POST /_aliases`: `add`/`remove` write the indices they name and write (add) or delete (remove)
 * the aliases, and what an added alias's filter looks up is read; `remove_index` deletes its
 * indices. An action naming no index (or no alias) is unreadable: it reaches what no one can tell.
 */
export function aliasActionTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['write'], (json, t) => {
    for (const entry of json.actions as unknown[]) {
      if (!isObject(entry)) continue;
      for (const [kind, spec] of Object.entries(entry)) {
        if (!isObject(spec)) continue;
        const indexOp: Operation = kind === 'remove_index' ? 'delete' : 'write';
        const named = (keys: string[], op: Operation) => {
          const present = keys.filter((k) => k in spec);
          if (!present.length) t.add(UNREADABLE, op);
          for (const k of present) t.addName(spec[k], op);
        };
        named(['index', 'indices'], indexOp);
        if (kind === 'remove_index') continue;
        named(['alias', 'aliases'], kind === 'remove' ? 'delete' : 'write');
        // an alias's filter is a query: what it looks up is read as the search body's lookups are
        if (kind === 'add') searchReferences(spec, t);
      }
    }
  }, (json) => Array.isArray(json.actions));
}

/** The members a put-alias body may have (the engine refuses any other: `[alias] unknown field`). */
const PUT_ALIAS_KEYS = new Set(['index', 'indices', 'alias', 'aliases', 'must_exist', 'filter', 'routing', 'index_routing', 'search_routing', 'is_write_index', 'is_hidden']);

/**
 * A put-alias body (`PUT /{index}/_alias/{name}`, and the forms whose body names them:
 * `PUT /{index}/_alias`, `PUT /_alias/{name}`, `PUT /_alias`): the indices (`index`, `indices`) and
 * aliases (`alias`, `aliases`) it names, which the engine takes over the path's, written; its
 * filter's lookups, read.
 */
export function aliasBodyTargets(body: Body, read: BodyReading): BodyTarget[] {
  return engineBodyTargets(body, read, ['write'], (json, t) => {
    // a member the API does not take is not read for what it names: the body cannot be told
    if (Object.keys(json).some((k) => !PUT_ALIAS_KEYS.has(k))) t.add(UNREADABLE, 'write');
    for (const k of ['index', 'indices']) if (json[k] !== undefined && json[k] !== null) t.addValue(json[k], 'write');
    for (const k of ['alias', 'aliases']) if (json[k] !== undefined && json[k] !== null) t.addName(json[k], 'write');
    searchReferences(json, t);
  });
}

/**
 * Credential bodies: the index patterns a new or changed credential would grant, one at a time as
 * the classifier takes them. A list of 100,000 patterns becomes no list of 100,000 targets held at
 * once (its building was one piece of the event loop, and the collections after it had them all to
 * mark); nor is it deduplicated twice, nor copied into a list of names first.
 */
export function credentialTargets(body: Body, read?: BodyReading): Iterable<BodyTarget> {
  const json = gatewayJson(body, read);
  if (json === undefined) return [];
  if (json === null) return [{ expression: UNREADABLE, operation: 'write' }];
  if (!('indices' in json)) return [];
  const { indices } = json;
  if (!Array.isArray(indices)) return expressionsOf(indices).map((expression) => ({ expression, operation: 'write' }));
  return credentialListTargets(indices);
}

function* credentialListTargets(indices: unknown[]): Generator<BodyTarget, void, void> {
  let any = false;
  for (const v of indices) {
    if (typeof v !== 'string') yield { expression: UNREADABLE, operation: 'write' };
    else if (!v.includes(',')) yield { expression: oneExpression(v), operation: 'write' };
    else for (const expression of splitExpressions(v)) yield { expression, operation: 'write' };
    any = true;
  }
  if (!any) yield { expression: UNREADABLE, operation: 'write' };
}
