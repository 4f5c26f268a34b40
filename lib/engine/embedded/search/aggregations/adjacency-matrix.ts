/**
 * `adjacency_matrix`: a bucket per named filter and per pair of filters, for the documents that
 * match both (`A`, `A&B`, `B`…), empty cells left out. Keys are the filter names in order, a pair
 * named by its lower name first, joined by `separator` (`&`).
 */
import { EsError } from '../../../../errors/index.js';
import { parseQuery, MAX_CLAUSE_COUNT, type Query } from '../query/index.js';
import { withSubs } from './aggregations.js';
import { intersect } from './filters.js';
import { docCount } from './source.js';
import { isObject, type AggregationType, type DocSet } from './types.js';
import { unknownField } from './unknown-field.js';

/** `index.max_adjacency_matrix_filters`: the filters one adjacency_matrix may have (Elasticsearch 7's setting and message). */
const DEFAULT_MAX_FILTERS = 100;

interface AdjacencyParams {
  filters: Array<[string, Query]>;
  separator: string;
}

/** The documents in both sets (each segment's ordinals ascending). */
function both(a: DocSet, b: DocSet): DocSet {
  return a.map((seg, i) => {
    const other = new Set(b[i].ords);
    return { handle: seg.handle, ords: seg.ords.filter((o) => other.has(o)), scores: seg.scores };
  });
}

export const adjacencyMatrix: AggregationType<AdjacencyParams> = {
  kind: 'bucket',
  parse(name, body) {
    for (const k of Object.keys(body)) {
      if (k !== 'filters' && k !== 'separator') throw unknownField('adjacency_matrix', k, ['filters', 'separator']);
    }
    if (body.filters === undefined || body.filters === null) throw new EsError(400, 'illegal_argument_exception', `[filters] must not be null: [${name}]`);
    if (!isObject(body.filters)) throw new EsError(400, 'parsing_exception', `[adjacency_matrix] filters doesn't support values of type: ${Array.isArray(body.filters) ? 'START_ARRAY' : 'VALUE_STRING'}`, { line: 1, col: 1 });
    const filters = Object.entries(body.filters).map(([k, q]) => [k, parseQuery(q)] as [string, Query]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    if (filters.length > MAX_CLAUSE_COUNT) {
      throw new EsError(400, 'illegal_argument_exception',
        `Number of filters is too large, must be less than or equal to: [${MAX_CLAUSE_COUNT}] but was [${filters.length}].This limit can be set by changing the [indices.query.bool.max_clause_count] setting.`);
    }
    if (body.separator !== undefined && typeof body.separator !== 'string') throw new EsError(400, 'parsing_exception', '[adjacency_matrix] separator doesn\'t support values of type: VALUE_NUMBER', { line: 1, col: 1 });
    return { filters, separator: typeof body.separator === 'string' ? body.separator : '&' };
  },
  run(node, docs, ctx) {
    const { filters, separator } = node.params;
    // A cell per pair: the work and the buckets grow with the square of the filters.
    const max = Math.min(...docs.map((seg) => Number(seg.handle.meta.settings['index.max_adjacency_matrix_filters'] ?? DEFAULT_MAX_FILTERS)));
    if (filters.length > max) {
      throw new EsError(400, 'illegal_argument_exception',
        `Number of filters is too large, must be less than or equal to: [${max}] but was [${filters.length}].This limit can be set by changing the [index.max_adjacency_matrix_filters] index level setting.`);
    }
    const sets = filters.map(([, q]) => intersect(docs, q));
    const buckets: Array<Record<string, unknown>> = [];
    const add = (key: string, set: DocSet) => {
      const n = docCount(set);
      if (n > 0) buckets.push(withSubs({ key, doc_count: n }, node.subs, set, ctx));
    };
    for (let i = 0; i < filters.length; i++) {
      add(filters[i][0], sets[i]);
      for (let j = i + 1; j < filters.length; j++) add(`${filters[i][0]}${separator}${filters[j][0]}`, both(sets[i], sets[j]));
    }
    buckets.sort((a, b) => (String(a.key) < String(b.key) ? -1 : String(a.key) > String(b.key) ? 1 : 0));
    return { typed: 'adjacency_matrix', body: { buckets } };
  },
};
