import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { basic, call, forget, reasonOf, remember, savedAuth } from './api.js';
import { Credentials } from './credentials.jsx';
import { DataBrowser } from './data.jsx';
import { LiveView } from './live.jsx';
import { CachePage } from './cache.jsx';
import { AnalyticsPage } from './analytics.jsx';
import { PipelinesPage } from './pipelines.jsx';
import { RulesPage } from './rules.jsx';
import { SearchBuilder } from './builder.jsx';
import { RelevancePage } from './relevance.jsx';
import { SynonymsPage } from './synonyms.jsx';
import { LogsPage } from './logs.jsx';
import { RequestPanel } from './requests.jsx';
import { IndicesPage } from './indices.jsx';
import { liveFigures, sumsByName } from './metrics.js';
import { usePolling } from './polling.js';
import { allowedOrigins, isAdmin, may, readsIndices } from './rights.js';
import './style.css';

/** Sign in with any credential: checked with GET /_security/_authenticate, kept in sessionStorage. */
function SignIn({ onSignedIn }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const auth = basic(String(form.get('username')), String(form.get('password')));
    setBusy(true);
    const me = await call('/_security/_authenticate', { auth }).catch(() => ({ status: 0 }));
    setBusy(false);
    if (me.status !== 200) {
      setError(me.status === 401 ? 'Wrong username or password.' : `Could not sign in: ${reasonOf(me)}`);
      return;
    }
    remember(auth);
    onSignedIn(me.json);
  };
  return (
    <main class="signin">
      <h1>Search gateway</h1>
      <form onSubmit={submit} aria-describedby="signin-error">
        <label>
          Username
          <input name="username" autocomplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>Sign in</button>
        <p id="signin-error" role="alert" class="error">{error}</p>
      </form>
    </main>
  );
}

/**
 * What the credential may see of the cluster, refreshed every few seconds; for the admin (or the
 * `cluster` category) the request rate and mean latency since the previous refresh, and the open
 * streams, from two successive reads of the gateway's metrics.
 */
function Overview({ me }) {
  const [state, setState] = useState({ indices: undefined, health: undefined, cache: undefined, live: undefined, error: '' });
  // the previous metrics sample: rates are the change since it
  const previous = useRef(undefined);
  usePolling(async (stale) => {
    const [indices, health, cache, metrics] = await Promise.all([
      // the indices it reads (a credential that reads none is shown its rights alone)
      readsIndices(me) ? call('/_cat/indices?format=json&h=index,health,docs.count,store.size&s=index') : Promise.resolve(undefined),
      me.roles.includes('admin') ? call('/_cluster/health') : Promise.resolve(undefined),
      me.roles.includes('admin') ? call('/_cache/stats') : Promise.resolve(undefined),
      may(me, 'cluster') ? call('/_gateway/metrics') : Promise.resolve(undefined),
    ]);
    if (stale()) return;
    const sample = metrics?.status === 200 ? { at: Date.now(), sums: sumsByName(metrics.text) } : undefined;
    setState({
      indices: indices?.status === 200 ? indices.json.filter((i) => !i.index.startsWith('.')) : undefined,
      health: health?.status === 200 ? health.json : undefined,
      cache: cache?.status === 200 ? cache.json : undefined,
      live: sample && liveFigures(previous.current, sample),
      error: !indices || indices.status === 200 ? '' : reasonOf(indices),
    });
    previous.current = sample;
  }, [me]);
  const { indices, health, cache, live, error } = state;
  return (
    <section aria-labelledby="overview-title">
      <h2 id="overview-title">Overview</h2>
      <dl class="figures">
        {health && (
          <div>
            <dt>Cluster</dt>
            <dd data-testid="cluster-health">{health.status}</dd>
          </div>
        )}
        {indices && (
          <div>
            <dt>Indices</dt>
            <dd data-testid="index-count">{indices.length}</dd>
          </div>
        )}
        {cache && (
          <div>
            <dt>Cache hit ratio</dt>
            <dd data-testid="cache-hit-ratio">{cache.hit_ratio.toFixed(2)}</dd>
          </div>
        )}
        {live && (
          <>
            <div>
              <dt>Requests per second</dt>
              <dd data-testid="request-rate">{live.rate === undefined ? '…' : live.rate.toFixed(1)}</dd>
            </div>
            <div>
              <dt>Mean latency</dt>
              <dd data-testid="mean-latency">{live.latencyMs === undefined ? '–' : `${live.latencyMs.toFixed(1)} ms`}</dd>
            </div>
            <div>
              <dt>Open streams</dt>
              <dd data-testid="open-streams">{live.streams}</dd>
            </div>
          </>
        )}
      </dl>
      {!isAdmin(me) && <Rights me={me} />}
      {error && <p role="alert" class="error">Indices: {error}</p>}
      {indices && (
        <table>
          <caption>Indices this credential may read</caption>
          <thead>
            <tr>
              <th scope="col">Index</th>
              <th scope="col">Health</th>
              <th scope="col">Documents</th>
              <th scope="col">Size</th>
            </tr>
          </thead>
          <tbody>
            {indices.map((i) => (
              <tr key={i.index} data-testid="index-row">
                <th scope="row">{i.index}</th>
                <td>{i.health}</td>
                <td>{i['docs.count']}</td>
                <td>{i['store.size']}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** What a scoped credential may do, as the gateway says it: its indices, categories, operations, origins. */
function Rights({ me }) {
  const { indices = [], categories = [], ops = [], app } = me.metadata?.gateway ?? {};
  const origins = allowedOrigins(me);
  return (
    <dl class="rights" data-testid="rights">
      <div>
        <dt>Index patterns</dt>
        <dd data-testid="rights-indices">{indices.join(', ') || 'none'}{app ? ` (app ${app})` : ''}</dd>
      </div>
      <div>
        <dt>May use</dt>
        <dd data-testid="rights-categories">{categories.join(', ') || 'nothing'}</dd>
      </div>
      <div>
        <dt>Operations</dt>
        <dd data-testid="rights-ops">{ops.join(', ')}</dd>
      </div>
      {origins.length > 0 && (
        <div>
          <dt>Browser origins</dt>
          <dd data-testid="rights-origins">{origins.join(', ')}</dd>
        </div>
      )}
    </dl>
  );
}

/** The page the URL names (`#/logs`): a page can be bookmarked, reloaded, and gone back to. */
const pageInUrl = () => decodeURIComponent(location.hash.replace(/^#\/?/, '').split(/[/?]/)[0]);

function usePageInUrl() {
  const [page, setPage] = useState(pageInUrl());
  useEffect(() => {
    const follow = () => setPage(pageInUrl());
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return [page, (id) => { location.hash = `#/${id}`; }];
}

function App() {
  const [me, setMe] = useState(undefined);
  const [asked, go] = usePageInUrl();
  const [checking, setChecking] = useState(Boolean(savedAuth()));
  useEffect(() => {
    if (!savedAuth()) return;
    call('/_security/_authenticate').then((r) => {
      if (r.status === 200) setMe(r.json);
      else forget();
      setChecking(false);
    });
  }, []);
  if (checking) return <p>Loading…</p>;
  if (!me) return <SignIn onSignedIn={setMe} />;
  const canManage = may(me, 'credentials');
  const views = [
    // a page shows only for a credential that may use it: the gateway would refuse the rest
    ['overview', 'Overview'],
    // any credential: what it sends goes through the same access rules as any client's
    ['requests', 'Requests'],
    ...(readsIndices(me) ? [['data', 'Data']] : []),
    ...(may(me, 'indices') ? [['indices', 'Indices']] : []),
    ...(readsIndices(me) && (may(me, 'streams') || may(me, 'declarative')) ? [['live', 'Live view']] : []),
    ...(readsIndices(me) && may(me, 'declarative') ? [['builder', 'Search preview']] : []),
    ...(may(me, 'analytics') ? [['analytics', 'Analytics']] : []),
    ...(may(me, 'logs') ? [['logs', 'Logs']] : []),
    ...(may(me, 'cache') ? [['cache', 'Cache']] : []),
    ...(may(me, 'pipelines') ? [['pipelines', 'Pipelines']] : []),
    ...(may(me, 'rules') ? [['rules', 'Rules']] : []),
    ...(may(me, 'searchrelevancy') ? [['relevance', 'Relevance']] : []),
    // Elasticsearch's synonyms API is cluster-wide: the classifier's `cluster` category
    ...(may(me, 'cluster') ? [['synonyms', 'Synonyms']] : []),
    ...(canManage ? [['credentials', 'Access control']] : []),
  ];
  const pages = {
    requests: <RequestPanel me={me} />,
    indices: may(me, 'indices') && <IndicesPage me={me} />,
    credentials: canManage && <Credentials />,
    data: readsIndices(me) && <DataBrowser me={me} />,
    live: readsIndices(me) && (may(me, 'streams') || may(me, 'declarative')) && <LiveView me={me} />,
    cache: may(me, 'cache') && <CachePage />,
    analytics: may(me, 'analytics') && <AnalyticsPage />,
    logs: may(me, 'logs') && <LogsPage />,
    pipelines: may(me, 'pipelines') && <PipelinesPage />,
    rules: may(me, 'rules') && <RulesPage />,
    relevance: may(me, 'searchrelevancy') && <RelevancePage admin={isAdmin(me)} />,
    synonyms: may(me, 'cluster') && <SynonymsPage />,
    builder: readsIndices(me) && may(me, 'declarative') && <SearchBuilder me={me} />,
  };
  // a page the credential may not use (an old bookmark, another credential's) is the overview
  const view = pages[asked] ? asked : 'overview';
  document.title = `${views.find(([id]) => id === view)?.[1] ?? 'Overview'} · Search gateway console`;
  return (
    <>
      <header>
        <span class="brand">Search gateway</span>
        <nav aria-label="Console">
          {views.map(([id, label]) => (
            <button type="button" key={id} aria-current={view === id ? 'page' : undefined} onClick={() => go(id)}>
              {label}
            </button>
          ))}
        </nav>
        <span data-testid="signed-in-as">
          {me.username} ({me.roles.join(', ')})
        </span>
        <button
          type="button"
          onClick={() => {
            forget();
            setMe(undefined);
          }}
        >
          Sign out
        </button>
      </header>
      <main>{pages[view] || <Overview me={me} />}</main>
    </>
  );
}

render(<App />, document.getElementById('app'));
