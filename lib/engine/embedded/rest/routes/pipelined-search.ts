/**
 * Which search pipeline a search runs through, as OpenSearch resolves it: a temporary one in the
 * body (`"search_pipeline": {...}`), else the one named by the `search_pipeline` parameter or the
 * body's `"search_pipeline": "id"`, else the `index.search.default_pipeline` of the one index the
 * request names; `_none` names none. The pipeline changes the body before the search and the
 * answer after it: the answer it changes is the one the caller's rights already narrowed (the
 * indices are read through the access's field views), so no processor can show a hidden field.
 */
import { EsError } from '../../../../errors/index.js';
import { isMap, type JsonMap } from '../../ingest/index.js';
import { compileSearchPipeline, runSearchPipeline, type SearchPipeline } from '../../search-pipelines/index.js';
import { UrlParams, type ParamReader } from '../params.js';
import type { EngineContext } from '../types.js';

const NONE = '_none';

export interface SearchThroughPipeline {
  params: ParamReader;
  body: Record<string, unknown> | undefined;
  answer(raw: Record<string, unknown>): Record<string, unknown>;
}

export function searchThroughPipeline(ctx: EngineContext, expression: string | undefined, params: ParamReader, body: Record<string, unknown> | undefined): SearchThroughPipeline {
  const { search_pipeline: inBody, ...rest } = body ?? {};
  const searchBody = body === undefined ? undefined : inBody === undefined ? body : rest;
  const pipeline = pipelineOf(ctx, expression, params.get('search_pipeline') ?? undefined, inBody);
  if (!pipeline) return { params, body: searchBody, answer: (raw) => raw };
  // the URL's `size` is the search's size: a request or phase-results processor reads (and changes) it in the body
  const size = params.get('size');
  const sizeInBody = size !== null && (pipeline.request.length > 0 || pipeline.phase.length > 0);
  const start: JsonMap = { ...(searchBody ?? {}) };
  if (sizeInBody) start.size = Number(size);
  const run = runSearchPipeline(pipeline, start, params.get('include_named_queries_score') === 'true');
  const added = Object.entries(run.params);
  const kept = [...params].filter(([k]) => !(sizeInBody && k === 'size') && !Object.hasOwn(run.params, k));
  const narrowed = sizeInBody || added.length ? UrlParams.of([...kept, ...added]) : params;
  return { params: narrowed, body: run.body, answer: run.answer };
}

function pipelineOf(ctx: EngineContext, expression: string | undefined, named: string | undefined, inBody: unknown): SearchPipeline | undefined {
  if (isMap(inBody)) {
    if (named !== undefined) throw new EsError(400, 'illegal_argument_exception', 'Both named and inline search pipeline were specified. Please only specify one or the other.');
    return compileSearchPipeline('_ad_hoc_pipeline', inBody);
  }
  if (inBody !== undefined && inBody !== null && typeof inBody !== 'string') {
    throw new EsError(400, 'parsing_exception', '[search_pipeline] must be a string or an object');
  }
  let id = named ?? (typeof inBody === 'string' ? inBody : undefined);
  if (id === undefined && expression !== undefined && !expression.includes(',')) {
    const setting = ctx.indices.get(expression)?.meta.settings['index.search.default_pipeline'];
    if (typeof setting === 'string' && setting !== '') id = setting;
  }
  if (id === undefined || id === NONE) return undefined;
  const pipeline = ctx.searchPipelines.get(id);
  if (!pipeline) throw new EsError(400, 'illegal_argument_exception', `Pipeline ${id} is not defined`);
  return pipeline;
}
