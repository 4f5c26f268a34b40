import type { Middleware } from 'koa';
import { toEsError } from '../errors/index.js';
import type { GatewayState } from '../auth/index.js';
import type { GatewayMetrics } from './gateway-metrics.js';

/**
 * Placed right after classification: counts every classified request by route family, category
 * and status, and times it to its answer. It reads `ctx.state.request` once and nothing else of
 * the request. A step's error is counted with the status the error middleware will give it. A
 * stream (the handler took the response over, `ctx.respond === false`) is counted but not timed:
 * its duration is its lifetime. Requests refused before classification (authentication) are
 * counted by `gateway_auth_failures_total` instead.
 */
export function requestMetrics(metrics: GatewayMetrics): Middleware<GatewayState> {
  const { requests, requestSeconds } = metrics;
  // each label set's children bound once (families × categories × statuses: a few hundred at
  // most), so a request costs a map lookup and additions
  const counters = new Map<string, ReturnType<typeof requests.child>>();
  const timers = new Map<string, ReturnType<typeof requestSeconds.child>>();
  const done = (family: string, category: string, status: number, started: number, timed: boolean) => {
    const route = `${family} ${category}`;
    const key = `${route} ${status}`;
    let counter = counters.get(key);
    if (!counter) counters.set(key, (counter = requests.child({ family, category, status })));
    counter.inc();
    if (!timed) return;
    let timer = timers.get(route);
    if (!timer) timers.set(route, (timer = requestSeconds.child({ family, category })));
    timer.observe((performance.now() - started) / 1000);
  };
  return (ctx, next) => {
    const { family, category } = ctx.state.request;
    const started = performance.now();
    return next().then(
      () => done(family, category, ctx.status, started, ctx.respond !== false),
      (err: unknown) => {
        done(family, category, toEsError(err).status, started, true);
        throw err;
      },
    );
  };
}
