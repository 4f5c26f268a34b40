/**
 * The one error type of the project. Anything that must reach a client as an
 * Elasticsearch-shaped error is thrown as an EsError; one middleware (server) and
 * the embedded engine's REST layer turn it into the body with `errorBody`.
 */
export class EsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly reason: string,
    /** Extra members ES puts next to type/reason (index, index_uuid, resource.id…). */
    readonly extra: Record<string, unknown> = {},
    /** Headers the response must carry (WWW-Authenticate…). */
    readonly headers: Record<string, string> = {},
  ) {
    super(reason);
    this.name = 'EsError';
  }
}

export interface EsErrorBody {
  error: { root_cause: Array<Record<string, unknown>>; type: string; reason: string; [k: string]: unknown };
  status: number;
}

export function errorBody(err: EsError): EsErrorBody {
  const cause = { type: err.type, reason: err.reason, ...err.extra };
  // as Elasticsearch renders it, a root cause carries no `caused_by` of its own
  const { caused_by: _inner, ...root } = cause as typeof cause & { caused_by?: unknown };
  return { error: { root_cause: [root], ...cause }, status: err.status };
}

/** Any thrown value → EsError; unknown failures become 500 without leaking internals. */
export function toEsError(err: unknown): EsError {
  if (err instanceof EsError) return err;
  const e = err as { status?: number; statusCode?: number; expose?: boolean; message?: string; type?: string };
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && e.expose !== false) {
    return new EsError(status, status === 413 ? 'content_too_long_exception' : 'illegal_argument_exception', e.message ?? 'bad request');
  }
  return new EsError(500, 'exception', e?.message ? `internal error: ${e.message}` : 'internal error');
}
