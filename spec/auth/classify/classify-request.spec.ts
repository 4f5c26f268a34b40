import type { EsError } from '../../../lib/errors/index.js';
import { classificationOf } from '../../support/classification.js';
import { expect } from 'chai';
import { type Classification } from '../../../lib/auth/classify/index.js';
import { encodePitId } from '../../../lib/point-in-time/index.js';

type Expected = Partial<Pick<Classification, 'category' | 'operation' | 'action' | 'indices' | 'allIndices' | 'clusterPrivileges' | 'known'>>;
type Row = [method: string, path: string, expected: Expected, querystring?: string];

const nd = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';

const ROWS: Row[] = [
  // root and cluster
  ['GET', '/', { category: 'cluster', operation: 'read', action: 'cluster:monitor/main', indices: [], allIndices: false }],
  ['HEAD', '/', { category: 'cluster', operation: 'read' }],
  ['GET', '/_cluster/health', { category: 'cluster', operation: 'read', action: 'cluster:monitor/health', indices: [] }],
  ['GET', '/_cluster/health/shop,logs-*', { category: 'cluster', action: 'cluster:monitor/health', indices: ['shop', 'logs-*'] }],
  ['GET', '/_cluster/state/metadata/shop', { category: 'cluster', action: 'cluster:monitor/state', indices: ['shop'] }],
  ['GET', '/_cluster/settings', { category: 'cluster', operation: 'read', action: 'cluster:monitor/settings' }],
  ['PUT', '/_cluster/settings', { category: 'cluster', operation: 'write', action: 'cluster:admin/settings/update' }],
  ['POST', '/_cluster/reroute', { category: 'cluster', operation: 'write', action: 'cluster:admin/reroute' }],
  ['POST', '/_cluster/allocation/explain', { category: 'cluster', operation: 'read' }],
  ['DELETE', '/_cluster/voting_config_exclusions', { category: 'cluster', operation: 'delete' }],
  ['GET', '/_nodes/stats', { category: 'cluster', operation: 'read', action: 'cluster:monitor/nodes/stats' }],
  ['POST', '/_nodes/reload_secure_settings', { category: 'cluster', operation: 'write' }],
  ['GET', '/_tasks', { category: 'cluster', operation: 'read', action: 'cluster:monitor/tasks/lists' }],
  ['POST', '/_tasks/n1:1/_cancel', { category: 'cluster', operation: 'write', action: 'cluster:admin/tasks/cancel' }],
  ['PUT', '/_snapshot/repo', { category: 'cluster', operation: 'write', action: 'cluster:admin/repository/put', allIndices: false }],
  ['POST', '/_snapshot/repo/_verify', { category: 'cluster', operation: 'read' }],
  ['PUT', '/_snapshot/repo/snap', { category: 'cluster', operation: 'write', action: 'cluster:admin/snapshot/create', allIndices: true }],
  ['POST', '/_snapshot/repo/snap/_restore', { category: 'cluster', operation: 'write', action: 'cluster:admin/snapshot/restore', allIndices: true }],
  ['DELETE', '/_snapshot/repo/snap', { category: 'cluster', operation: 'delete', action: 'cluster:admin/snapshot/delete' }],
  ['GET', '/_ingest/pipeline/p1', { category: 'cluster', operation: 'read', action: 'cluster:admin/ingest/pipeline/get' }],
  ['PUT', '/_ingest/pipeline/p1', { category: 'cluster', operation: 'write', action: 'cluster:admin/ingest/pipeline/put' }],
  ['POST', '/_ingest/pipeline/_simulate', { category: 'cluster', operation: 'read' }],
  ['DELETE', '/_ingest/pipeline/p1', { category: 'cluster', operation: 'delete' }],
  ['PUT', '/_scripts/s1', { category: 'cluster', operation: 'write', action: 'cluster:admin/script/put' }],
  ['GET', '/_license', { category: 'cluster', operation: 'read', action: 'cluster:monitor/xpack/license/get' }],
  ['GET', '/_xpack', { category: 'cluster', operation: 'read', action: 'cluster:monitor/xpack/info' }],
  // an API the table does not know: the table's unknown route, refused for scoped credentials
  ['PUT', '/_security/user/bob', { category: 'cluster', operation: 'write', action: 'cluster:admin/unknown', known: false }],
  ['GET', '/_cat/health', { category: 'cluster', operation: 'read', action: 'cluster:monitor/health' }],
  ['GET', '/_cat/nodes', { category: 'cluster', operation: 'read' }],
  ['GET', '/_cat/indices', { category: 'indices', operation: 'read', allIndices: true, indices: [] }],
  ['GET', '/_cat/indices/shop*', { category: 'indices', operation: 'read', allIndices: false, indices: ['shop*'] }],
  ['GET', '/_cat/aliases/shop-read', { category: 'indices', indices: ['shop-read'] }],
  ['GET', '/_cat/count/shop', { category: 'indices', indices: ['shop'] }],
  ['GET', '/_cat', { category: 'cluster', operation: 'read', action: 'cluster:monitor/state' }],
  ['GET', '/_cat/master', { category: 'cluster', operation: 'read', action: 'cluster:monitor/state' }],
  ['GET', '/_cat/cluster_manager', { category: 'cluster', operation: 'read', action: 'cluster:monitor/state' }], // OpenSearch's name of _cat/master
  ['GET', '/_cat/nodeattrs', { category: 'cluster', operation: 'read', action: 'cluster:monitor/nodes/info' }],
  ['GET', '/_cat/templates', { category: 'cluster', operation: 'read', action: 'indices:admin/template/get', allIndices: false, clusterPrivileges: ['manage_index_templates'] }],
  ['GET', '/_cat/shards/shop', { category: 'indices', operation: 'read', indices: ['shop'] }],
  ['GET', '/_nodes', { category: 'cluster', operation: 'read', action: 'cluster:monitor/nodes/info' }],
  ['GET', '/_cluster/stats', { category: 'cluster', operation: 'read', action: 'cluster:monitor/stats' }],
  ['GET', '/shop/_search_shards', { category: 'search', operation: 'read', indices: ['shop'] }],

  // documents
  ['GET', '/shop/_doc/1', { category: 'docs', operation: 'read', action: 'indices:data/read/get', indices: ['shop'], allIndices: false }],
  ['HEAD', '/shop/_doc/1', { category: 'docs', operation: 'read' }],
  ['PUT', '/shop/_doc/1', { category: 'docs', operation: 'write', action: 'indices:data/write/index' }],
  ['POST', '/shop/_doc/1', { category: 'docs', operation: 'write' }],
  ['POST', '/shop/_doc', { category: 'docs', operation: 'write', action: 'indices:data/write/index' }],
  ['DELETE', '/shop/_doc/1', { category: 'docs', operation: 'delete', action: 'indices:data/write/delete' }],
  ['PUT', '/shop/_create/1', { category: 'docs', operation: 'write' }],
  ['POST', '/shop/_update/1', { category: 'docs', operation: 'write', action: 'indices:data/write/update' }],
  ['GET', '/shop/_source/1', { category: 'docs', operation: 'read' }],
  ['HEAD', '/shop/_source/1', { category: 'docs', operation: 'read' }],
  ['POST', '/shop/_delete_by_query', { category: 'docs', operation: 'delete', action: 'indices:data/write/delete/byquery' }],
  ['POST', '/shop/_update_by_query', { category: 'docs', operation: 'write', action: 'indices:data/write/update/byquery' }],
  ['POST', '/_delete_by_query/t:1/_rethrottle', { category: 'cluster', action: 'cluster:admin/reindex/rethrottle' }],
  ['POST', '/_reindex/t:1/_rethrottle', { category: 'cluster', action: 'cluster:admin/reindex/rethrottle' }],
  ['GET', '/shop/_mget', { category: 'docs', operation: 'read', action: 'indices:data/read/mget', indices: ['shop'] }],
  ['POST', '/_bulk', { category: 'docs', operation: 'write', action: 'indices:data/write/bulk' }],

  // search
  ['GET', '/_search', { category: 'search', operation: 'read', action: 'indices:data/read/search', indices: [], allIndices: true }],
  ['POST', '/_search', { category: 'search', operation: 'read', allIndices: true }],
  ['POST', '/shop,logs-*,-logs-old/_search', { category: 'search', indices: ['shop', 'logs-*', '-logs-old'], allIndices: false }],
  ['GET', '/_all/_search', { category: 'search', indices: ['_all'], allIndices: true }],
  ['GET', '/*/_search', { category: 'search', indices: ['*'], allIndices: true }],
  ['GET', '/shop%2Clogs/_search', { indices: ['shop', 'logs'] }],
  ['POST', '/shop/_count', { category: 'search', operation: 'read', indices: ['shop'] }],
  ['GET', '/_count', { category: 'search', allIndices: true }],
  ['POST', '/_msearch', { category: 'search', operation: 'read', action: 'indices:data/read/msearch' }],
  ['POST', '/shop/_msearch/template', { category: 'search', action: 'indices:data/read/msearch/template', indices: ['shop'] }],
  ['POST', '/shop/_search/template', { category: 'search', action: 'indices:data/read/search/template', indices: ['shop'] }],
  ['POST', '/_render/template', { category: 'search', operation: 'read', indices: [], allIndices: false }],
  ['POST', '/_search/scroll', { category: 'search', operation: 'read', action: 'indices:data/read/scroll', allIndices: false }],
  ['DELETE', '/_search/scroll', { category: 'search', operation: 'read', action: 'indices:data/read/scroll/clear' }],
  ['POST', '/shop/_pit', { category: 'search', operation: 'read', action: 'indices:data/read/open_point_in_time', indices: ['shop'] }],
  ['DELETE', '/_pit', { category: 'search', operation: 'read', action: 'indices:data/read/close_point_in_time' }],
  ['GET', '/shop/_field_caps', { category: 'search', action: 'indices:data/read/field_caps' }],
  ['GET', '/shop/_explain/1', { category: 'search', action: 'indices:data/read/explain' }],
  ['GET', '/shop/_validate/query', { category: 'search', action: 'indices:admin/validate/query' }],
  ['GET', '/shop/_termvectors/1', { category: 'search', action: 'indices:data/read/tv' }],
  ['POST', '/shop/_mtermvectors', { category: 'search', action: 'indices:data/read/mtv' }],
  ['GET', '/shop/_search_shards', { category: 'search' }],
  ['POST', '/shop/_rank_eval', { category: 'search' }],
  ['POST', '/_sql', { category: 'search', allIndices: true }],

  // index administration
  ['GET', '/shop', { category: 'indices', operation: 'read', action: 'indices:admin/get', indices: ['shop'] }],
  ['HEAD', '/shop', { category: 'indices', operation: 'read' }],
  ['PUT', '/shop', { category: 'indices', operation: 'write', action: 'indices:admin/create' }],
  ['DELETE', '/shop', { category: 'indices', operation: 'delete', action: 'indices:admin/delete' }],
  ['DELETE', '/_all', { category: 'indices', operation: 'delete', allIndices: true, indices: ['_all'] }],
  ['POST', '/shop/_open', { category: 'indices', operation: 'write', action: 'indices:admin/open' }],
  ['POST', '/shop/_close', { category: 'indices', operation: 'write', action: 'indices:admin/close' }],
  ['GET', '/shop/_mapping', { category: 'indices', operation: 'read', action: 'indices:admin/mappings/get' }],
  ['PUT', '/shop/_mapping', { category: 'indices', operation: 'write', action: 'indices:admin/mapping/put' }],
  ['GET', '/_mapping', { category: 'indices', operation: 'read', allIndices: true }],
  ['GET', '/shop/_mapping/field/title', { category: 'indices', action: 'indices:admin/mappings/fields/get' }],
  ['GET', '/shop/_settings', { category: 'indices', operation: 'read', action: 'indices:monitor/settings/get' }],
  ['PUT', '/shop/_settings', { category: 'indices', operation: 'write', action: 'indices:admin/settings/update' }],
  ['PUT', '/_settings', { category: 'indices', operation: 'write', allIndices: true }],
  ['GET', '/_alias', { category: 'indices', operation: 'read', allIndices: true }],
  ['GET', '/_alias/shop-read', { category: 'indices', operation: 'read', indices: ['shop-read'], allIndices: false }],
  ['GET', '/shop/_alias/shop-read', { category: 'indices', indices: ['shop', 'shop-read'] }],
  ['PUT', '/shop/_alias/shop-read', { category: 'indices', operation: 'write', action: 'indices:admin/aliases', indices: ['shop', 'shop-read'] }],
  ['DELETE', '/shop/_aliases/shop-read', { category: 'indices', operation: 'delete', indices: ['shop', 'shop-read'] }],
  ['POST', '/_aliases', { category: 'indices', operation: 'write', action: 'indices:admin/aliases' }],
  ['POST', '/shop/_refresh', { category: 'indices', operation: 'read', action: 'indices:admin/refresh' }],
  ['POST', '/_refresh', { category: 'indices', operation: 'read', allIndices: true }],
  ['POST', '/shop/_flush', { category: 'indices', operation: 'read' }],
  ['POST', '/shop/_forcemerge', { category: 'indices', operation: 'write' }],
  ['POST', '/shop/_analyze', { category: 'indices', operation: 'read', action: 'indices:admin/analyze' }],
  ['POST', '/_analyze', { category: 'indices', operation: 'read', allIndices: false, indices: [] }],
  ['GET', '/shop/_stats', { category: 'indices', operation: 'read', action: 'indices:monitor/stats' }],
  ['POST', '/shop/_cache/clear', { category: 'indices', operation: 'write', action: 'indices:admin/cache/clear' }],
  ['PUT', '/shop/_block/write', { category: 'indices', operation: 'write' }],
  ['POST', '/shop/_shrink/small', { category: 'indices', operation: 'write', action: 'indices:admin/resize', indices: ['shop', 'small'] }],
  ['POST', '/logs/_rollover/logs-2', { category: 'indices', operation: 'write', action: 'indices:admin/rollover', indices: ['logs', 'logs-2'] }],
  // templates apply to every tenant's indices by pattern: cluster-level, managed with manage_index_templates
  ['PUT', '/_index_template/t1', { category: 'cluster', operation: 'write', action: 'indices:admin/index_template/put', allIndices: false, clusterPrivileges: ['manage_index_templates'] }],
  ['GET', '/_template', { category: 'cluster', operation: 'read', action: 'indices:admin/template/get', allIndices: false, clusterPrivileges: ['manage_index_templates'] }],
  ['DELETE', '/_component_template/c1', { category: 'cluster', operation: 'delete', allIndices: false, clusterPrivileges: ['manage_index_templates'] }],
  ['PUT', '/_data_stream/logs-ds', { category: 'indices', operation: 'write', indices: ['logs-ds'] }],
  ['GET', '/_resolve/index/shop*', { category: 'indices', operation: 'read', indices: ['shop*'] }],

  // the gateway's own routes
  ['GET', '/_apps', { category: 'indices', operation: 'read', allIndices: true }],
  ['PUT', '/_apps/shop', { category: 'indices', operation: 'write', action: 'indices:admin/create', indices: ['shop'] }],
  // the apps registry reads no single app: no route of the table
  ['GET', '/_apps/shop', { category: 'cluster', operation: 'read', known: false }],
  ['DELETE', '/_apps/shop', { category: 'indices', operation: 'delete', indices: ['shop'] }],
  ['GET', '/_credentials', { category: 'credentials', operation: 'read', action: 'cluster:admin/gateway/credentials/get', indices: [], allIndices: false }],
  ['POST', '/_credentials', { category: 'credentials', operation: 'write' }],
  ['GET', '/_credentials/bob', { category: 'credentials', operation: 'read' }],
  ['PATCH', '/_credentials/bob', { category: 'credentials', operation: 'write', action: 'cluster:admin/gateway/credentials/put' }],
  ['DELETE', '/_credentials/bob', { category: 'credentials', operation: 'delete', action: 'cluster:admin/gateway/credentials/delete' }],
  ['GET', '/shop/_credentials', { category: 'credentials', operation: 'read', indices: ['shop'] }],
  ['POST', '/shop/_credentials', { category: 'credentials', operation: 'write', indices: ['shop'] }],
  ['POST', '/_declarative', { category: 'declarative', operation: 'read' }],
  ['POST', '/shop/_declarative', { category: 'declarative', operation: 'read', indices: ['shop'] }],
  ['POST', '/shop/_declarative/validate', { category: 'declarative', operation: 'read', indices: ['shop'] }],
  ['GET', '/_pipelines', { category: 'pipelines', operation: 'read' }],
  ['GET', '/_pipeline/p1', { category: 'pipelines', operation: 'read', action: 'cluster:admin/gateway/pipelines/get' }],
  ['PUT', '/_pipeline/p1', { category: 'pipelines', operation: 'write' }],
  ['DELETE', '/_pipeline/p1', { category: 'pipelines', operation: 'delete' }],
  ['GET', '/_rules', { category: 'rules', operation: 'read' }],
  ['PUT', '/_rules/r1', { category: 'rules', operation: 'write' }],
  ['DELETE', '/_rules/r1', { category: 'rules', operation: 'delete' }],
  ['GET', '/_cache', { category: 'cache', operation: 'read' }],
  ['DELETE', '/_cache', { category: 'cache', operation: 'delete' }],
  // Elasticsearch's clear cache, not the gateway's cache API: every index's caches
  ['POST', '/_cache/clear', { category: 'indices', operation: 'write', action: 'indices:admin/cache/clear' }],
  ['GET', '/_analytics', { category: 'analytics', operation: 'read' }],
  ['GET', '/_analytics/popular-searches', { category: 'analytics', operation: 'read' }],
  ['DELETE', '/_analytics', { category: 'analytics', operation: 'delete' }],
  ['GET', '/shop/_analytics', { category: 'analytics', operation: 'read', indices: ['shop'] }],

  // app-addressed /{app}/{type}/…
  ['GET', '/shop/books/1', { category: 'docs', operation: 'read', action: 'indices:data/read/get', indices: ['shop'] }],
  ['PUT', '/shop/books/1', { category: 'docs', operation: 'write', action: 'indices:data/write/index', indices: ['shop'] }],
  ['POST', '/shop/books/1', { category: 'docs', operation: 'write' }],
  ['DELETE', '/shop/books/1', { category: 'docs', operation: 'delete', action: 'indices:data/write/delete' }],
  ['POST', '/shop/books', { category: 'docs', operation: 'write', action: 'indices:data/write/index', indices: ['shop'] }],
  // the app-addressed style reads no type as a whole: no route of the table
  ['GET', '/shop/books', { category: 'indices', operation: 'read', known: false }],
  ['POST', '/shop/books/1/_update', { category: 'docs', operation: 'write', action: 'indices:data/write/update', indices: ['shop'] }],
  ['POST', '/shop/books/_search', { category: 'search', operation: 'read', action: 'indices:data/read/search', indices: ['shop'] }],
  ['GET', '/shop/books/_count', { category: 'search', operation: 'read', indices: ['shop'] }],
  ['POST', '/shop/books/_bulk', { category: 'docs', operation: 'write', action: 'indices:data/write/bulk', indices: ['shop'] }],
  ['GET', '/shop/books/_mapping', { category: 'indices', operation: 'read' }],

  // streams
  ['GET', '/shop/books/1', { category: 'streams', operation: 'read', action: 'indices:data/read/get', indices: ['shop'] }, 'stream=true'],
  ['GET', '/shop/_doc/1', { category: 'streams', operation: 'read' }, 'stream=true'],
  ['GET', '/shop/_doc/1', { category: 'streams', operation: 'read' }, 'streamonly=true'],
  ['GET', '/shop/_doc/1', { category: 'docs', operation: 'read' }, 'stream=false'],
  ['POST', '/shop/_search', { category: 'streams', operation: 'read', action: 'indices:data/read/search' }, 'stream=true'],
  ['POST', '/shop/books/_search', { category: 'streams', indices: ['shop'] }, 'streamonly=true&pretty'],
  ['POST', '/_search', { category: 'streams', allIndices: true }, 'stream=true'],
  ['PUT', '/shop/_doc/1', { category: 'docs', operation: 'write' }, 'stream=true'],

  // cluster-level resources: managed with a named cluster privilege (`manage` stands for all)
  ['PUT', '/_ingest/pipeline/p1', { clusterPrivileges: ['manage_pipeline'] }],
  ['GET', '/_ingest/pipeline', { clusterPrivileges: ['manage_pipeline'] }],
  ['PUT', '/_scripts/s1', { clusterPrivileges: ['manage_scripts'] }],
  ['PUT', '/_synonyms/set1', { category: 'cluster', clusterPrivileges: ['manage_search_synonyms'] }],
  ['PUT', '/_query_rules/rs1', { category: 'cluster', clusterPrivileges: ['manage_search_query_rules'] }],
  ['PUT', '/_cluster/settings', { clusterPrivileges: ['manage'] }],
  ['PUT', '/_snapshot/repo', { clusterPrivileges: ['manage'] }],
  ['GET', '/_snapshot/repo/_all', { clusterPrivileges: ['manage'] }],
  ['GET', '/_cluster/health', { clusterPrivileges: undefined }],
  // a write naming a pipeline needs manage_pipeline, however the parameter is spelled
  ['PUT', '/shop/_doc/1', { category: 'docs', indices: ['shop'], clusterPrivileges: ['manage_pipeline'] }, 'pipeline=p1'],
  ['PUT', '/shop/_doc/1', { clusterPrivileges: ['manage_pipeline'] }, '%70ipeline=p1'],
  ['PUT', '/shop/_doc/1', { clusterPrivileges: ['manage_pipeline'] }, 'pipelin%65=p1'],
  ['POST', '/_bulk', { clusterPrivileges: ['manage_pipeline'] }, 'p%69peline=p1'],
  ['PUT', '/shop/_doc/1', { clusterPrivileges: undefined }, 'pipeline=_none'],
  ['GET', '/shop/_doc/1', { clusterPrivileges: undefined }, 'pipeline=p1'],
  // per-index breakdowns of cluster-wide answers: narrowed (health), or the admin's
  ['GET', '/_cluster/health', { allIndices: true, clusterPrivileges: undefined }, 'level=indices'],
  ['GET', '/_nodes/stats', { clusterPrivileges: ['manage'] }, 'level=shards'],
  ['POST', '/_cluster/allocation/explain', { clusterPrivileges: ['manage'] }],
  ['GET', '/_cat/pending_tasks', { clusterPrivileges: ['manage'] }],
  // a script run against an index reads it
  ['POST', '/_scripts/painless/_execute', { category: 'cluster', operation: 'read', clusterPrivileges: undefined }],
  // cluster state: every index unless named, narrowable to a list after the metric
  ['GET', '/_cluster/state', { category: 'cluster', allIndices: true, indices: [] }],
  ['GET', '/_cluster/state/metadata/shop*', { category: 'cluster', allIndices: false, indices: ['shop*'] }],
];

describe('classifyRequest: route families × methods', () => {
  for (const [method, path, expected, qs] of ROWS) {
    it(`${method} ${path}${qs ? '?' + qs : ''} → ${expected.category ?? ''} ${expected.operation ?? ''}`, () => {
      const c = classificationOf({ method, path, querystring: qs ?? '' });
      for (const [k, v] of Object.entries(expected)) expect(c[k as keyof Expected], k).to.deep.equal(v);
      for (const e of c.indices) expect(c.sources.map((s) => s.expression)).to.include(e);
    });
  }

  it('a search of a point in time reads the indices its id names, not every index; an id it cannot decode is unknown', () => {
    const id = encodePitId(['shop', 'logs']);
    const c = classificationOf({ method: 'POST', path: '/_search', querystring: '', body: JSON.stringify({ pit: { id }, query: { match_all: {} } }) });
    expect(c.indices).to.deep.equal(['shop', 'logs']);
    expect(c.allIndices).to.equal(false);
    expect(c.known).to.equal(true);
    expect(c.slot).to.equal(undefined);
    const opaque = classificationOf({ method: 'POST', path: '/_search', querystring: '', body: JSON.stringify({ pit: { id: 'FGluY2x1ZGVfY29udGV4dF91dWlk' } }) });
    expect(opaque.known).to.equal(false);
    const closing = classificationOf({ method: 'DELETE', path: '/_pit', querystring: '', body: JSON.stringify({ id }) });
    expect(closing.indices).to.deep.equal(['shop', 'logs']);
    const closingOpaque = classificationOf({ method: 'DELETE', path: '/_pit', querystring: '', body: JSON.stringify({ id: 'xyz' }) });
    expect(closingOpaque.known).to.equal(false);
    const multi = classificationOf({ method: 'POST', path: '/_msearch', querystring: '', body: nd({}, { pit: { id: 'xyz' } }) });
    expect(multi.known).to.equal(false);
  });

  it("a put-alias body's index and alias are written, besides the path's; its filter's lookups read", () => {
    const both = classificationOf({ method: 'PUT', path: '/_alias', querystring: '', body: JSON.stringify({ index: 'shop,logs', alias: 'all-read' }) });
    expect(both).to.include({ category: 'indices', operation: 'write', action: 'indices:admin/aliases', allIndices: false });
    expect(both.indices).to.deep.equal(['shop', 'logs', 'all-read']);
    const overriding = classificationOf({ method: 'PUT', path: '/shop/_alias/shop-read', querystring: '', body: JSON.stringify({ index: 'secret' }) });
    expect(overriding.indices).to.include.members(['shop', 'shop-read', 'secret']);
    const byName = classificationOf({ method: 'PUT', path: '/_alias/shop-read', querystring: '', body: JSON.stringify({ index: 'shop', filter: { terms: { user: { index: 'users', id: '1', path: 'x' } } } }) });
    expect(byName.indices).to.include.members(['shop-read', 'shop', 'users']);
    expect(byName.allIndices).to.equal(false);
  });

  it('records where each expression came from', () => {
    const c = classificationOf({ method: 'POST', path: '/shop/_msearch', querystring: '', body: nd({ index: 'logs' }, {}, { index: 'shop' }, {}) });
    expect(c.sources).to.deep.equal([
      { expression: 'shop', from: 'path' },
      { expression: 'logs', from: 'body' },
      { expression: 'shop', from: 'body' },
    ]);
    expect(c.indices).to.deep.equal(['shop', 'logs']);
  });

  it('is case-insensitive on the method and ignores a query string left in the path', () => {
    expect(classificationOf({ method: 'delete', path: '/shop/_doc/1?refresh=true', querystring: '' })).to.include({ category: 'docs', operation: 'delete' });
  });

  it('classifies odd paths, or refuses what cannot be decoded with a 400 (never another error)', () => {
    for (const path of ['', '/', '//', '/%', '/%E0%A4%A', '/_', '/_all', '/,', '/a/b/c/d/e/f/g', '/_unknown/x/y', '/shop/_unknown', '/shop/_cat']) {
      for (const method of ['GET', 'PUT', 'POST', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS', '']) {
        for (const querystring of ['', 'a=%41&&b', '%%%&&=']) {
          let c;
          try {
            c = classificationOf({ method, path, querystring });
          } catch (err) {
            expect((err as EsError).status, `${method} ${path}?${querystring}`).to.equal(400);
            continue;
          }
          expect(c.category).to.be.a('string');
        }
      }
    }
  });

  it('an empty comma list in the path reads as every index, never as none', () => {
    const c = classificationOf({ method: 'GET', path: '/,/_search', querystring: '' });
    expect(c.indices).to.deep.equal(['*']);
    expect(c.allIndices).to.equal(true);
  });
});

describe('classifyRequest: cluster state is narrowed in place', () => {
  it('puts the narrowed list after the metric, spelling out `_all` when the path has none', () => {
    const bare = classificationOf({ method: 'GET', path: '/_cluster/state', querystring: '' });
    expect(bare.segments).to.deep.equal(['_cluster', 'state', '_all']);
    expect(bare.slot).to.deep.equal({ segment: 3, insert: true });
    const metric = classificationOf({ method: 'GET', path: '/_cluster/state/metadata', querystring: '' });
    expect(metric.slot).to.deep.equal({ segment: 3, insert: true });
    const named = classificationOf({ method: 'GET', path: '/_cluster/state/metadata/shop*', querystring: '' });
    expect(named.slot).to.deep.equal({ segment: 3, insert: false });
  });
});
