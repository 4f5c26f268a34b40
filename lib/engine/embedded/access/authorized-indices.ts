import type { Operation } from '../../../request/index.js';
import { Indices, isPlainObject, resolveDateMathExpression, resolveDateMathName, type AliasAction, type IndexHandle, type JsonObject, type ResolveOptions } from '../indices/index.js';
import type { WriteIntent } from '../data-streams/index.js';
import type { StoreWrite } from '../store/index.js';
import { countDisagreement } from './disagreements.js';
import type { IndexAccess } from './index-access.js';
import { fieldSubsetView } from './field-subset.js';
import { mappingReadsFields } from './mapping-reads.js';

/** How a request's index expressions are checked: the operation its resolved indices need, and the action its refusal names. */
export interface ResolveCheck {
  /** Undefined: any operation (reach) — index administration, whose operation the gateway decides. */
  op: Operation | undefined;
  action: string;
  /**
   * The resolved indices are read (searched, counted, their mappings shown): with field rules,
   * each is seen without the fields they hide (fieldSubsetView). Never for a request that writes
   * or changes an index through them.
   */
  readsFields?: boolean;
}

/** Each view's engine indices (pluginIndices). */
const viewed = new WeakMap<Indices, Indices>();

/**
 * The engine's own indices behind a request's view: for a plugin acting on its own system index
 * (`.opensearch-observability`) once the route's cluster privilege let the request through, as
 * OpenSearch's plugins do with the caller's thread context stashed — the caller's index rights
 * never reach a system index, and the plugin's API is how it is reached.
 */
export function pluginIndices(indices: Indices): Indices {
  return viewed.get(indices) ?? indices;
}

/** ES's shard-level write action: how it names a refused index, create, update or delete of a document. */
export const WRITE_ACTION = 'indices:data/write/bulk[s]';
const GET_ACTION = 'indices:data/read/get';
const CREATE_ACTION = 'indices:admin/create';
const ALIASES_ACTION = 'indices:admin/aliases';
const PUT_MAPPING_ACTION = 'indices:admin/mapping/put';
const MAPPING_READS = { member: 'mappings', why: 'a runtime or scripted field, copy_to or an alias field may read the fields the credential\'s rules hide' };

/**
 * The engine's indices as one request with rights may use them: every place an index expression
 * is resolved or an index named for a document read or write goes through `resolve`,
 * `readTarget`, `writeTarget`, `createInMemory` and `updateAliases`, and these check the
 * resolved, concrete indices (data streams as their backing indices, aliases as the indices
 * they point to, a write's target after its pipelines changed `_index`) against the rights:
 * - a name, alias or data stream the caller may not use: 403, before anything happens;
 * - a wildcard reaching indices the caller may not use: narrowed to those it may (Elasticsearch
 *   expands wildcards to authorized indices only) — and counted, the gateway having narrowed it
 *   already;
 * - a missing name the caller may not use: 403, not 404 (as Elasticsearch: no probing).
 * With field rules, the indices a request reads (`check.readsFields`, and every read target) are
 * seen without the fields the rules hide (fieldSubsetView; `onHiddenField` told when the request
 * names one). Everything else is the engine's own `Indices` (a view: same state, same durability).
 */
export function authorizedIndices(indices: Indices, access: IndexAccess, check: ResolveCheck, onHiddenField?: () => void): Indices {
  const base = Indices.prototype;
  const view: Indices = Object.create(indices);
  viewed.set(view, indices);
  // field rules where fields are read: one view per index and request, so a request sees one handle per index
  const subset = access.fields;
  const fieldViews = new Map<IndexHandle, IndexHandle>();
  const readable = (h: IndexHandle): IndexHandle => {
    if (!subset) return h;
    let v = fieldViews.get(h);
    if (!v) fieldViews.set(h, (v = fieldSubsetView(h, subset, onHiddenField)));
    return v;
  };
  const exists = (name: string) => indices.get(name) !== undefined || indices.aliasTargets(name).length > 0 || indices.dataStreams.get(name) !== undefined;

  // names are checked as the engine reads them: date math resolved first (`<logs-{now/d}>` is `logs-2024.03.01`)
  view.resolve = function resolve(expression: string | undefined, opts: ResolveOptions = {}): IndexHandle[] {
    expression = resolveDateMathExpression(expression);
    // each name as written (Elasticsearch trims nothing), as the engine's own resolve reads it
    const parts = !expression || expression === '_all' ? [] : expression.split(',').filter(Boolean);
    let sawWildcard = false;
    for (const part of parts) {
      const wildcard = part.includes('*') || part === '_all';
      if (wildcard) sawWildcard = true;
      if (wildcard || (part.startsWith('-') && sawWildcard)) continue;
      // a name (index, alias, data stream): each index it stands for, or the name itself when it names nothing
      const named = base.resolve.call(this, part, { ...opts, ignoreUnavailable: true, allowNoIndices: true });
      if (named.length) access.requireWritten(named.map((h) => h.name), part, check.op, check.action);
      else if (!exists(part)) access.require([part], check.op, check.action);
    }
    const handles = base.resolve.call(this, expression, opts);
    const reachable = handles.filter((h) => access.allows(h.name, check.op));
    // the gateway narrows wildcards before they get here: one that still reaches further is a disagreement
    if (reachable.length < handles.length) countDisagreement();
    return check.readsFields ? reachable.map(readable) : reachable;
  };

  view.readTarget = function readTarget(name: string, forDelete = false): IndexHandle {
    name = resolveDateMathName(name);
    const op = forDelete ? 'delete' : 'read';
    const action = forDelete ? WRITE_ACTION : GET_ACTION;
    let handle: IndexHandle;
    try {
      handle = base.readTarget.call(this, name, forDelete);
    } catch (e) {
      access.require([name], op, action);
      throw e;
    }
    access.requireWritten([handle.name], name, op, action);
    return forDelete ? handle : readable(handle);
  };

  view.writeTarget = function writeTarget(name: string, requireAlias = false, intent: WriteIntent = { op: 'index' }): { handle: IndexHandle; writes: StoreWrite[] } {
    name = resolveDateMathName(name);
    const op = intent.op === 'delete' ? 'delete' : 'write';
    // a name that names nothing is created by the write (an index, a data stream): checked before it is
    if (!exists(name)) access.require([name], op, WRITE_ACTION);
    const target = base.writeTarget.call(this, name, requireAlias, intent);
    access.requireWritten([target.handle.name], name, op, WRITE_ACTION);
    return target;
  };

  view.createInMemory = function createInMemory(name: string, body: JsonObject = {}, templated = true): { handle: IndexHandle; writes: StoreWrite[] } {
    name = resolveDateMathName(name);
    access.require([name], 'write', CREATE_ACTION);
    if (isPlainObject(body.aliases)) access.require(Object.keys(body.aliases), 'write', CREATE_ACTION);
    if (access.fields && mappingReadsFields(body)) throw access.fieldRefusal(CREATE_ACTION, MAPPING_READS);
    return base.createInMemory.call(this, name, body, templated);
  };

  view.putMapping = function putMapping(handles: IndexHandle[], input: unknown): Promise<void> {
    if (access.fields && mappingReadsFields(input)) throw access.fieldRefusal(PUT_MAPPING_ACTION, MAPPING_READS);
    return base.putMapping.call(this, handles, input);
  };

  view.updateAliases = function updateAliases(actions: AliasAction[]): Promise<void> {
    for (const a of actions) {
      access.require(a.indices, a.kind === 'remove_index' ? 'delete' : 'write', ALIASES_ACTION);
      if (a.kind === 'remove_index') continue;
      const denied = a.aliases.filter((alias) => !access.allowsPattern(alias, 'write'));
      if (denied.length) throw access.refusal(ALIASES_ACTION, denied);
    }
    return base.updateAliases.call(this, actions);
  };

  return view;
}
