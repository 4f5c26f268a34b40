import {
  COMPATIBLE_JSON, compatibleRequest, mayBeCompatible, restApiVersion, typedMappings, typelessBody, warningHeader, type CompatibleRequest,
} from '../../../rest-compat/index.js';
import type { EngineRequest } from '../../backend.js';
import type { UrlParams } from './params.js';

type Headers = EngineRequest['headers'];

function header(headers: Headers, name: string): string | string[] | undefined {
  return headers?.[name] ?? headers?.[name.toLowerCase()];
}

/** Whether a request has a body, told before reading it (Elasticsearch checks the Content-Type's version only then). */
function hasContent(req: EngineRequest): boolean {
  const { body } = req;
  if (body === undefined) return false;
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body.length > 0;
  const length = header(req.headers, 'content-length');
  if (length !== undefined) return Number(Array.isArray(length) ? length[0] : length) > 0;
  // HTTP/1.1: a body without a length comes chunked; a stream with neither is empty
  return header(req.headers, 'transfer-encoding') !== undefined;
}

/**
 * One request of the REST API compatibility mode on the embedded engine: what the router sees (its
 * typeless Elasticsearch 8 form), the body it reads, and the answer in Elasticsearch 7's shape
 * (typed mappings, deprecation warnings, the compatible Content-Type). The routes themselves know
 * nothing of it.
 */
export class CompatibleExchange {
  readonly contentType = COMPATIBLE_JSON[7];
  private readonly warnings: string[];

  private constructor(
    private readonly typeless: CompatibleRequest,
    readonly params: UrlParams,
  ) {
    this.warnings = [...typeless.warnings];
    if (typeless.includeTypeNameWarning) this.warnings.push(typeless.includeTypeNameWarning);
    if (typeless.localWarning) this.warnings.push(typeless.localWarning);
  }

  /**
   * Checks the versions the headers ask for (ES's 400 `media_type_header_exception` when they do not
   * agree); a request of the compatibility mode gets its exchange, any other undefined.
   */
  static open(req: EngineRequest, method: string, segments: readonly string[], params: UrlParams): CompatibleExchange | undefined {
    const accept = header(req.headers, 'accept');
    const contentType = header(req.headers, 'content-type');
    if (!mayBeCompatible(accept, contentType)) return undefined;
    if (restApiVersion(accept, contentType, hasContent(req)) !== 7) return undefined;
    const typeless = compatibleRequest(method, segments, params);
    return new CompatibleExchange(typeless, typeless.dropsIncludeTypeName ? params.without('include_type_name') : params);
  }

  /** The path's segments the router matches. */
  get segments(): readonly string[] {
    return this.typeless.segments;
  }

  /** The body in its Elasticsearch 8 form; `changed` tells a caller that a parsed copy no longer says the same. */
  body(text: string): { text: string; changed: boolean } {
    const form = this.typeless.body;
    if (!form || !text) return { text, changed: false };
    const out = typelessBody(form, text);
    if (out.warning) this.warnings.push(out.warning);
    return { text: out.text, changed: out.text !== text };
  }

  /** The answer's JSON in Elasticsearch 7's shape. */
  answer(status: number, body: unknown): unknown {
    return this.typeless.typedAnswer && status === 200 ? typedMappings(body) : body;
  }

  /** The headers every answer of the exchange carries, an error's too. */
  headers(): Record<string, string> {
    return this.warnings.length ? { warning: warningHeader(this.warnings) } : {};
  }
}
