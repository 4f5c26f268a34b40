import { useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';
import { BarChart } from './chart.jsx';
import { usePolling } from './polling.js';

const TABLES = [
  ['popular-searches', 'popular_searches', 'Popular searches'],
  ['no-result-searches', 'no_results_searches', 'Searches without results'],
  ['popular-results', 'popular_results', 'Popular results'],
];

/** The time ranges: [seconds back from now (`from_timestamp`), label, the searches' chart interval]. */
const RANGES = [
  ['3600', 'Last hour', 'minute'],
  ['86400', 'Last 24 hours', 'hour'],
  ['604800', 'Last 7 days', 'day'],
  ['2592000', 'Last 30 days', 'day'],
];
const DEFAULT_RANGE = '2592000';

/** A time bucket's label, as precise as its interval. */
const TIME_LABELS = {
  minute: { hour: '2-digit', minute: '2-digit' },
  hour: { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
  day: { month: 'short', day: 'numeric' },
};

/** The summary's figures ([member, label]), each shown with the previous period's. */
const FIGURES = [
  ['total_searches', 'Searches'],
  ['total_no_results_searches', 'Without results'],
  ['no_results_rate', 'Without results (%)'],
  ['total_clicks', 'Clicks'],
  ['avg_click_rate', 'Click rate (%)'],
  ['total_conversions', 'Conversions'],
  ['total_users', 'Users'],
  ['avg_search_latency', 'Mean latency (ms)'],
];

const change = (now, before) => {
  const by = Math.round((now - before) * 100) / 100;
  return by > 0 ? `+${by}` : by < 0 ? String(by) : '±0';
};

/** Latency buckets are 10 ms wide below 1 s, then one for 1 s and more (README "Search analytics"). */
const latencyLabel = (key) => (key >= 1000 ? `≥ ${key} ms` : `${key}–${key + 10} ms`);

/**
 * Analytics over a time range: the summary beside the previous period's, popular and no-result
 * searches, popular results and filters, charts of the searches' latency and of the searches over
 * time by status; refreshed every 5 s.
 */
export function AnalyticsPage() {
  const [range, setRange] = useState(DEFAULT_RANGE);
  const [data, setData] = useState(undefined);
  const [error, setError] = useState('');
  const interval = RANGES.find(([seconds]) => seconds === range)[2];
  usePolling(async (stale) => {
    const since = `from_timestamp=${Math.floor(Date.now() / 1000) - Number(range)}`;
    const ask = (name, more = '') => call(`/_analytics/${name}?${since}${more}`);
    const [summary, filters, latency, distribution, ...tables] = await Promise.all([
      ask('summary'), ask('popular-filters'), ask('latency'), ask('request-distribution', `&interval=${interval}`),
      ...TABLES.map(([path]) => ask(path)),
    ]);
    if (stale()) return;
    if (summary.status !== 200) return setError(reasonOf(summary));
    setError('');
    setData({
      interval,
      summary: summary.json,
      filters: filters.status === 200 ? filters.json.popular_filters : [],
      latencies: latency.status === 200 ? latency.json.latencies : [],
      distribution: distribution.status === 200 ? distribution.json.request_distribution : [],
      tables: tables.map((t, i) => (t.status === 200 ? t.json[TABLES[i][1]] ?? [] : [])),
    });
  }, [range]);
  return (
    <section aria-labelledby="analytics-title">
      <h2 id="analytics-title">Analytics</h2>
      <label>
        Time range
        <select name="range" value={range} onChange={(e) => setRange(e.currentTarget.value)}>
          {RANGES.map(([seconds, label]) => (
            <option key={seconds} value={seconds}>{label}</option>
          ))}
        </select>
      </label>
      {error && <p role="alert" class="error">{error}</p>}
      {data && (
        <>
          <dl class="figures">
            {FIGURES.map(([member, label]) => {
              const now = data.summary[member];
              const before = data.summary.compare_timeframe[member];
              return (
                <div key={member}>
                  <dt>{label}</dt>
                  <dd data-testid={member.replaceAll('_', '-')}>{now}</dd>
                  <dd class="previous" data-testid={`previous-${member.replaceAll('_', '-')}`}>previous period {before} ({change(now, before)})</dd>
                </div>
              );
            })}
          </dl>
          <BarChart
            title="Search latency"
            testid="latency-chart"
            labelHeading="Latency"
            valueHeading="Searches"
            bars={data.latencies.map((b) => ({ label: latencyLabel(b.key), value: b.count }))}
          />
          <BarChart
            title={`Searches per ${data.interval}`}
            testid="distribution-chart"
            labelHeading="From"
            valueHeading="Searches"
            detailHeading="By status"
            bars={data.distribution.map((b) => ({
              label: new Date(b.key).toLocaleString([], TIME_LABELS[data.interval]),
              value: b.count,
              detail: b.buckets.map((s) => `${s.key}: ${s.count}`).join(', '),
            }))}
          />
          {TABLES.map(([path, , title], i) => (
            <table key={path} data-testid={path}>
              <caption>{title}</caption>
              <thead>
                <tr>
                  <th scope="col">{path === 'popular-results' ? 'Document' : 'Search'}</th>
                  <th scope="col">Count</th>
                </tr>
              </thead>
              <tbody>
                {data.tables[i].map((row) => (
                  <tr key={row.key}>
                    <th scope="row">{row.key}</th>
                    <td>{row.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
          <table data-testid="popular-filters">
            <caption>Popular filters</caption>
            <thead>
              <tr>
                <th scope="col">Filter</th>
                <th scope="col">Value</th>
                <th scope="col">Count</th>
              </tr>
            </thead>
            <tbody>
              {data.filters.map((row) => (
                <tr key={`${row.key}=${row.value}`}>
                  <th scope="row">{row.key}</th>
                  <td>{row.value}</td>
                  <td>{row.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
