import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/**
 * Index stats' `translog` section as Elasticsearch keeps a shard's translog: each write since the
 * last flush is one operation and its bytes, a flush trims it back to its header (55 bytes a
 * shard), a closed index listed with forbid_closed_indices=false holds none; the translog
 * retention settings an 8.x index may not carry are refused at creation and on update.
 */
describe('embedded engine: translog stats and retention settings', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const translog = async (query = ''): Promise<any> => {
    const r = await es.call('GET', `/_stats/translog${query}`);
    expect(r.status, r.text).to.equal(200);
    return r.json.indices.tl.primaries.translog;
  };

  before(async () => {
    es = await startEngine();
    const create = await es.call('PUT', '/tl', { settings: { number_of_shards: 1, soft_deletes: { enabled: true } } });
    expect(create.status, create.text).to.equal(200);
  });
  after(() => es.close());

  it('counts the writes since the last flush, and a flush trims them', async () => {
    const empty = await translog();
    expect(empty).to.include({ operations: 0, size_in_bytes: 55, uncommitted_operations: 0, uncommitted_size_in_bytes: 55 });
    await es.call('PUT', '/tl/_doc/1', { foo: 'bar' });
    await es.call('DELETE', '/tl/_doc/1');
    const written = await translog();
    expect(written.operations).to.equal(2);
    expect(written.uncommitted_operations).to.equal(2);
    expect(written.size_in_bytes).to.be.greaterThan(55);
    expect(written.earliest_last_modified_age).to.be.at.least(0);
    const flushed = await es.call('POST', '/tl/_flush');
    expect(flushed.status, flushed.text).to.equal(200);
    expect(await translog()).to.include({ operations: 0, size_in_bytes: 55, uncommitted_size_in_bytes: 55 });
  });

  it('a closed index is listed with no operations when closed indices are allowed', async () => {
    await es.call('PUT', '/tl/_doc/2', { foo: 'bar' });
    expect((await translog()).operations).to.equal(1);
    await es.call('POST', '/tl/_close');
    const closed = await translog('?expand_wildcards=all&forbid_closed_indices=false');
    expect(closed).to.include({ operations: 0, uncommitted_operations: 0 });
    await es.call('POST', '/tl/_open');
  });

  it('refuses the translog retention settings at creation and on update', async () => {
    const reason = 'Translog retention settings [index.translog.retention.age] and [index.translog.retention.size] are no longer supported. Please do not specify values for these settings';
    const create = await es.call('PUT', '/retained', { settings: { 'index.translog.retention.size': '128mb' } });
    expect(create.status, create.text).to.equal(400);
    expect(create.json.error).to.include({ type: 'illegal_argument_exception', reason });
    const update = await es.call('PUT', '/tl/_settings', { 'index.translog.retention.age': '1h' });
    expect(update.status, update.text).to.equal(400);
    expect(update.json.error.reason).to.equal(reason);
  });
});
