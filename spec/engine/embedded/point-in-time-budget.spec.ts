import { expect } from 'chai';
import v8 from 'node:v8';
import vm from 'node:vm';
import { gapsDuring } from '../../cooperative/support/loop-turns.js';
import { DEFAULT_POINT_IN_TIME_BYTES, pointInTimeBytes, setPointInTimeBudget } from '../../../lib/engine/embedded/indices/index.js';
import { ndjson, startEngine, type TestEngine } from './support.js';

describe('embedded engine: point-in-time views are accounted in bytes, and given back on close', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    const lines: unknown[] = [];
    for (let i = 0; i < 200; i++) lines.push({ index: { _index: 'pits', _id: String(i) } }, { text: `document ${i} ${'lorem ipsum '.repeat(170)}` });
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors).to.equal(false);
    // 200 documents of about 2 KB: a view is charged about 1.5 MB (its sources, 0.45 MB, and its
    // postings, of which the terms of the `keyword` sub-field: each a whole text); the next view,
    // after a write, shares the sources no write changed: about 1.05 MB. Two views fit in 3.2 MB,
    // three do not. The account is the process's: the budget is set in the case, above what other
    // specs run before it in this mocha worker may still hold (views until their keep-alive ends)
  });
  after(async () => {
    setPointInTimeBudget(DEFAULT_POINT_IN_TIME_BYTES);
    await es.close();
  });

  const open = () => es.call('POST', '/pits/_pit?keep_alive=5m');
  const close = (id: string) => es.call('DELETE', '/_pit', { id });
  const write = (n: number) => es.call('PUT', `/pits/_doc/new-${n}?refresh=true`, { text: 'changed' });

  it('views past the budget are refused with 429 circuit_breaking_exception; closing gives the bytes back', async () => {
    // the account is the process's: another spec run before this one in the same mocha worker may
    // still hold a view (until its keep-alive ends), so what this case holds is counted from here
    const base = pointInTimeBytes().held;
    const limit = base + 3_355_443;
    setPointInTimeBudget(limit);
    const held = () => pointInTimeBytes().held - base;
    const first = await open();
    expect(first.status).to.equal(200);
    const oneView = held();
    expect(oneView).to.be.within(1_300_000, 1_700_000);

    // over an unchanged index, a second point in time shares the view: no more bytes
    const shared = await open();
    expect(shared.status).to.equal(200);
    expect(held()).to.equal(oneView);

    await write(1);
    const second = await open();
    expect(second.status).to.equal(200);
    const secondView = held() - oneView;
    expect(secondView, 'a view after a write: its postings, and the one source that changed').to.be.within(oneView * 0.6, oneView * 0.8);
    await write(2);
    const refused = await open();
    expect(refused.status).to.equal(429);
    expect(refused.json.error.type).to.equal('circuit_breaking_exception');
    expect(refused.json.error.reason).to.match(new RegExp(`^\\[point_in_time\\] Data too large, data for \\[open_point_in_time\\] would be \\[\\d+/[\\d.]+mb\\], which is larger than the limit of \\[${limit}/[\\d.]+mb\\]`));
    if (base === 0) expect(refused.json.error.reason).to.contain('the limit of [3355443/3.2mb]');
    expect(refused.json.error.bytes_limit).to.equal(limit);
    expect(refused.json.error.durability).to.equal('TRANSIENT');

    // the shared view stays while one point in time still reads it
    await close(first.json.id);
    expect(held()).to.be.above(oneView);
    await close(shared.json.id);
    // the second view holds on: its postings, and the sources it shared with the first
    const afterFirst = held();
    expect(afterFirst).to.be.within(oneView * 0.95, oneView * 1.1);
    const third = await open();
    expect(third.status).to.equal(200);
    // the view still answers as it was: 201 documents then, 202 now
    const counted = await es.call('POST', '/_search', { size: 0, pit: { id: second.json.id }, track_total_hits: true });
    expect(counted.json.hits.total.value).to.equal(201);
    const view = await es.call('POST', '/_search', { size: 1, pit: { id: third.json.id }, query: { ids: { values: ['7'] } } });
    expect(view.json.hits.hits[0]._source.text).to.match(/^document 7 lorem ipsum/);

    await close(second.json.id);
    await close(third.json.id);
    expect(held()).to.equal(0);
  });
});

/** A full collection, twice (the heap figures below are what stays reachable). */
function collect(): void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
}

/** What the process holds: its JS heap and its typed arrays' memory (the postings live there, outside the heap). */
function heldMemory(): number {
  collect();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

describe('embedded engine: a point-in-time view is charged what it holds, and opened without holding the event loop', function () {
  this.timeout(120_000);
  let es: TestEngine;
  const DOCS = 8000;
  before(async () => {
    es = await startEngine();
    const words = Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}`);
    for (let start = 0; start < DOCS; start += 2000) {
      const lines: unknown[] = [];
      for (let i = start; i < start + 2000; i++) {
        lines.push({ index: { _index: 'held', _id: String(i) } }, { text: Array.from({ length: 200 }, (_, j) => words[(i * 7 + j * 13) % 2000]).join(' '), n: i, tag: `t${i % 50}` });
      }
      const r = await es.call('POST', '/_bulk', ndjson(lines), { 'content-type': 'application/x-ndjson' });
      expect(r.json.errors).to.equal(false);
    }
    await es.call('POST', '/held/_refresh');
  });
  after(() => es.close());

  it('the charge is not below the heap and typed-array memory the view takes', async () => {
    // what other specs of this worker still hold is not this view's
    const before = heldMemory();
    const charged0 = pointInTimeBytes().held;
    const r = await es.call('POST', '/held/_pit?keep_alive=5m');
    expect(r.status).to.equal(200);
    const taken = heldMemory() - before;
    const charged = pointInTimeBytes().held - charged0;
    // 8,000 documents of about 1 KB: their sources and the copy of their postings, about 25 MB
    expect(taken).to.be.above(10 * 1024 * 1024);
    expect(charged, `charged ${charged} for ${taken} taken`).to.be.at.least(taken * 0.95);
    expect(charged, `charged ${charged} for ${taken} taken`).to.be.below(taken * 2);
    await es.call('DELETE', '/_pit', { id: r.json.id });
    expect(pointInTimeBytes().held).to.equal(charged0);
  });

  it('opening a view reads and indexes its documents a time slice at a time, and keeps those written meanwhile as they were', async () => {
    await es.call('PUT', '/held/_doc/marker?refresh=true', { text: 'before the view' });
    const base = pointInTimeBytes().held;
    let openAnswered = false;
    let writtenWhileOpening = false;
    const { result: opened, gaps } = await gapsDuring(async () => {
      const open = es.call('POST', '/held/_pit?keep_alive=5m').finally(() => (openAnswered = true));
      // the view is being built once it reserves bytes: written now, its documents stay as they were
      while (pointInTimeBytes().held === base && !openAnswered) await new Promise((resolve) => setImmediate(resolve));
      await Promise.all([
        es.call('PUT', '/held/_doc/marker?refresh=true', { text: 'after the view' }),
        es.call('DELETE', '/held/_doc/7999?refresh=true'),
      ]);
      writtenWhileOpening = !openAnswered;
      return open;
    });
    expect(opened.status).to.equal(200);
    expect(writtenWhileOpening, 'the writes were answered before the view was').to.equal(true);
    // one piece of 8,000 document reads took ~120 ms of CPU; a slice is 10 ms (and a collection may add some)
    expect(Math.max(...gaps), `longest wait of the event loop, of ${gaps.length}`).to.be.below(60);
    const seen = await es.call('POST', '/_search', { pit: { id: opened.json.id }, query: { ids: { values: ['marker', '7999'] } }, sort: [{ n: { order: 'asc', missing: '_last' } }] });
    const hits = seen.json.hits.hits as Array<{ _id: string; _source: { text: string } }>;
    expect(hits.map((h) => h._id)).to.deep.equal(['7999', 'marker']);
    expect(hits[1]._source.text).to.equal('before the view');
    const now = await es.call('POST', '/held/_search', { query: { ids: { values: ['marker', '7999'] } } });
    expect(now.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['marker']);
    await es.call('DELETE', '/_pit', { id: opened.json.id });
  });
});
