import type { Middleware } from 'koa';
import { toEsError } from '../errors/index.js';
import type { GatewayState } from '../auth/index.js';
import type { GatewayMetrics } from './gateway-metrics.js';

/**
 * Placed right after classification: counts every classified request by route family, category
 * and status, and times it to its answer. It reads `ctx.state.request` once and nothing else of
 * the request. A step's error is counted with the status the error middleware will give it. A
 * stream (the handler took the response over, `ctx.respond === false`, and it is still open) is
 * counted but not timed: its duration is its lifetime. A whole answer the thin path wrote itself
 * (`respond` false too, the response ended) is timed. Requests refused before classification (authentication) are
 * counted by `gateway_auth_failures_total` instead.
 */
/** One route family and category's children: its timer, and its counter per status. */
interface Route {
  timer: { observe(seconds: number): void };
  counters: Map<number, { inc(n?: number): void }>;
}

export function requestMetrics(metrics: GatewayMetrics): Middleware<GatewayState> {
  const { requests, requestSeconds } = metrics;
  // each label set's children bound once (families × categories × statuses: a few hundred at
  // most), found by map lookups on the labels themselves (no key string made per request), so a
  // request costs those lookups and additions
  const routes = new Map<string, Map<string, Route>>();
  const routeOf = (family: string, category: string): Route => {
    let byCategory = routes.get(family);
    if (!byCategory) routes.set(family, (byCategory = new Map()));
    let route = byCategory.get(category);
    if (!route) byCategory.set(category, (route = { timer: requestSeconds.child({ family, category }), counters: new Map() }));
    return route;
  };
  const done = (family: string, category: string, status: number, started: number, timed: boolean) => {
    const route = routeOf(family, category);
    let counter = route.counters.get(status);
    if (!counter) route.counters.set(status, (counter = requests.child({ family, category, status })));
    counter.inc();
    if (timed) route.timer.observe((performance.now() - started) / 1000);
  };
  return (ctx, next) => {
    const { family, category } = ctx.state.request;
    const started = performance.now();
    return next().then(
      () => done(family, category, ctx.status, started, ctx.respond !== false || ctx.res.writableEnded),
      (err: unknown) => {
        done(family, category, toEsError(err).status, started, true);
        throw err;
      },
    );
  };
}
