import { EsError } from '../../../../errors/index.js';
import { filterSource, sourceFilterFromBody, type SourceFilter } from '../source-filter.js';
import { nestedIdentity, nestedSource } from './nested-scope.js';
import { resolveSource, valuesOf } from './source.js';
import { isObject, type AggregationType, type Value } from './types.js';
import { numericValue } from './values-source.js';
import { sortValuesOf } from '../sort/index.js';

interface SortSpec {
  field: string;
  asc: boolean;
  missingFirst: boolean;
  /** `nested.path` (or `nested_path`): the values of each document's nested objects at that path. */
  nestedPath?: string;
}

interface TopHitsParams {
  from: number;
  size: number;
  sort: SortSpec[];
  source: SourceFilter;
  version: boolean;
  seqNoPrimaryTerm: boolean;
}

function parseSort(raw: unknown): SortSpec[] {
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((item) => {
    if (typeof item === 'string') return { field: item, asc: item !== '_score', missingFirst: false };
    if (!isObject(item)) throw new EsError(400, 'parsing_exception', 'malformed sort format, within the sort array, an object, or an actual string are allowed', { line: 1, col: 1 });
    const [field, spec] = Object.entries(item)[0];
    const order = typeof spec === 'string' ? spec : isObject(spec) ? (spec.order as string | undefined) : undefined;
    const asc = order === undefined ? field !== '_score' : order === 'asc';
    const missing = isObject(spec) ? spec.missing : undefined;
    const nested = isObject(spec) && isObject(spec.nested) ? spec.nested.path : isObject(spec) ? spec.nested_path : undefined;
    return { field, asc, missingFirst: missing === '_first', nestedPath: typeof nested === 'string' ? nested : undefined };
  });
}

function sourceDisabled(source: unknown): boolean {
  return isObject(source) && (source.enabled === false || source.enabled === 'false');
}

export const topHits: AggregationType<TopHitsParams> = {
  kind: 'metric',
  parse(name, body) {
    const from = body.from === undefined ? 0 : Number(body.from);
    const size = body.size === undefined ? 3 : Number(body.size);
    if (!Number.isInteger(from) || from < 0) throw new EsError(400, 'illegal_argument_exception', `[from] parameter cannot be negative, found [${String(body.from)}]`);
    if (!Number.isInteger(size) || size < 0) throw new EsError(400, 'illegal_argument_exception', `[size] parameter cannot be negative, found [${String(body.size)}]`);
    if (from + size > 100) {
      throw new EsError(400, 'illegal_argument_exception',
        `Top hits result window is too large, the top hits aggregator [${name}]'s from + size must be less than or equal to: [100] but was [${from + size}]. This limit can be set by changing the [index.max_inner_result_window] index level setting.`);
    }
    return {
      from, size, sort: parseSort(body.sort), source: sourceFilterFromBody(body._source),
      version: body.version === true, seqNoPrimaryTerm: body.seq_no_primary_term === true,
    };
  },
  run(node, docs, ctx) {
    const p = node.params;
    interface Row { si: number; ord: number; score: number; sort: Array<Value | null> }
    const rows: Row[] = [];
    const fieldSorts = p.sort.filter((s) => s.field !== '_score' && s.field !== '_doc');
    const sources = fieldSorts.map((s) => (s.nestedPath === undefined ? resolveSource(docs, { field: s.field }, ctx) : undefined));
    // a sort by nested objects' field reads, for each document, the values of its objects at the path
    const nestedValues = fieldSorts.map((s) => (s.nestedPath === undefined ? undefined : docs.map((seg) => sortValuesOf(seg.handle, s.field, s.nestedPath))));
    docs.forEach((seg, si) => {
      for (const ord of seg.ords) {
        const score = seg.scores?.get(ord) ?? 1;
        const sort = p.sort.map((s) => {
          if (s.field === '_score') return score;
          if (s.field === '_doc') return ord;
          const at = fieldSorts.indexOf(s);
          const nested = nestedValues[at];
          const vs: readonly Value[] = nested ? (nested[si](ord) ?? []).map((v) => (typeof v === 'bigint' ? Number(v) : v)) : valuesOf(sources[at]!, si, ord, undefined);
          if (vs.length === 0) return null;
          let best = vs[0];
          for (const v of vs) if (s.asc ? v < best : v > best) best = v;
          return typeof best === 'boolean' ? numericValue(best) : best;
        });
        rows.push({ si, ord, score, sort });
      }
    });
    const specs = p.sort.length ? p.sort : [{ field: '_score', asc: false, missingFirst: false }];
    rows.sort((a, b) => {
      for (let i = 0; i < specs.length; i++) {
        const x = p.sort.length ? a.sort[i] : a.score;
        const y = p.sort.length ? b.sort[i] : b.score;
        if (x === y) continue;
        if (x === null) return specs[i].missingFirst ? -1 : 1;
        if (y === null) return specs[i].missingFirst ? 1 : -1;
        const d = x < y ? -1 : 1;
        return specs[i].asc ? d : -d;
      }
      return a.si - b.si || a.ord - b.ord;
    });
    const sortedByScore = p.sort.length === 0 || (p.sort.length === 1 && p.sort[0].field === '_score');
    const hits = rows.slice(p.from, p.from + p.size).map((r) => {
      const seg = docs[r.si];
      const id = seg.handle.inverted!.idOf(r.ord)!;
      const doc = seg.handle.get(id);
      const hit: Record<string, unknown> = { _index: seg.handle.name, _type: '_doc', _id: id };
      // Inside a `nested` aggregation a hit is a nested object: ES shows where it sits and its own source.
      const nested = nestedIdentity(seg.handle, r.ord);
      if (nested) hit._nested = nested;
      if (p.version && doc) hit._version = doc.version;
      if (p.seqNoPrimaryTerm && doc) {
        hit._seq_no = doc.seqNo;
        hit._primary_term = doc.primaryTerm;
      }
      hit._score = sortedByScore ? r.score : null;
      const own = nested ? nestedSource(doc?.source, nested) : doc?.source;
      // `_source: {enabled: false}` in the mappings: hits carry none, nested ones neither
      const source = isObject(own) && !sourceDisabled(seg.handle.mappings._source) ? filterSource(own, p.source) : undefined;
      if (source !== undefined) hit._source = source;
      if (!sortedByScore) hit.sort = r.sort.map((v, i) => (v === null ? (specs[i].asc ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER) : v));
      return hit;
    });
    const maxScore = sortedByScore && rows.length ? rows.reduce((m, r) => Math.max(m, r.score), -Infinity) : null;
    return { typed: 'top_hits', body: { hits: { total: { value: rows.length, relation: 'eq' }, max_score: maxScore, hits } } };
  },
};
