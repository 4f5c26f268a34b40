import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** Date math in index names (`<logs-{now/d}>`), as the reference describes it. */
describe('embedded engine: date math in index names', () => {
  let es: TestEngine;
  const enc = encodeURIComponent;
  const day = (ms: number, sep = '.') => new Date(ms).toISOString().slice(0, 10).replaceAll('-', sep);
  /** The names a request may have resolved to: the date before it and the date after it (midnight may pass between). */
  const around = async <T>(name: (ms: number) => string, run: () => Promise<T>): Promise<[T, string[]]> => {
    const before = name(Date.now());
    const out = await run();
    return [out, [...new Set([before, name(Date.now())])]];
  };

  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  it('create, write, read and search through a date math name; the default format is yyyy.MM.dd in UTC', async () => {
    const [created, names] = await around((ms) => `logs-${day(ms)}`, () => es.call('PUT', `/${enc('<logs-{now/d}>')}`, {}));
    expect(created.status, created.text).to.equal(200);
    expect(names).to.include(created.json.index);
    const index = created.json.index as string;
    let r = await es.call('PUT', `/${enc('<logs-{now/d}>')}/_doc/1?refresh=true`, { msg: 'hello' });
    expect([r.status, r.json._index]).to.deep.equal([201, index]);
    r = await es.call('GET', `/${enc('<logs-{now/d}>')}/_doc/1`);
    expect([r.status, r.json._index, r.json._source]).to.deep.equal([200, index, { msg: 'hello' }]);
    r = await es.call('POST', `/${enc('<logs-{now/d}>,<logs-{now/d-1d}>')}/_search?ignore_unavailable=true`, {});
    expect(r.json.hits.hits.map((h: { _index: string }) => h._index)).to.deep.equal([index]);
  });

  it('formats, time zones and escaped braces', async () => {
    const [r1, month] = await around((ms) => `app-${day(ms).slice(0, 7)}`, () => es.call('PUT', `/${enc('<app-{now/M{yyyy.MM}}>')}`, {}));
    expect(month).to.include(r1.json.index);
    const [r2, plus] = await around((ms) => `tz-${day(ms + 12 * 3600_000, '-')}`, () => es.call('PUT', `/${enc('<tz-{now/d{yyyy-MM-dd|+12:00}}>')}`, {}));
    expect(plus).to.include(r2.json.index);
    const r3 = await es.call('PUT', `/${enc('<curly\\{x\\}>')}`, {});
    expect([r3.status, r3.json.index]).to.deep.equal([200, 'curly{x}']);
  });

  it('a missing date math index is named resolved in the error; a malformed expression is a parse error', async () => {
    const [r, names] = await around((ms) => `nope-${day(ms)}`, () => es.call('GET', `/${enc('<nope-{now/d}>')}/_search`));
    expect(r.status).to.equal(404);
    expect(names.map((n) => `no such index [${n}]`)).to.include(r.json.error.reason);
    const bad = await es.call('GET', `/${enc('<nope-{now/d>')}/_search`);
    expect([bad.status, bad.json.error.type, bad.json.error.reason]).to.deep.equal([400, 'parse_exception', 'invalid dynamic name expression [<nope-{now/d>]. date math placeholder is open ended']);
  });
});
