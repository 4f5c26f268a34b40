import jexlModule from 'jexl';
import { LRUCache } from 'lru-cache';
import { RE2JS, RE2Set } from 're2js';
import { patternsCover } from '../auth/classify/index.js';
import { compileLinear, InvalidPatternError } from '../engine/embedded/regex/index.js';
import { TimeSlice } from '../cooperative/index.js';
import { EsError } from '../errors/index.js';
import { simpleMatch } from '../wildcard/index.js';
import type { QueryRule } from './rule.js';

/** Case- and accent-insensitive form of a search text or trigger value, with no analyzer: NFKD, marks dropped, lower case, spaces collapsed. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** What a search offers the rules: its index, its text, the facet values it selects, the time. */
export interface SearchSituation {
  index: string;
  /** The search text as typed ('' when none). */
  query: string;
  /** Selected facet values by field. */
  filters: ReadonlyMap<string, ReadonlyArray<string | number | boolean>>;
  /** Epoch seconds. */
  now: number;
}

/** What compiling a rule gives, whatever its place in the order. */
interface CompiledTrigger {
  folded?: string;
  regex?: RE2JS;
  expression?: { evalSync(context: Record<string, unknown>): unknown };
}

interface CompiledRule extends CompiledTrigger {
  rule: QueryRule;
  /** Position in evaluation order. */
  order: number;
}

/**
 * The candidates of one index, by trigger: an exact text or a selected facet value is a map
 * lookup; the `matches` triggers are one RE2 set (one automaton, a DFA whose states are cached,
 * run once over the text, instead of one regex run per rule); the other operators are cheap
 * string tests, one by one.
 */
interface IndexRules {
  is: Map<string, CompiledRule[]>;
  filter: Map<string, CompiledRule[]>;
  scanned: CompiledRule[];
  /** The `matches` rules, and the key of their set (indices with the same rules share one). */
  patterns: CompiledRule[];
  patternsKey: string;
}

/**
 * The `matches` triggers of one index as a few matchers, each of at most PATTERNS_PER_SET patterns
 * (one RE2 set, one automaton, a DFA whose states are cached, run once over the text, instead of
 * one regex run per rule). A set is built on the first search that needs it, unless
 * `compileAhead` built it a slice at a time after the rules changed (sets are shared by their
 * patterns: `builtSets`); one set of 2,000 patterns built in one piece held the event loop ~140 ms.
 */
class PatternSet {
  private readonly chunks: Array<{ rules: CompiledRule[]; patterns: string[] }> = [];

  constructor(readonly rules: readonly CompiledRule[]) {
    for (let i = 0; i < rules.length; i += PATTERNS_PER_SET) {
      const chunk = rules.slice(i, i + PATTERNS_PER_SET);
      this.chunks.push({ rules: chunk, patterns: chunk.map((c) => c.rule.trigger.value!) });
    }
  }

  /** The rules whose pattern is found in any of `texts`. */
  matching(texts: string[]): CompiledRule[] {
    const hits: CompiledRule[] = [];
    for (const { rules: chunk, patterns } of this.chunks) {
      const set = patternSetOf(patterns);
      const found = new Set<number>();
      if (set) {
        for (const text of texts) for (const i of set.match(text)) found.add(i);
      } else {
        // patterns too large to combine: one by one, as each was compiled
        chunk.forEach((c, i) => {
          if (texts.some((text) => c.regex!.matcher(text).find())) found.add(i);
        });
      }
      for (const i of [...found].sort((a, b) => a - b)) hits.push(chunk[i]);
    }
    return hits;
  }
}

/** Patterns in one RE2 set at most: a set is built (and first run) in one piece. */
const PATTERNS_PER_SET = 64;

/** RE2 sets by their patterns (null: too large to combine), shared by the rule sets that hold them: DFA memory ≤ this × SET_DFA_BYTES. */
const builtSets = new LRUCache<string, { set: RE2Set | null }>({ max: 256 });

function patternSetOf(patterns: string[]): RE2Set | null {
  return builtSetOf(patterns).set;
}

/** The set of `patterns`, and whether it was built by this call. */
function builtSetOf(patterns: string[]): { set: RE2Set | null; fresh: boolean } {
  const key = patterns.join('\u0000');
  const built = builtSets.get(key);
  if (built) return { set: built.set, fresh: false };
  const set = buildSet(patterns);
  builtSets.set(key, { set });
  return { set, fresh: true };
}

function buildSet(patterns: string[]): RE2Set | null {
  const set = new RE2Set(RE2Set.UNANCHORED, RE2JS.CASE_INSENSITIVE, SET_DFA_BYTES);
  try {
    for (const p of patterns) set.add(p);
    set.compile();
    return set;
  } catch {
    return null;
  }
}

/**
 * Compiles `rules` (each rule's trigger, and the pattern sets of their `matches` triggers in
 * evaluation order, as a RuleSet of them chunks them for an index that all of them apply to) a
 * slice of the event loop at a time, so that the RuleSet built from them after a change finds
 * its work done: 2,000 `matches` rules compiled in one piece held the loop ~140 ms, and their set
 * as long again at the first search.
 */
export async function compileAhead(rules: readonly QueryRule[]): Promise<void> {
  const slice = new TimeSlice();
  const patterns: string[] = [];
  for (const rule of rules) {
    if (!rule.enabled) continue;
    await slice.pause();
    try {
      compile(rule, 0);
    } catch {
      continue; // the RuleSet logs it
    }
    if (rule.trigger.type === 'query' && rule.trigger.operator === 'matches') patterns.push(rule.trigger.value!);
  }
  for (let i = 0; i < patterns.length; i += PATTERNS_PER_SET) {
    await slice.pause();
    const { set, fresh } = builtSetOf(patterns.slice(i, i + PATTERNS_PER_SET));
    if (!fresh) continue; // built (and warmed) by an earlier compile
    await slice.pause();
    // its DFA's states are built as texts are read: a run over a text of words and digits builds
    // the common ones now, rather than in the first search (2,000 patterns: ~100 ms of it)
    set?.match(WARMING_TEXT);
  }
}

/** Words, digits, spaces and punctuation, as search texts hold them. */
const WARMING_TEXT = `${Array.from({ length: 120 }, (_, i) => `word${i} ${i * 37} ${String.fromCharCode(97 + (i % 26)).repeat(1 + (i % 5))}`).join(' ')} - _ . , ; : ! ? ' " ( ) / & + # @ é ü ß`;

/** DFA state memory of one pattern set (past it, RE2 runs the set as an NFA: slower, as bounded). */
const SET_DFA_BYTES = 1024 * 1024;
/** Pattern sets kept per rule set (indices with the same `matches` rules share one). */
const MAX_PATTERN_SETS = 32;

/** Each rule compiled once while it is unchanged (a stored rule object is replaced when the rule changes). */
const compiledTriggers = new WeakMap<QueryRule, CompiledTrigger>();

const Jexl = (jexlModule as unknown as { Jexl: new () => { compile(expr: string): { evalSync(context: Record<string, unknown>): unknown } } }).Jexl;
/** A jexl instance with no transforms or functions added: expressions compare and combine values, nothing else. */
const jexl = new Jexl();

const filterKey = (field: string, value: string | number | boolean) => `${field}\u0000${typeof value === 'string' ? fold(value) : String(value)}`;

/** Compiles a rule's `matches` pattern and `expression`; a 400 naming the member when either is wrong. */
function compile(rule: QueryRule, order: number): CompiledRule {
  let trigger = compiledTriggers.get(rule);
  if (!trigger) {
    trigger = compileTrigger(rule);
    compiledTriggers.set(rule, trigger);
  }
  return { ...trigger, rule, order };
}

function compileTrigger(rule: QueryRule): CompiledTrigger {
  const out: CompiledTrigger = {};
  const t = rule.trigger;
  if (t.type === 'query' && t.value !== undefined) {
    if (t.operator === 'matches') {
      try {
        out.regex = compileLinear(t.value, RE2JS.CASE_INSENSITIVE, t.value);
      } catch (err) {
        if (err instanceof InvalidPatternError) throw new EsError(400, 'illegal_argument_exception', `trigger.value: invalid regular expression [${t.value}]: ${err.message}`);
        throw err;
      }
    } else {
      out.folded = fold(t.value);
    }
  }
  if (t.expression !== undefined) {
    try {
      out.expression = jexl.compile(t.expression);
    } catch (err) {
      throw new EsError(400, 'illegal_argument_exception', `trigger.expression: ${(err as Error).message}`);
    }
  }
  return out;
}

/** Checks that a rule's pattern and expression compile (400 otherwise). */
export function checkCompiles(rule: QueryRule): void {
  compileTrigger(rule);
}

/** The index patterns a rule applies to: its own, within its owner's. */
function appliesTo(rule: QueryRule, index: string): boolean {
  const owner = rule.owner;
  if (owner && !patternsCover(owner.indices, index)) return false;
  const patterns = rule.trigger.indices;
  return patterns === undefined || patterns.some((p) => simpleMatch(p, index));
}

/**
 * The enabled rules in evaluation order, indexed so that a search meets only the rules of its
 * index, and among them finds `is` triggers and filter triggers by lookup; only the other
 * operators are tested one by one. Immutable: a change builds a new set.
 */
export class RuleSet {
  private readonly compiled: CompiledRule[];
  private readonly byIndex = new Map<string, IndexRules>();
  private readonly patternSets = new LRUCache<string, PatternSet>({ max: MAX_PATTERN_SETS });

  constructor(rules: readonly QueryRule[], private readonly log: (line: string) => void = () => {}) {
    this.compiled = [];
    rules.forEach((rule, order) => {
      if (!rule.enabled) return;
      try {
        this.compiled.push(compile(rule, order));
      } catch (err) {
        this.log(`rule [${rule.id}] not applied: ${(err as Error).message}`);
      }
    });
  }

  get size(): number {
    return this.compiled.length;
  }

  /** The rules that fire for this search, in evaluation order. */
  matching(situation: SearchSituation): QueryRule[] {
    const rules = this.rulesOf(situation.index);
    const query = fold(situation.query);
    const found: CompiledRule[] = [];
    const exact = rules.is.get(query);
    if (exact) found.push(...exact);
    for (const [field, values] of situation.filters) {
      for (const v of values) {
        const hit = rules.filter.get(filterKey(field, v));
        if (hit) found.push(...hit);
      }
    }
    for (const c of rules.scanned) if (textMatches(c, query)) found.push(c);
    if (rules.patterns.length) found.push(...this.patternSetOf(rules).matching(query === situation.query ? [query] : [situation.query, query]));
    const fired = found.filter((c) => conditionsHold(c, situation));
    fired.sort((a, b) => a.order - b.order);
    return dedupe(fired).map((c) => c.rule);
  }

  private rulesOf(index: string): IndexRules {
    let rules = this.byIndex.get(index);
    if (rules) return rules;
    rules = { is: new Map(), filter: new Map(), scanned: [], patterns: [], patternsKey: '' };
    for (const c of this.compiled) {
      if (!appliesTo(c.rule, index)) continue;
      const t = c.rule.trigger;
      if (t.type === 'query' && t.operator === 'is') push(rules.is, c.folded!, c);
      else if (t.type === 'filter') push(rules.filter, filterKey(t.filter!.field, t.filter!.value), c);
      else if (t.type === 'query' && t.operator === 'matches') rules.patterns.push(c);
      else rules.scanned.push(c);
    }
    rules.patternsKey = rules.patterns.map((c) => c.order).join(',');
    if (this.byIndex.size > 10_000) this.byIndex.clear(); // bounded: indices named by searches are not
    this.byIndex.set(index, rules);
    return rules;
  }

  private patternSetOf(rules: IndexRules): PatternSet {
    let set = this.patternSets.get(rules.patternsKey);
    if (!set) {
      set = new PatternSet(rules.patterns);
      this.patternSets.set(rules.patternsKey, set);
    }
    return set;
  }
}

function push(map: Map<string, CompiledRule[]>, key: string, c: CompiledRule): void {
  const list = map.get(key);
  if (list) list.push(c);
  else map.set(key, [c]);
}

function dedupe(list: CompiledRule[]): CompiledRule[] {
  return list.filter((c, i) => i === 0 || list[i - 1] !== c);
}

/** The text part of a trigger that is neither a lookup nor a pattern. */
function textMatches(c: CompiledRule, folded: string): boolean {
  const t = c.rule.trigger;
  if (t.type !== 'query') return true; // always
  switch (t.operator) {
    case 'contains':
      return folded.includes(c.folded!);
    case 'starts_with':
      return folded.startsWith(c.folded!);
    case 'ends_with':
      return folded.endsWith(c.folded!);
    default:
      return false;
  }
}

function conditionsHold(c: CompiledRule, s: SearchSituation): boolean {
  const tf = c.rule.trigger.timeframe;
  if (tf?.start_time !== undefined && s.now < tf.start_time) return false;
  if (tf?.end_time !== undefined && s.now > tf.end_time) return false;
  if (!c.expression) return true;
  const filter: Record<string, unknown> = {};
  for (const [field, values] of s.filters) filter[field] = values.length === 1 ? values[0] : [...values];
  try {
    return c.expression.evalSync({ $query: s.query, $index: s.index, $filter: filter, $now: s.now }) === true;
  } catch {
    return false; // an expression that cannot be evaluated for this search does not fire
  }
}
