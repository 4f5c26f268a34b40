import { simpleMatch } from '../../../wildcard/index.js';
import { filterSource } from '../search/source-filter.js';
import { HIDDEN_MEMBERS } from './field-subset.js';

/** A credential's field rules as the engine applies them: the fields a caller may see of `_source`. */
export interface FieldRules {
  /** Only these (path patterns) are shown, when given. */
  include?: readonly string[];
  /** These (path patterns) are never shown. */
  exclude?: readonly string[];
}

/**
 * The engine's own application of field rules to an answer it built (Elasticsearch's field-level
 * security, as a second line behind the gateway's check): every document in it — a hit, an inner
 * or top hit, a `get`, an `_mget` doc, an `_msearch` response's hits — loses the hidden fields of
 * its `_source`, and of its `fields` and `highlight`. The answer is changed in place; true when
 * anything was hidden here, or a `_source` shows a document as the engine's view read it (without
 * its hidden fields, HIDDEN_MEMBERS) with nothing narrowing it on the way: the gateway let a
 * hidden field through.
 */
export function hideFields(answer: unknown, rules: FieldRules): boolean {
  const filter = { fetch: true, includes: [...(rules.include ?? [])], excludes: [...(rules.exclude ?? [])] };
  const shown = (field: string) =>
    !filter.excludes.some((p) => matchesPath(p, field)) && (!filter.includes.length || filter.includes.some((p) => matchesPath(p, field) || p.startsWith(`${field}.`)));
  let hid = false;
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Record<string, unknown>;
    for (const [key, member] of Object.entries(node)) {
      if (key === '_source' && member !== null && typeof member === 'object' && !Array.isArray(member)) {
        const source = member as Record<string, unknown>;
        const kept = filterSource(source, filter) ?? {};
        // hidden where the document was read (fieldSubsetView), and shown as read: nothing narrowed it on the way
        if (HIDDEN_MEMBERS in source) hid = true;
        if (kept !== source && countLeaves(kept) !== countLeaves(source)) hid = true;
        node._source = kept;
      } else if ((key === 'fields' || key === 'highlight') && member !== null && typeof member === 'object' && !Array.isArray(member) && '_id' in node) {
        for (const field of Object.keys(member)) {
          if (shown(field)) continue;
          delete (member as Record<string, unknown>)[field];
          hid = true;
        }
      } else walk(member);
    }
  };
  walk(answer);
  return hid;
}

/** A path pattern matches a field and everything under it (`user` hides `user.name`). */
function matchesPath(pattern: string, field: string): boolean {
  return simpleMatch(pattern, field) || (field.length > pattern.length && field.startsWith(pattern) && field[pattern.length] === '.') || simpleMatch(`${pattern}.*`, field);
}

function countLeaves(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countLeaves(v), 0);
  if (value === null || typeof value !== 'object') return 1;
  let n = 0;
  for (const v of Object.values(value as Record<string, unknown>)) n += countLeaves(v);
  return n;
}
