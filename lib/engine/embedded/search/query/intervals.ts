/**
 * The `intervals` query (Elasticsearch's IntervalQueryBuilder over Lucene's intervals): rules as
 * the request gives them, the interval sources they become against a field's analysis, and the
 * interval algebra both the executor and the document matcher run on one document's positions.
 *
 * Sources produce *minimal* intervals ([start, end] positions, sorted by start then end, none
 * containing another), as Lucene's do; a document matches when its source has one. Its score is
 * Lucene's IntervalScorer: a sloppy frequency (each interval weighs 1 / (its length beyond the
 * source's minimum extent + 1)) through the saturation function `boost · f / (f + 1)`.
 */
import { EsError } from '../../../../errors/index.js';
import { tokenName } from '../../../../ndjson/index.js';
import { INTERVAL_CONTEXT, compileScript, fromJson, parseScriptSpec, resolveScript, type ScriptSpec } from '../../painless/index.js';
import { boostOf, isObject, parseFuzziness, requiredFields } from './query-fields.js';
import { assertNever, type Fuzziness } from './query.js';
import { fuzzyPattern, wildcardPattern, type TermPattern } from './term-patterns.js';

export type IntervalRelation = 'containing' | 'contained_by' | 'not_containing' | 'not_contained_by' | 'overlapping' | 'not_overlapping' | 'before' | 'after';

const RELATIONS: readonly IntervalRelation[] = ['containing', 'contained_by', 'not_containing', 'not_contained_by', 'overlapping', 'not_overlapping', 'before', 'after'];

/** A rule's `filter`: a relation to the intervals of another rule, or a script over each interval. */
export type IntervalsFilter =
  | { relation: IntervalRelation; rule: IntervalsRule }
  | { script: ScriptSpec };

/** An intervals rule as the request gives it. */
export type IntervalsRule =
  | { kind: 'match'; query: string; maxGaps: number; ordered: boolean; analyzer?: string; useField?: string; filter?: IntervalsFilter }
  | { kind: 'prefix'; prefix: string; analyzer?: string; useField?: string }
  | { kind: 'wildcard'; pattern: string; analyzer?: string; useField?: string }
  | { kind: 'fuzzy'; term: string; fuzziness: Fuzziness; prefixLength: number; transpositions: boolean; analyzer?: string; useField?: string }
  | { kind: 'all_of'; rules: IntervalsRule[]; maxGaps: number; ordered: boolean; filter?: IntervalsFilter }
  | { kind: 'any_of'; rules: IntervalsRule[]; filter?: IntervalsFilter };

/** An interval source resolved against the analysis: leaves are terms (or term patterns) of a field. */
export type IntervalSource =
  | { kind: 'term'; field: string; term: string }
  | { kind: 'pattern'; field: string; pattern: TermPattern; maxExpansions: number }
  | { kind: 'none' }
  /** Consecutive sub-intervals (a phrase: `ordered` with no gaps). */
  | { kind: 'phrase'; subs: IntervalSource[] }
  | { kind: 'ordered' | 'unordered'; subs: IntervalSource[]; maxGaps: number }
  | { kind: 'or'; subs: IntervalSource[] }
  /** The source's intervals widened by `before` positions (a removed stop word ahead of a term). */
  | { kind: 'extend'; source: IntervalSource; before: number }
  | { kind: 'filtered'; source: IntervalSource; relation: IntervalRelation; filter: IntervalSource }
  /** The source's intervals a script accepts (`interval.start`, `interval.end`, `interval.gaps`). */
  | { kind: 'scripted'; source: IntervalSource; accepts: (iv: Interval) => boolean }
  /** The source's intervals ending before position `end` (span_first). */
  | { kind: 'first'; source: IntervalSource; end: number }
  /** The source's intervals no `exclude` interval comes within `pre` positions before or `post` after (span_not). */
  | { kind: 'not'; source: IntervalSource; exclude: IntervalSource; pre: number; post: number };

/** Whether a source reads a term pattern anywhere (its terms then depend on the index's term dictionary). */
export function holdsPattern(s: IntervalSource): boolean {
  switch (s.kind) {
    case 'pattern':
      return true;
    case 'term':
    case 'none':
      return false;
    case 'phrase':
    case 'ordered':
    case 'unordered':
    case 'or':
      return s.subs.some(holdsPattern);
    case 'extend':
    case 'scripted':
    case 'first':
      return holdsPattern(s.source);
    case 'filtered':
      return holdsPattern(s.source) || holdsPattern(s.filter);
    case 'not':
      return holdsPattern(s.source) || holdsPattern(s.exclude);
    default:
      return assertNever(s);
  }
}

export interface Interval {
  start: number;
  end: number;
  /** Positions between the sub-intervals (what `max_gaps` limits). */
  gaps: number;
}

/** Lucene's MultiTermIntervalsSource default: the most terms a prefix, wildcard or fuzzy rule expands to. */
export const MAX_INTERVAL_EXPANSIONS = 128;

function parsing(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

/** A rule's missing required field, as its object parser reports it. */
function required(name: string): EsError {
  const field = name === 'all_of' || name === 'any_of' ? 'intervals' : name === 'wildcard' ? 'pattern' : name === 'fuzzy' ? 'term' : name === 'prefix' ? 'prefix' : 'query';
  return requiredFields([field]);
}

function unknownField(rule: string, key: string): EsError {
  return new EsError(400, 'x_content_parse_exception', `[1:1] [${rule}] unknown field [${key}]`);
}

function checkKeys(rule: string, body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) if (!allowed.includes(k)) throw unknownField(rule, k);
}

function intOf(rule: string, key: string, v: unknown, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [${rule}] failed to parse field [${key}]`);
  return n;
}

function text(rule: string, key: string, v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new EsError(400, 'x_content_parse_exception', `[1:1] [${rule}] failed to parse field [${key}]`);
}

function optionalText(rule: string, key: string, v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : text(rule, key, v);
}

function parseFilter(raw: unknown): IntervalsFilter {
  if (!isObject(raw)) throw parsing(`Expected [START_OBJECT] but got [${tokenName(raw)}]`);
  const keys = Object.keys(raw);
  if (keys.length !== 1) throw parsing(keys.length ? `Expected [END_OBJECT] but got [FIELD_NAME]` : 'Expected [FIELD_NAME] but got [END_OBJECT]');
  const type = keys[0];
  if (type === 'script') return { script: parseScriptSpec(raw.script) };
  if (!RELATIONS.includes(type as IntervalRelation)) throw new EsError(400, 'illegal_argument_exception', `Unknown filter type [${type}]`);
  return { relation: type as IntervalRelation, rule: parseSingleRule(raw[type]) };
}

/** `{ "match": {…} }`: an object naming exactly one rule. */
function parseSingleRule(raw: unknown): IntervalsRule {
  if (!isObject(raw)) throw parsing(`Expected [START_OBJECT] but got [${tokenName(raw)}]`);
  const keys = Object.keys(raw);
  if (keys.length === 0) throw parsing('Expected [FIELD_NAME] but got [END_OBJECT]');
  if (keys.length > 1) throw parsing(`Expected [END_OBJECT] but got [FIELD_NAME]`);
  return parseRule(keys[0], raw[keys[0]]);
}

function parseRule(name: string, body: unknown): IntervalsRule {
  const known = ['match', 'any_of', 'all_of', 'prefix', 'wildcard', 'fuzzy'];
  if (!known.includes(name)) {
    if (name === 'regexp' || name === 'range') throw new EsError(400, 'illegal_argument_exception', `interval [${name}] rules are not supported by the embedded engine`);
    throw parsing(`Unknown interval type [${name}], expecting one of [match, any_of, all_of, prefix, wildcard, fuzzy]`);
  }
  if (!isObject(body)) throw parsing(`Expected [START_OBJECT] but got [${tokenName(body)}]`);
  const filter = body.filter === undefined || body.filter === null ? undefined : parseFilter(body.filter);
  switch (name) {
    case 'match':
      checkKeys(name, body, ['query', 'max_gaps', 'ordered', 'analyzer', 'filter', 'use_field']);
      if (body.query === undefined || body.query === null) throw required(name);
      return {
        kind: 'match', query: text(name, 'query', body.query), maxGaps: intOf(name, 'max_gaps', body.max_gaps, -1), ordered: body.ordered === true || body.ordered === 'true',
        analyzer: optionalText(name, 'analyzer', body.analyzer), useField: optionalText(name, 'use_field', body.use_field), filter,
      };
    case 'all_of':
    case 'any_of': {
      checkKeys(name, body, name === 'all_of' ? ['intervals', 'max_gaps', 'ordered', 'filter'] : ['intervals', 'filter']);
      if (body.intervals === undefined || body.intervals === null) throw required(name);
      const list = Array.isArray(body.intervals) ? body.intervals : [body.intervals];
      const rules = list.map(parseSingleRule);
      if (name === 'any_of') return { kind: 'any_of', rules, filter };
      return { kind: 'all_of', rules, maxGaps: intOf(name, 'max_gaps', body.max_gaps, -1), ordered: body.ordered === true || body.ordered === 'true', filter };
    }
    case 'prefix':
      checkKeys(name, body, ['prefix', 'analyzer', 'use_field']);
      if (body.prefix === undefined || body.prefix === null) throw required(name);
      return { kind: 'prefix', prefix: text(name, 'prefix', body.prefix), analyzer: optionalText(name, 'analyzer', body.analyzer), useField: optionalText(name, 'use_field', body.use_field) };
    case 'wildcard':
      checkKeys(name, body, ['pattern', 'analyzer', 'use_field']);
      if (body.pattern === undefined || body.pattern === null) throw required(name);
      return { kind: 'wildcard', pattern: text(name, 'pattern', body.pattern), analyzer: optionalText(name, 'analyzer', body.analyzer), useField: optionalText(name, 'use_field', body.use_field) };
    default:
      checkKeys(name, body, ['term', 'prefix_length', 'transpositions', 'fuzziness', 'analyzer', 'use_field']);
      if (body.term === undefined || body.term === null) throw required(name);
      return {
        kind: 'fuzzy', term: text(name, 'term', body.term), fuzziness: parseFuzziness(body.fuzziness) ?? { kind: 'auto', low: 3, high: 6 },
        prefixLength: intOf(name, 'prefix_length', body.prefix_length, 0), transpositions: body.transpositions !== false && body.transpositions !== 'false',
        analyzer: optionalText(name, 'analyzer', body.analyzer), useField: optionalText(name, 'use_field', body.use_field),
      };
  }
}

/** `{"intervals": {"<field>": {"<rule>": {…}, "boost", "_name"}}}`, refused as Elasticsearch refuses it. */
export function parseIntervalsQuery(body: unknown): { field: string; rule: IntervalsRule; boost: number } {
  if (!isObject(body)) throw parsing(`Expected [FIELD_NAME] but got [${tokenName(body)}]`);
  const fields = Object.keys(body);
  if (fields.length === 0) throw parsing('Expected [FIELD_NAME] but got [END_OBJECT]');
  if (fields.length > 1) throw parsing('Expected [END_OBJECT] but got [FIELD_NAME]');
  const field = fields[0];
  const spec = body[field];
  if (!isObject(spec)) throw parsing(`Expected [START_OBJECT] but got [${tokenName(spec)}]`);
  let rule: IntervalsRule | undefined;
  let ruleName: string | undefined;
  for (const [k, v] of Object.entries(spec)) {
    if (k === 'boost' || k === '_name') continue;
    if (ruleName !== undefined) throw parsing(`Only one interval rule can be specified, found [${ruleName}] and [${k}]`);
    ruleName = k;
    rule = parseRule(k, v);
  }
  if (!rule) throw parsing('Missing intervals from interval query definition');
  return { field, rule, boost: boostOf('intervals', spec.boost) };
}

/** The other fields a rule reads positions from (`use_field`). */
export function intervalsUseFields(rule: IntervalsRule): string[] {
  const own = 'useField' in rule && rule.useField !== undefined ? [rule.useField] : [];
  const inner = 'rules' in rule ? rule.rules.flatMap(intervalsUseFields) : [];
  const filtered = 'filter' in rule && rule.filter && 'rule' in rule.filter ? intervalsUseFields(rule.filter.rule) : [];
  return [...own, ...inner, ...filtered];
}

/** What lowering needs of the field's analysis. */
export interface IntervalsAnalysis {
  /** The field's tokens of `text` (the rule's analyzer, else the field's search analyzer): term and position. */
  analyze(field: string, text: string, analyzer?: string): Array<{ token: string; position: number }>;
  /** `text` as the analyzer normalizes a single term (prefix, wildcard, fuzzy). */
  normalize(field: string, text: string, analyzer?: string): string;
}

/** Lucene's IntervalBuilder.combineSources: ordered with no gaps is a phrase; -1 gaps is no limit. */
function combine(subs: IntervalSource[], maxGaps: number, ordered: boolean): IntervalSource {
  if (subs.length === 0) return { kind: 'none' };
  if (subs.length === 1) return subs[0];
  if (maxGaps === 0 && ordered) return { kind: 'phrase', subs };
  return { kind: ordered ? 'ordered' : 'unordered', subs, maxGaps };
}

function withFilter(source: IntervalSource, filter: IntervalsFilter | undefined, field: string, a: IntervalsAnalysis): IntervalSource {
  if (!filter) return source;
  if ('script' in filter) return { kind: 'scripted', source, accepts: intervalScript(filter.script) };
  return { kind: 'filtered', source, relation: filter.relation, filter: lowerIntervals(filter.rule, field, a) };
}

/** An interval filter script, run for each interval with `interval` (start, end, gaps) and `params`. */
function intervalScript(spec: ScriptSpec): (iv: Interval) => boolean {
  const resolved = resolveScript(spec);
  const script = compileScript(resolved.source, INTERVAL_CONTEXT, resolved.name);
  const params = fromJson(resolved.params);
  return (iv) => script.run({ params, interval: new Map<unknown, unknown>([['start', iv.start], ['end', iv.end], ['gaps', iv.gaps]]) }) === true;
}

/** A rule resolved against the field's analysis (ES's IntervalsSourceProvider.getSource). */
export function lowerIntervals(rule: IntervalsRule, field: string, a: IntervalsAnalysis): IntervalSource {
  switch (rule.kind) {
    case 'match': {
      const target = rule.useField ?? field;
      const tokens = a.analyze(target, rule.query, rule.analyzer);
      // Tokens at one position (synonyms) are alternatives; a position skipped (a stop word) widens the next term.
      const groups: Array<{ position: number; terms: string[] }> = [];
      for (const t of tokens) {
        const last = groups[groups.length - 1];
        if (last && last.position === t.position) last.terms.push(t.token);
        else groups.push({ position: t.position, terms: [t.token] });
      }
      const subs = groups.map((g, i): IntervalSource => {
        const terms: IntervalSource[] = g.terms.map((term) => ({ kind: 'term', field: target, term }));
        const source: IntervalSource = terms.length === 1 ? terms[0] : { kind: 'or', subs: terms };
        const skipped = i === 0 ? 0 : g.position - groups[i - 1].position - 1;
        return skipped > 0 ? { kind: 'extend', source, before: skipped } : source;
      });
      return withFilter(combine(subs, rule.maxGaps, rule.ordered), rule.filter, field, a);
    }
    case 'all_of':
      return withFilter(combine(rule.rules.map((r) => lowerIntervals(r, field, a)), rule.maxGaps, rule.ordered), rule.filter, field, a);
    case 'any_of': {
      const subs = rule.rules.map((r) => lowerIntervals(r, field, a));
      return withFilter(subs.length === 1 ? subs[0] : { kind: 'or', subs }, rule.filter, field, a);
    }
    case 'prefix': {
      const target = rule.useField ?? field;
      const prefix = a.normalize(target, rule.prefix, rule.analyzer);
      return { kind: 'pattern', field: target, pattern: { prefix, test: (t) => t.startsWith(prefix) }, maxExpansions: MAX_INTERVAL_EXPANSIONS };
    }
    case 'wildcard': {
      const target = rule.useField ?? field;
      return { kind: 'pattern', field: target, pattern: wildcardPattern(a.normalize(target, rule.pattern, rule.analyzer), false), maxExpansions: MAX_INTERVAL_EXPANSIONS };
    }
    case 'fuzzy': {
      const target = rule.useField ?? field;
      const pattern = fuzzyPattern(a.normalize(target, rule.term, rule.analyzer), rule.fuzziness, rule.prefixLength, rule.transpositions);
      return { kind: 'pattern', field: target, pattern, maxExpansions: MAX_INTERVAL_EXPANSIONS };
    }
  }
}

/** The leaves of a source (terms and patterns), each once, in a stable order. */
export function intervalLeaves(source: IntervalSource, out: Array<Extract<IntervalSource, { kind: 'term' | 'pattern' }>> = []): Array<Extract<IntervalSource, { kind: 'term' | 'pattern' }>> {
  switch (source.kind) {
    case 'term':
    case 'pattern':
      if (!out.includes(source)) out.push(source);
      return out;
    case 'none':
      return out;
    case 'extend':
    case 'scripted':
    case 'first':
      return intervalLeaves(source.source, out);
    case 'filtered':
      intervalLeaves(source.source, out);
      return intervalLeaves(source.filter, out);
    case 'not':
      intervalLeaves(source.source, out);
      return intervalLeaves(source.exclude, out);
    default:
      for (const s of source.subs) intervalLeaves(s, out);
      return out;
  }
}

/** The fewest positions an interval of the source can span (Lucene's IntervalsSource.minExtent). */
export function minExtent(source: IntervalSource): number {
  switch (source.kind) {
    case 'term':
    case 'pattern':
      return 1;
    case 'none':
      return 0;
    case 'extend':
      return minExtent(source.source) + source.before;
    case 'filtered':
    case 'scripted':
    case 'first':
    case 'not':
      return minExtent(source.source);
    case 'or':
      return Math.min(...source.subs.map(minExtent));
    default:
      return source.subs.reduce((n, s) => n + minExtent(s), 0);
  }
}

/** Drops every interval that contains another one, and sorts by start then end. */
function minimize(list: Interval[]): Interval[] {
  list.sort((x, y) => x.start - y.start || x.end - y.end);
  const out: Interval[] = [];
  for (const iv of list) {
    // Sorted by start: an interval contained in `iv` starts at or after it; one containing it came before.
    let contained = false;
    for (const o of out) if (o.start >= iv.start && o.end <= iv.end) contained = true;
    if (contained) continue;
    for (let k = out.length - 1; k >= 0; k--) if (out[k].start <= iv.start && out[k].end >= iv.end) out.splice(k, 1);
    if (!out.some((o) => o.start === iv.start && o.end === iv.end)) out.push(iv);
  }
  return out;
}

/** For each sub, the interval starting at or after `from` (after `after` when given) with the earliest end. */
function earliestEnd(list: Interval[], from: number): Interval | undefined {
  let best: Interval | undefined;
  for (const iv of list) if (iv.start >= from && (!best || iv.end < best.end)) best = iv;
  return best;
}

function orderedIntervals(lists: Interval[][], maxGaps: number, phrase: boolean): Interval[] {
  if (lists.some((l) => l.length === 0)) return [];
  const out: Interval[] = [];
  for (const first of lists[0]) {
    let prev = first;
    let gaps = 0;
    let ok = true;
    for (let i = 1; i < lists.length && ok; i++) {
      const next = phrase ? lists[i].find((iv) => iv.start === prev.end + 1) : earliestEnd(lists[i], prev.end + 1);
      if (!next) ok = false;
      else {
        gaps += next.start - prev.end - 1;
        prev = next;
      }
    }
    if (ok) out.push({ start: first.start, end: prev.end, gaps });
  }
  const minimal = minimize(out);
  return maxGaps < 0 ? minimal : minimal.filter((iv) => iv.gaps <= maxGaps);
}

function unorderedIntervals(lists: Interval[][], maxGaps: number): Interval[] {
  if (lists.some((l) => l.length === 0)) return [];
  const starts = [...new Set(lists.flat().map((iv) => iv.start))].sort((x, y) => x - y);
  const out: Interval[] = [];
  for (const s of starts) {
    const chosen: Interval[] = [];
    for (const l of lists) {
      const iv = earliestEnd(l, s);
      if (!iv) break;
      chosen.push(iv);
    }
    if (chosen.length !== lists.length) continue;
    const start = Math.min(...chosen.map((iv) => iv.start));
    const end = Math.max(...chosen.map((iv) => iv.end));
    const sorted = [...chosen].sort((x, y) => x.start - y.start);
    let gaps = 0;
    let reach = sorted[0].end;
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i].start > reach + 1) gaps += sorted[i].start - reach - 1;
      reach = Math.max(reach, sorted[i].end);
    }
    out.push({ start, end, gaps });
  }
  const minimal = minimize(out);
  return maxGaps < 0 ? minimal : minimal.filter((iv) => iv.gaps <= maxGaps);
}

function relates(iv: Interval, others: Interval[], relation: IntervalRelation): boolean {
  const any = (test: (o: Interval) => boolean) => others.some(test);
  switch (relation) {
    case 'containing':
      return any((o) => iv.start <= o.start && o.end <= iv.end);
    case 'not_containing':
      return !any((o) => iv.start <= o.start && o.end <= iv.end);
    case 'contained_by':
      return any((o) => o.start <= iv.start && iv.end <= o.end);
    case 'not_contained_by':
      return !any((o) => o.start <= iv.start && iv.end <= o.end);
    case 'overlapping':
      return any((o) => o.start <= iv.end && iv.start <= o.end);
    case 'not_overlapping':
      return !any((o) => o.start <= iv.end && iv.start <= o.end);
    case 'before':
      return any((o) => iv.end < o.start);
    case 'after':
      return any((o) => iv.start > o.end);
  }
}

/**
 * The minimal intervals of `source` in one document; `positionsOf` gives a leaf's positions there
 * (ascending). The same algebra runs for the executor and the document matcher.
 */
export function intervalsOf(source: IntervalSource, positionsOf: (leaf: Extract<IntervalSource, { kind: 'term' | 'pattern' }>) => readonly number[]): Interval[] {
  switch (source.kind) {
    case 'term':
    case 'pattern':
      return positionsOf(source).map((p) => ({ start: p, end: p, gaps: 0 }));
    case 'none':
      return [];
    case 'extend':
      return intervalsOf(source.source, positionsOf).map((iv) => ({ start: Math.max(0, iv.start - source.before), end: iv.end, gaps: iv.gaps }));
    case 'phrase':
      return orderedIntervals(source.subs.map((s) => intervalsOf(s, positionsOf)), 0, true);
    case 'ordered':
      return orderedIntervals(source.subs.map((s) => intervalsOf(s, positionsOf)), source.maxGaps, false);
    case 'unordered':
      return unorderedIntervals(source.subs.map((s) => intervalsOf(s, positionsOf)), source.maxGaps);
    case 'or':
      return minimize(source.subs.flatMap((s) => intervalsOf(s, positionsOf)));
    case 'filtered': {
      const own = intervalsOf(source.source, positionsOf);
      if (!own.length) return own;
      const others = intervalsOf(source.filter, positionsOf);
      return own.filter((iv) => relates(iv, others, source.relation));
    }
    case 'scripted':
      return intervalsOf(source.source, positionsOf).filter(source.accepts);
    case 'first':
      return intervalsOf(source.source, positionsOf).filter((iv) => iv.end < source.end);
    case 'not': {
      const own = intervalsOf(source.source, positionsOf);
      if (!own.length) return own;
      const excluded = intervalsOf(source.exclude, positionsOf);
      // Lucene's SpanNotQuery: an exclude span within [start - pre, end + post] of the include span removes it
      return own.filter((iv) => !excluded.some((ex) => ex.end >= iv.start - source.pre && ex.start <= iv.end + source.post));
    }
  }
}

const f = Math.fround;

/** IntervalScorer's score of a document's intervals: sloppy frequency through `boost · (1 − 1 / (1 + freq))`. */
export function intervalScore(intervals: Interval[], extent: number, boost: number): number {
  let freq = 0;
  for (const iv of intervals) freq = f(freq + f(1 / Math.max(iv.end - iv.start + 1 - extent + 1, 1)));
  return f(boost * f(1 - f(1 / f(1 + freq))));
}
