import { expect } from 'chai';
import { BatchWriter } from '../../lib/analytics/batch-writer.js';
import { callJson, type Backend, type EngineRequest } from '../../lib/engine/index.js';
import { intercept } from '../../lib/engine/interceptor.js';
import { openEmbeddedEngine } from '../../lib/engine/embedded/index.js';
import { tempDir } from '../support/servers.js';
import { within } from '../support/within.js';

const INDEX = '.gateway-test-records';

/**
 * The background writer of request logs and analytics on a real embedded engine, its `_bulk`
 * requests counted (and held on demand, as a slow engine holds them).
 */
describe('BatchWriter: background records in batches', function () {
  this.timeout(30_000);
  let engine: Backend;
  let remove: () => Promise<void>;
  const bulks: number[] = [];
  /** While set, every `_bulk` waits for it: records keep coming while a batch is written. */
  let hold: Promise<void> | undefined;
  /** Called as each `_bulk` arrives: a record that comes while a batch is being written. */
  let onBulk: (() => void) | undefined;

  before(async () => {
    const data = await tempDir('batch-writer-');
    remove = () => data.remove();
    const embedded = await openEmbeddedEngine({ dataDir: data.dir });
    engine = intercept(embedded, (next) => async (req: EngineRequest) => {
      if (req.path.endsWith('/_bulk')) {
        bulks.push(String(req.body).split('\n').filter(Boolean).length / 2);
        onBulk?.();
        await hold;
      }
      return next(req);
    });
    expect((await callJson(engine, 'PUT', `/${INDEX}`, {})).status).to.equal(200);
  });
  after(async () => {
    await engine.close();
    await remove();
  });
  beforeEach(() => {
    bulks.length = 0;
    hold = undefined;
    onBulk = undefined;
  });

  const writer = (flushMs: number) =>
    new BatchWriter<{ n: number }>(engine, { index: INDEX, indexBody: {}, maxQueued: 10_000, maxBatch: 200, flushMs, retentionDays: 7 });
  const count = async () => {
    await callJson(engine, 'POST', `/${INDEX}/_refresh`);
    return (await callJson<{ count: number }>(engine, 'GET', `/${INDEX}/_count`)).body.count;
  };

  it('writes full batches while a batch is being written, not a write per record that arrives meanwhile', async () => {
    const w = writer(60_000);
    const before = await count();
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    let trickled = 0;
    onBulk = () => void w.add({ n: 10_000 + trickled++ });
    for (let n = 0; n < 1_000; n++) w.add({ n });
    // one batch is out (held); the 800 records queued behind it wait, and so do those that arrive then
    await within(5_000, async () => bulks.length === 1);
    for (let n = 1_000; n < 1_100; n++) w.add({ n });
    expect(bulks).to.deep.equal([200]);
    expect(w.stats().queued).to.equal(901);
    release();
    // the full batches go at once; the rest (a record came with each batch) waits for its timer
    await within(5_000, async () => w.stats().written === 1_000);
    expect(bulks).to.deep.equal([200, 200, 200, 200, 200]);
    expect(w.stats().queued).to.equal(105);
    onBulk = undefined;
    await w.flush();
    expect(bulks).to.deep.equal([200, 200, 200, 200, 200, 105]);
    expect((await count()) - before).to.equal(1_105);
    expect(w.stats()).to.deep.include({ queued: 0, written: 1_105, dropped: 0, failed: 0 });
    await w.close();
  });

  it('writes a partial batch when its timer fires, once', async () => {
    const w = writer(50);
    for (let n = 0; n < 30; n++) w.add({ n });
    expect(bulks).to.deep.equal([]);
    await within(5_000, async () => w.stats().written === 30);
    expect(bulks).to.deep.equal([30]);
    await w.close();
    expect(bulks).to.deep.equal([30]);
  });

  it('drops and counts what does not fit the queue, and flush writes everything else', async () => {
    const w = new BatchWriter<{ n: number }>(engine, { index: INDEX, indexBody: {}, maxQueued: 50, maxBatch: 200, flushMs: 60_000, retentionDays: 7 });
    let accepted = 0;
    for (let n = 0; n < 80; n++) if (w.add({ n })) accepted++;
    expect(accepted).to.equal(50);
    await w.flush();
    expect(bulks).to.deep.equal([50]);
    expect(w.stats()).to.deep.include({ queued: 0, written: 50, dropped: 30 });
    await w.close();
  });
});
