import { EsError } from '../../../../errors/index.js';
import { checkRoutingGiven, isPlainObject, type IndexHandle, type JsonObject } from '../../indices/index.js';
import { fieldType, indexAnalyzerName, keywordTerm, resolveFieldMapping, type FieldMapping } from '../../mapping/index.js';
import { requestBody } from '../body.js';
import { booleanParam, type ParamReader } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { reachableDocument } from './documents.js';

interface TermEntry {
  doc_freq?: number;
  ttf?: number;
  term_freq: number;
  tokens: Array<Record<string, number>>;
}

function stringValues(source: unknown, parts: string[], out: string[]): void {
  if (Array.isArray(source)) {
    for (const v of source) stringValues(v, parts, out);
    return;
  }
  if (!parts.length) {
    if (typeof source === 'string' || typeof source === 'number' || typeof source === 'boolean') out.push(String(source));
    return;
  }
  if (isPlainObject(source)) stringValues(source[parts[0]], parts.slice(1), out);
}

/** Text and keyword fields of a mapping, multi-fields included, by full path. */
function termFields(props: Record<string, FieldMapping> | undefined, prefix: string, out: string[]): void {
  for (const [name, m] of Object.entries(props ?? {})) {
    const path = prefix + name;
    const type = fieldType(m);
    if (type === 'text' || type === 'keyword') out.push(path);
    if (m.properties) termFields(m.properties, `${path}.`, out);
    if (m.fields) termFields(m.fields, `${path}.`, out);
  }
}

/** The source values feeding a field: a multi-field (`title.raw`) reads its parent's value. */
function valuesFor(handle: IndexHandle, source: JsonObject, path: string): string[] {
  const parts = path.split('.');
  const out: string[] = [];
  for (let cut = parts.length; cut > 0 && !out.length; cut--) {
    const owner = resolveFieldMapping(handle.mappings, parts.slice(0, cut).join('.'));
    if (!owner || owner.properties) continue;
    stringValues(source, parts.slice(0, cut), out);
  }
  return out;
}

/**
 * Term vectors of one field generated from the document's source, as ES computes them on the fly
 * for fields without stored term vectors: terms in order with frequency, positions and offsets.
 */
function fieldTermVector(handle: IndexHandle, mapping: FieldMapping, values: string[], opts: { positions: boolean; offsets: boolean }): Record<string, TermEntry> {
  const terms = new Map<string, TermEntry>();
  let base = 0;
  let offsetBase = 0;
  const add = (term: string, position: number, start: number, end: number) => {
    let e = terms.get(term);
    if (!e) terms.set(term, (e = { term_freq: 0, tokens: [] }));
    e.term_freq++;
    const token: Record<string, number> = {};
    if (opts.positions) token.position = position;
    if (opts.offsets) {
      token.start_offset = start;
      token.end_offset = end;
    }
    e.tokens.push(token);
  };
  for (const value of values) {
    if (fieldType(mapping) === 'keyword') {
      add(keywordTerm(mapping, value, handle.registry), base, offsetBase, offsetBase + value.length);
      base += 1 + 100;
    } else {
      const tokens = handle.registry.analyzer(indexAnalyzerName(mapping, handle.registry)).analyze(value);
      let last = -1;
      for (const t of tokens) {
        add(t.token, base + t.position, offsetBase + t.start_offset, offsetBase + t.end_offset);
        last = t.position;
      }
      base += last + 1 + 100; // position_increment_gap between values
    }
    offsetBase += value.length + 1;
  }
  const sorted: Record<string, TermEntry> = {};
  for (const term of [...terms.keys()].sort()) {
    const e = terms.get(term)!;
    if (!opts.positions && !opts.offsets) sorted[term] = { term_freq: e.term_freq } as TermEntry;
    else sorted[term] = e;
  }
  return sorted;
}

function termvectors(req: RestRequest, ctx: EngineContext): RestResponse {
  const body = requestBody(req) ?? {};
  const id = req.pathParams.id ?? (typeof body.id === 'string' ? body.id : undefined);
  return { status: 200, body: termVectorsOf(ctx, req.pathParams.index, id, req.params, body) };
}

/**
 * The term vectors of one document, as `_termvectors` answers them (and each `_mtermvectors` item):
 * options from `params` (the URL's, which win, as Elasticsearch reads them after the body) or `body`.
 */
export function termVectorsOf(ctx: EngineContext, index: string, id: string | undefined, params: ParamReader, body: JsonObject): JsonObject {
  const handle = ctx.indices.readTarget(index);
  handle.ensureOpen();
  const artificial = id === undefined && isPlainObject(body.doc) ? body.doc : undefined;
  if (id === undefined && !artificial) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: id or doc is required;');
  }
  const started = performance.now();
  let source: JsonObject;
  let response: JsonObject;
  if (artificial) {
    // An artificial document (`doc`): analyzed with the index's mappings, never stored; ES answers
    // it without `_id`, at `_version` 0.
    source = artificial;
    response = { _index: handle.name, _version: 0, found: true, took: Math.round(performance.now() - started) };
  } else {
    checkRoutingGiven(handle, id!, params.get('routing') ?? undefined);
    const doc = reachableDocument(handle, id!, params.get('routing') ?? undefined);
    response = { _index: handle.name, _type: '_doc', _id: id! };
    if (!doc) {
      response.found = false;
      response.took = Math.round(performance.now() - started);
      return response;
    }
    source = doc.source;
    response._version = doc.version;
    response.found = true;
    response.took = Math.round(performance.now() - started);
  }
  const requested = params.get('fields') ?? (Array.isArray(body.fields) ? (body.fields as unknown[]).map(String).join(',') : null);
  let fields: string[];
  if (requested) fields = requested.split(',').map((f) => f.trim()).filter(Boolean);
  else {
    fields = [];
    termFields(handle.mappings.properties, '', fields);
  }
  const opts = {
    positions: booleanParam(params, 'positions', body.positions !== false),
    offsets: booleanParam(params, 'offsets', body.offsets !== false),
  };
  // Elasticsearch's defaults: field statistics on, term statistics (doc_freq, ttf) off
  const stats = {
    field: booleanParam(params, 'field_statistics', body.field_statistics !== false),
    term: booleanParam(params, 'term_statistics', body.term_statistics === true),
  };
  const vectors: Record<string, unknown> = {};
  for (const field of fields) {
    const mapping = resolveFieldMapping(handle.mappings, field);
    if (!mapping) continue;
    const type = fieldType(mapping);
    if (type !== 'text' && type !== 'keyword') continue;
    const values = valuesFor(handle, source, field);
    if (!values.length) continue;
    const terms = fieldTermVector(handle, mapping, values, opts);
    const indexed = handle.inverted?.field(field);
    const live = handle.inverted?.liveness;
    const vector: JsonObject = {};
    if (stats.field) {
      vector.field_statistics = indexed && live
        ? { sum_doc_freq: indexed.sumDocFreq(live), doc_count: indexed.docCount, sum_ttf: indexed.sumTotalTermFreq }
        : { sum_doc_freq: 0, doc_count: 0, sum_ttf: 0 };
    }
    if (stats.term) {
      for (const [term, entry] of Object.entries(terms)) {
        const { docFreq, totalTermFreq } = indexed && live ? indexed.termStats(term, live) : { docFreq: 0, totalTermFreq: 0 };
        terms[term] = { doc_freq: docFreq, ttf: totalTermFreq, ...entry };
      }
    }
    vector.terms = terms as unknown as JsonObject;
    vectors[field] = vector;
  }
  // A found document always carries `term_vectors`, empty when no field holds a term vector (a
  // nested field, a field the document lacks), as Elasticsearch writes it.
  response.term_vectors = vectors;
  return response;
}

export const termvectorsRoutes: Route[] = [
  { id: 'termvectors', handler: termvectors },
];
