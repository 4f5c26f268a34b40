import type { Backend } from '../../engine/index.js';
import { callJson } from '../../engine/index.js';
import { UrlParams } from '../../engine/embedded/index.js';
import {
  checkHasTemplate, compileTemplate, parseSearchTemplateRequest, renderTemplate, templateSearchParams, type CompiledTemplate, type SearchTemplateRequest,
} from '../../engine/embedded/scripts/index.js';
import { EsError } from '../../errors/index.js';
import { canonicalJson, isJsonObject, msearchText, parseJsonText, readMsearch, tokenName, type MsearchEntry } from '../../ndjson/index.js';
import { gatewayRequest, pathOfSegments, queryString, type Classification, type GatewayRequest } from '../../request/index.js';
import { readRequest } from './read-request.js';

/**
 * Search templates rendered by the gateway, for scoped credentials. A template's text says nothing
 * certain about what it searches (`"in{{x}}"` with `x: "dex"` is a key `index`; so is `\u0069ndex`),
 * so it is rendered here, with the renderer of the embedded engine (Elasticsearch's mustache
 * flavour), and the request becomes the plain one it stands for: `_search/template` a `_search`,
 * `_msearch/template` an `_msearch`, each with the rendered body, classified by the structural
 * search-body reader. That request is what is authorized and what the engine gets; no engine
 * renders a scoped credential's template. A stored template (`id`) is read from the engine as the
 * gateway (`GET /_scripts/{id}`) and rendered the same way.
 *
 * Where it differs from the engine rendering: an `_msearch/template` item that cannot be rendered
 * (a missing stored template) fails the whole request instead of its own item.
 */

/** Where stored templates are read from: the engine, as the gateway. */
export type StoredTemplateSource = Pick<Backend, 'request'>;


const SEARCH_TEMPLATE = 'indices:data/read/search/template';
const MSEARCH_TEMPLATE = 'indices:data/read/msearch/template';

/**
 * The plain request a classified template request (`info`, classified with its body) stands for;
 * undefined for any other request, or one without a body (the engine answers it, rendering nothing
 * that searches). Throws the engine's errors for a template that does not parse or render.
 */
export async function renderTemplateRequest(req: GatewayRequest, stored?: StoredTemplateSource): Promise<GatewayRequest | undefined> {
  const { info } = req;
  const text = info.forward;
  if (text === undefined || text === '') return undefined;
  const segments = info.segments;
  if (info.action === SEARCH_TEMPLATE && segments[0] === '_render') return renderOnly(req, text, segments, stored);
  if (segments[segments.length - 1] !== 'template') return undefined;
  const searchSegments = segments.slice(0, -1);
  const path = pathOfSegments(searchSegments);
  if (info.action === SEARCH_TEMPLATE) {
    const request = parseSearchTemplateRequest(jsonObject(text));
    const explain = req.params.get('explain');
    // the URL's explain wins over the body's
    if (explain !== undefined) request.explain = explain !== 'false';
    checkHasTemplate(request);
    const body = searchBody(await render(request, stored), request);
    // the engine's own reading of which parameters still apply (lib/engine/embedded takes them in its form)
    const kept = new Map(templateSearchParams(UrlParams.of(req.params), body.value));
    const plain = readRequest({ method: req.method, target: { path, segments: searchSegments, params: kept, querystring: queryString(kept) }, body: body.text });
    return request.id === undefined ? plain : storedTemplateSearch(plain, new Set());
  }
  if (info.action === MSEARCH_TEMPLATE) {
    const items = readMsearch(text).map(({ header, headerText, body }) => {
      const request = parseSearchTemplateRequest(body);
      if (request.id === undefined && request.source === undefined) throw new EsError(400, 'illegal_argument_exception', 'Malformed search template');
      return { header, headerText, request };
    });
    if (!items.length) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no requests added;');
    const entries: MsearchEntry[] = [];
    for (const { header, headerText, request } of items) {
      checkHasTemplate(request);
      const body = searchBody(await render(request, stored), request);
      entries.push({ header, headerText, body: body.value, bodyText: body.text });
    }
    const plain = readRequest({ method: req.method, target: { path, segments: searchSegments, params: req.params, querystring: req.querystring }, body: msearchText(entries) });
    if (!items.some(({ request }) => request.id !== undefined)) return plain;
    // the header lines are the caller's: what they name is the caller's to be told
    const written = new Set<string>();
    for (const { header } of items) for (const e of [header.index].flat()) if (typeof e === 'string') for (const one of e.split(',')) written.add(one);
    return storedTemplateSearch(plain, written);
  }
  return undefined;
}

/**
 * The search a stored template rendered to, with the expressions its rendered body names (but the
 * ones in `written`, which the caller wrote) marked `template`: authorized as any body's, never
 * named in a refusal.
 */
function storedTemplateSearch(plain: GatewayRequest, written: ReadonlySet<string>): GatewayRequest {
  const sources = plain.info.sources.map((s) => (s.from === 'body' && !written.has(s.expression) ? { ...s, from: 'template' as const } : s));
  return gatewayRequest(plain.method, plain, { ...plain.info, sources }, plain.body);
}

/**
 * `_render/template[/{id}]` searches nothing: it is authorized on what its rendered body would
 * search (the indices it names), and the engine is asked to write out the rendered value as it is
 * (`toJson` of it), so that it renders nothing of the client's.
 */
async function renderOnly(req: GatewayRequest, text: string, segments: readonly string[], stored?: StoredTemplateSource): Promise<GatewayRequest> {
  const template = parseSearchTemplateRequest(jsonObject(text));
  if (segments[2] !== undefined) {
    template.id = segments[2];
    template.source = undefined;
  }
  checkHasTemplate(template);
  const rendered = await render(template, stored);
  const value = parseJsonText(rendered);
  const forward = JSON.stringify({ source: '{{#toJson}}output{{/toJson}}', params: { output: value } });
  const asked = readRequest({ method: req.method, target: { path: '/_render/template', segments: ['_render', 'template'], params: req.params, querystring: req.querystring }, body: forward }).info;
  const searched = readRequest({ method: 'POST', target: { path: '/_search', segments: ['_search'], params: NO_PARAMS, querystring: '' }, body: canonicalJson(rendered, value) }).info;
  // a stored template's expressions are not the caller's: authorized, never named in a refusal
  const named = searched.sources.filter((s) => s.from === 'body').map((s) => (template.id === undefined ? s : { ...s, from: 'template' as const }));
  const request: Classification = {
    ...asked,
    indices: named.map((s) => s.expression),
    sources: named,
    allIndices: named.some((s) => s.expression === '_all' || /^\*+$/.test(s.expression)),
    forward,
  };
  delete request.parsed;
  delete request.slot;
  return gatewayRequest(req.method, { path: '/_render/template', segments: ['_render', 'template'], params: req.params, querystring: req.querystring }, request, forward);
}

const NO_PARAMS: ReadonlyMap<string, string> = new Map();

/** The compiled template of a request: its inline source, or the stored template it names. */
async function templateOf(request: SearchTemplateRequest, stored: StoredTemplateSource | undefined): Promise<CompiledTemplate> {
  if (request.id === undefined) return compileTemplate(request.source ?? '');
  const id = request.id;
  // without the engine to read it from, a stored template's search cannot be known: refused
  if (!stored) throw new EsError(403, 'security_exception', `stored template [${id}] cannot be checked by this gateway: its search is unauthorized`);
  const reply = await callJson<{ found?: boolean; script?: { lang?: string; source?: unknown; options?: Record<string, string> } }>(
    stored, 'GET', `/_scripts/${encodeURIComponent(id)}`,
  );
  const script = reply.body?.script;
  if (reply.status === 404 || (reply.status === 200 && reply.body?.found === false)) {
    throw new EsError(404, 'resource_not_found_exception', `unable to find script [${id}] in cluster state`);
  }
  if (reply.status !== 200 || !script) throw new EsError(reply.status >= 400 ? reply.status : 500, 'exception', `stored template [${id}] could not be read`);
  if (script.lang !== 'mustache') {
    // the engine's answer when a non-template language is asked to compile a template
    throw new EsError(500, 'general_script_exception', `Failed to compile stored script [${id}] using lang [${script.lang}]`);
  }
  const source = typeof script.source === 'string' ? script.source : JSON.stringify(script.source ?? '');
  return compileTemplate(source, script.options?.content_type);
}

async function render(request: SearchTemplateRequest, stored: StoredTemplateSource | undefined): Promise<string> {
  return renderTemplate(await templateOf(request, stored), request.params);
}

/** A JSON object (a template request, a rendered search), with the engine's parse errors. */
function jsonObject(text: string): Record<string, unknown> {
  const value = parseJsonText(text);
  if (!isJsonObject(value)) {
    throw new EsError(400, 'parsing_exception', `Failed to parse object: expecting token of type [START_OBJECT] but found [${tokenName(value)}]`, { line: 1, col: 1 });
  }
  return value;
}

/**
 * The search a rendered template stands for: its source, with the template request's `explain`
 * and `profile` (the source's own are dropped, as the engine drops them), as one line of JSON.
 */
function searchBody(rendered: string, request: SearchTemplateRequest): { value: Record<string, unknown>; text: string } {
  const value = jsonObject(rendered);
  if (!('explain' in value) && !('profile' in value) && !request.explain && !request.profile) return { value, text: canonicalJson(rendered, value) };
  const { explain: _explain, profile: _profile, ...body } = value;
  void _explain;
  void _profile;
  if (request.explain) body.explain = true;
  if (request.profile) body.profile = true;
  return { value: body, text: JSON.stringify(body) };
}

