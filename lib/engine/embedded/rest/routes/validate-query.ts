import { EsError, toEsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { luceneString, parseQuery } from '../../search/index.js';
import { jsonValue } from '../body.js';
import { booleanParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse } from '../types.js';
import { effectiveQuery, resolveOpenTarget, withQueryRules } from './search-target.js';

/** ES's message for an unknown query: the parser's reason (with its "did you mean"), and the nested exception's. */
function parsingMessage(e: EsError): string {
  const unknown = /^unknown query \[(.+?)\]((?: did you mean .+\?)?)$/.exec(e.reason);
  if (!unknown) return `org.elasticsearch.common.ParsingException: ${e.reason}`;
  const [, name, hint] = unknown;
  return `org.elasticsearch.common.ParsingException: unknown query [${name}]${hint}; nested: NamedObjectNotFoundException[[1:1] unknown field [${name}]${hint}];`;
}

/** A shard's failure as the explanation's `error` prints it (Elasticsearch: the exception's class and message). */
function shardMessage(handle: IndexHandle, e: EsError): string {
  const name = e.type.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('').replace(/Exception$/, 'Exception');
  return `[${handle.name}/${handle.uuid}] ${name}[${e.reason}]`;
}

/**
 * `_validate/query` (Validate API): whether the query parses and can be built on every target
 * index. A body that does not parse (unknown query, a key other than `query`) answers
 * `{"valid": false}` with, under `explain`, the parsing error; a query one index cannot build
 * answers that index's explanation invalid with its `error`. `explain`, `rewrite`: each index's
 * query in Lucene's syntax; `all_shards`: one explanation per shard.
 */
export function validateQuery(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = resolveOpenTarget(ctx, req.pathParams.index, req.params);
  const explain = booleanParam(req.params, 'explain', false);
  const rewrite = booleanParam(req.params, 'rewrite', false);
  const allShards = booleanParam(req.params, 'all_shards', false);
  let bodyQuery: unknown;
  try {
    const body = req.body.trim() ? jsonValue(req.body) : undefined;
    if (body !== undefined) {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new EsError(400, 'parsing_exception', 'request body must be an object');
      for (const k of Object.keys(body)) if (k !== 'query') throw new EsError(400, 'parsing_exception', `request does not support [${k}]`);
      bodyQuery = (body as Record<string, unknown>).query;
    }
    parseQuery(bodyQuery ?? { match_all: {} });
  } catch (err) {
    const e = toEsError(err);
    if (e.status >= 500) throw err;
    // a query string's syntax is read where the query is built: a failure of each index, below
    if (e.type !== 'query_shard_exception') return { status: 200, body: explain ? { valid: false, error: parsingMessage(e) } : { valid: false } };
  }
  const explanations: Array<Record<string, unknown>> = [];
  let failed = 0;
  for (const h of handles) {
    const shards = allShards ? Number(h.meta.settings['index.number_of_shards'] ?? '1') : 1;
    let entry: Record<string, unknown>;
    try {
      // q=, df, default_operator, lenient and analyzers apply per index, against its mappings
      const query = withQueryRules(ctx, parseQuery(effectiveQuery(bodyQuery, req.params, [h], req.pathParams.index) ?? { match_all: {} }));
      const text = luceneString(query, { mappings: h.mappings, registry: h.registry, indexName: h.name });
      entry = { valid: true, explanation: text };
    } catch (err) {
      const e = toEsError(err);
      if (e.status >= 500) throw err;
      entry = { valid: false, error: shardMessage(h, e) };
      failed++;
    }
    for (let shard = 0; shard < shards; shard++) explanations.push({ index: h.name, ...(allShards ? { shard } : {}), ...entry });
  }
  const total = explanations.length || handles.length;
  const out: Record<string, unknown> = { _shards: { total, successful: total, failed: 0 }, valid: failed === 0 };
  if (explain || rewrite) out.explanations = explanations;
  return { status: 200, body: out };
}
