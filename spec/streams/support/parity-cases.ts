import fc from 'fast-check';

/**
 * Generated cases for the live-search parity property: a mapping (each field's type drawn from a
 * few that matter to matching, some fields left to dynamic mapping), the documents an index holds
 * when the searches start, the searches (query trees of every kind the stream matcher decides, and
 * some it must leave to the engine), and the writes that follow.
 */

export interface ParityCase {
  mappings: { properties: Record<string, unknown> };
  initial: Array<[string, Record<string, unknown>]>;
  queries: unknown[];
  writes: Write[];
}

export type Write =
  | { op: 'index'; id: string; source: Record<string, unknown> }
  | { op: 'update'; id: string; doc: Record<string, unknown>; upsert: boolean }
  | { op: 'delete'; id: string };

const WORDS = ['red', 'green', 'blue', 'apple', 'apples', 'pear', 'fast', 'running', 'runs', 'car'];
const TAGS = ['a', 'b', 'Cd', 'cd', 'e-f'];
const IDS = ['0', '1', '2', '3', '4', '5', '6', '7'];
const day = (k: number) => new Date(Date.UTC(2020, 0, 1 + k)).toISOString().slice(0, 10);

const word = fc.constantFrom(...WORDS);
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((ws) => ws.join(' '));
const tag = fc.constantFrom(...TAGS);
const small = fc.integer({ min: -3, max: 12 });
const date = fc.integer({ min: 0, max: 40 }).map(day);
const id = fc.constantFrom(...IDS);

/** Which type each field gets (or none: dynamic mapping decides on the first write that has it). */
const fieldMappings = fc.record({
  title: fc.constantFrom<unknown>({ type: 'text' }, { type: 'text', analyzer: 'english' }, { type: 'text', fields: { raw: { type: 'keyword' } } }, { type: 'keyword' }, undefined),
  tag: fc.constantFrom<unknown>({ type: 'keyword' }, { type: 'text' }, { type: 'keyword', normalizer: 'lowercase' }, undefined),
  n: fc.constantFrom<unknown>({ type: 'long' }, { type: 'integer' }, { type: 'double' }, { type: 'keyword' }, undefined),
  when: fc.constantFrom<unknown>({ type: 'date' }, { type: 'keyword' }, undefined),
  flag: fc.constantFrom<unknown>({ type: 'boolean' }, undefined),
  loc: fc.constantFrom<unknown>({ type: 'geo_point' }, undefined),
  deps: fc.constantFrom<unknown>({ type: 'nested', properties: { pkg: { type: 'keyword' }, rank: { type: 'integer' } } }, { properties: { pkg: { type: 'keyword' }, rank: { type: 'integer' } } }, undefined),
});

const document: fc.Arbitrary<Record<string, unknown>> = fc.record({
  title: fc.oneof(words(1, 5), fc.array(words(1, 2), { minLength: 1, maxLength: 2 })),
  tag: fc.oneof(tag, fc.array(tag, { maxLength: 3 })),
  n: fc.oneof(small, fc.array(small, { minLength: 1, maxLength: 2 })),
  when: date,
  flag: fc.boolean(),
  loc: fc.record({ lat: fc.integer({ min: -40, max: 40 }), lon: fc.integer({ min: -40, max: 40 }) }),
  deps: fc.array(fc.record({ pkg: tag, rank: fc.integer({ min: 0, max: 3 }) }), { maxLength: 3 }),
}, { requiredKeys: [] });

const textField = fc.constantFrom('title', 'tag', 'title.raw');
const anyField = fc.constantFrom('title', 'tag', 'n', 'when', 'flag', 'deps.pkg', 'nope');
const bounds = <T>(v: fc.Arbitrary<T>) => fc.record({ gte: v, gt: v, lte: v, lt: v }, { requiredKeys: [] });

/** Leaf queries: the term-level, full-text, span, intervals, geo and script kinds. */
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant({ match_all: {} }),
  fc.constant({ match_none: {} }),
  fc.record({ f: fc.constantFrom('tag', 'title', 'title.raw'), v: fc.oneof(tag, word) }).map(({ f, v }) => ({ term: { [f]: v } })),
  fc.record({ v: tag, ci: fc.boolean() }).map(({ v, ci }) => ({ term: { tag: { value: v, case_insensitive: ci } } })),
  small.map((v) => ({ term: { n: v } })),
  fc.array(tag, { minLength: 1, maxLength: 3 }).map((vs) => ({ terms: { tag: vs } })),
  fc.array(id, { maxLength: 3 }).map((values) => ({ ids: { values } })),
  anyField.map((field) => ({ exists: { field } })),
  fc.constantFrom('loc', 'deps', 'title.raw').map((field) => ({ exists: { field } })),
  fc.record({ f: textField, q: words(1, 3), op: fc.constantFrom('or', 'and'), msm: fc.constantFrom(undefined, 1, 2, '50%', '-1') })
    .map(({ f, q, op, msm }) => ({ match: { [f]: msm === undefined ? { query: q, operator: op } : { query: q, operator: op, minimum_should_match: msm } } })),
  fc.record({ q: word.map((w) => w.replace(/e/, 'a')), pl: fc.integer({ min: 0, max: 2 }) }).map(({ q, pl }) => ({ match: { title: { query: q, fuzziness: 'AUTO', prefix_length: pl } } })),
  fc.record({ f: fc.constantFrom('n', 'when', 'flag'), v: fc.oneof(small.map(String), date, fc.constant('true')) }).map(({ f, v }) => ({ match: { [f]: { query: v, lenient: true } } })),
  fc.record({ q: words(1, 3), slop: fc.integer({ min: 0, max: 2 }) }).map(({ q, slop }) => ({ match_phrase: { title: { query: q, slop } } })),
  fc.record({ q: words(0, 2), p: word.map((w) => w.slice(0, 2)) }).map(({ q, p }) => ({ match_phrase_prefix: { title: `${q} ${p}`.trim() } })),
  fc.record({ q: words(0, 2), p: word.map((w) => w.slice(0, 2)) }).map(({ q, p }) => ({ match_bool_prefix: { title: `${q} ${p}`.trim() } })),
  fc.record({ q: words(1, 2), type: fc.constantFrom('best_fields', 'most_fields', 'cross_fields', 'phrase', 'phrase_prefix', 'bool_prefix'), op: fc.constantFrom('or', 'and') })
    .map(({ q, type, op }) => ({ multi_match: { query: q, fields: ['title', 'tag^2'], type, operator: op } })),
  fc.record({ f: fc.constantFrom('tag', 'title', 'title.raw'), p: fc.oneof(tag, word).map((w) => w.slice(0, 2)), ci: fc.boolean() }).map(({ f, p, ci }) => ({ prefix: { [f]: { value: p, case_insensitive: ci } } })),
  fc.record({ f: fc.constantFrom('tag', 'title'), p: fc.constantFrom('*e*', 'a*', '?d', 'r?n*', 'c*') }).map(({ f, p }) => ({ wildcard: { [f]: p } })),
  fc.record({ f: fc.constantFrom('tag', 'title'), p: fc.constantFrom('a.*', '[a-c]+', 'ru(n|nn)ing', '.*s') }).map(({ f, p }) => ({ regexp: { [f]: p } })),
  fc.record({ v: fc.constantFrom('aple', 'bleu', 'rad', 'runing', 'cat'), me: fc.integer({ min: 1, max: 50 }) }).map(({ v, me }) => ({ fuzzy: { title: { value: v, max_expansions: me } } })),
  bounds(small).map((b) => ({ range: { n: b } })),
  bounds(date).map((b) => ({ range: { when: b } })),
  bounds(tag).map((b) => ({ range: { tag: b } })),
  fc.constant({ range: { when: { gte: 'now-3000d/d' } } }),
  fc.constantFrom('title:red', 'tag:a OR n:[2 TO 5]', 'red AND -apple', 'app*', '"red apple"~1', 'title:(fast car)', 'n:>3')
    .map((q) => ({ query_string: { query: q, default_field: 'title', lenient: true } })),
  fc.constantFrom('red +apple', 'fast | car', '-blue', 'appl*', '"red car"').map((q) => ({ simple_query_string: { query: q, fields: ['title', 'tag'], lenient: true } })),
  words(1, 2).map((q) => ({ combined_fields: { query: q, fields: ['title'] } })),
  word.map((w) => ({ span_term: { title: w } })),
  fc.record({ a: word, b: word, slop: fc.integer({ min: 0, max: 2 }), ord: fc.boolean() })
    .map(({ a, b, slop, ord }) => ({ span_near: { clauses: [{ span_term: { title: a } }, { span_term: { title: b } }], slop, in_order: ord } })),
  fc.record({ w: word, end: fc.integer({ min: 1, max: 3 }) }).map(({ w, end }) => ({ span_first: { match: { span_term: { title: w } }, end } })),
  fc.record({ q: words(1, 2), ord: fc.boolean(), gaps: fc.integer({ min: -1, max: 2 }) }).map(({ q, ord, gaps }) => ({ intervals: { title: { match: { query: q, ordered: ord, max_gaps: gaps } } } })),
  word.map((w) => ({ intervals: { title: { prefix: { prefix: w.slice(0, 2) } } } })),
  fc.record({ terms: fc.array(tag, { minLength: 1, maxLength: 3 }), m: fc.integer({ min: 0, max: 3 }) })
    .map(({ terms, m }) => ({ terms_set: { tag: { terms, minimum_should_match_script: { source: `Math.min(params.num_terms, ${m})` } } } })),
  fc.array(tag, { minLength: 1, maxLength: 3 }).map((terms) => ({ terms_set: { tag: { terms, minimum_should_match_field: 'n' } } })),
  fc.record({ d: fc.constantFrom('100km', '1000km', '3000km'), lat: fc.integer({ min: -20, max: 20 }) }).map(({ d, lat }) => ({ geo_distance: { distance: d, loc: { lat, lon: 0 } } })),
  fc.record({ t: fc.integer({ min: 0, max: 40 }), l: fc.integer({ min: -40, max: 0 }) })
    .map(({ t, l }) => ({ geo_bounding_box: { loc: { top_left: { lat: t, lon: l }, bottom_right: { lat: t - 30, lon: l + 30 } } } })),
  fc.record({ pkg: tag, rank: fc.integer({ min: 0, max: 3 }) })
    .map(({ pkg, rank }) => ({ nested: { path: 'deps', query: { bool: { must: [{ term: { 'deps.pkg': pkg } }, { range: { 'deps.rank': { lte: rank } } }] } } } })),
  small.map((v) => ({ script: { script: { source: "doc['n'].size() > 0 && doc['n'].value > params.v", params: { v } } } })),
  fc.constantFrom('2d', '10d').map((pivot) => ({ distance_feature: { field: 'when', origin: '2020-01-10', pivot } })),
  words(1, 2).map((like) => ({ more_like_this: { fields: ['title'], like, min_term_freq: 1, min_doc_freq: 1 } })),
  fc.array(id, { minLength: 1, maxLength: 2 }).map((ids) => ({ pinned: { ids, organic: { match: { title: 'red' } } } })),
);

/** Query trees up to two compound levels deep over the leaves. */
export const query: fc.Arbitrary<unknown> = fc.letrec<{ q: unknown }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({
      must: fc.array(tie('q'), { maxLength: 2 }), filter: fc.array(tie('q'), { maxLength: 2 }),
      should: fc.array(tie('q'), { maxLength: 3 }), must_not: fc.array(tie('q'), { maxLength: 1 }),
      minimum_should_match: fc.constantFrom(undefined, 1, 2, '50%', -1),
    }).map((b) => ({ bool: Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) })),
    tie('q').map((filter) => ({ constant_score: { filter } })),
    fc.array(tie('q'), { minLength: 1, maxLength: 2 }).map((queries) => ({ dis_max: { queries } })),
    fc.tuple(tie('q'), tie('q')).map(([positive, negative]) => ({ boosting: { positive, negative, negative_boost: 0.5 } })),
    fc.record({ q: tie('q'), min: fc.constantFrom(undefined, 0.5, 1.2), w: fc.constantFrom(1, 2) }).map(({ q, min, w }) => ({
      function_score: {
        query: q, functions: [{ weight: w }, { gauss: { when: { origin: '2020-01-10', scale: '10d' } } }], ...(min === undefined ? {} : { min_score: min }),
      },
    })),
    fc.record({ q: tie('q'), min: fc.constantFrom(undefined, 1) }).map(({ q, min }) => ({
      script_score: { query: q, script: { source: "doc['n'].size() > 0 ? 1 + doc['n'].value : 1" }, ...(min === undefined ? {} : { min_score: min }) },
    })),
  ),
})).q;

const write: fc.Arbitrary<Write> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('index' as const), id, source: document }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('update' as const), id, doc: document, upsert: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('delete' as const), id }), weight: 2 },
);

export const parityCase: fc.Arbitrary<ParityCase> = fc.record({
  mappings: fieldMappings.map((fields) => ({ properties: Object.fromEntries(Object.entries(fields).filter(([, m]) => m !== undefined)) })),
  initial: fc.uniqueArray(fc.tuple(id, document), { maxLength: 6, selector: ([i]) => i }),
  queries: fc.array(query, { minLength: 1, maxLength: 4 }),
  writes: fc.array(write, { minLength: 1, maxLength: 10 }),
});
