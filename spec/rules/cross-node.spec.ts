import { expect } from 'chai';
import { call } from '../support/http.js';
import type { ChildServer } from '../support/servers.js';
import { startTwoNodes, type TwoNodes } from '../support/two-nodes.js';
import { within } from '../support/within.js';

describe('query rules and relevancy settings across gateway nodes', function () {
  this.timeout(60_000);
  let nodes: TwoNodes;
  let a: ChildServer;
  let b: ChildServer;
  const search = (node: ChildServer) =>
    call(node.url, 'POST', '/shop/_declarative', { body: { query: [{ id: 's', value: 'dune' }] } });

  before(async function () {
    nodes = await startTwoNodes(this, 'gw-rules-engine-');
    ({ a, b } = nodes);
    await call(a.url, 'PUT', '/shop/_doc/1?refresh=true', { body: { title: 'Dune' } });
  });
  after(() => nodes?.stop());

  it('a rule and a relevancy setting stored on node A apply on node B within 1 s, and so do their deletion', async () => {
    expect((await call(a.url, 'PUT', '/_searchrelevancy/shop', { body: { search: { dataField: 'title' } } })).status).to.equal(201);
    await within(1000, async () => (await search(b)).status === 200);
    expect((await call(a.url, 'PUT', '/_rule/r', { body: { trigger: { type: 'query', value: 'dune' }, actions: { custom_data: 'first' } } })).status).to.equal(201);
    await within(1000, async () => (await search(b)).json?.s?.customData === 'first');
    await call(a.url, 'PUT', '/_rule/r', { body: { trigger: { type: 'query', value: 'dune' }, actions: { custom_data: 'second' } } });
    await within(1000, async () => (await search(b)).json?.s?.customData === 'second');
    await call(a.url, 'DELETE', '/_rule/r');
    await within(1000, async () => (await search(b)).json?.s?.customData === undefined);
    await call(a.url, 'DELETE', '/_searchrelevancy/shop');
    await within(1000, async () => (await search(b)).status === 400);
  });
});
