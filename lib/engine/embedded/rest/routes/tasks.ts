import { EsError } from '../../../../errors/index.js';
import { DEFAULT_WAIT_MS, parseTaskId, type Task, type TaskFilter, type TaskId } from '../../tasks/index.js';
import { CANCELED_BY_USER } from '../../tasks/index.js';
import { booleanParam } from '../params.js';
import { nodeAttributes, nodeRoles, speaksOpenSearch } from '../dialect.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { requestsPerSecond } from './by-scroll-params.js';
import { timeValue } from './search-target.js';
import { taskHeaders } from '../task-headers.js';

type Json = Record<string, unknown>;

const list = (v: string | null): string[] | undefined => (v === null || v === '' ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean));

function filterOf(req: RestRequest, ctx: EngineContext): TaskFilter {
  const nodes = list(req.params.get('nodes'));
  const parent = req.params.get('parent_task_id');
  return {
    actions: list(req.params.get('actions')),
    parent: parent === null ? undefined : parseTaskId(parent),
    nodes: nodes ? () => ctx.node.matches(nodes) : undefined,
  };
}

function waitMs(req: RestRequest): number {
  const t = req.params.get('timeout');
  return t === null ? DEFAULT_WAIT_MS : timeValue('timeout', t);
}

/**
 * Elasticsearch's ListTasksResponse: grouped by node (default), by parent (children nested under
 * their parent; a child whose parent is not listed stands on its own) or not at all.
 */
function listing(req: RestRequest, ctx: EngineContext, tasks: Task[], detailed: boolean): Json {
  const groupBy = req.params.get('group_by') ?? 'nodes';
  const openSearch = speaksOpenSearch(req, ctx);
  const infoOf = (t: Task): Json => inDialect(t.info(detailed), openSearch);
  if (groupBy === 'none') return { tasks: tasks.map(infoOf) };
  if (groupBy === 'parents') {
    const listed = new Set(tasks);
    const withChildren = (t: Task): Json => {
      const kids = tasks.filter((c) => c.parent === t);
      return kids.length ? { ...infoOf(t), children: kids.map(withChildren) } : infoOf(t);
    };
    const out: Json = {};
    for (const t of tasks) if (!t.parent || !listed.has(t.parent)) out[t.fullId] = withChildren(t);
    return { tasks: out };
  }
  if (groupBy !== 'nodes') {
    // OpenSearch 2 names the values it takes; Elasticsearch 8 fails to read the enum
    throw new EsError(400, 'illegal_argument_exception', openSearch
      ? `[group_by] must be one of [nodes], [parents] or [none] but was [${groupBy}]`
      : `No enum constant org.elasticsearch.rest.action.admin.cluster.RestListTasksAction.GroupBy.${groupBy.toUpperCase()}`);
  }
  if (!tasks.length) return { nodes: {} };
  const n = ctx.node;
  const byId: Json = {};
  for (const t of tasks) byId[t.fullId] = infoOf(t);
  return { nodes: { [n.id]: { name: n.name, transport_address: n.transportAddress, host: n.host, ip: n.ip, roles: nodeRoles(req, ctx), attributes: nodeAttributes(req, ctx), tasks: byId } } };
}

/**
 * A task as the dialect's TaskInfo writes it: OpenSearch 2's writes `cancelled` for every task
 * (after `cancellable`), Elasticsearch 8's for a cancellable one only.
 */
function inDialect(info: Json, openSearch: boolean): Json {
  if (!openSearch || 'cancelled' in info) return info;
  const out: Json = {};
  for (const [k, v] of Object.entries(info)) {
    out[k] = v;
    if (k === 'cancellable') out.cancelled = false;
  }
  return out;
}

/**
 * Runs `answer` as the listing task Elasticsearch registers for itself (with its per-node child),
 * so a listing sees itself as it does in Elasticsearch.
 */
export async function asListingTask<T>(req: RestRequest, ctx: EngineContext, answer: (self: Task[]) => Promise<T> | T): Promise<T> {
  const self = ctx.tasks.start({ action: 'cluster:monitor/tasks/lists', description: '', cancellable: false, headers: taskHeaders(req) });
  const child = ctx.tasks.start({ action: 'cluster:monitor/tasks/lists[n]', description: '', cancellable: false, parent: self });
  try {
    return await answer([self, child]);
  } finally {
    ctx.tasks.finish(child);
    ctx.tasks.finish(self);
  }
}

/** GET /_tasks */
async function listTasks(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const detailed = booleanParam(req.params, 'detailed', false);
  const filter = filterOf(req, ctx);
  if (booleanParam(req.params, 'wait_for_completion', false)) {
    const wait = waitMs(req);
    await Promise.all(ctx.tasks.list(filter).map((t) => ctx.tasks.waitFor(t, wait)));
  }
  return asListingTask(req, ctx, () => ({ status: 200, body: listing(req, ctx, ctx.tasks.list(filter), detailed) }));
}

/** GET /_tasks/{task_id} */
async function getTask(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const id = requiredTaskId(req.pathParams.task_id);
  const wait = booleanParam(req.params, 'wait_for_completion', false) ? waitMs(req) : undefined;
  const result = await ctx.tasks.get(id, wait);
  return { status: 200, body: { ...result, task: inDialect(result.task as Json, speaksOpenSearch(req, ctx)) } };
}

function requiredTaskId(text: string): TaskId {
  const id = parseTaskId(text);
  if (!id) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: task id is required;');
  return id;
}

/**
 * A task-level action (cancel, rethrottle) that names a task it cannot act on: Elasticsearch runs
 * these on the task's node and reports that node's failure in a 200 answer (`node_failures`), a
 * node it does not know as `no_such_node_exception`.
 */
class NodeFailure extends Error {
  constructor(readonly nodeId: string, readonly failure: Json) {
    super(String(failure.reason));
  }
}

function nodeFailureAnswer(req: RestRequest, ctx: EngineContext, f: NodeFailure): RestResponse {
  const failure = { type: 'failed_node_exception', reason: `Failed node [${f.nodeId}]`, node_id: f.nodeId, caused_by: f.failure };
  return { status: 200, body: { node_failures: [failure], ...listing(req, ctx, [], false) } };
}

/** The running task a task-level action names (`missing`: Elasticsearch's message for an unknown id on this node). */
function runningTask(ctx: EngineContext, id: TaskId, missing: (id: string) => string): Task {
  const text = `${id.node}:${id.id}`;
  if (id.node !== ctx.node.id) throw new NodeFailure(id.node, { type: 'no_such_node_exception', reason: `No such node [${id.node}]`, node_id: id.node });
  const task = ctx.tasks.runningTask(id);
  if (!task) throw new NodeFailure(id.node, { type: 'resource_not_found_exception', reason: missing(text) });
  return task;
}

async function orNodeFailure(req: RestRequest, ctx: EngineContext, act: () => Promise<RestResponse> | RestResponse): Promise<RestResponse> {
  try {
    return await act();
  } catch (err) {
    if (err instanceof NodeFailure) return nodeFailureAnswer(req, ctx, err);
    throw err;
  }
}

/** POST /_tasks/_cancel, POST /_tasks/{task_id}/_cancel: cancels between batches; answers the cancelled tasks. */
function cancelTasks(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  return orNodeFailure(req, ctx, async () => {
    let tasks: Task[];
    if (req.pathParams.task_id !== undefined) {
      const task = runningTask(ctx, requiredTaskId(req.pathParams.task_id), (id) => `task [${id}] is not found`);
      if (!task.cancellable) throw new NodeFailure(task.node, { type: 'illegal_argument_exception', reason: `task [${task.fullId}] doesn't support cancellation` });
      tasks = [task];
    } else {
      tasks = ctx.tasks.list(filterOf(req, ctx)).filter((t) => t.cancellable);
    }
    for (const t of tasks) t.cancel(CANCELED_BY_USER);
    if (booleanParam(req.params, 'wait_for_completion', false)) await Promise.all(tasks.map((t) => ctx.tasks.waitFor(t, DEFAULT_WAIT_MS)));
    return { status: 200, body: listing(req, ctx, tasks, false) };
  });
}

const BY_SCROLL_ACTIONS = new Set(['indices:data/write/reindex', 'indices:data/write/update/byquery', 'indices:data/write/delete/byquery']);

/** POST /_reindex|_update_by_query|_delete_by_query/{task_id}/_rethrottle */
function rethrottle(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  if (req.params.get('requests_per_second') === null) throw new EsError(400, 'illegal_argument_exception', 'requests_per_second is a required parameter');
  const rps = requestsPerSecond(req.params);
  const id = requiredTaskId(req.pathParams.task_id);
  return orNodeFailure(req, ctx, () => {
    const task = runningTask(ctx, id, (text) => `task [${text}] is missing`);
    if (!BY_SCROLL_ACTIONS.has(task.action) || !task.rethrottle) {
      throw new NodeFailure(task.node, { type: 'resource_not_found_exception', reason: `task [${task.fullId}] doesn't support this operation` });
    }
    task.rethrottle(rps);
    return { status: 200, body: listing(req, ctx, [task], true) };
  });
}

export const taskRoutes: Route[] = [
  { id: 'tasks.list', handler: listTasks },
  { id: 'tasks.get', handler: getTask },
  { id: 'tasks.cancel', handler: cancelTasks },
  ...(['reindex', 'update_by_query', 'delete_by_query'] as const).map((api) => ({ id: `${api}_rethrottle` as const, handler: rethrottle })),
];
