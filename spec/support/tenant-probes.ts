import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './servers.js';

/**
 * Requests a tenant (`tenant-a`) could make to reach another index (`tenant-b`) or the gateway's
 * system indices: every path × method of Elasticsearch's API catalogue with the foreign index in
 * the path, in the body and in index-naming parameters, and requests outside the catalogue.
 * spec/auth/foreign-index-sweep sends each one; spec/auth/one-reading sends them in generated spellings.
 */
/** Elasticsearch's REST API catalogue (rest-api-spec), in ../shared beside the repository. */
export const API_DIR = path.join(REPO_ROOT, '../shared/conformance/api');
export const FOREIGN = 'tenant-b';
export const SYSTEM = '.gateway-credentials';

/** What stands in an index position: the foreign index plainly, in a list, encoded, as a wildcard; then system indices. */
export const FOREIGN_VALUES = [FOREIGN, `tenant-a,${FOREIGN}`, '%74enant-b', 'tenant-%2A', 'tenant-*'];
export const SYSTEM_VALUES = [SYSTEM, '%2Egateway-credentials', '.gateway-*', `tenant-a,${SYSTEM}`, 'tenant-a%2C.gateway-credentials'];

/** Harmless values for parts that do not name an index. */
export const HARMLESS: Record<string, string> = {
  id: '1', type: '_doc', fields: 'f', metric: 'docs', index_metric: 'docs', node_id: '_local', task_id: 'node:1',
  scroll_id: 'c2Nyb2xs', repository: 'repo', snapshot: 'snap', target_snapshot: 'snap2', thread_pool_patterns: 'search',
  context: 'score', block: 'write', index_uuid: 'uuid', name: 'harmless-name',
};

export interface ApiPath {
  path: string;
  methods: string[];
  parts?: Record<string, { description?: string }>;
}
export interface ApiSpec {
  url: { paths: ApiPath[] };
  body?: { required?: boolean; serialize?: string };
  params?: Record<string, unknown>;
}

/** Whether a path part names indices (or aliases / data streams, which live among index names). */
export function namesIndices(api: string, part: string, description = ''): boolean {
  if (['index', 'target', 'new_index', 'alias'].includes(part)) return true;
  if (part !== 'name') return false;
  return /alias|data stream/i.test(description) || api === 'indices.resolve_index' || api === 'indices.simulate_index_template';
}

/** Query clauses that make the engine read another index. */
export const lookups = (ix: string): Array<[string, unknown]> => [
  ['terms lookup', { terms: { f: { index: ix, id: '1', path: 'f' } } }],
  ['more_like_this like', { more_like_this: { fields: ['f'], like: [{ _index: ix, _id: '1' }], min_term_freq: 1, min_doc_freq: 1 } }],
  ['geo_shape indexed_shape', { geo_shape: { location: { indexed_shape: { index: ix, id: '1', path: 'shape' } } } }],
  ['percolate', { percolate: { field: 'query', index: ix, id: '1' } }],
  ['pinned docs', { pinned: { docs: [{ _index: ix, _id: '1' }], organic: { match_all: {} } } }],
];

export const nd = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** Bodies that name `ix` where such a body can name indices, by API. */
export function namingBodies(api: string, ix: string): Array<[string, string]> {
  const json = (label: string, body: unknown): [string, string] => [label, JSON.stringify(body)];
  const queries = () => lookups(ix).map(([label, q]) => json(`body ${label}`, { query: q }));
  switch (api) {
    case 'search': case 'count': case 'explain': case 'delete_by_query': case 'update_by_query': case 'indices.validate_query':
      return queries();
    case 'field_caps':
      return lookups(ix).map(([label, q]) => json(`body index_filter ${label}`, { index_filter: q }));
    case 'search_template': case 'render_search_template':
      return [
        ...lookups(ix).map(([label, q]) => json(`template ${label}`, { source: { query: q } })),
        json('template source as a string', { source: JSON.stringify({ query: lookups(ix)[0][1] }) }),
      ];
    case 'msearch':
      return [
        ['header index', nd({ index: ix }, {})],
        ['header index list', nd({ index: ['tenant-a', ix] }, {})],
        ['header after an own one', nd({ index: 'tenant-a' }, {}, { index: ix }, {})],
        ...lookups(ix).map(([label, q]): [string, string] => [`search line ${label}`, nd({ index: 'tenant-a' }, { query: q })]),
      ];
    case 'msearch_template':
      return [
        ['header index', nd({ index: ix }, { source: { query: { match_all: {} } } })],
        ['header index list', nd({ index: ['tenant-a', ix] }, { source: { query: { match_all: {} } } })],
        ...lookups(ix).map(([label, q]): [string, string] => [`template ${label}`, nd({ index: 'tenant-a' }, { source: { query: q } })]),
      ];
    case 'mget':
      return [json('docs[]._index', { docs: [{ _index: ix, _id: '1' }] }), json('docs[]._index after an own one', { docs: [{ _index: 'tenant-a', _id: '1' }, { _index: ix, _id: '1' }] })];
    case 'mtermvectors':
      return [
        json('docs[]._index', { docs: [{ _index: ix, _id: '1' }] }), json('docs[]._index after an own one', { docs: [{ _index: 'tenant-a', _id: '1' }, { _index: ix, _id: '1' }] }),
        json('parameters._index (the template of ids)', { ids: ['1'], parameters: { _index: ix } }),
      ];
    case 'termvectors':
      return [json('body _index', { _index: ix })];
    case 'bulk':
      return [
        ['index action', nd({ index: { _index: ix, _id: 'x' } }, { f: 'x' })],
        ['delete action', nd({ delete: { _index: ix, _id: '1' } })],
        ['update action', nd({ update: { _index: ix, _id: '1' } }, { doc: { f: 'y' } })],
        ['after an own action', nd({ index: { _index: 'tenant-a', _id: 'y' } }, { f: 'y' }, { create: { _index: ix, _id: 'z' } }, { f: 'z' })],
      ];
    case 'reindex':
      return [
        json('source.index', { source: { index: ix }, dest: { index: 'tenant-a' } }),
        json('source.index list', { source: { index: ['tenant-a', ix] }, dest: { index: 'tenant-a' } }),
        json('dest.index', { source: { index: 'tenant-a' }, dest: { index: ix } }),
        json('source.query terms lookup', { source: { index: 'tenant-a', query: lookups(ix)[0][1] }, dest: { index: 'tenant-a' } }),
      ];
    case 'indices.update_aliases':
      return [
        json('add index', { actions: [{ add: { index: ix, alias: 'a1' } }] }),
        json('add indices list', { actions: [{ add: { indices: ['tenant-a', ix], alias: 'a1' } }] }),
        json('remove_index', { actions: [{ remove_index: { index: ix } }] }),
        json('alias filter terms lookup', { actions: [{ add: { index: 'tenant-a', alias: 'a1', filter: lookups(ix)[0][1] } }] }),
      ];
    case 'indices.put_alias':
      return [json('filter terms lookup', { filter: lookups(ix)[0][1] }), json('index in the body', { index: ix }), json('alias in the body', { alias: ix })];
    case 'rank_eval':
      return [
        json('ratings[]._index', { requests: [{ id: 'q', request: { query: { match_all: {} } }, ratings: [{ _index: ix, _id: '1', rating: 1 }] }] }),
        json('request terms lookup', { requests: [{ id: 'q', request: { query: lookups(ix)[0][1] }, ratings: [] }] }),
      ];
    case 'cluster.allocation_explain':
      return [json('index', { index: ix, shard: 0, primary: true })];
    case 'snapshot.create': case 'snapshot.restore':
      return [json('indices', { indices: ix })];
    case 'indices.put_index_template': case 'indices.simulate_index_template': case 'indices.simulate_template':
      return [json('index_patterns', { index_patterns: [ix], template: { settings: {} } })];
    case 'indices.put_template':
      return [json('index_patterns', { index_patterns: [ix] })];
    default:
      return [];
  }
}

/** A body the API accepts without naming any index, for the requests whose path does the naming. */
export function harmlessBody(api: string): string | undefined {
  switch (api) {
    case 'bulk': return nd({ index: { _id: 'x' } }, { f: 'x' });
    case 'msearch': return nd({}, {});
    case 'msearch_template': return nd({}, { source: { query: { match_all: {} } } });
    case 'mget': case 'mtermvectors': return JSON.stringify({ ids: ['1'] });
    case 'index': case 'create': return JSON.stringify({ f: 'x' });
    case 'update': return JSON.stringify({ doc: { f: 'x' } });
    case 'delete_by_query': case 'update_by_query': case 'search': case 'count': return JSON.stringify({ query: { match_all: {} } });
    case 'indices.put_mapping': return JSON.stringify({ properties: { g: { type: 'keyword' } } });
    case 'indices.put_settings': return JSON.stringify({ index: { number_of_replicas: 1 } });
    default: return undefined;
  }
}

/** APIs whose `index` query parameter names indices. */
export const INDEX_PARAM = new Set(['cat.recovery', 'indices.analyze', 'indices.clear_cache', 'field_caps']);

export interface Probe {
  label: string;
  method: string;
  path: string;
  body?: string;
  ndjson?: boolean;
  /** The refusal expected where it is not 403 (system-index probes). */
  status?: number;
}

export function probesFor(api: string, spec: ApiSpec, p: ApiPath, method: string): Probe[] {
  const parts = p.parts ?? {};
  const indexParts = Object.keys(parts).filter((part) => namesIndices(api, part, parts[part]?.description));
  const fill = (value: string) => p.path.replace(/\{(\w+)\}/g, (_, part: string) => (indexParts.includes(part) ? value : HARMLESS[part] ?? 'harmless'));
  const hasBody = !!spec.body && method !== 'HEAD';
  const ndjson = spec.body?.serialize === 'bulk';
  const probes: Probe[] = [];
  if (indexParts.length) {
    for (const value of [...FOREIGN_VALUES, ...SYSTEM_VALUES]) {
      probes.push({ label: `path ${value}`, method, path: fill(value), body: hasBody ? harmlessBody(api) : undefined, ndjson });
    }
  }
  const own = fill('tenant-a');
  if (hasBody) {
    for (const ix of [FOREIGN, SYSTEM]) {
      for (const [label, body] of namingBodies(api, ix)) probes.push({ label: `${label} (${ix})`, method, path: own, body, ndjson });
    }
  }
  if (INDEX_PARAM.has(api)) {
    for (const ix of [FOREIGN, `tenant-a,${FOREIGN}`, SYSTEM, '%2Egateway-credentials']) {
      probes.push({ label: `?index=${ix}`, method, path: `${own}?index=${ix}`, body: hasBody ? harmlessBody(api) : undefined });
    }
  }
  return probes;
}

/** Requests outside the API catalogue that can name indices in their bodies or paths. */
export function extraProbes(ix: string): Probe[] {
  const q = (label: string, method: string, p: string, body?: unknown): Probe => ({ label, method, path: p, body: body === undefined ? undefined : JSON.stringify(body) });
  return [
    q('SQL FROM', 'POST', '/_sql', { query: `SELECT * FROM "${ix}"` }),
    q('SQL FROM (text)', 'POST', '/_sql?format=txt', { query: `SELECT * FROM "${ix}"` }),
    q('SQL translate', 'POST', '/_sql/translate', { query: `SELECT * FROM "${ix}"` }),
    q('SQL filter terms lookup', 'POST', '/_sql', { query: 'SELECT * FROM "tenant-a"', filter: lookups(ix)[0][1] }),
    q('ES|QL FROM', 'POST', '/_query', { query: `FROM ${ix} | LIMIT 1` }),
    q('ES|QL FROM list', 'POST', '/_query', { query: `FROM tenant-a,${ix} | LIMIT 1` }),
    q('ES|QL async', 'POST', '/_query/async', { query: `FROM ${ix} | LIMIT 1` }),
    q('EQL', 'POST', `/${ix}/_eql/search`, { query: 'any where true' }),
    q('point in time', 'POST', `/${ix}/_pit?keep_alive=1m`),
    q('async search', 'POST', `/${ix}/_async_search`, { query: { match_all: {} } }),
    q('terms enum', 'POST', `/${ix}/_terms_enum`, { field: 'f' }),
    q('knn search', 'POST', `/${ix}/_knn_search`, { knn: { field: 'v', query_vector: [1], k: 1, num_candidates: 1 } }),
    q('disk usage', 'POST', `/${ix}/_disk_usage?run_expensive_tasks=true`),
  ];
}

/** Every probe of the catalogue and beyond it; empty when the catalogue is not beside the repository. */
export function catalogueProbes(): Probe[] {
  if (!existsSync(API_DIR)) return [];
  const probes: Probe[] = [];
  for (const file of readdirSync(API_DIR).filter((f) => f.endsWith('.json') && !f.startsWith('_')).sort()) {
    const specs = JSON.parse(readFileSync(path.join(API_DIR, file), 'utf8')) as Record<string, ApiSpec>;
    for (const [api, spec] of Object.entries(specs)) {
      for (const p of spec.url.paths) for (const method of p.methods) probes.push(...probesFor(api, spec, p, method).map((probe) => ({ ...probe, label: `${api} ${probe.label}` })));
    }
  }
  for (const ix of [FOREIGN, SYSTEM]) probes.push(...extraProbes(ix));
  return probes;
}
