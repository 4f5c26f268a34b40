import { EsError } from '../../../../errors/index.js';
import { analyzeRequest, createAnalysisRegistry, IndexAnalysisRegistry, type AnalysisRegistry, type AnalyzeRequestBody, type ComponentSpec, type Token } from '../../analysis/index.js';
import { fieldType, indexAnalyzerName, resolveFieldMapping } from '../../mapping/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { requestBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

const BODY_KEYS = new Set(['analyzer', 'tokenizer', 'filter', 'char_filter', 'normalizer', 'field', 'text', 'explain', 'attributes']);

/** Per engine (its node; its config directory): the registry of index-less requests. */
const builtIns = new WeakMap<EngineContext['node'], AnalysisRegistry>();

function list<T>(v: T | T[] | undefined): T[] {
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}

/** `field` → the analyzer (or normalizer) that field indexes with, as ES's _analyze resolves it. */
function resolveField(handle: IndexHandle, body: AnalyzeRequestBody): AnalyzeRequestBody {
  if (typeof body.field !== 'string' || body.analyzer !== undefined || body.tokenizer !== undefined || body.normalizer !== undefined) return body;
  const mapping = resolveFieldMapping(handle.mappings, body.field);
  const { field: _f, ...rest } = body;
  void _f;
  if (mapping && fieldType(mapping) === 'keyword') {
    return typeof mapping.normalizer === 'string' ? { ...rest, normalizer: mapping.normalizer } : { ...rest, analyzer: 'keyword' };
  }
  if (mapping) return { ...rest, analyzer: indexAnalyzerName(mapping, handle.registry) };
  return { ...rest, analyzer: handle.registry.hasAnalyzer('default') ? 'default' : 'standard' };
}

/**
 * Nothing naming an analysis chain (no analyzer, tokenizer, normalizer, field, filters): the index's
 * default analyzer (`analysis.analyzer.default`), as TransportAnalyzeAction falls back to
 * `getDefaultIndexAnalyzer()`; standard when the index defines none.
 */
function withIndexDefault(handle: IndexHandle, body: AnalyzeRequestBody): AnalyzeRequestBody {
  const named = body.analyzer ?? body.tokenizer ?? body.normalizer ?? body.field ?? body.filter ?? body.char_filter;
  if (named !== undefined || !handle.registry.hasAnalyzer('default')) return body;
  return { ...body, analyzer: 'default' };
}

function specName(spec: ComponentSpec, kind: string): string {
  if (typeof spec === 'string') return spec;
  return `__anonymous__${String((spec as { type?: unknown }).type ?? kind)}`;
}

type DetailToken = Token & { bytes: string; positionLength: number; termFrequency: number };

function detailed(tokens: Token[]): DetailToken[] {
  return tokens.map((t) => ({
    ...t,
    bytes: `[${[...Buffer.from(t.token)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}]`,
    positionLength: t.positionLength ?? 1,
    termFrequency: 1,
  }));
}

/** `explain: true`: the tokens after the tokenizer and after each token filter, or the named analyzer's tokens. */
function explain(registry: AnalysisRegistry, body: AnalyzeRequestBody): Record<string, unknown> {
  const texts = list(body.text).map(String);
  if (body.analyzer !== undefined || (body.tokenizer === undefined && body.normalizer === undefined && body.filter === undefined && body.char_filter === undefined)) {
    const name = String(body.analyzer ?? 'standard');
    const tokens = analyzeRequest(registry, { analyzer: name, text: texts }).tokens;
    return { detail: { custom_analyzer: false, analyzer: { name, tokens: detailed(tokens) } } };
  }
  const full = registry instanceof IndexAnalysisRegistry ? registry : new IndexAnalysisRegistry(undefined);
  const filters = list(body.filter);
  const charFilters = list(body.char_filter);
  const run = (n: number) => {
    const analyzer = full.buildAnonymous(body.tokenizer, filters.slice(0, n), charFilters);
    return texts.flatMap((t) => analyzer.analyze(t));
  };
  const out: Record<string, unknown> = { custom_analyzer: true };
  if (charFilters.length) {
    out.charfilters = charFilters.map((c, i) => {
      const upTo = full.buildAnonymous(undefined, [], charFilters.slice(0, i + 1));
      return { name: specName(c, 'char_filter'), filtered_text: texts.map((t) => upTo.charFiltered(t)) };
    });
  }
  out.tokenizer = { name: body.tokenizer === undefined ? 'keyword' : specName(body.tokenizer, 'tokenizer'), tokens: detailed(run(0)) };
  out.tokenfilters = filters.map((f, i) => ({ name: specName(f, 'filter'), tokens: detailed(run(i + 1)) }));
  return { detail: out };
}

function analyze(req: RestRequest, ctx: EngineContext): RestResponse {
  let body = (requestBody(req) ?? {}) as AnalyzeRequestBody;
  for (const k of Object.keys(body)) {
    if (!BODY_KEYS.has(k)) throw new EsError(400, 'x_content_parse_exception', `[1:2] [analyze_request] unknown field [${k}]`);
  }
  const textParam = req.params.get('text');
  if (body.text === undefined && textParam !== null) body = { ...body, text: textParam };
  for (const p of ['analyzer', 'tokenizer', 'normalizer', 'field'] as const) {
    const v = req.params.get(p);
    if (v !== null && body[p] === undefined) body = { ...body, [p]: v };
  }
  for (const p of ['filter', 'char_filter'] as const) {
    const v = req.params.get(p);
    if (v !== null && body[p] === undefined) body = { ...body, [p]: v.split(',') };
  }
  let registry: AnalysisRegistry;
  let maxTokenCount = DEFAULT_MAX_TOKEN_COUNT;
  const index = req.pathParams.index ?? req.params.get('index') ?? undefined;
  if (index !== undefined) {
    const handle = ctx.indices.readTarget(index);
    registry = handle.registry;
    maxTokenCount = Number(handle.meta.settings['index.analyze.max_token_count'] ?? DEFAULT_MAX_TOKEN_COUNT);
    body = withIndexDefault(handle, resolveField(handle, body));
  } else {
    if (body.field !== undefined && body.analyzer === undefined && body.tokenizer === undefined) {
      throw new EsError(400, 'illegal_argument_exception', 'analysis based on a specific field requires an index');
    }
    registry = builtIns.get(ctx.node) ?? createAnalysisRegistry(undefined, { configFiles: ctx.indices.configFiles });
    builtIns.set(ctx.node, registry);
  }
  if (body.explain === true || body.explain === 'true') {
    const detail = explain(registry, body);
    const d = detail.detail as { analyzer?: { tokens: unknown[] }; tokenizer?: { tokens: unknown[] }; tokenfilters?: Array<{ tokens: unknown[] }> };
    for (const stage of [d.analyzer, d.tokenizer, ...(d.tokenfilters ?? [])]) if (stage) checkTokenCount(stage.tokens.length, maxTokenCount);
    return { status: 200, body: detail };
  }
  const { explain: _e, attributes: _a, field: _f, ...rest } = body;
  void _e;
  void _a;
  void _f;
  const analyzed = analyzeRequest(registry, rest);
  checkTokenCount(analyzed.tokens.length, maxTokenCount);
  return { status: 200, body: analyzed };
}

/** `index.analyze.max_token_count` (default 10000, also without an index): more tokens is Elasticsearch's illegal_state_exception. */
const DEFAULT_MAX_TOKEN_COUNT = 10_000;

function checkTokenCount(count: number, max: number): void {
  if (count <= max) return;
  throw new EsError(500, 'illegal_state_exception',
    `The number of tokens produced by calling _analyze has exceeded the allowed maximum of [${max}]. This limit can be set by changing the [index.analyze.max_token_count] index level setting.`);
}

export const analyzeRoutes: Route[] = [
  { id: 'indices.analyze', handler: analyze },
];
