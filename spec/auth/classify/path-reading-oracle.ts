import {
  aliasActionTargets,
  aliasBodyTargets,
  bulkTargets,
  closePointInTimeTargets,
  credentialTargets,
  declarativeTargets,
  docsTargets,
  msearchTargets,
  namedIndexTargets,
  uploadIndexTargets,
  painlessContextTargets,
  reindexTargets,
  managementJobTargets,
  searchBodyTargets,
  templateBodyTargets,
  indexCreationTargets,
  indexTemplateTargets,
  settingsTargets,
  termVectorsTargets,
} from '../../../lib/auth/classify/body-indices.js';
import { startClassifying, type Classifying } from '../../../lib/auth/classify/classifying.js';
import { AUTHENTICATE_ACTION, type Classification, type ClassifiableRequest, type Operation } from '../../../lib/request/index.js';

/**
 * The classifier's path reading as it was before issue 32 made the route table the only reader of
 * a request (lib/auth/classify/classify-request.ts, deleted): kept here as the oracle the table's
 * metadata is checked against (route-table-oracle.spec.ts), never used by lib.
 */
/**
 * The one resolver from a request to what it is: route family, category, operation, action,
 * indices (from the path, the body and index-naming parameters), document id — for every route
 * family of Elasticsearch 8's REST API and the gateway's own routes. Pure and synchronous.
 *
 * Called without a body, it says whether it needs one (`readsBody`); called with it, it reads the
 * body the way the engine will, throws the engine's 400 for a body the engine would refuse, and
 * hands back the body to forward (`forward`). A request it does not recognise is classified by its
 * shape (a leading index expression makes it an index request, anything else is cluster-level)
 * and marked `known: false`.
 *
 * It reads the target the edge decoded, and its one caller is the edge's builder of the request
 * value (`readRequest`, read-request.ts): no other step classifies a request again.
 */
export function classifyTarget(req: ClassifiableRequest): Classification {
  const c = startClassifying(req);
  const { segments } = req;
  if (!segments.length) return c.done('cluster', 'read', 'cluster:monitor/main');
  const head = segments[0];
  if (head.startsWith('_') && head !== '_all' && !head.startsWith('_all,')) return topLevel(c, segments);
  // `/.suggestions/_reactivesearch(.v3)`: popular searches of the caller's own indices (search
  // analytics), answered by the gateway — no index of the engine's is named
  if (head === '.suggestions' && segments.length === 2 && /^_(declarative|reactivesearch(\.v3)?)$/.test(segments[1])) return topLevel(c, segments.slice(1));
  // a document's index is one name (the route table's entries with a document id, typed ones
  // included): a comma in it is no list
  const oneName = ONE_NAME_ENDPOINTS.has(segments[1]) || (segments.length >= 3 && !segments[1].startsWith('_') && !segments[2].startsWith('_'));
  c.pathIndex(head, 0, undefined, oneName, ITEMS_DEFAULT_ENDPOINTS.has(segments[1]));
  return indexScoped(c, segments.slice(1));
}

/** The endpoints after `/{index}` of the document APIs, whose index is one name. */
const ONE_NAME_ENDPOINTS = new Set(['_doc', '_create', '_source', '_update', '_explain', '_termvectors']);

/** The endpoints after `/{index}` whose index is the default of the body's items, each reading it as one name. */
const ITEMS_DEFAULT_ENDPOINTS = new Set(['_mget', '_bulk', '_mtermvectors']);

// ---------------------------------------------------------------------------------------------
// Routes that start with an index expression: /{index}/…
// ---------------------------------------------------------------------------------------------

function indexScoped(c: Classifying, rest: string[]): Classification {
  const [endpoint, ...tail] = rest;
  if (endpoint === undefined) return indexAdmin(c, 'indices:admin/get', 'indices:admin/create', 'indices:admin/delete');
  if (!endpoint.startsWith('_')) return typed(c, endpoint, tail);
  switch (endpoint) {
    case '_doc':
      // Elasticsearch 8's document API. Elasticsearch 7's typed paths (`/{index}/_doc/_search`,
      // `/{index}/_doc/{id}/_update`…) reach the classifier in their Elasticsearch 8 form
      // (`typelessRequest`); one that did not is what Elasticsearch 8 makes of it: in
      // `POST /{index}/_doc/_search`, `_search` is a document's id
      if (tail.length === 1) {
        c.id = tail[0];
        return document(c);
      }
      if (tail.length) {
        // no Elasticsearch 8 API: refused for scoped credentials
        c.unknown();
        return c.done('docs', c.op, c.op === 'read' ? 'indices:data/read/get' : c.op === 'delete' ? 'indices:data/write/delete' : 'indices:data/write/index');
      }
      return c.done('docs', c.op === 'read' ? 'read' : 'write', c.op === 'read' ? 'indices:data/read/get' : 'indices:data/write/index');
    case '_create':
      c.id = tail[0];
      return c.done('docs', 'write', 'indices:data/write/index');
    case '_update':
      c.id = tail[0];
      return c.done('docs', 'write', 'indices:data/write/update');
    case '_source':
      c.id = tail[0];
      return c.done('docs', 'read', 'indices:data/read/get');
    case '_mget':
      c.bodyTargets(docsTargets(c.body, c), false);
      return c.done('docs', 'read', 'indices:data/read/mget');
    case '_bulk':
      return bulk(c);
    case '_delete_by_query':
      if (tail.length) return rethrottle(c);
      c.bodyTargets(searchBodyTargets(c.body, c), false);
      return c.done('docs', 'delete', 'indices:data/write/delete/byquery');
    case '_update_by_query':
      if (tail.length) return rethrottle(c);
      c.bodyTargets(searchBodyTargets(c.body, c), false);
      return c.done('docs', 'write', 'indices:data/write/update/byquery');
    case '_search':
      return search(c, tail);
    case '_msearch':
      return msearch(c, tail);
    case '_mtermvectors':
      return mtermvectors(c);
    case '_credentials':
      c.family = 'credentials';
      c.bodyTargets(c.op === 'write' ? credentialTargets(c.body) : [], false);
      return c.done('credentials', c.op, gatewayAction('indices', 'credentials', c.op));
    case '_declarative':
    // the ReactiveSearch API's own names for it (appbase-js, the ReactiveSearch UI library)
    case '_reactivesearch':
    case '_reactivesearch.v3':
      c.family = 'declarative';
      c.bodyTargets(declarativeTargets(c.body), false);
      return c.done('declarative', 'read', tail[0] === 'validate' ? 'indices:data/read/declarative/validate' : 'indices:data/read/declarative');
    case '_rules':
      c.family = 'gateway';
      return c.done('rules', c.op, gatewayAction('indices', 'rules', c.op));
    case '_analytics':
      c.family = 'gateway';
      return c.done('analytics', c.op, gatewayAction('indices', 'analytics', c.op));
    case '_logs':
      c.family = 'gateway';
      return c.done('logs', c.op, gatewayAction('indices', 'logs', c.op));
    case '_pipeline':
    case '_pipelines':
      c.family = 'gateway';
      return c.done('pipelines', c.op, gatewayAction('indices', 'pipelines', c.op));
    case '_cache':
      if (tail[0] === 'clear') return c.done('indices', 'write', 'indices:admin/cache/clear');
      c.family = 'gateway';
      return c.done('cache', c.op, gatewayAction('indices', 'cache', c.op));
    default:
      return searchOrIndices(c, endpoint, tail);
  }
}

/** `/{index}/_doc/{id}` and its app-addressed and typed equivalents. */
function document(c: Classifying): Classification {
  const op = c.op;
  if (op === 'read') return c.done(c.streaming && c.method === 'GET' ? 'streams' : 'docs', 'read', 'indices:data/read/get');
  if (op === 'delete') return c.done('docs', 'delete', 'indices:data/write/delete');
  return c.done('docs', 'write', 'indices:data/write/index');
}

/**
 * `/{index}/{type}…`: the app-addressed style (and ES's deprecated typed paths). The type only
 * narrows documents, so the request is classified as its typeless equivalent.
 */
function typed(c: Classifying, type: string, tail: string[]): Classification {
  const [next, ...after] = tail;
  c.family = 'app';
  c.type = type;
  if (next === undefined) {
    // POST /{app}/{type} indexes a document with a generated id; other methods act on the type's documents.
    if (c.op === 'read') return c.done('docs', 'read', 'indices:data/read/get');
    return c.done('docs', c.op, c.op === 'delete' ? 'indices:data/write/delete' : 'indices:data/write/index');
  }
  if (next.startsWith('_')) return indexScoped(c, tail);
  const [sub] = after;
  c.id = next;
  if (sub === undefined) return document(c);
  if (DOCUMENT_ENDPOINTS.has(sub)) return indexScoped(c, [sub, next]);
  return c.done('docs', c.op, c.op === 'read' ? 'indices:data/read/get' : c.op === 'delete' ? 'indices:data/write/delete' : 'indices:data/write/index');
}

/** What `/{index}/{type}/{id}/…` may go on with: the typeless `/{index}/{endpoint}/{id}`. */
const DOCUMENT_ENDPOINTS = new Set(['_update', '_create', '_source', '_explain', '_termvectors']);

function bulk(c: Classifying): Classification {
  const targets = bulkTargets(c.body, c);
  c.bodyTargets(targets, true);
  const onlyDeletes = targets.length > 0 && targets.every((t) => t.operation === 'delete');
  return c.done('docs', onlyDeletes ? 'delete' : 'write', 'indices:data/write/bulk');
}

/** `_msearch` (with or without an index in the path): the indices its header lines name. */
function msearch(c: Classifying, tail: string[]): Classification {
  c.bodyTargets(msearchTargets(c.body, c, tail[0] === 'template'), false);
  if (c.pointInTime === 'opaque') c.unknown();
  return c.done('search', 'read', tail[0] === 'template' ? 'indices:data/read/msearch/template' : 'indices:data/read/msearch');
}

/** `_mtermvectors`: the indices its `docs` name. */
function mtermvectors(c: Classifying): Classification {
  c.bodyTargets(docsTargets(c.body, c), false);
  return c.done('search', 'read', 'indices:data/read/mtv');
}

/**
 * `_search`; `everyIndexAt`: a bare `/_search` searches every index (narrowable at that segment),
 * unless it searches a point in time — then it reads the indices the pit id names, and an id the
 * classifier cannot decode leaves the request unknown (refused for scoped credentials).
 */
function search(c: Classifying, tail: string[], everyIndexAt?: number): Classification {
  if (tail[0] === 'template') {
    if (everyIndexAt !== undefined) c.everyIndex(everyIndexAt);
    c.bodyTargets(templateBodyTargets(c.body, c), false);
    return c.done('search', 'read', 'indices:data/read/search/template');
  }
  if (tail[0] === 'scroll') return c.done('search', 'read', c.method === 'DELETE' ? 'indices:data/read/scroll/clear' : 'indices:data/read/scroll');
  // OpenSearch's points in time: every one (a reader of every index only), or those a body names
  if (tail[0] === 'point_in_time' && everyIndexAt !== undefined && c.method !== 'POST') {
    if (tail[1] === '_all') {
      c.everyIndex();
      return c.done('search', 'read', 'indices:data/read/point_in_time/readall');
    }
    c.bodyTargets(closePointInTimeTargets(c.body, c, 'pit_id'), false);
    if (c.pointInTime === 'opaque') c.unknown();
    return c.done('search', 'read', 'indices:data/read/point_in_time/delete');
  }
  const targets = searchBodyTargets(c.body, c);
  if (everyIndexAt !== undefined && c.pointInTime === undefined) c.everyIndex(everyIndexAt);
  c.bodyTargets(targets, false);
  if (c.pointInTime === 'opaque') c.unknown();
  return c.done(c.streaming ? 'streams' : 'search', 'read', 'indices:data/read/search');
}

function rethrottle(c: Classifying): Classification {
  return c.done('cluster', 'write', 'cluster:admin/reindex/rethrottle');
}

/** Read-only endpoints of the search family, by their first path segment. */
const SEARCH_ENDPOINTS: Record<string, string> = {
  _count: 'indices:data/read/search',
  _field_caps: 'indices:data/read/field_caps',
  _validate: 'indices:admin/validate/query',
  _explain: 'indices:data/read/explain',
  _termvectors: 'indices:data/read/tv',
  _search_shards: 'indices:admin/shards/search_shards',
  _pit: 'indices:data/read/open_point_in_time',
  _rank_eval: 'indices:data/read/rank_eval',
  _knn_search: 'indices:data/read/knn_search',
  _terms_enum: 'indices:data/read/xpack/termsenum/list',
  _async_search: 'indices:data/read/async_search/submit',
  _eql: 'indices:data/read/eql',
  _suggest: 'indices:data/read/search',
};

/**
 * `/{index}/_x…` outside the document and gateway families: the read-only search endpoints (their
 * bodies' queries may look up other indices), else index administration.
 */
function searchOrIndices(c: Classifying, endpoint: string, tail: string[]): Classification {
  const action = SEARCH_ENDPOINTS[endpoint];
  if (!action) return indicesEndpoint(c, endpoint, tail);
  if (endpoint === '_explain' || endpoint === '_termvectors') c.id = tail[0];
  // a term vectors body is one document of `_mtermvectors`: its `_index` replaces the path's
  if (endpoint === '_termvectors') c.bodyTargets(termVectorsTargets(c.body, c), false);
  else if (endpoint !== '_search_shards') c.bodyTargets(searchBodyTargets(c.body, c), false);
  return c.done('search', 'read', action);
}

/**
 * `/{index}` itself: GET/HEAD read, PUT create, DELETE delete. A creation body's aliases are
 * written and their filters' lookups read; a creation or settings body that sets
 * `index.default_pipeline` / `index.final_pipeline` makes every later write run a pipeline, which
 * may re-target it.
 */
function indexAdmin(c: Classifying, read: string, write: string, del: string): Classification {
  const op = c.op;
  if (op === 'write' && write === 'indices:admin/create') c.bodyTargets(indexCreationTargets(c.body, c), false);
  if (op === 'write' && write === 'indices:admin/settings/update') c.bodyTargets(settingsTargets(c.body, c), false);
  return c.done('indices', op, op === 'read' ? read : op === 'delete' ? del : write);
}

/** Index administration endpoints, `/{index}/_x…` (and `/_x…` with every index). */
function indicesEndpoint(c: Classifying, endpoint: string, tail: string[]): Classification {
  const op = c.op;
  switch (endpoint) {
    case '_open':
      return c.done('indices', 'write', 'indices:admin/open');
    case '_close':
      return c.done('indices', 'write', 'indices:admin/close');
    case '_mapping':
    case '_mappings':
      if (tail[0] === 'field') return c.done('indices', 'read', 'indices:admin/mappings/fields/get');
      return indexAdmin(c, 'indices:admin/mappings/get', 'indices:admin/mapping/put', 'indices:admin/mapping/put');
    case '_settings':
      return indexAdmin(c, 'indices:monitor/settings/get', 'indices:admin/settings/update', 'indices:admin/settings/update');
    case '_alias':
    case '_aliases':
      // the alias an alias put names is one name
      if (tail[0] !== undefined) c.pathIndex(tail[0], undefined, undefined, op === 'write');
      // the body's index and alias (which replace the path's) are written; its filter's lookups read
      if (op === 'write') c.bodyTargets(aliasBodyTargets(c.body, c), false);
      return indexAdmin(c, 'indices:admin/aliases/get', 'indices:admin/aliases', 'indices:admin/aliases');
    case '_refresh':
      return c.done('indices', 'read', 'indices:admin/refresh');
    case '_reload_search_analyzers':
      return c.done('indices', 'write', 'indices:admin/reload_analyzers');
    case '_flush':
      return c.done('indices', 'read', 'indices:admin/flush');
    case '_analyze':
      return c.done('indices', 'read', 'indices:admin/analyze');
    case '_forcemerge':
      return c.done('indices', 'write', 'indices:admin/forcemerge');
    case '_stats':
      return c.done('indices', 'read', 'indices:monitor/stats');
    case '_segments':
      return c.done('indices', 'read', 'indices:monitor/segments');
    case '_recovery':
      return c.done('indices', 'read', 'indices:monitor/recovery');
    case '_shard_stores':
      return c.done('indices', 'read', 'indices:monitor/shard_stores');
    case '_disk_usage':
      return c.done('indices', 'read', 'indices:admin/analyze_disk_usage');
    case '_field_usage_stats':
      return c.done('indices', 'read', 'indices:monitor/field_usage_stats');
    case '_upgrade':
      return c.done('indices', op === 'read' ? 'read' : 'write', op === 'read' ? 'indices:monitor/upgrade' : 'indices:admin/upgrade');
    case '_block':
      return c.done('indices', op === 'delete' ? 'delete' : 'write', 'indices:admin/block/add');
    case '_rollover':
    case '_shrink':
    case '_split':
    case '_clone': {
      // The source is read (rollover: the alias is written), the new index written, with the
      // aliases and settings its body gives it.
      c.markMixed();
      for (const s of c.pathList) c.addOperation(s, endpoint === '_rollover' ? 'write' : 'read');
      if (tail[0] !== undefined) c.pathIndex(tail[0], undefined, 'write');
      c.bodyTargets(indexCreationTargets(c.body, c), true);
      return c.done('indices', 'write', endpoint === '_rollover' ? 'indices:admin/rollover' : 'indices:admin/resize');
    }
    default:
      c.unknown();
      return c.done('indices', op, op === 'read' ? `indices:monitor/${endpoint.slice(1)}` : `indices:admin/${endpoint.slice(1)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Routes that start with an endpoint: /_x…
// ---------------------------------------------------------------------------------------------

function topLevel(c: Classifying, segments: readonly string[]): Classification {
  const [head, ...tail] = segments;
  const op = c.op;
  switch (head) {
    // The gateway's own routes.
    case '_apps':
      c.family = 'apps';
      if (tail[0] === undefined) {
        c.everyIndex();
        return c.done('indices', op, op === 'read' ? 'indices:admin/get' : op === 'delete' ? 'indices:admin/delete' : 'indices:admin/create');
      }
      c.pathIndex(tail[0]);
      // the apps API creates the index itself, from no body
      return c.done('indices', op, op === 'read' ? 'indices:admin/get' : op === 'delete' ? 'indices:admin/delete' : 'indices:admin/create');
    case '_credentials':
      c.family = 'credentials';
      if (tail[0] !== undefined) c.id = tail[0];
      c.bodyTargets(op === 'write' ? credentialTargets(c.body) : [], false);
      return c.done('credentials', op, gatewayAction('cluster', 'credentials', op));
    case '_declarative':
    // the ReactiveSearch API's own names for it (appbase-js, the ReactiveSearch UI library)
    case '_reactivesearch':
    case '_reactivesearch.v3':
      c.family = 'declarative';
      c.bodyTargets(declarativeTargets(c.body), false);
      return c.done('declarative', 'read', tail[0] === 'validate' ? 'indices:data/read/declarative/validate' : 'indices:data/read/declarative');
    case '_pipeline':
    case '_pipelines':
      c.family = 'pipelines';
      if (tail[0] !== undefined) c.id = tail[0];
      return c.done('pipelines', op, gatewayAction('cluster', 'pipelines', op));
    case '_rule':
    case '_rules':
      c.family = 'gateway';
      if (head === '_rule' && tail[0] !== undefined) c.id = tail[0];
      return c.done('rules', op, gatewayAction('cluster', 'rules', op));
    case '_searchrelevancy':
      c.family = 'gateway';
      // `_default` applies to every index: a cluster-level record; an index's own is that index's
      if (tail[0] !== undefined && tail[0] !== '_default') c.pathIndex(tail[0]);
      return c.done('searchrelevancy', op, gatewayAction(tail[0] !== undefined && tail[0] !== '_default' ? 'indices' : 'cluster', 'searchrelevancy', op));
    // Elasticsearch's synonyms sets and query rulesets are cluster-wide: cluster category
    case '_synonyms':
      c.needs('manage_search_synonyms');
      return c.done('cluster', op, op === 'read' ? 'cluster:admin/synonyms/get' : op === 'delete' ? 'cluster:admin/synonyms/delete' : 'cluster:admin/synonyms/put');
    case '_query_rules':
      c.needs('manage_search_query_rules');
      if (tail[1] === '_test') return c.done('cluster', 'read', 'cluster:admin/xpack/query_rules/test');
      return c.done('cluster', op, op === 'read' ? 'cluster:admin/xpack/query_rules/get' : op === 'delete' ? 'cluster:admin/xpack/query_rules/delete' : 'cluster:admin/xpack/query_rules/put');
    case '_cache':
      // `POST /_cache/clear`: Elasticsearch's, every index's caches
      if (tail[0] === 'clear' && tail.length === 1 && op === 'write' && c.method === 'POST') {
        // its `index` parameter names the indices cleared: then not every index
        if (!c.params.has('index')) c.everyIndex(0);
        return c.done('indices', 'write', 'indices:admin/cache/clear');
      }
      c.family = 'gateway';
      // `DELETE /_cache/{index}`: that index's cached answers
      if (tail[0] !== undefined && !['stats', 'evict', 'preferences'].includes(tail[0])) c.pathIndex(tail[0]);
      return c.done('cache', op, gatewayAction('cluster', 'cache', op));
    case '_analytics':
      c.family = 'gateway';
      // `/_analytics/{index}/{name}`: that index's analytics (`/_analytics/{name}`: every index's)
      if (tail.length >= 2 && tail[0] !== 'rules') {
        c.pathIndex(tail[0]);
        return c.done('analytics', op, gatewayAction('indices', 'analytics', op));
      }
      return c.done('analytics', op, gatewayAction('cluster', 'analytics', op));
    case '_logs':
    case '_log':
      c.family = 'gateway';
      return c.done('logs', op, gatewayAction('cluster', 'logs', op));
    // `/_gateway/metrics` (Prometheus); `/_gateway/health` and `/_gateway/ready` are answered
    // before authentication and never reach the classifier. Any other `/_gateway/…` is unknown.
    // Elasticsearch's authenticate API, answered by the gateway for its own principal (the engine
    // would answer for the gateway's engine user); any other `/_security/…` goes on as before
    case '_security':
      if (tail.length === 1 && tail[0] === '_authenticate' && (c.method === 'GET' || c.method === 'HEAD')) {
        c.family = 'gateway';
        return c.done('cluster', 'read', AUTHENTICATE_ACTION);
      }
      return clusterLevel(c, head, tail);
    case '_gateway':
      c.family = 'gateway';
      if (tail[0] !== 'metrics' || tail.length > 1) c.unknown();
      return c.done('cluster', op, `cluster:monitor/gateway/${tail[0] ?? ''}`);

    // Documents.
    case '_mget':
      c.bodyTargets(docsTargets(c.body, c), false);
      return c.done('docs', 'read', 'indices:data/read/mget');
    case '_bulk':
      return bulk(c);
    case '_reindex':
      if (tail.length) return rethrottle(c);
      c.bodyTargets(reindexTargets(c.body, c), true);
      return c.done('docs', 'write', 'indices:data/write/reindex');
    case '_delete_by_query':
    case '_update_by_query':
      if (tail.length) return rethrottle(c);
      c.everyIndex();
      c.bodyTargets(searchBodyTargets(c.body, c), false);
      return head === '_delete_by_query'
        ? c.done('docs', 'delete', 'indices:data/write/delete/byquery')
        : c.done('docs', 'write', 'indices:data/write/update/byquery');

    // Search.
    case '_search':
      // OpenSearch's search pipelines: cluster-level, as ingest pipelines
      if (tail[0] === 'pipeline') {
        c.needs('manage_pipeline');
        return c.done('cluster', c.op, `cluster:admin/search/pipeline/${c.op === 'read' ? 'get' : c.op === 'delete' ? 'delete' : 'put'}`);
      }
      return search(c, tail, tail[0] !== 'scroll' ? 0 : undefined);
    case '_msearch':
      return msearch(c, tail);
    case '_mtermvectors':
      return mtermvectors(c);
    case '_pit':
      if (c.method !== 'DELETE') return c.done('search', 'read', 'indices:data/read/open_point_in_time');
      // closing reaches the indices the id names (an id that names none that can be read: unknown)
      c.bodyTargets(closePointInTimeTargets(c.body, c, 'id'), false);
      if (c.pointInTime === 'opaque') c.unknown();
      return c.done('search', 'read', 'indices:data/read/close_point_in_time');
    case '_render':
      c.bodyTargets(templateBodyTargets(c.body, c), false);
      return c.done('search', 'read', 'indices:data/read/search/template');
    case '_async_search':
      if (tail.length && c.method !== 'POST') return c.done('search', 'read', 'indices:data/read/async_search/get');
      c.everyIndex(0);
      c.bodyTargets(searchBodyTargets(c.body, c), false);
      return c.done('search', 'read', 'indices:data/read/async_search/submit');
    case '_sql':
    case '_query':
      // The indices are inside the query text: every index, so that authorization stays strict.
      c.everyIndex();
      return c.done('search', 'read', head === '_sql' ? 'indices:data/read/sql' : 'indices:data/read/esql');
    case '_count':
    case '_field_caps':
    case '_validate':
    case '_search_shards':
    case '_rank_eval':
    case '_knn_search':
    case '_terms_enum':
    case '_eql':
      // `/_eql/search/{id}` reads a search by id: no index list can be put in front of it
      c.everyIndex(head === '_eql' ? undefined : 0);
      if (head !== '_search_shards') c.bodyTargets(searchBodyTargets(c.body, c), false);
      return c.done('search', 'read', SEARCH_ENDPOINTS[head]);

    // Index administration without an index: every index, or the names in the path.
    case '_mapping':
    case '_mappings':
    case '_settings':
    case '_refresh':
    case '_flush':
    case '_forcemerge':
    case '_stats':
    case '_segments':
    case '_recovery':
    case '_shard_stores':
    case '_upgrade':
    case '_open':
    case '_close':
    case '_disk_usage':
    case '_field_usage_stats':
      // `GET /_mapping?index=…`: its `index` parameter names the indices read: then not every index
      if ((head === '_mapping' || head === '_mappings') && tail.length === 0 && op === 'read' && c.params.has('index')) return indicesEndpoint(c, head, tail);
      c.everyIndex(0);
      return indicesEndpoint(c, head, tail);
    case '_analyze':
      return c.done('indices', 'read', 'indices:admin/analyze');
    case '_alias':
    case '_aliases':
      if (head === '_aliases' && tail[0] === undefined && op !== 'read') {
        c.bodyTargets(aliasActionTargets(c.body, c), true);
        return c.done('indices', 'write', 'indices:admin/aliases');
      }
      if (op === 'write') {
        // a put alias whose body names the indices (`PUT /_alias/{name}`, `PUT /_alias`)
        if (tail[0] !== undefined) c.pathIndex(tail[0], undefined, undefined, true);
        c.bodyTargets(aliasBodyTargets(c.body, c), false);
        return c.done('indices', 'write', 'indices:admin/aliases');
      }
      if (tail[0] !== undefined) c.pathIndex(tail[0]);
      else c.everyIndex(head === '_alias' ? 0 : undefined);
      return indexAdmin(c, 'indices:admin/aliases/get', 'indices:admin/aliases', 'indices:admin/aliases');
    case '_template':
    case '_index_template':
    case '_component_template': {
      // Templates apply to indices by pattern, across tenants: a cluster-level resource. Whoever
      // manages them writes only the index patterns and aliases its own indices allow.
      c.needs('manage_index_templates');
      const kind = head === '_template' ? 'indices:admin/template' : head === '_index_template' ? 'indices:admin/index_template' : 'cluster:admin/component_template';
      if (tail[0] === '_simulate' || tail[0] === '_simulate_index') return c.done('cluster', 'read', 'indices:admin/index_template/simulate');
      if (op === 'write') c.bodyTargets(indexTemplateTargets(c.body, c), false);
      return c.done('cluster', op, `${kind}/${op === 'read' ? 'get' : op === 'delete' ? 'delete' : 'put'}`);
    }
    case '_data_stream': {
      const name = tail.find((t) => !t.startsWith('_'));
      if (name !== undefined) c.pathIndex(name);
      else c.everyIndex();
      if (tail.includes('_stats')) return c.done('indices', 'read', 'indices:monitor/data_stream/stats');
      if (tail[0] === '_migrate' || tail[0] === '_promote' || tail[0] === '_modify') return c.done('indices', 'write', 'indices:admin/data_stream/modify');
      return indexAdmin(c, 'indices:admin/data_stream/get', 'indices:admin/data_stream/create', 'indices:admin/data_stream/delete');
    }
    case '_resolve':
      if (tail[1] !== undefined) c.pathIndex(tail[1], 2);
      else c.everyIndex();
      return c.done('indices', 'read', tail[0] === 'cluster' ? 'indices:admin/resolve/cluster' : 'indices:admin/resolve/index');
    case '_cat':
      return cat(c, tail);
    // OpenSearch's `_list`: `_cat/indices` and `_cat/shards` in pages, read as they are
    case '_list':
      if (tail[0] === 'indices' || tail[0] === 'shards') return cat(c, tail);
      return c.done('cluster', 'read', 'cluster:monitor/state');

    // Cluster level.
    case '_cluster':
      return cluster(c, tail);
    // OpenSearch's Learning to Rank plugin: its feature stores are shared cluster configuration (manage, reading too); its cache stats a cluster read
    case '_ltr': {
      if (tail[0] === '_cachestats' && tail.length === 1 && c.op === 'read') return c.done('cluster', 'read', 'cluster:admin/ltr/caches/stats');
      c.needs('manage');
      const rest = ['_feature', '_featureset', '_model', '_clearcache'].includes(tail[0]) ? tail : tail.slice(1);
      if (rest.length === 0) return c.done('cluster', c.op, c.op === 'read' ? 'cluster:admin/ltr/store/list' : c.op === 'delete' ? 'cluster:admin/ltr/store/delete' : 'cluster:admin/ltr/store/create');
      if (rest[0] === '_clearcache') return c.done('cluster', c.op, 'cluster:admin/ltr/caches');
      if (rest[0] === '_featureset' && rest[2] === '_addfeatures') return c.done('cluster', c.op, 'cluster:admin/ltr/store/add-features-to-set');
      if (rest[0] === '_featureset' && rest[2] === '_createmodel') return c.done('cluster', c.op, 'cluster:admin/ltr/store/create-model-from-set');
      return c.done('cluster', c.op, 'cluster:admin/ltr/featurestore/data');
    }
    // the SQL plugin's legacy paths: its node metrics (a cluster read) and its settings endpoint (a cluster settings update)
    case '_opendistro':
      {
        const self = tail[0] === '_security' ? securityPluginSelf(c, tail) : undefined;
        if (self) return self;
      }
      if ((tail[0] === '_sql' || tail[0] === '_ppl') && tail[1] === 'stats' && tail.length === 2) return c.done('cluster', 'read', 'cluster:monitor/sql/stats');
      if (tail[0] === '_sql' && tail[1] === 'settings' && tail.length === 2 && c.method === 'PUT') return c.done('cluster', 'write', 'cluster:admin/settings/update');
      return clusterLevel(c, head, tail);
    // OpenSearch's plugins: a k-NN warmup reads the indices it names; its stats name every tenant's cached indices
    case '_plugins':
      {
        const self = tail[0] === '_security' ? securityPluginSelf(c, tail) : undefined;
        if (self) return self;
      }
      if ((tail[0] === '_sql' || tail[0] === '_ppl') && tail[1] === 'stats' && tail.length === 2) return c.done('cluster', 'read', 'cluster:monitor/sql/stats');
      if (tail[0] === '_query' && tail[1] === 'settings' && tail.length === 2 && c.method === 'PUT') return c.done('cluster', 'write', 'cluster:admin/settings/update');
      // Index State Management: its policies are shared cluster configuration (manage); the rest acts on the indices it names
      if (tail[0] === '_ism' && tail[1] === 'policies') {
        c.needs('manage');
        const action = c.op === 'read' ? 'get' : c.op === 'delete' ? 'delete' : 'write';
        return c.done('cluster', c.op, `cluster:admin/opendistro/ism/policy/${action}`);
      }
      if (tail[0] === '_ism' && ['add', 'remove', 'change_policy', 'retry', 'explain'].includes(tail[1])) {
        if (tail[2] !== undefined) c.pathIndex(tail[2], 3);
        else if (!c.params.has('index')) c.everyIndex();
        const name = tail[1] === 'change_policy' ? 'change' : tail[1];
        return c.done('indices', tail[1] === 'explain' ? 'read' : 'write', `indices:admin/opendistro/ism/managedindex/${name}`);
      }
      // asynchronous search: a submit searches the indices `index=` names (every index when none, never narrowed), its
      // lookups too; a kept result by id holds what its submitter read: every index; the stats, a cluster read
      if (tail[0] === '_asynchronous_search' && tail.length === 1 && c.method === 'POST') {
        if (!c.params.has('index')) c.everyIndex();
        c.bodyTargets(searchBodyTargets(c.body, c), false);
        return c.done('search', 'read', 'cluster:admin/opendistro/asynchronous_search/submit');
      }
      if (tail[0] === '_asynchronous_search' && tail[1] === 'stats' && tail.length === 2 && c.op === 'read') {
        return c.done('cluster', 'read', 'cluster:admin/opendistro/asynchronous_search/stats');
      }
      if (tail[0] === '_asynchronous_search' && tail.length === 2 && (c.op === 'read' || c.op === 'delete')) {
        c.everyIndex();
        return c.done('search', 'read', `cluster:admin/opendistro/asynchronous_search/${c.op === 'read' ? 'get' : 'delete'}`);
      }
      if (tail[0] === '_ltr' && c.op === 'read') return c.done('cluster', 'read', 'cluster:admin/ltr/stats');
      // rollup and transform jobs: they would read their source and write their target, any tenant's (manage, reading too)
      if ((tail[0] === '_rollup' && tail[1] === 'jobs') || tail[0] === '_transform') {
        c.needs('manage');
        const kind = tail[0].slice(1);
        // a job written, or a transform previewed (POST …/_preview, or POST to the base path), names its source and target index (system indices checked)
        const preview = tail[0] === '_transform' && ((tail[1] === '_preview' && tail.length === 2) || (tail.length === 1 && c.method === 'POST'));
        if (preview || (c.method === 'PUT' && tail.length === (kind === 'rollup' ? 3 : 2))) c.bodyTargets(managementJobTargets(c.body, c), false);
        if (preview) return c.done('cluster', c.op, 'cluster:admin/opendistro/transform/preview');
        return c.done('cluster', c.op, `cluster:admin/opendistro/${kind}/${c.op === 'read' ? 'get' : c.op === 'delete' ? 'delete' : 'index'}`);
      }
      if (tail[0] === '_knn' && tail[1] === 'warmup' && tail[2] !== undefined) {
        c.pathIndex(tail[2], 3);
        return c.done('indices', 'read', 'indices:admin/knn_warmup');
      }
      if (tail[0] === '_knn') {
        c.needs('manage');
        return c.done('cluster', 'read', 'cluster:admin/knn_stats_action');
      }
      if (tail[0] === 'geospatial' && tail[1] === 'geojson' && tail[2] === '_upload' && tail.length === 3 && c.op === 'write') {
        c.needs('manage');
        // the index the body names is written
        c.bodyTargets(uploadIndexTargets(c.body, c), false);
        return c.done('cluster', 'write', 'cluster:admin/upload_geojson_action');
      }
      if (tail[0] === 'geospatial' && tail[1] === '_upload' && tail[2] === 'stats' && tail.length === 3 && (c.method === 'GET' || c.method === 'HEAD')) return c.done('cluster', 'read', 'cluster:admin/geospatial/stats');
      if (tail[0] === '_observability' && tail[1] === '_local' && tail[2] === 'stats' && tail.length === 3 && (c.method === 'GET' || c.method === 'HEAD')) {
        // every tenant's object requests counted: as the objects, manage
        c.needs('manage');
        return c.done('cluster', 'read', 'cluster:monitor/observability/stats');
      }
      if (tail[0] === '_observability' && tail[1] === 'object' && tail.length <= 3) {
        c.needs('manage');
        return c.done('cluster', c.op, `cluster:admin/opensearch/observability/${c.op === 'read' ? 'get' : c.op === 'delete' ? 'delete' : 'create'}`);
      }
      // the Flow Framework's workflows (manage): provisioning — `_provision`, `_deprovision`, and a template written with
      // `provision` or `reprovision` set — runs steps that create and delete indices no request names: every index, `_all` as written
      if (tail[0] === '_flow_framework' && tail[1] === 'workflow') {
        const rest = tail.slice(2);
        const reads = c.method === 'GET' || c.method === 'HEAD';
        const flow = (operation: Operation, action: string, unnamed = false): Classification => {
          c.needs('manage');
          if (unnamed) c.actsOnUnnamedIndices();
          return c.done('cluster', operation, `cluster:admin/opensearch/flow_framework/${action}`);
        };
        const set = (name: string) => c.params.has(name) && c.params.get(name) !== 'false';
        const provisions = set('provision') || set('reprovision');
        if (rest.length === 0 && c.method === 'POST') return flow('write', 'workflow/create', provisions);
        if (rest.length === 1 && rest[0] === '_steps' && reads) return flow('read', 'workflow_step/get');
        // a search of the plugin's indices: its query's lookups read other indices, the caller's to read
        const search = (action: string): Classification => {
          c.bodyTargets(searchBodyTargets(c.body, c), false);
          return flow('read', action);
        };
        if (rest.length === 1 && rest[0] === '_search' && (reads || c.method === 'POST')) return search('workflow/search');
        if (rest.length === 2 && rest[0] === 'state' && rest[1] === '_search' && (reads || c.method === 'POST')) return search('workflow_state/search');
        if (rest.length === 1 && c.method === 'PUT') return flow('write', 'workflow/create', provisions);
        if (rest.length === 1 && reads) return flow('read', 'workflow/get');
        if (rest.length === 1 && c.method === 'DELETE') return flow('delete', 'workflow/delete');
        if (rest.length === 2 && rest[1] === '_provision' && c.method === 'POST') return flow('write', 'workflow/provision', true);
        if (rest.length === 2 && rest[1] === '_deprovision' && c.method === 'POST') return flow('delete', 'workflow/deprovision', true);
        if (rest.length === 2 && rest[1] === '_status' && reads) return flow('read', 'workflow_state/get');
      }
      // ML Commons' model groups (manage): the plugin's action for each; a search's lookups read other indices, the caller's to read
      if (tail[0] === '_ml' && tail[1] === 'model_groups' && tail.length === 3) {
        const group = (operation: Operation, action: string): Classification => {
          c.needs('manage');
          return c.done('cluster', operation, `cluster:admin/opensearch/ml/${action}`);
        };
        const reads = c.method === 'GET' || c.method === 'HEAD';
        if (tail[2] === '_register' && c.method === 'POST') return group('write', 'register_model_group');
        if (tail[2] === '_search' && (reads || c.method === 'POST')) {
          c.bodyTargets(searchBodyTargets(c.body, c), false);
          return group('read', 'model_groups/search');
        }
        if (reads) return group('read', 'model_groups/get');
        if (c.method === 'PUT') return group('write', 'update_model_group');
        if (c.method === 'DELETE') return group('delete', 'model_groups/delete');
      }
      if (tail[0] === '_notifications' && tail[1] === 'features') return c.done('cluster', 'read', 'cluster:admin/opensearch/notifications/features');
      if (tail[0] === '_notifications' && tail[1] === 'channels' && tail.length === 2 && c.op === 'read') return c.done('cluster', 'read', 'cluster:admin/opensearch/notifications/channels/get');
      return clusterLevel(c, head, tail);
    default:
      return clusterLevel(c, head, tail);
  }
}

/**
 * The Security plugin's endpoints about the caller, answered by the gateway for any principal
 * (`…/_security/{authinfo,whoami,whoamiprotected,health,dashboardsinfo,kibanainfo,sslinfo}`,
 * `…/api/{account,permissionsinfo,generateonbehalfoftoken}`); every other path under the prefix is
 * its configuration API, the admin's (`manage`), answered by the gateway too, never the engine's.
 */
function securityPluginSelf(c: Classifying, tail: string[]): Classification | undefined {
  const path = tail.slice(1).join('/');
  const getPost = c.method === 'GET' || c.method === 'POST';
  const self = (action: string, op: Operation = 'read'): Classification => {
    c.family = 'gateway';
    return c.done('cluster', op, action);
  };
  if (path === 'authinfo' && getPost) return self('cluster:admin/opendistro_security/authinfo');
  if ((path === 'whoami' && getPost) || (path === 'whoamiprotected' && c.method === 'GET')) return self('cluster:admin/opendistro_security/whoami');
  if (path === 'health' && getPost) return self('cluster:monitor/opendistro_security/health');
  if ((path === 'dashboardsinfo' || path === 'kibanainfo') && getPost) return self('cluster:admin/opendistro_security/dashboardsinfo');
  if (path === 'api/account' && c.method === 'GET') return self('cluster:admin/opendistro_security/account/get');
  if (path === 'api/account' && c.method === 'PUT') return self('cluster:admin/opendistro_security/account/put', 'write');
  if (path === 'api/permissionsinfo' && c.method === 'GET') return self('cluster:admin/opendistro_security/permissionsinfo');
  if (path === 'sslinfo' && c.method === 'GET') return self('cluster:admin/opendistro_security/sslinfo');
  if (path === 'api/generateonbehalfoftoken' && c.method === 'POST') return self('cluster:admin/opendistro_security/generateonbehalfoftoken', 'write');
  if (tail.length < 2) return undefined;
  const name = SECURITY_CONFIG_NAMES.find(([pattern]) => pattern.test(path))?.[1] ?? 'config';
  c.family = 'gateway';
  c.needs('manage');
  const action = c.op === 'read' ? 'get' : c.op === 'delete' ? 'delete' : 'put';
  return c.done('cluster', c.op, `cluster:admin/opendistro_security/${name}/${action}`);
}

/** The Security plugin's configuration endpoints, by the name of their actions. */
const SECURITY_CONFIG_NAMES: ReadonlyArray<[RegExp, string]> = [
  [/^tenantinfo$/, 'tenantinfo'], [/^api\/cache$/, 'cache'], [/^api\/securityconfig(\/config)?$/, 'securityconfig'], [/^api\/tenancy\/config$/, 'tenancy'],
  [/^api\/audit(\/config)?$/, 'audit'], [/^api\/_upgrade_(check|perform)$/, 'upgrade'],
  [/^api\/(ssl\/certs|ssl\/[^/]+\/reloadcerts|certificates(\/[^/]+)?|allowlist|whitelist)$/, 'ssl'], [/^api\/nodesdn(\/[^/]+)?$/, 'nodesdn'], [/^api\/(migrate|validate)$/, 'migrate'],
];

/** `_cat/*`: the index-level ones are `indices` reads (of every index unless named), the rest cluster reads. */
function cat(c: Classifying, tail: string[]): Classification {
  const [what, target] = tail;
  const indexCats: Record<string, string> = {
    indices: 'indices:monitor/stats',
    aliases: 'indices:admin/aliases/get',
    count: 'indices:data/read/search',
    shards: 'indices:monitor/stats',
    segments: 'indices:monitor/segments',
    recovery: 'indices:monitor/recovery',
    segment_replication: 'indices:monitor/segment_replication', // OpenSearch's
  };
  if (what !== undefined && indexCats[what]) {
    if (what === 'aliases') {
      // `_cat/aliases/{name}` names aliases, checked like any alias; without one, a credential sees the aliases of its indices
      if (target !== undefined) c.pathIndex(target);
      else c.everyIndex(2, 'aliases');
    } else if (target !== undefined) c.pathIndex(target, 2);
    else c.everyIndex(2);
    return c.done('indices', 'read', indexCats[what]);
  }
  if (what === 'pit_segments') {
    if (target === '_all') c.everyIndex();
    else {
      c.bodyTargets(closePointInTimeTargets(c.body, c, 'pit_id'), false);
      if (c.pointInTime === 'opaque') c.unknown();
    }
    return c.done('search', 'read', 'indices:monitor/point_in_time/segments');
  }
  if (what === 'templates') {
    // Templates apply to indices by pattern, across tenants: read like `GET _template`.
    c.needs('manage_index_templates');
    return c.done('cluster', 'read', 'indices:admin/template/get');
  }
  // snapshots list every tenant's indices, pending tasks name the indices they act on, fielddata every index's loaded fields
  if (what === 'snapshots' || what === 'repositories' || what === 'pending_tasks' || what === 'fielddata') c.needs('manage');
  const clusterCats: Record<string, string> = {
    health: 'cluster:monitor/health',
    master: 'cluster:monitor/state',
    cluster_manager: 'cluster:monitor/state', // OpenSearch's name of _cat/master
    nodeattrs: 'cluster:monitor/nodes/info',
    nodes: 'cluster:monitor/nodes/info',
    tasks: 'cluster:monitor/tasks/lists',
    pending_tasks: 'cluster:monitor/task',
    thread_pool: 'cluster:monitor/nodes/stats',
    allocation: 'cluster:monitor/state',
    fielddata: 'cluster:monitor/nodes/stats',
    plugins: 'cluster:monitor/nodes/info',
    snapshots: 'cluster:admin/snapshot/get',
    repositories: 'cluster:admin/repository/get',
  };
  if (what !== undefined && !clusterCats[what]) c.unknown();
  return c.done('cluster', 'read', (what !== undefined && clusterCats[what]) || 'cluster:monitor/state');
}

function cluster(c: Classifying, tail: string[]): Classification {
  const [what, a, b] = tail;
  const op = c.op;
  switch (what) {
    case 'health':
      if (a !== undefined) c.pathIndex(a, 2);
      // per index, it lists every index: narrowed to the credential's own (`/_cluster/health/{list}`)
      else if (perIndexLevel(c.params)) c.everyIndex(2);
      return c.done('cluster', 'read', 'cluster:monitor/health');
    case 'state':
      // every index's metadata unless named: narrowed to the credential's own (`/_cluster/state/{metric}/{list}`)
      if (a === undefined) c.writtenAs(['_cluster', 'state', '_all']);
      if (b !== undefined) c.pathIndex(b, 3);
      else c.everyIndex(3);
      return c.done('cluster', 'read', 'cluster:monitor/state');
    case 'stats':
      return c.done('cluster', 'read', 'cluster:monitor/stats');
    case 'settings':
      return op === 'read' ? c.done('cluster', 'read', 'cluster:monitor/settings') : c.done('cluster', 'write', 'cluster:admin/settings/update');
    case 'pending_tasks':
      // a pending task's source names the index it acts on
      c.needs('manage');
      return c.done('cluster', 'read', 'cluster:monitor/task');
    case 'reroute':
      c.bodyTargets(namedIndexTargets(c.body, c, 'write'), false);
      return c.done('cluster', 'write', 'cluster:admin/reroute');
    case 'allocation':
      // without a body it explains the first unassigned shard of any index
      c.needs('manage');
      c.bodyTargets(namedIndexTargets(c.body, c, 'read'), false);
      return c.done('cluster', 'read', 'cluster:monitor/allocation/explain');
    case 'nodes':
      // OpenSearch's deprecated `_cluster/nodes[/{node_id}]/hot_threads` (and `hotthreads`)
      if (op === 'read' && (tail.at(-1) === 'hot_threads' || tail.at(-1) === 'hotthreads') && tail.length <= 3) return c.done('cluster', 'read', 'cluster:monitor/nodes/hot_threads');
      c.unknown();
      return c.done('cluster', op, op === 'read' ? 'cluster:monitor/nodes' : 'cluster:admin/nodes');
    case 'voting_config_exclusions':
      return op === 'delete'
        ? c.done('cluster', 'delete', 'cluster:admin/voting_config/clear_exclusions')
        : c.done('cluster', 'write', 'cluster:admin/voting_config/add_exclusions');
    default:
      c.unknown();
      return c.done('cluster', op, op === 'read' ? `cluster:monitor/${what ?? 'main'}` : `cluster:admin/${what ?? 'main'}`);
  }
}

/** `level=indices|shards`: a cluster-level answer broken down by index. */
const perIndexLevel = (params: ReadonlyMap<string, string>) => ['indices', 'shards'].includes(params.get('level') ?? '');

/** Read-only POSTs at the cluster level (simulations, executions, verifications, explanations). */
const READ_ONLY_POST = new Set(['_simulate', '_execute', '_verify', 'grok', 'explain', '_explain', 'hot_threads']);

/** Every other `/_x…`: cluster-level, by method. */
function clusterLevel(c: Classifying, head: string, tail: string[]): Classification {
  let op = c.op;
  if (op === 'write' && tail.some((t) => READ_ONLY_POST.has(t))) op = 'read';
  const name = head.slice(1);
  switch (head) {
    case '_nodes':
      // per index or shard, node statistics list every index; per field or search group, every index's fields and groups
      // (hot threads take none of these: they name no index)
      if (!tail.includes('hot_threads') && (perIndexLevel(c.params) || ['fields', 'fielddata_fields', 'completion_fields', 'groups'].some((p) => c.params.has(p)))) c.needs('manage');
      if (tail.includes('reload_secure_settings')) return c.done('cluster', 'write', 'cluster:admin/nodes/reload_secure_settings');
      return c.done('cluster', 'read', `cluster:monitor/nodes/${tail.find((t) => ['stats', 'hot_threads', 'usage'].includes(t)) ?? 'info'}`);
    case '_tasks':
      if (tail.includes('_cancel')) return c.done('cluster', 'write', 'cluster:admin/tasks/cancel');
      return c.done('cluster', 'read', tail.length ? 'cluster:monitor/task/get' : 'cluster:monitor/tasks/lists');
    case '_snapshot':
      return snapshot(c, tail);
    case '_ingest': {
      c.needs('manage_pipeline');
      if (op === 'read') return c.done('cluster', 'read', tail.includes('_simulate') ? 'cluster:admin/ingest/pipeline/simulate' : tail[0] === 'processor' ? 'cluster:admin/ingest/processor/grok/get' : 'cluster:admin/ingest/pipeline/get');
      return c.done('cluster', op, op === 'delete' ? 'cluster:admin/ingest/pipeline/delete' : 'cluster:admin/ingest/pipeline/put');
    }
    case '_scripts':
      if (tail[0] === 'painless' && tail[1] === '_context' && op === 'read') return c.done('cluster', 'read', 'cluster:admin/scripts/painless/context');
      if (tail[0] === 'painless') {
        // a script run in the context of an index reads that index
        c.bodyTargets(painlessContextTargets(c.body, c), false);
        return c.done('cluster', 'read', 'cluster:admin/scripts/painless/execute');
      }
      c.needs('manage_scripts');
      return c.done('cluster', op, `cluster:admin/script/${op === 'read' ? 'get' : op === 'delete' ? 'delete' : 'put'}`);
    case '_script_context':
      return c.done('cluster', 'read', 'cluster:admin/script_context/get');
    case '_script_language':
      return c.done('cluster', 'read', 'cluster:admin/script_language/get');
    case '_dangling':
      c.needs('manage');
      return c.done('cluster', op, `cluster:admin/indices/dangling/${op === 'read' ? 'list' : op === 'delete' ? 'delete' : 'import'}`);
    case '_remote':
      return c.done('cluster', 'read', 'cluster:monitor/remote/info');
    case '_license':
      return c.done('cluster', op, op === 'read' ? 'cluster:monitor/xpack/license/get' : 'cluster:admin/xpack/license/put');
    case '_xpack':
      return c.done('cluster', op, op === 'read' ? 'cluster:monitor/xpack/info' : 'cluster:admin/xpack');
    default:
      c.unknown();
      return c.done('cluster', op, op === 'read' ? `cluster:monitor/${name}` : `cluster:admin/${name}`);
  }
}

function snapshot(c: Classifying, tail: string[]): Classification {
  // snapshots hold (and list) every tenant's indices
  c.needs('manage');
  const op = c.op;
  const [repo, snap, sub] = tail;
  if (tail.includes('_verify')) return c.done('cluster', 'read', 'cluster:admin/repository/verify');
  if (tail.includes('_cleanup')) return c.done('cluster', 'write', 'cluster:admin/repository/_cleanup');
  if (sub === '_restore' || sub === '_clone' || (snap !== undefined && op === 'write')) {
    // Creating a snapshot reads indices, restoring one writes them: every index unless the admin.
    c.everyIndex();
  }
  if (sub === '_restore') return c.done('cluster', 'write', 'cluster:admin/snapshot/restore');
  if (sub === '_clone') return c.done('cluster', 'write', 'cluster:admin/snapshot/clone');
  if (tail.includes('_status')) return c.done('cluster', 'read', 'cluster:admin/snapshot/status');
  if (repo === undefined || snap === undefined) {
    return c.done('cluster', op, `cluster:admin/repository/${op === 'read' ? 'get' : op === 'delete' ? 'delete' : 'put'}`);
  }
  return c.done('cluster', op, `cluster:admin/snapshot/${op === 'read' ? 'get' : op === 'delete' ? 'delete' : 'create'}`);
}

/** Action names for the gateway's own APIs, in ES's naming scheme. */
function gatewayAction(level: 'cluster' | 'indices', family: string, op: Operation): string {
  const verb = op === 'read' ? 'get' : op === 'delete' ? 'delete' : 'put';
  return level === 'cluster' ? `cluster:admin/gateway/${family}/${verb}` : `indices:admin/gateway/${family}/${verb}`;
}



