import { EsError } from '../../../errors/index.js';
import type { JsonObject } from '../indices/deep.js';
import type { IndexHandle } from '../indices/index-handle.js';
import type { Indices } from '../indices/indices.js';
import type { AliasDefinition } from '../store/index.js';
import { resolveDateMathName } from '../indices/date-math-name.js';
import { validateIndexName } from '../indices/index-name.js';
import { evaluateRolloverConditions, type RolloverCondition, type RolloverStats } from './rollover-conditions.js';

export interface RolloverRequest {
  /** The data stream or alias rolled over. */
  target: string;
  /** `POST /{alias}/_rollover/{new_index}`: the new index's name (aliases only). */
  newIndex?: string;
  conditions: RolloverCondition[];
  dryRun: boolean;
  /** `settings`, `mappings`, `aliases` of the new index (aliases only). */
  createBody: JsonObject;
  /** How big an index is, as the stats APIs report it. */
  sizeOf(h: IndexHandle): number;
}

function statsOf(h: IndexHandle, sizeOf: (h: IndexHandle) => number): RolloverStats {
  return { docs: h.isOpen ? h.docCount : 0, ageMs: Date.now() - h.meta.creationDate, bytes: sizeOf(h) };
}

function answer(oldIndex: string, newIndex: string, rolledOver: boolean, dryRun: boolean, results: Record<string, boolean>): JsonObject {
  return {
    acknowledged: rolledOver, shards_acknowledged: rolledOver, old_index: oldIndex, new_index: newIndex,
    rolled_over: rolledOver, dry_run: dryRun, lazy: false, conditions: results,
  };
}

/** `logs-000001` → `logs-000002`: Elasticsearch's rule for an alias's next index, six digits at least. */
function nextIndexName(old: string): string {
  const m = /^(.*)-(\d+)$/.exec(old);
  if (!m) throw new EsError(400, 'illegal_argument_exception', `index name [${old}] does not match pattern '^.*-\\d+$'`);
  return `${m[1]}-${String(Number(m[2]) + 1).padStart(6, '0')}`;
}

/** The index an alias writes to, as rollover sees it: the flagged write index, or its only index. */
function aliasWriteIndex(indices: Indices, alias: string): IndexHandle {
  const targets = indices.aliasTargets(alias);
  const flagged = targets.filter((h) => h.meta.aliases[alias]?.is_write_index === true);
  if (flagged.length === 1) return flagged[0];
  if (targets.length === 1 && targets[0].meta.aliases[alias]?.is_write_index !== false) return targets[0];
  throw new EsError(400, 'illegal_argument_exception', `rollover target [${alias}] does not point to a write index`);
}

/**
 * The new index's name checked before the conditions are (ES's TransportRolloverAction validates
 * the trial name first): a valid name, not taken — a dry run and unmet conditions fail too.
 */
function checkRolloverIndexName(indices: Indices, name: string): void {
  const resolved = resolveDateMathName(name);
  validateIndexName(resolved);
  const existing = indices.get(resolved);
  if (existing || indices.aliasTargets(resolved).length || indices.dataStreams.get(resolved)) {
    throw new EsError(400, 'resource_already_exists_exception', `index [${resolved}/${existing?.uuid ?? '_na_'}] already exists`, {
      index_uuid: existing?.uuid ?? '_na_',
      index: resolved,
    });
  }
}

/**
 * `POST /{target}/_rollover`: a data stream gets a new write index of its next generation; an
 * alias gets a new index (`<prefix>-<n+1>`, or the name given) that becomes its write index — the
 * alias moves to it, or, when the old index was flagged `is_write_index`, both keep it and the flag
 * moves. Only when the conditions hold (any max_* and every min_*), and not on `dry_run`.
 */
export async function rollover(indices: Indices, req: RolloverRequest): Promise<JsonObject> {
  const stream = indices.dataStreams.get(req.target);
  if (stream) {
    if (req.newIndex !== undefined) throw new EsError(400, 'illegal_argument_exception', 'new index name is not supported for rolling over data streams');
    if (Object.keys(req.createBody).length) {
      throw new EsError(400, 'illegal_argument_exception', 'aliases, mappings, and index settings may not be specified when rolling over a data stream');
    }
    const oldIndex = indices.dataStreams.writeIndexOf(stream);
    const write = indices.get(oldIndex);
    const { results, met } = evaluateRolloverConditions(req.conditions, write ? statsOf(write, req.sizeOf) : { docs: 0, ageMs: 0, bytes: 0 });
    if (!met || req.dryRun) return answer(oldIndex, indices.dataStreams.nextBackingIndexName(stream), false, req.dryRun, results);
    const done = await indices.dataStreams.rollover(stream);
    return answer(done.oldIndex, done.newIndex, true, false, results);
  }
  if (!indices.aliasTargets(req.target).length) {
    if (indices.get(req.target)) {
      throw new EsError(400, 'illegal_argument_exception', `rollover target is a [concrete index] but one of [alias,data_stream] was expected`);
    }
    throw new EsError(400, 'illegal_argument_exception', `rollover target [${req.target}] does not exist`);
  }
  const old = aliasWriteIndex(indices, req.target);
  const newIndex = req.newIndex ?? nextIndexName(old.name);
  checkRolloverIndexName(indices, newIndex);
  const { results, met } = evaluateRolloverConditions(req.conditions, statsOf(old, req.sizeOf));
  if (!met || req.dryRun) return answer(old.name, newIndex, false, req.dryRun, results);
  await indices.create(newIndex, req.createBody);
  const def: AliasDefinition = old.meta.aliases[req.target] ?? {};
  const hidden: AliasDefinition = def.is_hidden === undefined ? {} : { is_hidden: def.is_hidden };
  await indices.updateAliases(def.is_write_index === true
    ? [
      { kind: 'add', indices: [old.name], aliases: [req.target], definition: { ...def, is_write_index: false } },
      { kind: 'add', indices: [newIndex], aliases: [req.target], definition: { ...hidden, is_write_index: true } },
    ]
    : [
      { kind: 'remove', indices: [old.name], aliases: [req.target] },
      { kind: 'add', indices: [newIndex], aliases: [req.target], definition: hidden },
    ]);
  return answer(old.name, newIndex, true, false, results);
}
