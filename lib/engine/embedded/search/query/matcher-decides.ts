/**
 * Whether the one-document matcher (live search streams) can decide a query from a changed
 * document's source alone. A query on what the source does not carry — the `_routing` a document
 * was written with — cannot be; the stream then asks the engine, never guesses.
 */
import type { Query } from './query.js';

const NOT_IN_SOURCE = new Set(['_routing']);

export function matcherDecides(query: Query): boolean {
  const seen = new Set<object>();
  const decides = (node: unknown): boolean => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return true;
    seen.add(node);
    if (Array.isArray(node)) return node.every(decides);
    const obj = node as Record<string, unknown>;
    if (typeof obj.field === 'string' && NOT_IN_SOURCE.has(obj.field)) return false;
    return Object.values(obj).every(decides);
  };
  return decides(query);
}
