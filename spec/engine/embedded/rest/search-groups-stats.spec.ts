import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/**
 * A search's `stats` names the groups it counts in; index stats list those groups' search
 * statistics under `search.groups` when `groups` (names or patterns) asks for them. A closed
 * index's segments are counted when `include_unloaded_segments` asks (they are on disk only).
 */
describe('embedded engine: search groups and unloaded segments in index stats', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const search = async (query: string): Promise<any> => {
    const r = await es.call('GET', `/_stats${query}`);
    expect(r.status, r.text).to.equal(200);
    return r.json._all.total.search;
  };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/g', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await es.call('PUT', '/g/_doc/1?refresh=true', { bar: 'bar' });
    const r = await es.call('POST', '/_search', { stats: ['bar', 'baz'] });
    expect(r.status, r.text).to.equal(200);
  });
  after(() => es.close());

  it('lists the groups asked for, by name or pattern, and none unasked', async () => {
    expect(await search('')).to.not.have.property('groups');
    const one = await search('?groups=bar');
    expect(Object.keys(one.groups)).to.deep.equal(['bar']);
    expect(one.groups.bar).to.include({ query_total: 1, fetch_total: 1, query_current: 0, suggest_total: 0 });
    expect(Object.keys((await search('?groups=*')).groups)).to.deep.equal(['bar', 'baz']);
    expect(Object.keys((await search('?groups=*r')).groups)).to.deep.equal(['bar']);
    const metric = await es.call('GET', '/_stats/indexing,search?groups=bar');
    expect(metric.json._all.total.search.groups.bar.query_total).to.equal(1);
  });

  it('a search without stats counts in no group', async () => {
    await es.call('POST', '/_search', {});
    expect((await search('?groups=*')).groups.bar.query_total).to.equal(1);
    const bad = await es.call('POST', '/_search', { stats: [{}] });
    expect(bad.status, bad.text).to.equal(400);
  });

  it('a closed index\'s segments count only with include_unloaded_segments', async () => {
    await es.call('POST', '/g/_close');
    const q = '/_stats/segments?expand_wildcards=closed&forbid_closed_indices=false';
    expect((await es.call('GET', q)).json.indices.g.primaries.segments.count).to.equal(0);
    expect((await es.call('GET', `${q}&include_unloaded_segments=true`)).json.indices.g.primaries.segments.count).to.equal(1);
  });
});
