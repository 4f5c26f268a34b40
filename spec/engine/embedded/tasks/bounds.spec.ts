import { expect } from 'chai';
import { SLICE_MS } from '../../../../lib/cooperative/index.js';
import { MAX_RUNNING_BACKGROUND_TASKS, WorkQueue } from '../../../../lib/engine/embedded/tasks/index.js';
import { Task } from '../../../../lib/engine/embedded/tasks/task.js';
import { startEngine, type TestEngine } from '../support.js';

/** Background by-scroll work is bounded: a concurrency limit (the rest queued), and slices as Elasticsearch limits them (issue 39). */
describe('embedded engine: bounded background tasks', function () {
  this.timeout(30_000);
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    for (let i = 1; i <= 3; i++) await es.call('PUT', `/test/_doc/${i}?refresh=true`, { n: i });
    for (let t = 0; t < MAX_RUNNING_BACKGROUND_TASKS + 2; t++) {
      for (let i = 1; i <= 2; i++) await es.call('PUT', `/stall-${t}/_doc/${i}?refresh=true`, { n: i });
    }
  });
  after(() => es.close());

  /**
   * A background _update_by_query that does one batch, then waits years on its throttle. Each
   * works on an index of its own: over shared documents, one that found a document another has
   * since written meets a version conflict, which aborts it (Elasticsearch's rule), as soon as
   * the machine is slow enough for their work to interleave.
   */
  const stalled = async (t: number) => {
    const r = await es.call('POST', `/stall-${t}/_update_by_query?wait_for_completion=false&scroll_size=1&requests_per_second=0.00000001`);
    expect(r.status, r.text).to.equal(200);
    return r.json.task as string;
  };

  /** The task's status, re-read until `done` says so (the signal; no sleep); a task that ends first fails the test. */
  const statusWhen = async (task: string, done: (status: { batches: number; throttled_until_millis: number }) => boolean) => {
    for (;;) {
      const r = await es.call('GET', `/_tasks/${task}`);
      expect(r.status, r.text).to.equal(200);
      expect(r.json.completed, r.text).to.equal(false);
      if (done(r.json.task.status)) return r.json;
    }
  };

  it('runs a few background tasks at once; the others are queued (listed, answered), not failed, and run when a slot frees', async () => {
    const n = MAX_RUNNING_BACKGROUND_TASKS + 2;
    const tasks: string[] = [];
    for (let i = 0; i < n; i++) tasks.push(await stalled(i));
    // The first ones run: each did its first batch and waits on its throttle.
    for (const t of tasks.slice(0, MAX_RUNNING_BACKGROUND_TASKS)) await statusWhen(t, (s) => s.throttled_until_millis > 0);
    // The others wait their turn: listed as running tasks, no batch done.
    const listed = await es.call('GET', '/_tasks?actions=*byquery&detailed=true');
    const all = Object.values(listed.json.nodes as Record<string, { tasks: Record<string, { status: { batches: number } }> }>).flatMap((node) => Object.entries(node.tasks));
    expect(all.map(([id]) => id)).to.include.members(tasks);
    for (const t of tasks.slice(MAX_RUNNING_BACKGROUND_TASKS)) {
      expect(all.find(([id]) => id === t)![1].status.batches, t).to.equal(0);
    }
    // A queued task cancelled while it waits ends at once, having done nothing.
    const lastQueued = tasks[n - 1];
    await es.call('POST', `/_tasks/${lastQueued}/_cancel`);
    const cancelled = await es.call('GET', `/_tasks/${lastQueued}?wait_for_completion=true`);
    expect(cancelled.json.completed).to.equal(true);
    expect(cancelled.json.response.updated).to.equal(0);
    expect(cancelled.json.response.canceled).to.equal('by user request');
    // A running task ends: the next queued one takes its slot and does its first batch.
    await es.call('POST', `/_tasks/${tasks[0]}/_cancel`);
    await statusWhen(tasks[MAX_RUNNING_BACKGROUND_TASKS], (s) => s.batches >= 1);
    for (const t of tasks) await es.call('POST', `/_tasks/${t}/_cancel`);
    for (const t of tasks) expect((await es.call('GET', `/_tasks/${t}?wait_for_completion=true`)).json.completed).to.equal(true);
  });

  it('a queued task can be rethrottled while it waits: it starts at the rate it was given (Elasticsearch rethrottles a task at any time)', async () => {
    const running: string[] = [];
    for (let i = 0; i < MAX_RUNNING_BACKGROUND_TASKS; i++) running.push(await stalled(i));
    for (const t of running) await statusWhen(t, (s) => s.throttled_until_millis > 0);
    // queued behind them, at a rate of one batch every 3 years
    const queued = await es.call('POST', `/stall-${MAX_RUNNING_BACKGROUND_TASKS}/_delete_by_query?wait_for_completion=false&scroll_size=1&requests_per_second=0.00000001`, { query: { match_all: {} } });
    expect(queued.status, queued.text).to.equal(200);
    const task = queued.json.task as string;
    const rethrottled = await es.call('POST', `/_delete_by_query/${task}/_rethrottle?requests_per_second=-1`);
    expect(rethrottled.status, rethrottled.text).to.equal(200);
    await es.call('POST', `/_tasks/${running[0]}/_cancel`);
    const done = await es.call('GET', `/_tasks/${task}?wait_for_completion=true`);
    expect(done.json.completed, done.text).to.equal(true);
    expect(done.json.response.deleted, done.text).to.equal(2);
    expect(done.json.response.requests_per_second, done.text).to.equal(-1);
    for (const t of running) await es.call('POST', `/_tasks/${t}/_cancel?wait_for_completion=true`);
    for (let i = 1; i <= 2; i++) await es.call('PUT', `/stall-${MAX_RUNNING_BACKGROUND_TASKS}/_doc/${i}?refresh=true`, { n: i });
  });

  it('a queued task does no work, its search included, until its turn: it finds the documents as they are then', async () => {
    const running: string[] = [];
    for (let i = 0; i < MAX_RUNNING_BACKGROUND_TASKS; i++) running.push(await stalled(i));
    for (const t of running) await statusWhen(t, (s) => s.throttled_until_millis > 0);
    const queued = await es.call('POST', '/test/_update_by_query?wait_for_completion=false', { query: { range: { n: { gte: 100 } } }, script: { source: 'ctx._source.seen = true' } });
    expect(queued.status, queued.text).to.equal(200);
    // written after the request was answered, before the task's turn: the task's search finds it
    expect((await es.call('PUT', '/test/_doc/late?refresh=true', { n: 100 })).status).to.equal(201);
    await es.call('POST', `/_tasks/${running[0]}/_cancel`);
    const done = await es.call('GET', `/_tasks/${queued.json.task}?wait_for_completion=true`);
    expect(done.json.completed, done.text).to.equal(true);
    expect(done.json.response.total, done.text).to.equal(1);
    expect((await es.call('GET', '/test/_doc/late')).json._source).to.deep.equal({ n: 100, seen: true });
    for (const t of running) await es.call('POST', `/_tasks/${t}/_cancel?wait_for_completion=true`);
    expect((await es.call('DELETE', '/test/_doc/late?refresh=true')).status).to.equal(200);
  });

  it('slices beyond index.max_slices_per_scroll (1024) are refused with Elasticsearch\'s message; 1024 run', async () => {
    for (const path of ['/test/_update_by_query?slices=10000', '/test/_delete_by_query?slices=1025']) {
      const r = await es.call('POST', path, path.includes('delete') ? { query: { match_none: {} } } : undefined);
      expect(r.status, r.text).to.equal(400);
      expect(r.json.error.type).to.equal('illegal_argument_exception');
      expect(r.json.error.reason).to.match(/^The number of slices \[\d+\] is too large\. It must be less than \[1024\]\. This limit can be set by changing the \[index\.max_slices_per_scroll\] index level setting\.$/);
    }
    const reindex = await es.call('POST', '/_reindex?slices=2000', { source: { index: 'test' }, dest: { index: 'copy' } });
    expect(reindex.status, reindex.text).to.equal(400);
    expect(reindex.json.error.reason).to.include('The number of slices [2000] is too large');
    const ok = await es.call('POST', '/test/_update_by_query?slices=1024');
    expect(ok.status, ok.text).to.equal(200);
    expect(ok.json.updated).to.equal(3);
  });

  it('the background tasks running at once share one slice of the event loop: each works in stretches of its share', async () => {
    const queue = new WorkQueue();
    expect(queue.sliceLength()).to.equal(SLICE_MS);
    const task = (id: number) => new Task('node', id, { action: 'indices:data/write/update/byquery', description: '', cancellable: true });
    const releases: Array<() => void> = [];
    for (let i = 0; i < MAX_RUNNING_BACKGROUND_TASKS; i++) {
      releases.push(await queue.acquire(task(i)));
      expect(queue.sliceLength(), `${i + 1} running`).to.equal(SLICE_MS / (i + 1));
    }
    // one more waits: those running still share the slice
    const queued = queue.acquire(task(99));
    expect(queue.sliceLength()).to.equal(SLICE_MS / MAX_RUNNING_BACKGROUND_TASKS);
    releases.shift()!();
    releases.push(await queued);
    expect(queue.sliceLength()).to.equal(SLICE_MS / MAX_RUNNING_BACKGROUND_TASKS);
    for (const release of releases) release();
    expect(queue.sliceLength()).to.equal(SLICE_MS);
  });
});
