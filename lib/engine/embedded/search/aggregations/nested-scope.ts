import type { NestedIndex } from '../../index/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { fieldType, resolveFieldMapping } from '../../mapping/index.js';
import type { Segment } from './types.js';

/**
 * Nested objects as aggregations see them: a segment of an index's nested objects at one path is a
 * segment whose handle is a *level view* of the index — the same index (name, mappings, stored
 * documents) whose `inverted` is the nested objects' own index. Every aggregation then reads
 * `comments.author` from the nested objects without knowing it is nested; only `nested`,
 * `reverse_nested` and `top_hits` ask which level a segment is at.
 */
interface Level {
  /** The nested path of this level (full dotted path). */
  path: string;
  /** The level the objects are nested in (the index itself at the top). */
  parent: IndexHandle;
  nested: NestedIndex;
}

const levels = new WeakMap<IndexHandle, Level>();
/** One view per nested index, so that caches keyed by handle (filter matches) are shared. */
const views = new WeakMap<NestedIndex, IndexHandle>();

function viewOf(parent: IndexHandle, path: string, nested: NestedIndex): IndexHandle {
  let view = views.get(nested);
  if (view === undefined || levels.get(view)!.parent !== parent) {
    view = Object.create(parent, { inverted: { value: nested.index, enumerable: true } }) as IndexHandle;
    views.set(nested, view);
    levels.set(view, { path, parent, nested });
  }
  return view;
}

/** The nested paths from the top of the index down to a segment's level (empty at the top). */
export function levelPaths(handle: IndexHandle): string[] {
  const out: string[] = [];
  for (let level = levels.get(handle); level; level = levels.get(level.parent)) out.unshift(level.path);
  return out;
}

export type PathMapping = 'nested' | 'object' | 'unmapped';

/** What `path` is in an index's mappings: a nested object, another object, or nothing of either. */
export function pathMapping(handle: IndexHandle, path: string): PathMapping {
  const m = resolveFieldMapping(handle.mappings, path);
  if (!m) return 'unmapped';
  const type = fieldType(m);
  return type === 'nested' ? 'nested' : type === 'object' ? 'object' : 'unmapped';
}

/** The nested levels a path goes through, top first, ending with the path itself when it is nested. */
export function nestedChain(handle: IndexHandle, path: string): string[] {
  const parts = path.split('.');
  const out: string[] = [];
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join('.');
    if (pathMapping(handle, prefix) === 'nested') out.push(prefix);
  }
  return out;
}

/** The objects at `path` of each document of a segment (one level down), in ordinal order. */
function down(seg: Segment, path: string): Segment {
  const nested = seg.handle.inverted!.nested(path);
  if (!nested || seg.ords.length === 0) return { handle: nested ? viewOf(seg.handle, path, nested) : seg.handle, ords: [], scores: seg.scores && new Map() };
  const marked = new Uint8Array(seg.handle.inverted!.maxOrd);
  for (const ord of seg.ords) marked[ord] = 1;
  const ords: number[] = [];
  // Nested objects carry their document's score (as ES's nested aggregator replays the parent's).
  const scores = seg.scores && new Map<number, number>();
  const parentOf = nested.parentOf;
  for (const child of nested.index.liveOrdinals()) {
    const parent = parentOf[child];
    if (marked[parent] !== 1) continue;
    ords.push(child);
    scores?.set(child, seg.scores!.get(parent) ?? 0);
  }
  return { handle: viewOf(seg.handle, path, nested), ords, scores };
}

/** The distinct documents (or outer objects) that a segment's nested objects belong to. */
function up(seg: Segment): Segment {
  const level = levels.get(seg.handle)!;
  const parentOf = level.nested.parentOf;
  const seen = new Set<number>();
  const scores = seg.scores && new Map<number, number>();
  for (const ord of seg.ords) {
    const parent = parentOf[ord];
    if (seen.has(parent)) continue;
    seen.add(parent);
    scores?.set(parent, seg.scores!.get(ord) ?? 0);
  }
  return { handle: level.parent, ords: [...seen].sort((a, b) => a - b), scores };
}

/**
 * A segment moved to another nesting level: up to the deepest level both share, then down along
 * `target` (the nested paths from the top, as `nestedChain` gives them). Going up counts each
 * document once however many of its objects were in the segment; going down gives every object.
 */
export function moveTo(seg: Segment, target: string[]): Segment {
  const current = levelPaths(seg.handle);
  let shared = 0;
  while (shared < current.length && shared < target.length && current[shared] === target[shared]) shared++;
  let out = seg;
  for (let i = current.length; i > shared; i--) out = up(out);
  for (let i = shared; i < target.length; i++) out = down(out, target[i]);
  return out;
}

/** Where a nested object sits in its document's `_source`, as ES shows it in a hit's `_nested`. */
export interface NestedIdentity {
  field: string;
  offset: number;
  _nested?: NestedIdentity;
}

/** The identity of a segment's object (undefined for a top-level document). */
export function nestedIdentity(handle: IndexHandle, ord: number): NestedIdentity | undefined {
  const level = levels.get(handle);
  if (!level) return undefined;
  const parentOf = level.nested.parentOf;
  const parent = parentOf[ord];
  // The objects of one document are consecutive ordinals, in source order.
  let offset = 0;
  while (ord - offset - 1 >= 0 && parentOf[ord - offset - 1] === parent) offset++;
  const outer = levels.get(level.parent);
  const own: NestedIdentity = { field: outer ? level.path.slice(outer.path.length + 1) : level.path, offset };
  const above = nestedIdentity(level.parent, parent);
  if (!above) return own;
  let innermost = above;
  while (innermost._nested) innermost = innermost._nested;
  innermost._nested = own;
  return above;
}

/** The `_source` of a nested object, cut out of its document's source along its identity. */
export function nestedSource(source: unknown, identity: NestedIdentity | undefined): unknown {
  let at: unknown = source;
  for (let id = identity; id; id = id._nested) {
    for (const key of id.field.split('.')) at = at !== null && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
    at = Array.isArray(at) ? at[id.offset] : id.offset === 0 ? at : undefined;
  }
  return at;
}

/**
 * The document's source with, at each nested level of `identity`, only the one object it names,
 * under its full path: ES's fetch phase gives a nested hit's highlighters this source, so that
 * `path.field` reads the hit's own object and not its siblings'.
 */
export function nestedObjectOnly(source: unknown, identity: NestedIdentity | undefined): unknown {
  if (!identity) return source;
  let at: unknown = source;
  const keys = identity.field.split('.');
  for (const key of keys) at = at !== null && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
  at = Array.isArray(at) ? at[identity.offset] : identity.offset === 0 ? at : undefined;
  let out: unknown = nestedObjectOnly(at, identity._nested);
  for (let i = keys.length - 1; i >= 0; i--) out = { [keys[i]]: out };
  return out;
}

/** The level a view is of: its path, the level above and each object's holder in it; undefined for an index itself. */
export function levelOf(view: IndexHandle): { path: string; parent: IndexHandle; parentOf: Int32Array } | undefined {
  const level = levels.get(view);
  return level && { path: level.path, parent: level.parent, parentOf: level.nested.parentOf };
}

/**
 * The ordinal, in `ancestor` (a level above, or the index itself), of the document or object that
 * holds the object `ord` of the level `handle`; undefined when `ancestor` is not above it.
 */
export function ancestorOrd(handle: IndexHandle, ord: number, ancestor: IndexHandle): number | undefined {
  let at = handle;
  let o = ord;
  while (at !== ancestor) {
    const level = levels.get(at);
    if (!level) return undefined;
    o = level.nested.parentOf[o];
    at = level.parent;
  }
  return o;
}

/** The level view of `path` (the nested paths from the top, as `nestedChain` gives them) below `handle`. */
export function levelView(handle: IndexHandle, target: string[]): IndexHandle {
  return moveTo({ handle, ords: [] }, target).handle;
}
