/**
 * The real engines `npm run test:engines` runs the HTTP-backend specs against: how each is started
 * in Docker, and how the specs find it. The specs learn an engine's address from
 * `TEST_ENGINE_URL_<NAME>` (userinfo = the credentials the gateway uses), set by `run.ts` after it
 * started the container — or by hand, to test against a cluster of your own.
 */

export type EngineName = 'elasticsearch' | 'opensearch';

export interface RealEngine {
  name: EngineName;
  /** How the specs' titles name it. */
  label: string;
  image: string;
  /** The container's environment: a single node, small heap, no disk watermarks (CI disks run full). */
  environment: Record<string, string>;
  /** Basic credentials, when the engine runs with security on. */
  credentials?: { username: string; password: string };
}

const ELASTIC_PASSWORD = 'engine-secret';

export const REAL_ENGINES: Record<EngineName, RealEngine> = {
  // Security on, as in production, over plain HTTP: the gateway authenticates with ENGINE_URL's userinfo.
  elasticsearch: {
    name: 'elasticsearch',
    label: 'Elasticsearch 8',
    image: 'docker.elastic.co/elasticsearch/elasticsearch:8.15.3',
    environment: {
      'discovery.type': 'single-node',
      'xpack.security.enabled': 'true',
      'xpack.security.http.ssl.enabled': 'false',
      'xpack.security.transport.ssl.enabled': 'false',
      ELASTIC_PASSWORD,
      ES_JAVA_OPTS: '-Xms1g -Xmx1g',
      'xpack.ml.enabled': 'false',
      'ingest.geoip.downloader.enabled': 'false',
      'cluster.routing.allocation.disk.threshold_enabled': 'false',
    },
    credentials: { username: 'elastic', password: ELASTIC_PASSWORD },
  },
  // OpenSearch's security plugin serves TLS with demo certificates only; the suite runs it without.
  opensearch: {
    name: 'opensearch',
    label: 'OpenSearch 2',
    image: 'opensearchproject/opensearch:2.17.1',
    environment: {
      'discovery.type': 'single-node',
      DISABLE_SECURITY_PLUGIN: 'true',
      DISABLE_INSTALL_DEMO_CONFIG: 'true',
      OPENSEARCH_JAVA_OPTS: '-Xms1g -Xmx1g',
      'cluster.routing.allocation.disk.threshold_enabled': 'false',
    },
  },
};

/** The engines named by `TEST_ENGINES` (comma-separated); none when it is absent or empty. */
export function selectedEngines(list: string | undefined = process.env.TEST_ENGINES): RealEngine[] {
  const names = (list ?? '').split(',').map((n) => n.trim().toLowerCase()).filter(Boolean);
  return names.map((name) => {
    if (!(name in REAL_ENGINES)) throw new Error(`TEST_ENGINES: unknown engine "${name}" (known: ${Object.keys(REAL_ENGINES).join(', ')})`);
    return REAL_ENGINES[name as EngineName];
  });
}

export const urlVariable = (engine: RealEngine) => `TEST_ENGINE_URL_${engine.name.toUpperCase()}`;

/** The engine's URL from its `TEST_ENGINE_URL_<NAME>`; a clear error when nothing set it. */
export function engineUrl(engine: RealEngine): URL {
  const raw = process.env[urlVariable(engine)];
  if (!raw) throw new Error(`${urlVariable(engine)} is not set: run the specs with \`npm run test:engines\`, or set it to a ${engine.label} URL`);
  return new URL(raw);
}

/**
 * Puts the engine back to empty for the next target: every data stream and index a test could
 * have made (user indices and the gateway's `.gateway-*` ones; the engine's own dot-indices are left
 * alone), and the cluster-level state tests write — index, component and legacy templates, ingest
 * pipelines, stored scripts, synonym sets, query rules, cluster settings and open scrolls.
 */
export async function resetEngine(url: URL): Promise<void> {
  await engineCall(url, 'DELETE', '/_data_stream/*?expand_wildcards=all', true);
  // Two listings: the user's indices, and the gateway's hidden ones by name (not every engine lists
  // hidden indices under expand_wildcards=all, and the engine's own system indices stay out of it).
  const listings = await Promise.all(
    ['/_cat/indices?format=json&h=index&expand_wildcards=all', '/_cat/indices/.gateway*?format=json&h=index&expand_wildcards=all'].map(
      async (path) => (await engineCall(url, 'GET', path)) as Array<{ index: string }>,
    ),
  );
  const ours = [...new Set(listings.flat().map((i) => i.index))].filter((name) => !name.startsWith('.') || name.startsWith('.gateway'));
  for (let i = 0; i < ours.length; i += 50) {
    await engineCall(url, 'DELETE', `/${ours.slice(i, i + 50).map(encodeURIComponent).join(',')}?ignore_unavailable=true&expand_wildcards=all`);
  }
  const named = async (path: string, pick: (answer: any) => string[]) => pick(await engineCall(url, 'GET', path, true)).filter((name) => !name.startsWith('.'));
  const remove = async (base: string, names: string[]) => {
    for (const name of names) await engineCall(url, 'DELETE', `${base}/${encodeURIComponent(name)}`, true);
  };
  await remove('/_index_template', await named('/_index_template', (a) => (a?.index_templates ?? []).map((t: { name: string }) => t.name)));
  await remove('/_component_template', await named('/_component_template', (a) => (a?.component_templates ?? []).map((t: { name: string }) => t.name)));
  await remove('/_template', await named('/_template', (a) => Object.keys(a ?? {})));
  await remove('/_ingest/pipeline', await named('/_ingest/pipeline', (a) => Object.keys(a ?? {})));
  await remove('/_scripts', await named('/_cluster/state/metadata?filter_path=metadata.stored_scripts', (a) => Object.keys(a?.metadata?.stored_scripts ?? {})));
  await remove('/_synonyms', await named('/_synonyms?size=10000', (a) => (a?.results ?? []).map((r: { synonyms_set: string }) => r.synonyms_set)));
  await remove('/_query_rules', await named('/_query_rules?size=10000', (a) => (a?.results ?? []).map((r: { ruleset_id: string }) => r.ruleset_id)));
  // OpenSearch's ISM policies are the cluster's, kept by the engines that serve them (an engine that
  // does not answers no handler: none to remove); a spec that lists them met another spec's
  const policies = (await engineCall(url, 'GET', '/_plugins/_ism/policies?size=1000', true).catch(() => undefined)) as { policies?: Array<{ _id: string }> } | undefined;
  await remove('/_plugins/_ism/policies', (policies?.policies ?? []).map((p) => p._id));
  // the Observability plugin's saved objects live in its system index, which only its API reaches
  const objects = (await engineCall(url, 'GET', '/_plugins/_observability/object?maxItems=1000', true).catch(() => undefined)) as { observabilityObjectList?: Array<{ objectId: string }> } | undefined;
  await remove('/_plugins/_observability/object', (objects?.observabilityObjectList ?? []).map((o) => o.objectId));
  // the Flow Framework plugin's workflows (templates and states: its system indices), through its API
  const flowIds = new Set<string>();
  for (const path of ['/_plugins/_flow_framework/workflow/_search', '/_plugins/_flow_framework/workflow/state/_search']) {
    const found = (await engineCall(url, 'POST', path, true, { size: 1000, query: { match_all: {} } }).catch(() => undefined)) as { hits?: { hits?: Array<{ _id: string }> } } | undefined;
    for (const hit of found?.hits?.hits ?? []) flowIds.add(hit._id);
  }
  for (const id of flowIds) await engineCall(url, 'DELETE', `/_plugins/_flow_framework/workflow/${encodeURIComponent(id)}?clear_status=true`, true).catch(() => undefined);
  // ML Commons' model groups (its system index, names unique in the cluster), through its API, the
  // ones not refreshed yet included
  await engineCall(url, 'POST', '/_refresh', true);
  const groups = (await engineCall(url, 'POST', '/_plugins/_ml/model_groups/_search', true, { size: 10000, query: { match_all: {} } }).catch(() => undefined)) as { hits?: { hits?: Array<{ _id: string }> } } | undefined;
  await remove('/_plugins/_ml/model_groups', (groups?.hits?.hits ?? []).map((h) => h._id));
  const transforms = (await engineCall(url, 'GET', '/_plugins/_transform?size=1000', true).catch(() => undefined)) as { transforms?: Array<{ _id: string }> } | undefined;
  await remove('/_plugins/_transform', (transforms?.transforms ?? []).map((t) => t._id));
  // Learning to Rank's feature stores, through its own API (the default store is `DELETE /_ltr`)
  const ltr = (await engineCall(url, 'GET', '/_ltr', true).catch(() => undefined)) as { stores?: Record<string, unknown> } | undefined;
  for (const name of Object.keys(ltr?.stores ?? {})) await engineCall(url, 'DELETE', name === '_default_' ? '/_ltr' : `/_ltr/${encodeURIComponent(name)}`, true).catch(() => undefined);
  const settings = (await engineCall(url, 'GET', '/_cluster/settings?flat_settings=true')) as { persistent?: object; transient?: object };
  const cleared = (section: object | undefined) => Object.fromEntries(Object.keys(section ?? {}).map((key) => [key, null]));
  if (Object.keys(settings.persistent ?? {}).length + Object.keys(settings.transient ?? {}).length > 0) {
    await engineCall(url, 'PUT', '/_cluster/settings', false, { persistent: cleared(settings.persistent), transient: cleared(settings.transient) });
  }
  await engineCall(url, 'DELETE', '/_search/scroll/_all', true);
}

/** One call to the engine; `absentIsFine`: a 404 (nothing of that kind exists) answers undefined. */
async function engineCall(url: URL, method: string, path: string, absentIsFine = false, body?: unknown): Promise<unknown> {
  // fetch refuses URLs with userinfo: it goes in the Authorization header instead.
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  if (url.username) headers.authorization = 'Basic ' + Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
  const res = await fetch(new URL(path, url.origin), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status === 404 && absentIsFine) return undefined;
  if (!res.ok) throw new Error(`${method} ${path} on the engine answered ${res.status}: ${text}`);
  return JSON.parse(text);
}
