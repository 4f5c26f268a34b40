import type { Interceptor } from '../engine/index.js';
import type { GatewayMetrics } from './gateway-metrics.js';

/**
 * The innermost interceptor: it times what the engine itself takes, until its answer's head (a
 * streamed body goes on after), and counts the calls that got no answer (unreachable, timed out:
 * the error goes on unchanged; a call its client abandoned is not counted) or a 5xx one. Innermost, so that what the gateway answers without
 * the engine — a cache hit, a system index refused by the guard — is not counted as an engine
 * call, and change publishing's work after the answer is not counted in the engine's time.
 */
export function engineMetrics(metrics: GatewayMetrics): Interceptor {
  const { engineSeconds, engineErrors } = metrics;
  return (next) => (req) => {
    const started = performance.now();
    // the answer's head timed where it arrives, with no async step of this interceptor's own
    return next(req).then(
      (res) => {
        engineSeconds.observe((performance.now() - started) / 1000);
        if (res.status >= 500) engineErrors.inc({ kind: 'server_error' });
        return res;
      },
      (err: unknown) => {
        if (!req.signal?.aborted) engineErrors.inc({ kind: 'failed' }); // a client that left is not the engine's failure
        throw err;
      },
    );
  };
}
