import { useEffect, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';

const TABLES = [
  ['popular-searches', 'popular_searches', 'Popular searches'],
  ['no-result-searches', 'no_results_searches', 'Searches without results'],
  ['popular-results', 'popular_results', 'Popular results'],
];

/** Analytics: the summary and the popular / no-result searches and popular results, refreshed every 5 s. */
export function AnalyticsPage() {
  const [data, setData] = useState(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    let stopped = false;
    const load = async () => {
      const [summary, ...tables] = await Promise.all([call('/_analytics/summary'), ...TABLES.map(([path]) => call(`/_analytics/${path}`))]);
      if (stopped) return;
      if (summary.status !== 200) return setError(reasonOf(summary));
      setError('');
      setData({ summary: summary.json, tables: tables.map((t, i) => (t.status === 200 ? t.json[TABLES[i][1]] ?? [] : [])) });
    };
    load();
    const timer = setInterval(load, 5000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);
  return (
    <section aria-labelledby="analytics-title">
      <h2 id="analytics-title">Analytics</h2>
      {error && <p role="alert" class="error">{error}</p>}
      {data && (
        <>
          <dl class="figures">
            <div><dt>Searches</dt><dd data-testid="total-searches">{data.summary.total_searches}</dd></div>
            <div><dt>Without results</dt><dd>{data.summary.total_no_results_searches}</dd></div>
            <div><dt>Clicks</dt><dd>{data.summary.total_clicks}</dd></div>
            <div><dt>Users</dt><dd>{data.summary.total_users}</dd></div>
          </dl>
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
        </>
      )}
    </section>
  );
}
