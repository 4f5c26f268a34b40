import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { parseExpandWildcards, type WildcardStates } from '../../indices/resolve.js';
import type { AliasDefinition } from '../../store/types.js';
import { simpleMatch } from '../../../../wildcard/index.js';
import { ByteSize, catResponse, column, timestampColumns, type CatColumn, type TablePage } from '../cat-table.js';
import { speaksOpenSearch } from '../dialect.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { indexHealth } from './cluster.js';

/** An index's store size: its sources plus a fixed overhead, as `_cat/indices` and `_stats` report it. */
export function bytesOf(h: IndexHandle): number {
  return h.storeBytes + 225;
}

/** `_cat/indices`' columns: Elasticsearch 8's end with `dataset.size` (8.11), which OpenSearch 2 does not have. */
const INDEX_COLUMNS: Array<CatColumn<IndexHandle>> = [
  column('health', 'alias:h;desc:current health status', (h) => indexHealth(h)),
  column('status', 'alias:s;desc:open/close status', (h) => h.meta.state),
  column('index', 'alias:i,idx;desc:index name', (h) => h.name),
  column('uuid', 'alias:id,uuid;desc:index uuid', (h) => h.uuid),
  column('pri', 'alias:p,shards.primary,shardsPrimary;text-align:right;desc:number of primary shards', (h) => Number(h.meta.settings['index.number_of_shards'] ?? '1')),
  column('rep', 'alias:r,shards.replica,shardsReplica;text-align:right;desc:number of replica shards', (h) => Number(h.meta.settings['index.number_of_replicas'] ?? '1')),
  column('docs.count', 'alias:dc,docsCount;text-align:right;desc:available docs', (h) => (h.isOpen ? h.docCount : null)),
  column('docs.deleted', 'alias:dd,docsDeleted;text-align:right;desc:deleted docs', (h) => (h.isOpen ? 0 : null)),
  column('creation.date', 'alias:cd;default:false;desc:index creation date (millisecond value)', (h) => h.meta.creationDate),
  column('creation.date.string', 'alias:cds;default:false;desc:index creation date (as string)', (h) => new Date(h.meta.creationDate).toISOString()),
  column('store.size', 'sibling:pri;alias:ss,storeSize;text-align:right;desc:store size of primaries & replicas', (h) => (h.isOpen ? new ByteSize(bytesOf(h)) : null)),
  column('pri.store.size', 'text-align:right;desc:store size of primaries', (h) => (h.isOpen ? new ByteSize(bytesOf(h)) : null)),
];
const ES_INDEX_COLUMNS: Array<CatColumn<IndexHandle>> = [
  ...INDEX_COLUMNS,
  column('dataset.size', 'text-align:right;desc:total size of dataset', (h) => (h.isOpen ? new ByteSize(bytesOf(h)) : null)),
];

/** The indices `_cat/indices` (and OpenSearch's `_list/indices`) lists: those named, open and closed, hidden ones when named. */
export function catIndexTargets(req: RestRequest, ctx: EngineContext): IndexHandle[] {
  return ctx.indices.resolve(req.pathParams.index, {
    expandWildcards: req.params.get('expand_wildcards') ?? undefined,
    defaultStates: { open: true, closed: true, hidden: false },
  });
}

/** The `_cat/indices` table of `handles` (OpenSearch's columns or Elasticsearch's), kept to the `health` asked; one page of them for `_list/indices`. */
export function catIndicesOf(req: RestRequest, openSearch: boolean, handles: IndexHandle[], page?: TablePage): RestResponse {
  const health = healthFilter(req.params.get('health'));
  const rows = handles.filter((h) => health === null || indexHealth(h) === health);
  return catResponse(req, openSearch ? INDEX_COLUMNS : ES_INDEX_COLUMNS, rows, page);
}

function catIndices(req: RestRequest, ctx: EngineContext): RestResponse {
  return catIndicesOf(req, speaksOpenSearch(req, ctx), catIndexTargets(req, ctx));
}

/** The `health` filter of `_cat/indices` (ClusterHealthStatus.fromString: any case; another word is refused). */
function healthFilter(value: string | null): string | null {
  if (value === null) return null;
  const status = value.toLowerCase();
  if (status !== 'green' && status !== 'yellow' && status !== 'red') throw new EsError(400, 'illegal_argument_exception', `unknown cluster health status [${value}]`);
  return status;
}

interface AliasRow {
  alias: string;
  index: string;
  definition: AliasDefinition;
}

const ALIAS_COLUMNS: Array<CatColumn<AliasRow>> = [
  column('alias', 'alias:a;desc:alias name', (r) => r.alias),
  column('index', 'alias:i,idx;desc:index alias points to', (r) => r.index),
  column('filter', 'alias:f,fi;desc:filter', (r) => (r.definition.filter === undefined ? '-' : '*')),
  column('routing.index', 'alias:ri,routingIndex;desc:index routing', (r) => r.definition.index_routing ?? '-'),
  column('routing.search', 'alias:rs,routingSearch;desc:search routing', (r) => r.definition.search_routing ?? '-'),
  column('is_write_index', 'alias:w,isWriteIndex;desc:write index', (r) => (r.definition.is_write_index === undefined ? '-' : String(r.definition.is_write_index))),
];

/**
 * `_cat/aliases[/{name}]`: one row per alias and index, for the aliases named (patterns) or all, of
 * the indices `expand_wildcards` reaches (open, closed and hidden ones unless it says otherwise, as
 * RestAliasAction's IndicesOptions.strictExpandHidden).
 */
function catAliases(req: RestRequest, ctx: EngineContext): RestResponse {
  const patterns = (req.pathParams.name ?? '').split(',').filter(Boolean);
  const states = aliasIndexStates(req);
  const rows: AliasRow[] = [];
  for (const h of ctx.indices.all()) {
    if (!(h.isOpen ? states.open : states.closed)) continue;
    if (!states.hidden && h.meta.settings['index.hidden'] === 'true') continue;
    for (const [alias, definition] of Object.entries(h.meta.aliases)) {
      if (!patterns.length || patterns.some((p) => p === '_all' || simpleMatch(p, alias))) rows.push({ alias, index: h.name, definition });
    }
  }
  rows.sort((a, b) => (a.alias === b.alias ? (a.index < b.index ? -1 : 1) : a.alias < b.alias ? -1 : 1));
  return catResponse(req, ALIAS_COLUMNS, rows);
}

function aliasIndexStates(req: RestRequest): WildcardStates {
  try {
    return parseExpandWildcards(req.params.get('expand_wildcards') ?? undefined, { open: true, closed: true, hidden: true });
  } catch (e) {
    throw new EsError(400, 'illegal_argument_exception', (e as Error).message);
  }
}

interface CountRow {
  at: number;
  count: number;
}

const COUNT_COLUMNS: Array<CatColumn<CountRow>> = [
  ...timestampColumns<CountRow>((r) => r.at),
  column('count', 'alias:dc,docs.count,docsCount;desc:the document count', (r) => r.count),
];

/** `_cat/count[/{index}]`: the documents of the open indices named (or all), as one row. */
function catCount(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = ctx.indices.resolve(req.pathParams.index, { defaultStates: { open: true, closed: false, hidden: false } });
  const count = handles.reduce((n, h) => n + (h.isOpen ? h.docCount : 0), 0);
  return catResponse(req, COUNT_COLUMNS, [{ at: Date.now(), count }]);
}

/** `GET /_cat`: the cat APIs of an 8.15 node with X-Pack, listed as ES lists them (ES prints no line break after `/_cat/component_templates`). */
const CAT_LISTING = [
  '=^.^=', '/_cat/allocation', '/_cat/shards', '/_cat/shards/{index}', '/_cat/master', '/_cat/nodes', '/_cat/tasks',
  '/_cat/indices', '/_cat/indices/{index}', '/_cat/segments', '/_cat/segments/{index}', '/_cat/count', '/_cat/count/{index}',
  '/_cat/recovery', '/_cat/recovery/{index}', '/_cat/health', '/_cat/pending_tasks', '/_cat/aliases', '/_cat/aliases/{alias}',
  '/_cat/thread_pool', '/_cat/thread_pool/{thread_pools}', '/_cat/plugins', '/_cat/fielddata', '/_cat/fielddata/{fields}',
  '/_cat/nodeattrs', '/_cat/repositories', '/_cat/snapshots/{repository}', '/_cat/templates',
  '/_cat/component_templates/_cat/ml/anomaly_detectors', '/_cat/ml/anomaly_detectors/{job_id}', '/_cat/ml/datafeeds',
  '/_cat/ml/datafeeds/{datafeed_id}', '/_cat/ml/trained_models', '/_cat/ml/trained_models/{model_id}', '/_cat/ml/data_frame/analytics',
  '/_cat/ml/data_frame/analytics/{id}', '/_cat/transforms', '/_cat/transforms/{transform_id}',
].map((l) => l + '\n').join('');

export const catRoutes: Route[] = [
  { id: 'cat.help', handler: () => ({ status: 200, text: CAT_LISTING }) },
  { id: 'cat.indices', handler: catIndices },
  { id: 'cat.aliases', handler: catAliases },
  { id: 'cat.count', handler: catCount },
];
