import { expect } from 'chai';
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
    // 200 documents of about 2 KB: a view is charged about 0.9 MB; two fit in 2 MB, three do not
    // (what other specs of this worker may still hold is a few KB)
    setPointInTimeBudget(2 * 1024 * 1024);
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
    const held = () => pointInTimeBytes().held - base;
    const first = await open();
    expect(first.status).to.equal(200);
    const oneView = held();
    expect(oneView).to.be.within(800_000, 1_100_000);

    // over an unchanged index, a second point in time shares the view: no more bytes
    const shared = await open();
    expect(shared.status).to.equal(200);
    expect(held()).to.equal(oneView);

    await write(1);
    const second = await open();
    expect(second.status).to.equal(200);
    await write(2);
    const refused = await open();
    expect(refused.status).to.equal(429);
    expect(refused.json.error.type).to.equal('circuit_breaking_exception');
    expect(refused.json.error.reason).to.match(/^\[point_in_time\] Data too large, data for \[open_point_in_time\] would be \[\d+\/[\d.]+mb\], which is larger than the limit of \[2097152\/2mb\]/);
    expect(refused.json.error.bytes_limit).to.equal(2 * 1024 * 1024);
    expect(refused.json.error.durability).to.equal('TRANSIENT');

    // the shared view stays while one point in time still reads it
    await close(first.json.id);
    expect(held()).to.be.above(oneView);
    await close(shared.json.id);
    const afterFirst = held();
    expect(afterFirst).to.be.below(oneView * 1.1);
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
