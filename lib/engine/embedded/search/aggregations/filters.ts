import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { executeQuery, parseQuery, queryContextOf, type Query } from '../query/index.js';
import { withSubs } from './aggregations.js';
import { docCount, emptyDocSet, missingArray, resolveSource, valuesOf } from './source.js';
import { isObject, type AggregationType, type DocSet } from './types.js';
import { parseSourceParams, type SourceParams } from './values-source.js';
import { unknownField } from './unknown-field.js';

/** Matches of a filter query per index, computed once per request however many buckets use it. */
const matchesCache = new WeakMap<Query, Map<IndexHandle, Map<number, number>>>();

function matchesOf(query: Query, handle: IndexHandle): Map<number, number> {
  let perHandle = matchesCache.get(query);
  if (!perHandle) matchesCache.set(query, (perHandle = new Map()));
  let m = perHandle.get(handle);
  if (!m) perHandle.set(handle, (m = executeQuery(query, queryContextOf(handle), false)));
  return m;
}

/** The documents of `docs` that match `query`. */
export function intersect(docs: DocSet, query: Query): DocSet {
  if (query.type === 'match_all') return docs;
  return docs.map((seg) => {
    const m = matchesOf(query, seg.handle);
    return { handle: seg.handle, ords: seg.ords.filter((o) => m.has(o)), scores: seg.scores };
  });
}

export const filter: AggregationType<Query> = {
  kind: 'bucket',
  parse(_name, body) {
    return parseQuery(body);
  },
  run(node, docs, ctx) {
    const inBucket = intersect(docs, node.params);
    return { typed: 'filter', body: withSubs({ doc_count: docCount(inBucket) }, node.subs, inBucket, ctx, false) };
  },
};

interface FiltersParams {
  named: Array<[string, Query]> | undefined;
  anonymous: Query[] | undefined;
  otherBucket: boolean;
  otherKey: string;
  keyed: boolean;
}

export const filters: AggregationType<FiltersParams> = {
  kind: 'bucket',
  parse(name, body) {
    for (const k of Object.keys(body)) {
      const known = ['filters', 'other_bucket', 'other_bucket_key', 'keyed'];
      if (!known.includes(k)) throw unknownField('filters', k, known);
    }
    const raw = body.filters;
    // no `filters` at all: Elasticsearch's parser starts from an empty list, so it is empty, not null
    if (raw === undefined) throw new EsError(400, 'illegal_argument_exception', '[filters] cannot be empty.');
    let named: Array<[string, Query]> | undefined;
    let anonymous: Query[] | undefined;
    if (Array.isArray(raw)) anonymous = raw.map((q) => parseQuery(q));
    else if (isObject(raw)) named = Object.entries(raw).map(([k, q]) => [k, parseQuery(q)] as [string, Query]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    else throw new EsError(400, 'parsing_exception', `Unknown key for a VALUE_STRING in [filters].`, { line: 1, col: 1 });
    if ((anonymous ?? named)!.length === 0) throw new EsError(400, 'illegal_argument_exception', '[filters] cannot be empty.');
    const otherKey = typeof body.other_bucket_key === 'string' ? body.other_bucket_key : '_other_';
    void name;
    return {
      named, anonymous, otherBucket: body.other_bucket === true || (body.other_bucket === undefined && typeof body.other_bucket_key === 'string'),
      otherKey, keyed: body.keyed !== false && anonymous === undefined,
    };
  },
  run(node, docs, ctx) {
    const p = node.params;
    const entries: Array<[string | undefined, Query]> = p.named ?? p.anonymous!.map((q) => [undefined, q]);
    const buckets: Array<[string | undefined, Record<string, unknown>]> = [];
    const matchedAny = p.otherBucket ? docs.map(() => new Set<number>()) : undefined;
    for (const [key, q] of entries) {
      const inBucket = intersect(docs, q);
      if (matchedAny) inBucket.forEach((seg, i) => seg.ords.forEach((o) => matchedAny[i].add(o)));
      const b: Record<string, unknown> = p.keyed || key === undefined ? {} : { key };
      b.doc_count = docCount(inBucket);
      buckets.push([key, withSubs(b, node.subs, inBucket, ctx)]);
    }
    if (matchedAny) {
      const rest = docs.map((seg, i) => ({ handle: seg.handle, ords: seg.ords.filter((o) => !matchedAny[i].has(o)), scores: seg.scores }));
      const b: Record<string, unknown> = p.keyed ? {} : { key: p.otherKey };
      b.doc_count = docCount(rest);
      buckets.push([p.otherKey, withSubs(b, node.subs, rest, ctx)]);
    }
    if (p.keyed) {
      const obj: Record<string, unknown> = {};
      for (const [k, b] of buckets) obj[k!] = b;
      return { typed: 'filters', body: { buckets: obj } };
    }
    return { typed: 'filters', body: { buckets: buckets.map(([, b]) => b) } };
  },
};

export const missing: AggregationType<SourceParams> = {
  kind: 'bucket',
  parse(name, body) {
    return parseSourceParams('missing', name, body);
  },
  run(node, docs, ctx) {
    const out = emptyDocSet(docs);
    // A `missing` value is every valueless document's value (Elasticsearch's MissingValues): none is missing then.
    if (node.params.missing === undefined || node.params.missing === null) {
      const src = resolveSource(docs, { ...node.params, missing: undefined }, ctx);
      docs.forEach((seg, si) => {
        for (const ord of seg.ords) if (valuesOf(src, si, ord, missingArray({ ...src, missing: undefined })).length === 0) out[si].ords.push(ord);
      });
    }
    return { typed: 'missing', body: withSubs({ doc_count: docCount(out) }, node.subs, out, ctx, false) };
  },
};

export const global: AggregationType<null> = {
  kind: 'bucket',
  parse(name, body) {
    if (Object.keys(body).length) throw new EsError(400, 'parsing_exception', `Unexpected token FIELD_NAME [${Object.keys(body)[0]}] in [${name}].`, { line: 1, col: 1 });
    return null;
  },
  run(node, _docs, ctx) {
    return { typed: 'global', body: withSubs({ doc_count: docCount(ctx.all) }, node.subs, ctx.all, ctx, false) };
  },
};
