// The gateway's Prometheus metrics (`GET /_gateway/metrics`), read for the overview's live figures.

/**
 * Prometheus' text format as each metric's samples summed over their labels, by sample name
 * (`gateway_requests_total`, `gateway_request_duration_seconds_sum`, …). A metric with no sample
 * (a gauge no label set has touched yet) is absent: read it as 0.
 */
export function sumsByName(text) {
  const sums = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const braces = line.indexOf('{');
    // a label value may hold spaces or braces; the value follows the last closing brace
    const name = braces >= 0 ? line.slice(0, braces) : line.slice(0, line.indexOf(' '));
    const rest = braces >= 0 ? line.slice(line.lastIndexOf('}') + 1) : line.slice(name.length);
    const value = Number(rest.trim().split(/\s+/)[0]);
    if (Number.isFinite(value)) sums.set(name, (sums.get(name) ?? 0) + value);
  }
  return sums;
}

/**
 * The live figures between two reads (`{at, sums}`, `at` in ms): requests answered per second and
 * their mean latency in ms (undefined without a read before, or when no request was timed), and
 * the streams open at the second read. A counter that went down (the gateway restarted) counts
 * from zero.
 */
export function liveFigures(before, after) {
  const streams = after.sums.get('gateway_streams_open') ?? 0;
  if (!before) return { rate: undefined, latencyMs: undefined, streams };
  const grew = (name) => {
    const now = after.sums.get(name) ?? 0;
    const then = before.sums.get(name) ?? 0;
    return now >= then ? now - then : now;
  };
  const seconds = (after.at - before.at) / 1000;
  const timed = grew('gateway_request_duration_seconds_count');
  return {
    rate: seconds > 0 ? grew('gateway_requests_total') / seconds : 0,
    latencyMs: timed > 0 ? (grew('gateway_request_duration_seconds_sum') / timed) * 1000 : undefined,
    streams,
  };
}
