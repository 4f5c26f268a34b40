/**
 * The percolator module's `percolate` query: the documents of an index whose stored query (a
 * `percolator` field, mapping/percolator-field.ts) matches one or more given documents. As
 * Elasticsearch's PercolateQuery does with its MemoryIndex, the given documents are indexed into an
 * index of their own, in memory, and each stored query is run there: a stored query matches when it
 * finds one of them, and scores as it scores there (the best of the documents' scores; a stored
 * query that only filters scores 0). The documents it found are the hit's
 * `_percolator_document_slot` (their positions in `documents`), the named queries that matched
 * each one its `_percolator_document_slot_<slot>_matched_queries`, and the documents are
 * highlighted by the stored query (`percolatedHits`, read by search/percolator-fetch.ts).
 *
 * A document named by `index`/`id` is fetched before the query is parsed, as terms lookups are
 * (terms-lookup.ts). Stored queries are read from the index's doc values and parsed per search.
 */
import { EsError } from '../../../../errors/index.js';
import type { AnalysisRegistry } from '../../analysis/index.js';
import { InvertedIndex } from '../../index/index.js';
import { fieldType, parseDocument, resolveFieldMapping, setPercolatorQueryCheck, type Mappings } from '../../mapping/index.js';
import { createFieldResolver } from '../query-string/field-resolver.js';
import { expandQueryStrings } from '../query-string/expand-query-strings.js';
import { DocSetBuilder, type ScoredDocs } from './doc-set.js';
import { executeQuery, type ExecutionContext } from './execute-query.js';
import { explainByScore } from './explain-query.js';
import { checkKeys, isObject, parseQuery, parsingError, withNamedQueries, type NamedQuery } from './parse-query.js';
import { boostOf } from './query-fields.js';
import type { Query } from './query.js';
import { queryTypeOf, type QueryOf, type QueryType } from './query-type.js';
import { rewriteQuery } from './rewrite-query.js';

const f = Math.fround;
const NONE: Query = { type: 'match_none' };

export const percolateQuery: QueryType<'percolate'> = {
  name: 'percolate',
  parse(body) {
    if (!isObject(body)) throw parsingError('[percolate] query malformed, no start_object after query name');
    checkKeys('percolate', body, ['field', 'document', 'documents', 'index', 'id', 'routing', 'preference', 'version', 'name', 'boost', '_name']);
    if (typeof body.field !== 'string') throw new EsError(400, 'illegal_argument_exception', '[field] is a required argument');
    if (body.index !== undefined || body.id !== undefined) {
      // fetched before the parse (resolveTermsLookups): left here, it was not
      if (body.index === undefined) throw new EsError(400, 'illegal_argument_exception', '[index] is a required argument');
      if (body.id === undefined) throw new EsError(400, 'illegal_argument_exception', '[id] is a required argument');
      throw new EsError(400, 'illegal_state_exception', 'query must be rewritten first');
    }
    if (body.document !== undefined && body.documents !== undefined) {
      throw parsingError('[percolate] query, [document] and [documents] cannot both be specified');
    }
    const given = body.documents !== undefined ? body.documents : body.document;
    const documents = given === undefined ? [] : Array.isArray(given) && body.documents !== undefined ? given : [given];
    if (!documents.length) throw new EsError(400, 'illegal_argument_exception', 'no document to percolate specified');
    for (const d of documents) if (!isObject(d)) throw parsingError('[percolate] query, expected an object as a document to percolate');
    const q: QueryOf<'percolate'> = { type: 'percolate', field: body.field, documents: documents as Array<Record<string, unknown>>, boost: boostOf('percolate', body.boost) };
    if (typeof body.name === 'string') q.name = body.name;
    return q;
  },
  children: () => [],
  withChildren: (q) => q,
  rewrite(q, ctx) {
    const mapping = resolveFieldMapping(ctx.mappings, q.field);
    // Elasticsearch fails the shards of an index without the field: the other indices answer
    // (checkPercolateFields refuses a search where none has it)
    if (!mapping) return NONE;
    const type = fieldType(mapping);
    if (type !== 'percolator') throw new EsError(400, 'query_shard_exception', `expected field [${q.field}] to be of type [percolator], but is of type [${type}]`);
    return q;
  },
  *execute(q, x, scoring) {
    const out = new DocSetBuilder();
    const stored = x.index.field(q.field)?.docValues;
    if (!stored) return out.build();
    const memory = percolatedOf(q, x.mappings, x.registry, x.now, x.indexName);
    for (let ord = 0; ord < x.maxOrd; ord++) {
      if (x.live[ord] !== 1) continue;
      // each stored query is a search of its own: the clock is read before each
      if (x.budget.check()) yield;
      if (x.budget.timedOut) {
        if (ord < x.cut.below) x.cut.below = ord;
        break;
      }
      const json = stored.get(ord)?.[0];
      if (typeof json !== 'string') continue;
      const found = memory.run(json, scoring);
      if (found.length) out.add(ord, scoring ? f(f(maxScore(found)) * q.boost) : 0);
    }
    return out.build();
  },
  matches: () => false,
  explain: explainByScore,
  print: (q) => `PercolateQuery{field=${q.field},documents=${JSON.stringify(q.documents)}}`,
  highlightTerms: () => undefined,
  // a stored query of the index decides, against documents parsed with the index's mappings
  scope: () => 'index',
};

function maxScore(found: ScoredDocs): number {
  let best = -Infinity;
  for (let i = 0; i < found.length; i++) best = Math.max(best, found.scores[i]);
  return best;
}

/** The percolated documents of one query, indexed in memory with one index's mappings; stored queries parsed once each. */
class PercolatedDocuments {
  private readonly ctx: ExecutionContext;
  private readonly parsed = new Map<string, { query: Query; named: NamedQuery[] }>();
  /** Per stored query, the names of its named queries matching each slot (in the order written). */
  private readonly namedSlots = new Map<string, Map<number, string[]>>();

  constructor(documents: Array<Record<string, unknown>>, mappings: Mappings, registry: AnalysisRegistry, now: number, indexName: string | undefined) {
    const index = new InvertedIndex();
    let current = mappings;
    documents.forEach((source, slot) => {
      const doc = parseDocument(source, current, registry, String(slot));
      if (doc.mappings) current = doc.mappings;
      index.put(String(slot), doc);
    });
    this.ctx = { index, mappings: current, registry, now, indexName };
  }

  private storedQuery(json: string): { query: Query; named: NamedQuery[] } {
    let p = this.parsed.get(json);
    if (!p) {
      const [query, named] = withNamedQueries(() => parseStoredQuery(JSON.parse(json) as Record<string, unknown>, this.ctx.mappings, this.ctx.registry));
      this.parsed.set(json, (p = { query, named: inBuildOrder(query, named) }));
    }
    return p;
  }

  get mappings(): Mappings {
    return this.ctx.mappings;
  }

  rewritten(json: string): Query {
    return rewriteQuery(this.storedQuery(json).query, this.ctx);
  }

  /** The slots the stored query finds, with its score on each. */
  run(json: string, scoring: boolean): ScoredDocs {
    return executeQuery(this.storedQuery(json).query, this.ctx, scoring);
  }

  /**
   * The names of the stored query's named queries that match the document of `slot`, in the order
   * written. Each named query runs once over all the documents (not once a slot): a hit's slots
   * times its named queries would otherwise run as many searches, all in one turn of the event loop.
   */
  matchedNames(json: string, slot: number): string[] {
    let bySlot = this.namedSlots.get(json);
    if (!bySlot) {
      bySlot = new Map();
      for (const { name, query } of this.storedQuery(json).named) {
        const found = executeQuery(query, this.ctx, false);
        for (let i = 0; i < found.length; i++) {
          const names = bySlot.get(found.ords[i]);
          if (names) names.push(name);
          else bySlot.set(found.ords[i], [name]);
        }
      }
      this.namedSlots.set(json, bySlot);
    }
    return bySlot.get(slot) ?? [];
  }
}

/**
 * Named queries in the order Elasticsearch registers them as it builds the Lucene query, which is
 * the order it lists them in: a query after the queries inside it, a bool's clauses as must,
 * must_not, should, then filter.
 */
function inBuildOrder(root: Query, named: NamedQuery[]): NamedQuery[] {
  const order = new Map<Query, number>();
  const visit = (q: Query): void => {
    const inner = q.type === 'bool' ? [...q.must, ...q.mustNot, ...q.should, ...q.filter] : queryTypeOf(q).children(q);
    for (const c of inner) visit(c);
    if (!order.has(q)) order.set(q, order.size);
  };
  visit(root);
  return [...named].sort((a, b) => (order.get(a.query) ?? Infinity) - (order.get(b.query) ?? Infinity));
}

const percolated = new WeakMap<QueryOf<'percolate'>, Map<Mappings, PercolatedDocuments>>();

function percolatedOf(q: QueryOf<'percolate'>, mappings: Mappings, registry: AnalysisRegistry, now: number, indexName: string | undefined): PercolatedDocuments {
  let byMappings = percolated.get(q);
  if (!byMappings) percolated.set(q, (byMappings = new Map()));
  let docs = byMappings.get(mappings);
  if (!docs) byMappings.set(mappings, (docs = new PercolatedDocuments(q.documents, mappings, registry, now, indexName)));
  return docs;
}

/** A stored query as the engine runs it: query strings expanded against the mappings, then parsed. */
function parseStoredQuery(dsl: Record<string, unknown>, mappings: Mappings, registry: AnalysisRegistry): Query {
  return parseQuery(expandQueryStrings(dsl, createFieldResolver([{ mappings, registry, settings: {} }])));
}

/** The queries a stored query may not hold (Elasticsearch's PercolatorFieldMapper.verifyQuery). */
const UNSUPPORTED = new Set(['has_child', 'has_parent', 'percolate']);
/** The DSL queries whose body is keyed by the field they query. */
const FIELD_KEYED = new Set(['term', 'terms', 'match', 'match_phrase', 'match_phrase_prefix', 'match_bool_prefix', 'prefix', 'wildcard', 'regexp', 'fuzzy', 'range']);
const NOT_FIELDS = new Set(['boost', '_name', 'case_insensitive', 'rewrite']);

/**
 * Refuses what Elasticsearch refuses when a percolator field's query is indexed: a query that does
 * not parse, one it does not support there, or one naming a field the index does not map.
 */
function checkStoredQuery(dsl: Record<string, unknown>, mappings: Mappings, registry: AnalysisRegistry): void {
  const unmapped = (field: unknown) => {
    if (typeof field !== 'string' || field.startsWith('_') || field.includes('*')) return;
    if (!resolveFieldMapping(mappings, field)) throw new EsError(400, 'query_shard_exception', `No field mapping can be found for the field with name [${field}]`);
  };
  const stack: unknown[] = [dsl];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    if (!isObject(v)) continue;
    for (const [k, body] of Object.entries(v)) {
      if (UNSUPPORTED.has(k) && isObject(body)) throw new EsError(400, 'illegal_argument_exception', `the [${k}] query is unsupported inside a percolator query`);
      if (FIELD_KEYED.has(k) && isObject(body)) for (const field of Object.keys(body)) if (!NOT_FIELDS.has(field)) unmapped(field);
      if (k === 'exists' && isObject(body)) unmapped(body.field);
      if (typeof body === 'object' && body !== null) stack.push(body);
    }
  }
  rewriteQuery(parseStoredQuery(dsl, mappings, registry), { mappings, registry });
}

setPercolatorQueryCheck(checkStoredQuery);

/** The `percolate` queries of a query tree. */
function percolatesOf(query: Query | undefined): Array<QueryOf<'percolate'>> {
  const out: Array<QueryOf<'percolate'>> = [];
  const stack: Query[] = query ? [query] : [];
  while (stack.length) {
    const q = stack.pop()!;
    if (q.type === 'percolate') out.push(q);
    else stack.push(...queryTypeOf(q).children(q));
  }
  return out.reverse();
}

/**
 * Refuses a percolate query whose field no searched index maps: Elasticsearch fails the shards of
 * each index without it (query_shard_exception), so the search fails when every index does.
 * Whether it holds any (its hits then carry their slots): one walk of the query per search.
 */
export function checkPercolateFields(query: Query | undefined, mappedSomewhere: (field: string) => boolean): boolean {
  const percolates = percolatesOf(query);
  for (const q of percolates) {
    if (!mappedSomewhere(q.field)) throw new EsError(400, 'query_shard_exception', `field [${q.field}] does not exist`);
  }
  return percolates.length > 0;
}

/** What one percolate query found in one hit: the slots its stored query matched, and how to tell more of them. */
export interface PercolatedHit {
  /** The percolate query's `name`. */
  name?: string;
  /** The percolated documents' sources, by slot. */
  documents: ReadonlyArray<Record<string, unknown>>;
  /** The slots matched, ascending. */
  slots: number[];
  /** The named queries of the stored query that match the document of a slot. */
  matchedNames(slot: number): string[];
  /** The stored query rewritten against the percolated documents' mappings (what highlights them). */
  storedQuery: Query;
  /** Those mappings. */
  mappings: Mappings;
}

/**
 * Per `percolate` query of the search, in the order written, what its stored query in the hit at
 * `ord` matched (Elasticsearch's percolator fetch sub-phases read the same); a query whose stored
 * query matched nothing there is left out.
 */
export function percolatedHits(query: Query | undefined, ctx: ExecutionContext, ord: number): PercolatedHit[] {
  const out: PercolatedHit[] = [];
  for (const q of percolatesOf(query)) {
    const json = ctx.index.field(q.field)?.docValues.get(ord)?.[0];
    if (typeof json !== 'string') continue;
    const memory = percolatedOf(q, ctx.mappings, ctx.registry, ctx.now ?? Date.now(), ctx.indexName);
    const found = memory.run(json, false);
    if (!found.length) continue;
    const hit: PercolatedHit = {
      documents: q.documents, slots: Array.from(found.ords.subarray(0, found.length)), matchedNames: (slot) => memory.matchedNames(json, slot),
      storedQuery: memory.rewritten(json), mappings: memory.mappings,
    };
    if (q.name !== undefined) hit.name = q.name;
    out.push(hit);
  }
  return out;
}
