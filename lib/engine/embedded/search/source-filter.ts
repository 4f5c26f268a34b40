import { EsError } from '../../../errors/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import type { ParamReader } from '../rest/params.js';

/** What of `_source` a response returns: nothing, everything, or filtered by path patterns. */
export interface SourceFilter {
  fetch: boolean;
  includes: string[];
  excludes: string[];
}

export const FETCH_ALL: SourceFilter = { fetch: true, includes: [], excludes: [] };

function patterns(v: unknown, what: string): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  throw new EsError(400, 'parsing_exception', `Expected one of [VALUE_STRING, START_ARRAY] but found [${typeof v}] in [${what}]`, { line: 1, col: 1 });
}

/** `_source` as given in a search body (true/false/"a"/["a","b*"]/{includes,excludes}). */
export function sourceFilterFromBody(v: unknown): SourceFilter {
  if (v === undefined) return FETCH_ALL;
  if (typeof v === 'boolean') return { fetch: v, includes: [], excludes: [] };
  if (typeof v === 'string' || Array.isArray(v)) return { fetch: true, includes: patterns(v, '_source'), excludes: [] };
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      if (!['includes', 'include', 'excludes', 'exclude'].includes(k)) {
        throw new EsError(400, 'parsing_exception', `Unknown key for a START_ARRAY in [${k}].`, { line: 1, col: 1 });
      }
    }
    return { fetch: true, includes: patterns(o.includes ?? o.include, 'includes'), excludes: patterns(o.excludes ?? o.exclude, 'excludes') };
  }
  throw new EsError(400, 'parsing_exception', 'Expected one of [VALUE_BOOLEAN, VALUE_STRING, START_ARRAY, START_OBJECT] but found [VALUE_NULL]', { line: 1, col: 1 });
}

/** `_source`, `_source_includes`, `_source_excludes` URL parameters, over a base filter. */
export function sourceFilterFromParams(params: ParamReader, base: SourceFilter = FETCH_ALL): SourceFilter {
  const split = (s: string | null) => (s === null ? [] : s.split(',').map((x) => x.trim()).filter(Boolean));
  let f = base;
  const src = params.get('_source');
  if (src !== null) {
    if (src === 'false') f = { fetch: false, includes: [], excludes: [] };
    else if (src === 'true' || src === '') f = FETCH_ALL;
    else f = { fetch: true, includes: split(src), excludes: [] };
  }
  const inc = params.get('_source_includes') ?? params.get('_source_include');
  const exc = params.get('_source_excludes') ?? params.get('_source_exclude');
  if (inc !== null || exc !== null) {
    f = { fetch: true, includes: inc !== null ? split(inc) : f.includes, excludes: exc !== null ? split(exc) : f.excludes };
  }
  return f;
}

/** Applies include/exclude patterns to a source, as ES's XContentMapValues.filter. */
export function filterSource(source: Record<string, unknown>, filter: SourceFilter): Record<string, unknown> | undefined {
  if (!filter.fetch) return undefined;
  if (!filter.includes.length && !filter.excludes.length) return source;
  const inc = filter.includes;
  const exc = filter.excludes;
  const walkValue = (v: unknown, path: string, included: boolean): unknown => {
    if (Array.isArray(v)) {
      const items = v.map((x) => walkValue(x, path, included)).filter((x) => x !== undefined);
      return items.length || included ? items : undefined;
    }
    if (v !== null && typeof v === 'object') {
      const sub = walk(v as Record<string, unknown>, path, included);
      return Object.keys(sub).length || included ? sub : undefined;
    }
    return included ? v : undefined;
  };
  const walk = (obj: Record<string, unknown>, prefix: string, included: boolean): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) {
      const path = prefix ? `${prefix}.${k}` : k;
      if (exc.some((p) => simpleMatch(p, path))) continue;
      const self = included || inc.length === 0 || inc.some((p) => simpleMatch(p, path));
      const r = walkValue(v, path, self);
      if (r !== undefined) out[k] = r;
    }
    return out;
  };
  return walk(source, '', false);
}
