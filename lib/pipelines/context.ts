import type { Principal } from '../auth/index.js';
import { queryString } from '../request/index.js';

/** The request as scripts see and change it: every member plain JSON, the body as a string. */
export interface PipelineRequest {
  method: string;
  path: string;
  /** The route's `{name}` parameters. */
  params: Record<string, string>;
  /** Query-string parameters (the last value of a repeated one). */
  query: Record<string, string>;
  headers: Record<string, string>;
  body: string;
}

/** The response being prepared: empty (no `code`) until a stage sets one. */
export interface PipelineResponse {
  body?: string;
  code?: number;
  headers?: Record<string, string>;
}

/** A stage that failed and was passed over (`continueOnError: true`). */
export interface StageFailure {
  stage: string;
  message: string;
}

/**
 * What travels through the stages. Stages may add members of their own; a script's returned
 * object is merged into it.
 */
export interface PipelineContext {
  request: PipelineRequest;
  response: PipelineResponse;
  envs: Record<string, unknown>;
  errors: StageFailure[];
  [member: string]: unknown;
}

/** Who called, from where: what the `authorization` stage checks. Never visible to scripts. */
export interface Caller {
  principal: Principal;
  ip: string;
  referer?: string;
}

/** A response has been prepared once a stage gave it a code or a body. */
export const hasResponse = (r: PipelineResponse): boolean => r.code !== undefined || (r.body !== undefined && r.body !== '');

/** A request's decoded parameters as the `query` object scripts see (`source`, a body's, is not one). */
export function queryOf(params: ReadonlyMap<string, string>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [k, v] of params) if (k !== 'source' && k !== 'source_content_type') query[k] = v;
  return query;
}

/** The `query` object (as a script left it) as a query string. */
export function querystringOf(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const values: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) values.push([k, String(v)]);
  return queryString(values);
}
