/**
 * The `ctx` of update scripts (`_update`, scripted upserts, `_update_by_query`), with ES's rules
 * (CtxMap and its Metadata): `ctx._source` may be changed or replaced by another map; `ctx.op`
 * says what to do with the document; the other metadata (`_index`, `_id`, `_version`,
 * `_routing`, `_now`) is read-only, and no other key may be added.
 */
import { ScriptRuntimeError } from './script-error.js';
import type { CompiledScript } from './compile.js';
import { fromJson, markWrittenDoubles, toJson } from './json-values.js';
import { javaClassName, javaToString } from './values.js';

export type UpdateKind = 'update' | 'upsert' | 'update_by_query' | 'reindex';

/** What the script decided: its operation and the document's new source. */
export interface UpdateOutcome {
  op: 'index' | 'create' | 'delete' | 'noop';
  source: Record<string, unknown>;
  /** `_reindex` only: the metadata as the script left it (it may change the destination index, id, routing, version). */
  metadata?: { index: string; id: string | null; routing: string | null; version: number | null };
}

export interface UpdateInput {
  source: Record<string, unknown>;
  /** The source as stored (how its numbers were written: `2.0` is a double). */
  sourceText?: string;
  index: string;
  id: string;
  version: number;
  routing?: string;
  now: number;
}

interface Property {
  writable: boolean;
  /** The values `op` may take (update_by_query validates them on assignment). */
  valid?: string[];
  /** A number (`_version` in `_reindex`) rather than a string. */
  numeric?: boolean;
  nullable?: boolean;
}

const READ_ONLY: Property = { writable: false };

const PROPERTIES: Record<UpdateKind, Record<string, Property>> = {
  update: { _index: READ_ONLY, _id: READ_ONLY, _version: READ_ONLY, _routing: READ_ONLY, _type: READ_ONLY, _now: READ_ONLY, op: { writable: true } },
  upsert: { _index: READ_ONLY, _id: READ_ONLY, _version: READ_ONLY, _routing: READ_ONLY, _type: READ_ONLY, _now: READ_ONLY, op: { writable: true } },
  update_by_query: { _index: READ_ONLY, _id: READ_ONLY, _version: READ_ONLY, _routing: READ_ONLY, _now: READ_ONLY, op: { writable: true, valid: ['noop', 'index', 'delete'] } },
  // ES's ReindexMetadata: the destination's index, id, routing and version are the script's to change
  reindex: {
    _index: { writable: true, nullable: false }, _id: { writable: true, nullable: true }, _version: { writable: true, numeric: true, nullable: true },
    _routing: { writable: true, nullable: true }, _now: READ_ONLY, op: { writable: true, valid: ['noop', 'index', 'delete'] },
  },
};

function illegal(message: string): never {
  throw new ScriptRuntimeError('illegal_argument_exception', message);
}

/** A Map whose writes are checked as ES's CtxMap checks them. */
class CtxMap extends Map<unknown, unknown> {
  constructor(
    private readonly properties: Record<string, Property>,
    initial: Array<[string, unknown]>,
  ) {
    super();
    for (const [k, v] of initial) super.set(k, v);
  }

  override set(key: unknown, value: unknown): this {
    if (typeof key === 'string' && key in this.properties) {
      const p = this.properties[key];
      if (!p.writable) illegal(`${key} cannot be updated`);
      if ((value === null || value === undefined) && p.nullable === false) illegal(`${key} cannot be null`);
      if (p.numeric) {
        if (value !== null && value !== undefined && typeof value !== 'number' && typeof value !== 'bigint') {
          illegal(`${key} [${javaToString(value)}] is wrong type, expected assignable to [java.lang.Number], not [${javaClassName(value)}]`);
        }
        return super.set(key, value);
      }
      if (value !== null && value !== undefined && typeof value !== 'string') {
        illegal(`${key} [${javaToString(value)}] is wrong type, expected assignable to [java.lang.String], not [${javaClassName(value)}]`);
      }
      if (p.valid && !p.valid.includes(value as string)) illegal(`[${key}] must be one of ${[...p.valid].sort().join(', ')}, not [${javaToString(value)}]`);
      return super.set(key, value);
    }
    if (key === '_source') {
      if (!(value instanceof Map)) {
        illegal(`Expected [_source] to be a Map, not [${javaToString(value)}]${value === null || value === undefined ? '' : ` with type [${javaClassName(value)}]`}`);
      }
      return super.set(key, value);
    }
    return illegal(`Cannot put key [${javaToString(key)}] with value [${javaToString(value)}] into ctx`);
  }

  override delete(key: unknown): boolean {
    if (key === '_source') throw new ScriptRuntimeError('unsupported_operation_exception', 'Cannot remove key _source from ctx');
    if (typeof key === 'string' && key in this.properties) {
      if (!this.properties[key].writable) illegal(`${key} cannot be removed`);
    }
    return super.delete(key);
  }

  override clear(): void {
    for (const key of Object.keys(this.properties)) if (super.has(key)) this.delete(key);
    this.delete('_source');
  }
}

/** Runs an update script on one document and reads back what it decided. */
export function runUpdateScript(script: CompiledScript, params: unknown, kind: UpdateKind, input: UpdateInput): UpdateOutcome {
  if (input.sourceText !== undefined) markWrittenDoubles(input.source, input.sourceText);
  const source = fromJson(input.source) as Map<unknown, unknown>;
  const initialOp = kind === 'upsert' ? 'create' : 'index';
  const entries: Array<[string, unknown]> = [
    ['op', initialOp], ['_index', input.index], ['_id', input.id], ['_version', input.version], ['_routing', input.routing ?? null], ['_now', input.now],
  ];
  if (kind !== 'update_by_query') entries.push(['_type', '_doc']);
  entries.push(['_source', source]);
  const ctx = new CtxMap(PROPERTIES[kind], entries);
  script.run({ params, ctx });
  const newSource = toJson(ctx.get('_source')) as Record<string, unknown>;
  const op = ctx.get('op');
  if (kind === 'upsert') return { op: op === 'create' ? 'create' : 'noop', source: newSource };
  if (kind === 'reindex') {
    const str = (k: string): string | null => (ctx.get(k) === null || ctx.get(k) === undefined ? null : String(ctx.get(k)));
    const version = ctx.get('_version');
    const metadata = { index: str('_index') ?? input.index, id: str('_id'), routing: str('_routing'), version: version === null || version === undefined ? null : Number(version) };
    return { op: op === 'index' ? 'index' : op === 'delete' ? 'delete' : 'noop', source: newSource, metadata };
  }
  // Anything but index or delete leaves the document alone (UpdateHelper's lenient reading of op).
  return { op: op === 'index' ? 'index' : op === 'delete' ? 'delete' : 'noop', source: newSource };
}
