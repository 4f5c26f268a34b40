import type { Context } from 'koa';
import { callJson, type Backend } from '../engine/index.js';

/**
 * The concrete index names an index expression in the path (`a,b`, `logs-*`, `_all`, an alias)
 * stands for before the request runs. Asked of the engine once per request: every middleware that
 * needs them (change events, credential clean-up) shares the answer.
 */
export async function targetIndices(ctx: Context, backend: Backend, expr: string): Promise<string[]> {
  const memo = ctx.state.targetIndices as Promise<string[]> | undefined;
  if (memo) return memo;
  const names = resolve(backend, expr);
  ctx.state.targetIndices = names;
  return names;
}

async function resolve(backend: Backend, expr: string): Promise<string[]> {
  const pattern = /[*,]/.test(expr) || expr === '_all';
  const res = await callJson<Record<string, unknown>>(
    backend, 'GET', `/${pattern ? expr : encodeURIComponent(expr)}/_settings`, undefined,
    `filter_path=*.settings.index.uuid${pattern ? '&expand_wildcards=all' : ''}`,
  );
  if (res.status === 200 && res.body) return Object.keys(res.body);
  return pattern ? [] : [expr];
}
