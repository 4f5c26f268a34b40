import { EsError } from '../../../errors/index.js';
import { unknownField, unsupportedValue, failedField } from '../query-rules/parse-errors.js';
import { didYouMean } from '../rest/unknown-field.js';
import { compileTemplate, renderTemplate } from './mustache-template.js';
import type { StoredScripts } from './stored-scripts.js';
import { type ParamReader, UrlParams } from '../rest/params.js';

/** A search template request (`SearchTemplateRequest`): a stored template's id or an inline source, and its params. */
export interface SearchTemplateRequest {
  id?: string;
  /** Inline source; one given as an object is kept as its JSON text, as Elasticsearch does. */
  source?: string;
  params: Record<string, unknown>;
  explain: boolean;
  profile: boolean;
}

const PARSER = 'search_template';
/** `inline` and `template` are deprecated names of `source`, still read. */
const FIELDS = ['id', 'source', 'inline', 'template', 'params', 'explain', 'profile'];

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function booleanField(field: string, v: unknown): boolean {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  if (typeof v === 'string') {
    throw failedField(PARSER, field, new EsError(400, 'illegal_argument_exception', `Failed to parse value [${v}] as only [true] or [false] are allowed.`));
  }
  throw unsupportedValue(PARSER, field, v);
}

/** A search template body read as Elasticsearch's object parser reads it (unknown fields refused). */
export function parseSearchTemplateRequest(body: Record<string, unknown>): SearchTemplateRequest {
  const request: SearchTemplateRequest = { params: {}, explain: false, profile: false };
  for (const [k, v] of Object.entries(body)) {
    switch (k) {
      case 'id':
        if (v === null || typeof v === 'object') throw unsupportedValue(PARSER, k, v);
        request.id = String(v);
        request.source = undefined;
        break;
      case 'source':
      case 'inline':
      case 'template':
        if (isObject(v)) request.source = JSON.stringify(v);
        else if (typeof v === 'string') request.source = v;
        else throw unsupportedValue(PARSER, k, v);
        request.id = undefined;
        break;
      case 'params':
        if (!isObject(v)) throw unsupportedValue(PARSER, k, v);
        request.params = v;
        break;
      case 'explain':
      case 'profile':
        request[k] = booleanField(k, v);
        break;
      default: {
        const e = unknownField(PARSER, k);
        throw new EsError(e.status, e.type, e.reason + didYouMean(k, FIELDS));
      }
    }
  }
  return request;
}

/** Elasticsearch's validation of a search template request: a template, and its type. */
export function checkHasTemplate(request: SearchTemplateRequest): void {
  if (request.id === undefined && request.source === undefined) {
    throw new EsError(400, 'action_request_validation_exception', "Validation Failed: 1: template is missing;2: template's script type is missing;");
  }
  if (!request.id && !request.source) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: template is missing;');
}

/** The template rendered with the request's params: the search body, as text. */
export function renderSearchTemplate(scripts: StoredScripts, request: SearchTemplateRequest): string {
  const template = request.id !== undefined ? scripts.template(request.id) : compileTemplate(request.source ?? '');
  return renderTemplate(template, request.params);
}

/**
 * URL parameters of `_search` that build the search source: a template's rendered source replaces
 * them, so they have no effect on a template search and are not passed on to the plain search.
 */
const SOURCE_PARAMS = new Set([
  'q', 'from', 'size', 'sort', '_source', '_source_includes', '_source_excludes', '_source_include', '_source_exclude',
  'stored_fields', 'docvalue_fields', 'terminate_after', 'timeout', 'track_scores', 'version', 'seq_no_primary_term', 'explain',
  'stats', 'analyzer', 'analyze_wildcard', 'default_operator', 'df', 'lenient', 'suggest_field', 'suggest_mode', 'suggest_size',
  'suggest_text', 'track_total_hits', 'include_named_queries_score', 'force_synthetic_source',
]);

/** A template request's URL parameters that still apply once the rendered source replaced the URL's. */
export function templateSearchParams(params: ParamReader, body: Record<string, unknown>): UrlParams {
  const kept: Array<[string, string]> = [];
  for (const [k, v] of params) if (!SOURCE_PARAMS.has(k)) kept.push([k, v]);
  const track = params.get('track_total_hits');
  if (track !== null && body.track_total_hits === undefined) kept.push(['track_total_hits', track]);
  return UrlParams.of(kept);
}
