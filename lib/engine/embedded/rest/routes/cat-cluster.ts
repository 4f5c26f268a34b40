import { EsError } from '../../../../errors/index.js';
import { Duration, catResponse, column, timestampColumns, type CatColumn } from '../cat-table.js';
import { parseTaskId, type TaskFilter } from '../../tasks/index.js';
import { speaksOpenSearch } from '../dialect.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { asListingTask } from './tasks.js';
import { ES_VERSION, clusterHealth, type HealthSummary } from './cluster.js';

interface HealthRow extends HealthSummary {
  at: number;
  clusterName: string;
}

const healthColumns = (openSearch: boolean): Array<CatColumn<HealthRow>> => [
  ...timestampColumns<HealthRow>((r) => r.at),
  column('cluster', 'alias:cl;desc:cluster name', (r) => r.clusterName),
  column('status', 'alias:st;desc:health status', (r) => r.status),
  column('node.total', 'alias:nt,nodeTotal;text-align:right;desc:total number of nodes', () => 1),
  column('node.data', 'alias:nd,nodeData;text-align:right;desc:number of nodes that can store data', () => 1),
  // OpenSearch 2 tells whether the node has found its cluster manager (RestHealthAction)
  ...(openSearch ? [column<HealthRow>('discovered_cluster_manager', 'alias:dcm,discoveredClusterManager,discovered_master,dm;desc:cluster manager is discovered', () => 'true')] : []),
  column('shards', 'alias:t,sh,shards.total,shardsTotal;text-align:right;desc:total number of shards', (r) => r.primaries),
  column('pri', 'alias:p,shards.primary,shardsPrimary;text-align:right;desc:number of primary shards', (r) => r.primaries),
  column('relo', 'alias:r,shards.relocating,shardsRelocating;text-align:right;desc:number of relocating nodes', () => 0),
  column('init', 'alias:i,shards.initializing,shardsInitializing;text-align:right;desc:number of initializing nodes', () => 0),
  column('unassign', 'alias:u,shards.unassigned,shardsUnassigned;text-align:right;desc:number of unassigned shards', (r) => r.unassigned),
  column('pending_tasks', 'alias:pt,pendingTasks;text-align:right;desc:number of pending tasks', () => 0),
  // ES prints `-` while no task waits
  column('max_task_wait_time', 'alias:mtwt,maxTaskWaitTime;text-align:right;desc:wait time of longest task pending', () => '-'),
  column('active_shards_percent', 'alias:asp,activeShardsPercent;text-align:right;desc:active number of shards in percent', (r) => `${r.activeShardsPercent.toFixed(1)}%`),
];

const HEALTH_COLUMNS = healthColumns(false);
const OPENSEARCH_HEALTH_COLUMNS = healthColumns(true);

/** `_cat/health`: the numbers of `_cluster/health`, one row. */
function catHealth(req: RestRequest, ctx: EngineContext): RestResponse {
  return catResponse(req, speaksOpenSearch(req, ctx) ? OPENSEARCH_HEALTH_COLUMNS : HEALTH_COLUMNS, () => [{ ...clusterHealth(ctx), at: Date.now(), clusterName: ctx.clusterName }]);
}

const MASTER_COLUMNS: Array<CatColumn<EngineContext>> = [
  column('id', 'desc:node id', (ctx) => ctx.node.id),
  column('host', 'alias:h;desc:host name', (ctx) => ctx.node.host),
  column('ip', 'desc:ip address ', (ctx) => ctx.node.ip),
  column('node', 'alias:n;desc:node name', (ctx) => ctx.node.name),
];

const PENDING_TASK_COLUMNS: Array<CatColumn<never>> = [
  column('insertOrder', 'alias:o;text-align:right;desc:task insertion order', () => null),
  column('timeInQueue', 'alias:t;text-align:right;desc:how long task has been in queue', () => null),
  column('priority', 'alias:p;desc:task priority', () => null),
  column('source', 'alias:s;desc:task source', () => null),
];

const PLUGIN_COLUMNS: Array<CatColumn<never>> = [
  column('id', 'default:false;desc:unique node id', () => null),
  column('name', 'alias:n;desc:node name', () => null),
  column('component', 'alias:c;desc:component', () => null),
  column('version', 'alias:v;desc:component version', () => null),
  column('description', 'alias:d;default:false;desc:plugin details', () => null),
];

const REPOSITORY_COLUMNS: Array<CatColumn<never>> = [
  column('id', 'alias:id,repoId;desc:unique repository id', () => null),
  column('type', 'alias:t,type;text-align:right;desc:repository type', () => null),
];

interface TemplateRow {
  name: string;
  patterns: string[];
  order: number;
  version: number | null;
  composedOf: string[] | null;
}

const TEMPLATE_COLUMNS: Array<CatColumn<TemplateRow>> = [
  column('name', 'alias:n;desc:template name', (r) => r.name),
  column('index_patterns', 'alias:t;desc:template index patterns', (r) => `[${r.patterns.join(', ')}]`),
  column('order', 'alias:o,p;desc:template application order/priority number', (r) => r.order),
  column('version', 'alias:v;desc:version', (r) => r.version),
  column('composed_of', 'alias:c;desc:component templates comprising index template', (r) => (r.composedOf === null ? '' : `[${r.composedOf.join(', ')}]`)),
];

/** `_cat/templates[/{name}]`: legacy templates (order), then composable ones (priority, components). */
function catTemplates(req: RestRequest, ctx: EngineContext): RestResponse {
  const name = req.pathParams.name;
  const templates = ctx.indices.templates;
  return catResponse(req, TEMPLATE_COLUMNS, () => {
    const rows: TemplateRow[] = [];
    for (const [n, t] of Object.entries(templates.legacyTemplates(name)).sort(([a], [b]) => (a < b ? -1 : 1))) {
      rows.push({ name: n, patterns: t.index_patterns as string[], order: t.order as number, version: (t.version as number | undefined) ?? null, composedOf: null });
    }
    let composable: ReturnType<typeof templates.indexTemplates> = [];
    try {
      composable = templates.indexTemplates(name);
    } catch (e) {
      // a name no composable template has: the legacy ones alone, as ES answers
      if (!(e instanceof EsError) || e.status !== 404) throw e;
    }
    for (const { name: n, index_template: t } of [...composable].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      rows.push({
        name: n, patterns: t.index_patterns as string[], order: (t.priority as number | undefined) ?? 0,
        version: (t.version as number | undefined) ?? null, composedOf: t.composed_of as string[],
      });
    }
    return rows;
  });
}

interface TaskRow {
  seq: number;
  action: string;
  parent: number | null;
  startedAt: number;
  runningNanos: number;
  description: string;
  opaqueId: string | undefined;
  ctx: EngineContext;
}

function taskColumns(detailed: boolean, fullId: boolean): Array<CatColumn<TaskRow>> {
  const nodeId = (r: TaskRow) => (fullId ? r.ctx.node.id : r.ctx.node.id.slice(0, 4));
  const columns: Array<CatColumn<TaskRow>> = [
    column('id', 'default:false;desc:id of the task with the node', (r) => r.seq),
    column('action', 'alias:ac;desc:task action', (r) => r.action),
    column('task_id', 'alias:ti;desc:unique task id', (r) => `${r.ctx.node.id}:${r.seq}`),
    column('parent_task_id', 'alias:pti;desc:parent task id', (r) => (r.parent === null ? '-' : `${r.ctx.node.id}:${r.parent}`)),
    column('type', 'alias:ty;desc:task type', () => 'transport'),
    column('start_time', 'alias:start;desc:start time in ms', (r) => r.startedAt),
    column('timestamp', 'alias:ts,hms,hhmmss;desc:start time in HH:MM:SS', (r) => new Date(r.startedAt).toISOString().slice(11, 19)),
    column('running_time_ns', 'default:false;alias:time;desc:running time ns', (r) => r.runningNanos),
    column('running_time', 'default:true;alias:time;desc:running time', (r) => Duration.ofNanos(r.runningNanos)),
    column('node_id', 'default:false;alias:ni;desc:unique node id', nodeId),
    column('ip', 'default:true;alias:i;desc:ip address', (r) => r.ctx.node.ip),
    column('port', 'default:false;alias:po;desc:bound transport port', () => 9300),
    column('node', 'default:true;alias:n;desc:node name', (r) => r.ctx.node.name),
    column('version', 'default:false;alias:v;desc:es version', () => ES_VERSION.number),
    column('x_opaque_id', 'default:false;alias:x;desc:X-Opaque-ID header', (r) => r.opaqueId ?? null),
  ];
  if (detailed) columns.push(column('description', 'default:true;alias:desc;desc:task action', (r) => r.description));
  return columns;
}

/** `_cat/tasks`: the engine's running tasks (by-scroll operations and their slices, and this listing itself, as in ES). */
async function catTasks(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const detailed = req.params.get('detailed') === '' || req.params.get('detailed') === 'true';
  const fullId = req.params.get('full_id') === '' || req.params.get('full_id') === 'true';
  const actions = req.params.get('actions');
  const nodes = req.params.get('nodes');
  const parent = req.params.get('parent_task_id');
  const filter: TaskFilter = {
    actions: actions === null ? undefined : actions.split(',').map((a) => a.trim()).filter(Boolean),
    parent: parent === null ? undefined : parseTaskId(parent),
    nodes: nodes === null ? undefined : () => ctx.node.matches(nodes.split(',').map((n) => n.trim()).filter(Boolean)),
  };
  return asListingTask(req, ctx, () => {
    const rows: TaskRow[] = ctx.tasks.list(filter).map((t) => ({
      seq: t.id, action: t.action, parent: t.parent?.id ?? null, startedAt: t.startMillis, runningNanos: t.runningNanos, description: t.description, opaqueId: t.headers['X-Opaque-Id'], ctx,
    }));
    return catResponse(req, taskColumns(detailed, fullId), rows);
  });
}

const none = (): never[] => [];

export const catClusterRoutes: Route[] = [
  { id: 'cat.health', handler: catHealth },
  { id: 'cat.master', handler: (req, ctx) => catResponse(req, MASTER_COLUMNS, [ctx]) },
  { id: 'opensearch.cat_cluster_manager', handler: (req, ctx) => catResponse(req, MASTER_COLUMNS, [ctx]) },
  { id: 'cat.pending_tasks', handler: (req) => catResponse(req, PENDING_TASK_COLUMNS, none) },
  { id: 'cat.plugins', handler: (req) => catResponse(req, PLUGIN_COLUMNS, none) },
  { id: 'cat.repositories', handler: (req) => catResponse(req, REPOSITORY_COLUMNS, none) },
  { id: 'cat.templates', handler: catTemplates },
  { id: 'cat.tasks', handler: catTasks },
];
