import type { Context } from 'koa';

/** The status names the Security plugin's REST API writes in its answers (`RestStatus`). */
const STATUS_NAMES: Readonly<Record<number, string>> = {
  200: 'OK', 400: 'BAD_REQUEST', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 501: 'NOT_IMPLEMENTED',
};

/**
 * An answer of the Security plugin's configuration API (`…/api/…`) in its own shape,
 * `{"status": "FORBIDDEN", "message": "…"}`: the plugin's clients (OpenSearch Dashboards' security
 * pages, opensearch-js's `security` namespace) read `message`. Its successes have the same shape
 * (`{"status": "OK", "message": "Cache flushed successfully."}`). Refusals of rights stay the
 * authorizer's Elasticsearch-shaped `security_exception`.
 */
export function pluginAnswer(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.body = { status: STATUS_NAMES[status] ?? String(status), message };
}

/** The plugin's answer to a method an endpoint does not take. */
export function methodNotSupported(ctx: Context, allowed: readonly string[]): void {
  ctx.set('Allow', allowed.join(', '));
  pluginAnswer(ctx, 405, `Method ${ctx.method} not supported for this action.`);
}

/** The plugin's plain-text answers (a disabled feature, tenantinfo's refusal). */
export function plainAnswer(ctx: Context, status: number, text: string): void {
  ctx.status = status;
  ctx.type = 'text/plain; charset=UTF-8';
  ctx.body = text;
}
