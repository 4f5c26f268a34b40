import { simpleMatch } from '../../../../wildcard/index.js';
import type { StoredScripts } from '../../painless/index.js';
import type { Work, WorkBudget } from '../work-budget.js';

/**
 * Values of a parsed request looked at before giving up and answering that it may read anything.
 * The walk pauses with its budget, so this bounds its work, not a block of the event loop; past
 * it every runtime field counts as read, and computing them may cost far more (a range
 * aggregation of 100,000 ranges, ~200,000 values, computed a heavy runtime field of the mappings
 * for every document until the search's timeout).
 */
const MAX_VISITS = 2_000_000;

/** Values walked between two looks at the budget's clock. */
const VISITS_PER_CHECK = 2048;

/**
 * Which fields a parsed search request may read, from the text it holds: a field is read when a
 * string of the request (a member name, a `field`, a `fields` entry, a script's source — a stored
 * script's too —, a query_string's text) contains its name, or is a pattern (`*`) matching it.
 *
 * Contract: never answers false for a field the request reads by name; may answer true for one it
 * does not (a name that is a substring of another, a word of a query text). Only arrays, plain
 * objects, maps and sets are walked (what the request parsers build); past MAX_VISITS values, or
 * every field counts as read (a value met again is not walked again). A large request (60,000 ranges) is walked a
 * slice at a time: the work pauses when the budget says its slice is used up.
 */
export function* fieldsMentionedBy(request: unknown, stored: StoredScripts | undefined, budget: WorkBudget): Work<(name: string) => boolean> {
  const strings = new Set<string>();
  // a Set, not a WeakSet: it lives for this walk only, and a WeakSet of a large request's objects costs
  // several times as much (a request of 60,000 ranges: ~40 ms of the event loop)
  const seen = new Set<object>();
  const stack: unknown[] = [request];
  let visits = 0;
  const add = (s: string) => void strings.add(s);
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      add(v);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    // a value reached again (held in two places, or a cycle) holds the strings already taken
    if (seen.has(v)) continue;
    if (++visits > MAX_VISITS) return () => true;
    if (visits % VISITS_PER_CHECK === 0 && budget.check()) yield;
    seen.add(v);
    if (Array.isArray(v) || v instanceof Set) {
      for (const item of v) stack.push(item);
    } else if (v instanceof Map) {
      for (const [k, item] of v) stack.push(k, item);
    } else {
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) continue;
      const record = v as Record<string, unknown>;
      for (const k of Object.keys(record)) {
        add(k);
        stack.push(record[k]);
      }
      // a stored script's source reads what it names too
      if (typeof record.id === 'string' && stored) {
        const script = stored.get(record.id);
        if (script) add(script.source);
      }
    }
  }
  const texts = [...strings];
  return (name) => texts.some((s) => s.includes(name) || (s.includes('*') && simpleMatch(s, name)));
}
