import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** The task management API and the by-scroll APIs as tasks (Elasticsearch 8.15's reference), on the embedded engine. */
describe('embedded engine: tasks (_tasks, wait_for_completion=false, slices, throttling, cancel, rethrottle)', function () {
  this.timeout(30_000);
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
    for (let i = 1; i <= 6; i++) await es.call('PUT', `/test/_doc/${i}`, { text: 'test', n: i });
  });
  afterEach(() => es.close());

  /** A by-scroll request that waits about 9.5 years between its batches: it stays running until told otherwise. */
  const stalled = async (path: string, body?: unknown) => {
    const r = await es.call('POST', `${path}${path.includes('?') ? '&' : '?'}wait_for_completion=false&requests_per_second=0.00000001`, body);
    expect(r.status, r.text).to.equal(200);
    expect(Object.keys(r.json)).to.deep.equal(['task']);
    expect(r.json.task).to.match(/^.+:\d+$/);
    return r.json.task as string;
  };

  /** Asks for the task until (a slice of) it has done a batch and waits on its throttle (the signal, re-read; no sleep). */
  const throttling = async (task: string) => {
    for (;;) {
      const r = await es.call('GET', `/_tasks/${task}`);
      const status = r.json.task.status;
      const slices: Array<{ throttled_until_millis: number }> = status.slices ?? [status];
      if (slices.some((s) => s.throttled_until_millis > 0)) return r.json;
    }
  };

  it('wait_for_completion=false answers the task id; GET _tasks/{id}?wait_for_completion=true answers the stored result', async () => {
    const r = await es.call('POST', '/_reindex?wait_for_completion=false', { source: { index: 'test' }, dest: { index: 'dest' } });
    expect(r.json.task.split(':')[0]).to.equal((await es.call('GET', '/_nodes/_local')).json.nodes && Object.keys((await es.call('GET', '/_nodes/_local')).json.nodes)[0]);
    const done = await es.call('GET', `/_tasks/${r.json.task}?wait_for_completion=true`);
    expect(done.status, done.text).to.equal(200);
    expect(done.json.completed).to.equal(true);
    expect(done.json.task).to.include({ type: 'transport', action: 'indices:data/write/reindex', description: 'reindex from [test] to [dest]', cancellable: true, cancelled: false });
    expect(Object.keys(done.json.task)).to.deep.equal([
      'node', 'id', 'type', 'action', 'status', 'description', 'start_time_in_millis', 'running_time_in_nanos', 'cancellable', 'cancelled', 'headers',
    ]);
    expect(done.json.task.status).to.include({ total: 6, created: 6, updated: 0, deleted: 0, batches: 1, version_conflicts: 0, noops: 0, requests_per_second: -1 });
    expect(done.json.response).to.include({ total: 6, created: 6, updated: 0, batches: 1, throttled_millis: 0 });
    expect(done.json.response.failures).to.deep.equal([]);
    // stored: asked again later, the same result
    expect((await es.call('GET', `/_tasks/${r.json.task}`)).json.response.created).to.equal(6);
  });

  it('a stored result survives a restart of the engine, and new tasks do not take its id', async () => {
    const r = await es.call('POST', '/test/_delete_by_query?wait_for_completion=false', { query: { term: { n: 1 } } });
    await es.call('GET', `/_tasks/${r.json.task}?wait_for_completion=true`);
    const dir = es.dataDir;
    await es.close(false);
    es = await startEngine({ dataDir: dir });
    const again = await es.call('GET', `/_tasks/${r.json.task}`);
    expect(again.status, again.text).to.equal(200);
    expect(again.json.response).to.include({ total: 1, deleted: 1 });
    expect(again.json.response).to.not.have.property('updated');
    const next = await es.call('POST', '/test/_update_by_query?wait_for_completion=false');
    expect(next.json.task).to.not.equal(r.json.task);
    await es.call('GET', `/_tasks/${next.json.task}?wait_for_completion=true`);
  });

  it('unknown and malformed task ids: Elasticsearch\'s errors', async () => {
    const node = Object.keys((await es.call('GET', '/_nodes/_local')).json.nodes)[0];
    const missing = await es.call('GET', `/_tasks/${node}:4242`);
    expect(missing.status).to.equal(404);
    expect(missing.json.error).to.include({ type: 'resource_not_found_exception', reason: `task [${node}:4242] isn't running and hasn't stored its results` });
    const elsewhere = await es.call('GET', '/_tasks/otherNode:1');
    expect(elsewhere.status).to.equal(404);
    expect(elsewhere.json.error.reason).to.equal("task [otherNode:1] belongs to the node [otherNode] which isn't part of the cluster and there is no record of the task");
    const malformed = await es.call('GET', '/_tasks/foo');
    expect(malformed.status).to.equal(400);
    expect(malformed.json.error).to.include({ type: 'illegal_argument_exception', reason: 'malformed task id foo' });
    // cancel and rethrottle run on the task's node: what it cannot do is that node's failure, in a 200 answer
    const cancel = await es.call('POST', `/_tasks/${node}:4242/_cancel`);
    expect(cancel.status).to.equal(200);
    expect(cancel.json.nodes).to.deep.equal({});
    expect(cancel.json.node_failures[0]).to.include({ type: 'failed_node_exception', reason: `Failed node [${node}]`, node_id: node });
    expect(cancel.json.node_failures[0].caused_by).to.deep.equal({ type: 'resource_not_found_exception', reason: `task [${node}:4242] is not found` });
    const rethrottle = await es.call('POST', `/_reindex/${node}:4242/_rethrottle?requests_per_second=-1`);
    expect(rethrottle.json.node_failures[0].caused_by.reason).to.equal(`task [${node}:4242] is missing`);
    const otherNode = await es.call('POST', '/_delete_by_query/test:007/_rethrottle?requests_per_second=2');
    expect(otherNode.status).to.equal(200);
    expect(otherNode.json.node_failures[0].caused_by).to.deep.equal({ type: 'no_such_node_exception', reason: 'No such node [test]', node_id: 'test' });
  });

  it('throttling: requests_per_second=1 with batches of one waits about a second between batches; -1 does not wait', async () => {
    const slow = await es.call('POST', '/test/_update_by_query?scroll_size=1&requests_per_second=3&max_docs=3');
    expect(slow.json).to.include({ batches: 3, updated: 3, requests_per_second: 3 });
    expect(slow.json.throttled_millis).to.be.within(550, 2000);
    const fast = await es.call('POST', '/test/_update_by_query?scroll_size=1&requests_per_second=-1');
    expect(fast.json).to.include({ batches: 6, updated: 6, throttled_millis: 0, requests_per_second: -1 });
  });

  it('a running task is listed (GET _tasks, detailed, group_by, actions, _cat/tasks), rethrottled to unlimited, and then completes', async () => {
    const task = await stalled('/test/_update_by_query?scroll_size=1');
    await throttling(task);
    const list = await es.call('GET', '/_tasks?actions=*byquery&detailed');
    const node = Object.keys(list.json.nodes)[0];
    expect(list.json.nodes[node]).to.include.keys('name', 'transport_address', 'host', 'ip', 'roles', 'attributes', 'tasks');
    const info = list.json.nodes[node].tasks[task];
    expect(info).to.include({ action: 'indices:data/write/update/byquery', description: 'update-by-query [test]', cancellable: true, cancelled: false });
    expect(info.status).to.include({ total: 6, updated: 1, batches: 1, requests_per_second: 1e-8 });
    expect(info.status.throttled_until_millis).to.be.above(0);
    const brief = await es.call('GET', '/_tasks?actions=*byquery');
    expect(brief.json.nodes[node].tasks[task]).to.not.have.any.keys('status', 'description');
    const none = await es.call('GET', '/_tasks?actions=*byquery&group_by=none');
    expect(none.json.tasks.map((t: { id: number }) => `${node}:${t.id}`)).to.deep.equal([task]);
    const self = await es.call('GET', '/_tasks?group_by=parents');
    const lists = Object.values(self.json.tasks as Record<string, { action: string; children?: Array<{ action: string }> }>).find((t) => t.action === 'cluster:monitor/tasks/lists');
    expect(lists?.children?.map((c) => c.action)).to.deep.equal(['cluster:monitor/tasks/lists[n]']);
    const cat = await es.call('GET', '/_cat/tasks?actions=*byquery&h=task_id,action');
    expect(cat.text.trim()).to.equal(`${task} indices:data/write/update/byquery`);
    const running = await es.call('GET', `/_tasks/${task}`);
    expect(running.json.completed).to.equal(false);
    const rethrottled = await es.call('POST', `/_update_by_query/${task}/_rethrottle?requests_per_second=-1`);
    expect(rethrottled.status, rethrottled.text).to.equal(200);
    expect(rethrottled.json.nodes[node].tasks[task].action).to.equal('indices:data/write/update/byquery');
    const done = await es.call('GET', `/_tasks/${task}?wait_for_completion=true&timeout=10s`);
    expect(done.json.response).to.include({ updated: 6, batches: 6, requests_per_second: -1, throttled_millis: 0 });
  });

  it('GET _tasks/{id}?wait_for_completion=true&timeout= times out as Elasticsearch does', async () => {
    const task = await stalled('/test/_update_by_query?scroll_size=1');
    const r = await es.call('GET', `/_tasks/${task}?wait_for_completion=true&timeout=100ms`);
    expect(r.status).to.equal(500);
    expect(r.json.error).to.include({ type: 'elasticsearch_timeout_exception', reason: 'Timed out waiting for completion of task' });
    await es.call('POST', `/_tasks/${task}/_cancel`);
  });

  it('cancel: the task stops between batches and its result says canceled "by user request"; cancel by actions too', async () => {
    const task = await stalled('/test/_delete_by_query?scroll_size=2', { query: { match_all: {} } });
    await throttling(task);
    const cancelled = await es.call('POST', `/_tasks/${task}/_cancel`);
    const node = task.split(':')[0];
    expect(cancelled.json.nodes[node].tasks[task]).to.include({ cancellable: true, cancelled: true });
    const done = await es.call('GET', `/_tasks/${task}?wait_for_completion=true`);
    expect(done.json.response).to.include({ deleted: 2, batches: 1, canceled: 'by user request' });
    expect(done.json.task.cancelled).to.equal(true);
    const other = await stalled('/_reindex', { source: { index: 'test', size: 1 }, dest: { index: 'dest' } });
    const byAction = await es.call('POST', '/_tasks/_cancel?actions=indices:data/write/reindex');
    expect(Object.keys(byAction.json.nodes[node].tasks)).to.deep.equal([other]);
    expect((await es.call('GET', `/_tasks/${other}?wait_for_completion=true`)).json.response.canceled).to.equal('by user request');
  });

  it('sliced background work: one child task per slice (parent_task_id), merged status, rethrottle of the parent reaches the slices', async () => {
    const task = await stalled('/_reindex?slices=2', { source: { index: 'test', size: 1 }, dest: { index: 'dest' } });
    await throttling(task);
    const children = await es.call('GET', `/_tasks?parent_task_id=${task}&group_by=none&detailed`);
    // a slice whose share is done has left the list; one still waits on its throttle
    expect(children.json.tasks).to.have.length.within(1, 2);
    for (const c of children.json.tasks) expect(c).to.include({ parent_task_id: task, action: 'indices:data/write/reindex' });
    for (const c of children.json.tasks) expect([0, 1]).to.include(c.status.slice_id);
    const parent = await es.call('GET', `/_tasks/${task}`);
    expect(parent.json.task.status.slices).to.have.length(2);
    expect(parent.json.task.status.requests_per_second).to.equal(1e-8);
    await es.call('POST', `/_reindex/${task}/_rethrottle?requests_per_second=-1`);
    const done = await es.call('GET', `/_tasks/${task}?wait_for_completion=true&timeout=10s`);
    expect(done.json.response).to.include({ total: 6, created: 6, throttled_millis: 0 });
    expect(done.json.response.slices).to.have.length(2);
    expect(done.json.task.status.slices).to.have.length(2);
  });

  it('_update_by_query and _delete_by_query slices (the reference\'s slices=auto and a number)', async () => {
    const u = await es.call('POST', '/test/_update_by_query?slices=3&refresh');
    expect(u.json).to.include({ total: 6, updated: 6 });
    expect(u.json.slices.map((s: { slice_id: number }) => s.slice_id)).to.deep.equal([0, 1, 2]);
    expect(u.json.slices[0]).to.not.have.property('created');
    const d = await es.call('POST', '/test/_delete_by_query?slices=auto', { query: { range: { n: { lte: 2 } } } });
    expect(d.json).to.include({ total: 2, deleted: 2 });
    expect(d.json).to.not.have.any.keys('slices', 'updated', 'created');
    const manual = await es.call('POST', '/test/_delete_by_query', { slice: { id: 0, max: 2 }, query: { match_all: {} } });
    const rest = await es.call('POST', '/test/_delete_by_query', { slice: { id: 1, max: 2 }, query: { match_all: {} } });
    expect(manual.json.deleted + rest.json.deleted).to.equal(4);
  });
  it("a task keeps its request's X-Opaque-Id in headers (the listing itself, its child, a by-query task and its slices; _cat/tasks' x_opaque_id)", async () => {
    const opaque = { 'X-Opaque-Id': 'That is me' };
    const list = await es.call('GET', '/_tasks?actions=cluster:monitor/tasks/lists*&group_by=none', undefined, opaque);
    expect(list.json.tasks.map((t: { action: string; headers: unknown }) => [t.action, t.headers])).to.deep.equal([
      ['cluster:monitor/tasks/lists', opaque], ['cluster:monitor/tasks/lists[n]', opaque],
    ]);
    expect((await es.call('GET', '/_tasks?actions=cluster:monitor/tasks/lists&group_by=none')).json.tasks[0].headers).to.deep.equal({});
    const started = await es.call('POST', '/test/_update_by_query?wait_for_completion=false&slices=2&scroll_size=1&requests_per_second=0.00000001', undefined, { 'X-Opaque-Id': 'ubq' });
    const task = started.json.task as string;
    const running = await es.call('GET', '/_tasks?actions=*byquery&detailed=false&group_by=none');
    expect(running.json.tasks.map((t: { headers: unknown }) => t.headers)).to.deep.equal([{ 'X-Opaque-Id': 'ubq' }, { 'X-Opaque-Id': 'ubq' }, { 'X-Opaque-Id': 'ubq' }]);
    const cat = await es.call('GET', '/_cat/tasks?h=action,x_opaque_id&s=action', undefined, opaque);
    expect(cat.text).to.equal([
      'cluster:monitor/tasks/lists       That is me',
      'cluster:monitor/tasks/lists[n]    That is me',
      'indices:data/write/update/byquery ubq',
      'indices:data/write/update/byquery ubq',
      'indices:data/write/update/byquery ubq',
      '',
    ].join('\n'));
    await es.call('POST', `/_tasks/${task}/_cancel`);
  });
});
