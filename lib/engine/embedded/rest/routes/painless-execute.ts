import { EsError } from '../../../../errors/index.js';
import { InvertedIndex } from '../../index/index.js';
import { DEFAULT_DATE_FORMAT, formatDate, parseDocument } from '../../mapping/index.js';
import {
  FILTER_CONTEXT, SCORE_CONTEXT, SCORE_FUNCTION_IMPLEMENTATIONS, parseScriptSpec, resolveScript, runTestScript, runtimeFieldContext,
  toJson, unbox, type ContextDefinition,
} from '../../painless/index.js';
import { executeQuery, parseQuery } from '../../search/index.js';
import { DocScript, prepareScript } from '../../search/scripts/index.js';
import { requireBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

const RUNTIME_CONTEXTS: Record<string, string> = {
  boolean_field: 'boolean', date_field: 'date', double_field: 'double', geo_point_field: 'geo_point', ip_field: 'ip', keyword_field: 'keyword', long_field: 'long',
};

const CONTEXTS = new Set(['painless_test', 'filter', 'score', ...Object.keys(RUNTIME_CONTEXTS)]);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

interface Setup {
  index?: string;
  document?: Record<string, unknown>;
  query?: unknown;
}

function parseSetup(raw: unknown): Setup | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw new EsError(400, 'x_content_parse_exception', '[1:1] [painless_execute_request] failed to parse field [context_setup]');
  for (const k of Object.keys(raw)) {
    if (k !== 'index' && k !== 'document' && k !== 'query') throw new EsError(400, 'x_content_parse_exception', `[1:1] [execute_script_context] unknown field [${k}]`);
  }
  if (raw.document !== undefined && !isObject(raw.document)) throw new EsError(400, 'x_content_parse_exception', '[1:1] [execute_script_context] failed to parse field [document]');
  return { index: raw.index === undefined ? undefined : String(raw.index), document: raw.document as Record<string, unknown> | undefined, query: raw.query };
}

/**
 * `POST /_scripts/painless/_execute`: runs a script once. `painless_test` (the default) gives its
 * result as Java's toString; `filter` and `score` run it against `context_setup.document`, indexed
 * alone with the mappings of `context_setup.index` (`score` with the score of `context_setup.query`);
 * the runtime field contexts (`keyword_field`…) give the values it emits.
 */
async function execute(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requireBody(req);
  for (const k of Object.keys(body)) {
    if (k !== 'script' && k !== 'context' && k !== 'context_setup') throw new EsError(400, 'x_content_parse_exception', `[1:2] [painless_execute_request] unknown field [${k}]`);
  }
  if (body.script === undefined) throw new EsError(400, 'x_content_parse_exception', '[1:2] Required [script]');
  const spec = parseScriptSpec(body.script);
  const contextName = body.context === undefined ? 'painless_test' : String(body.context);
  if (!CONTEXTS.has(contextName)) {
    throw new EsError(400, 'x_content_parse_exception', '[1:2] [painless_execute_request] failed to parse object', {
      caused_by: { type: 'unsupported_operation_exception', reason: `unsupported script context name [${contextName}]` },
    });
  }
  const setup = parseSetup(body.context_setup);
  const problems: string[] = [];
  if (spec.id !== undefined) problems.push('only inline scripts are supported');
  if (contextName !== 'painless_test') {
    if (setup?.index === undefined) problems.push('index is a required parameter for current context');
    if (setup?.document === undefined) problems.push('document is a required parameter for current context');
  }
  if (problems.length) throw new EsError(400, 'action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`);

  if (contextName === 'painless_test') return { status: 200, body: { result: await runTestScript(resolveScript(spec)) } };

  const handle = ctx.indices.readTarget(setup!.index!);
  handle.ensureOpen();
  const parsed = parseDocument(setup!.document!, handle.mappings, handle.registry, '_id');
  const mappings = parsed.mappings ?? handle.mappings;
  const index = new InvertedIndex();
  const ord = index.put('_id', parsed);
  const source = () => setup!.document;
  const runtimeType = RUNTIME_CONTEXTS[contextName];
  const context: ContextDefinition = contextName === 'filter' ? FILTER_CONTEXT : contextName === 'score' ? SCORE_CONTEXT : runtimeFieldContext(runtimeType);
  const emitted: unknown[] = [];
  const globals: Record<string, unknown> = contextName === 'score' ? { ...SCORE_FUNCTION_IMPLEMENTATIONS } : { emit: (...v: unknown[]) => emitted.push(...v.map(unbox)) };
  const script = new DocScript(prepareScript(spec, context, ctx.storedScripts), index, mappings, handle.name, { source, globals });

  if (contextName === 'filter') return { status: 200, body: { result: script.run(ord) === true } };
  if (contextName === 'score') {
    let score = 0;
    if (setup!.query !== undefined) {
      const docs = executeQuery(parseQuery(setup!.query), { index, mappings, registry: handle.registry, indexName: handle.name }, true);
      if (docs.length) score = docs.scores[0];
    }
    return { status: 200, body: { result: Number(script.run(ord, score)) } };
  }
  script.run(ord);
  let result: unknown[] = emitted;
  if (runtimeType === 'date') result = emitted.map((ms) => formatDate(Number(ms), DEFAULT_DATE_FORMAT));
  else if (runtimeType === 'geo_point') {
    result = [];
    for (let i = 0; i + 1 < emitted.length; i += 2) result.push({ type: 'Point', coordinates: [emitted[i + 1], emitted[i]] });
  } else result = emitted.map(toJson);
  return { status: 200, body: { result } };
}

export const painlessExecuteRoutes: Route[] = [
  { id: 'scripts_painless_execute', handler: execute },
];
