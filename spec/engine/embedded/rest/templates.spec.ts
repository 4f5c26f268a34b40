import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

describe('embedded engine REST: index templates', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
  });
  afterEach(() => es.close());

  it('composes component templates into a composable template applied at creation and auto-creation', async () => {
    expect((await es.call('PUT', '/_component_template/base', { template: { settings: { number_of_replicas: 0 }, mappings: { properties: { ts: { type: 'date' } } } } })).json)
      .to.deep.equal({ acknowledged: true });
    await es.call('PUT', '/_index_template/logs', {
      index_patterns: ['logs-*'], composed_of: ['base'], priority: 5,
      template: { mappings: { properties: { msg: { type: 'keyword' } } }, aliases: { 'all-logs': {} } },
    });
    expect((await es.call('GET', '/_index_template/logs')).json).to.deep.equal({
      index_templates: [{
        name: 'logs',
        index_template: {
          index_patterns: ['logs-*'], composed_of: ['base'], priority: 5,
          template: { mappings: { properties: { msg: { type: 'keyword' } } }, aliases: { 'all-logs': {} } },
        },
      }],
    });
    await es.call('PUT', '/logs-1/_doc/1', { msg: 'hello', ts: '2024-01-01' });
    const auto = (await es.call('GET', '/logs-1')).json['logs-1'];
    expect(auto.mappings.properties).to.deep.equal({ ts: { type: 'date' }, msg: { type: 'keyword' } });
    expect(auto.aliases).to.deep.equal({ 'all-logs': {} });
    expect(auto.settings.index.number_of_replicas).to.equal('0');
    // The request's own settings and mappings win over the template's.
    await es.call('PUT', '/logs-2', { settings: { number_of_replicas: 2 }, mappings: { properties: { msg: { type: 'text' } } } });
    const explicit = (await es.call('GET', '/logs-2')).json['logs-2'];
    expect(explicit.settings.index.number_of_replicas).to.equal('2');
    expect(explicit.mappings.properties.msg).to.deep.equal({ type: 'text' });
    expect((await es.call('GET', '/other')).status).to.equal(404);
  });

  it('picks the highest priority and refuses overlapping patterns at the same priority', async () => {
    await es.call('PUT', '/_index_template/low', { index_patterns: ['a*'], priority: 1, template: { settings: { number_of_shards: 2 } } });
    await es.call('PUT', '/_index_template/high', { index_patterns: ['ab*'], priority: 2, template: { settings: { number_of_shards: 3 } } });
    await es.call('PUT', '/abc');
    expect((await es.call('GET', '/abc/_settings')).json.abc.settings.index.number_of_shards).to.equal('3');
    const clash = await es.call('PUT', '/_index_template/same', { index_patterns: ['abx*'], priority: 2 });
    expect(clash.status).to.equal(400);
    expect(clash.json.error.reason).to.contain('that have the same priority [2], multiple index templates may not match during index creation');
    const missing = await es.call('PUT', '/_index_template/broken', { index_patterns: ['z*'], composed_of: ['nope'] });
    expect(missing.status).to.equal(400);
    expect(missing.json.error.type).to.equal('invalid_index_template_exception');
  });

  it('answers HEAD, GET and DELETE of missing templates as Elasticsearch does', async () => {
    expect((await es.call('HEAD', '/_index_template/nope')).status).to.equal(404);
    expect((await es.call('GET', '/_index_template/nope')).json.error.type).to.equal('resource_not_found_exception');
    expect((await es.call('DELETE', '/_index_template/nope')).json.error.type).to.equal('index_template_missing_exception');
    expect((await es.call('GET', '/_template/nope'))).to.include({ status: 404 }).and.have.nested.property('json').that.deep.equals({});
    expect((await es.call('DELETE', '/_template/nope')).status).to.equal(404);
    await es.call('PUT', '/_component_template/c', { template: {} });
    await es.call('PUT', '/_index_template/uses-c', { index_patterns: ['c*'], composed_of: ['c'] });
    const inUse = await es.call('DELETE', '/_component_template/c');
    expect(inUse.status).to.equal(400);
    expect(inUse.json.error.reason).to.equal('component templates [c] cannot be removed as they are still in use by index templates [uses-c]');
    expect((await es.call('DELETE', '/_index_template/uses-c')).json).to.deep.equal({ acknowledged: true });
    expect((await es.call('DELETE', '/_component_template/c')).json).to.deep.equal({ acknowledged: true });
    expect((await es.call('GET', '/_component_template')).json).to.deep.equal({ component_templates: [] });
  });

  it('applies legacy templates by order when no composable template matches', async () => {
    await es.call('PUT', '/_template/first', { index_patterns: ['leg-*'], order: 0, settings: { number_of_shards: 2, number_of_replicas: 0 } });
    await es.call('PUT', '/_template/second', { index_patterns: ['leg-*'], order: 1, settings: { number_of_shards: 4 }, mappings: { properties: { k: { type: 'keyword' } } } });
    expect((await es.call('GET', '/_template/second')).json).to.deep.equal({
      second: { order: 1, index_patterns: ['leg-*'], settings: { index: { number_of_shards: '4' } }, mappings: { properties: { k: { type: 'keyword' } } }, aliases: {} },
    });
    expect((await es.call('HEAD', '/_template/first')).status).to.equal(200);
    await es.call('PUT', '/leg-1');
    const index = (await es.call('GET', '/leg-1')).json['leg-1'];
    expect(index.settings.index).to.include({ number_of_shards: '4', number_of_replicas: '0' });
    expect(index.mappings).to.deep.equal({ properties: { k: { type: 'keyword' } } });
    await es.call('PUT', '/_index_template/wins', { index_patterns: ['leg-*'] });
    await es.call('PUT', '/leg-2');
    expect((await es.call('GET', '/leg-2/_settings')).json['leg-2'].settings.index.number_of_shards).to.equal('1');
  });

  it('keeps templates across a restart', async () => {
    await es.call('PUT', '/_component_template/keep', { template: { settings: { number_of_replicas: 0 } } });
    await es.call('PUT', '/_index_template/kept', { index_patterns: ['kept-*'], composed_of: ['keep'] });
    await es.call('PUT', '/_template/old', { index_patterns: ['old-*'], settings: { number_of_shards: 2 } });
    await es.call('DELETE', '/_template/old');
    const dataDir = es.dataDir;
    await es.close(false);
    es = await startEngine({ dataDir });
    expect((await es.call('GET', '/_index_template/kept')).json.index_templates[0].index_template.composed_of).to.deep.equal(['keep']);
    expect((await es.call('HEAD', '/_template/old')).status).to.equal(404);
    await es.call('PUT', '/kept-1/_doc/1', { a: 1 });
    expect((await es.call('GET', '/kept-1/_settings')).json['kept-1'].settings.index.number_of_replicas).to.equal('0');
  });
});

describe('embedded engine REST: simulate index template and simulate index', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
    await es.call('PUT', '/_component_template/base', { template: { settings: { number_of_shards: 2 }, mappings: { properties: { ts: { type: 'date' } } } } });
    await es.call('PUT', '/_index_template/logs', {
      index_patterns: ['logs-*'], composed_of: ['base'], priority: 5,
      template: { mappings: { properties: { msg: { type: 'keyword' } } }, aliases: { 'all-logs': {} } },
    });
    await es.call('PUT', '/_index_template/everything', { index_patterns: ['*'], priority: 1, template: { settings: { number_of_replicas: 0 } } });
  });
  afterEach(() => es.close());

  it('POST _index_template/_simulate/{name}: the stored template composed, and the templates overlapping it', async () => {
    const r = await es.call('POST', '/_index_template/_simulate/logs');
    expect(r.status, r.text).to.equal(200);
    expect(r.json).to.deep.equal({
      template: {
        settings: { index: { number_of_shards: '2' } },
        mappings: { properties: { ts: { type: 'date' }, msg: { type: 'keyword' } } },
        aliases: { 'all-logs': {} },
      },
      overlapping: [{ name: 'everything', index_patterns: ['*'] }],
    });
    const missing = await es.call('POST', '/_index_template/_simulate/nope');
    expect(missing.status).to.equal(404);
    expect(missing.json.error).to.include({ type: 'resource_not_found_exception', reason: 'unable to simulate template [nope] that does not exist' });
  });

  it('POST _index_template/_simulate with a definition simulates it and stores nothing', async () => {
    const r = await es.call('POST', '/_index_template/_simulate', { index_patterns: ['logs-*'], priority: 9, composed_of: ['base'], template: { settings: { number_of_replicas: 1 } } });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.template.settings).to.deep.equal({ index: { number_of_shards: '2', number_of_replicas: '1' } });
    expect(r.json.overlapping.map((t: { name: string }) => t.name).sort()).to.deep.equal(['everything', 'logs']);
    // no template was stored under `_simulate`
    expect((await es.call('GET', '/_index_template/_simulate')).status).to.equal(404);
    expect((await es.call('GET', '/_index_template')).json.index_templates.map((t: { name: string }) => t.name).sort()).to.deep.equal(['everything', 'logs']);
    expect((await es.call('POST', '/_index_template/_simulate', { priority: 1 })).status).to.equal(400);
  });

  it('POST _index_template/_simulate_index/{index}: what a new index so named would take', async () => {
    const r = await es.call('POST', '/_index_template/_simulate_index/logs-2024');
    expect(r.status, r.text).to.equal(200);
    expect(r.json.template.mappings).to.deep.equal({ properties: { ts: { type: 'date' }, msg: { type: 'keyword' } } });
    expect(r.json.overlapping).to.deep.equal([{ name: 'everything', index_patterns: ['*'] }]);
    await es.call('DELETE', '/_index_template/everything');
    expect((await es.call('POST', '/_index_template/_simulate_index/other')).json).to.deep.equal({});
    expect((await es.call('GET', '/logs-2024')).status).to.equal(404);
  });

  it('POST _index_template/_simulate_index/{index} with a definition: that template competes as if stored, and nothing is stored', async () => {
    const wins = await es.call('POST', '/_index_template/_simulate_index/logs-2024', {
      index_patterns: ['logs-*'], priority: 9, template: { settings: { 'index.blocks.write': true }, aliases: { recent: {} } },
    });
    expect(wins.status, wins.text).to.equal(200);
    expect(wins.json.template.settings).to.deep.equal({ index: { blocks: { write: 'true' } } });
    expect(wins.json.template.aliases).to.deep.equal({ recent: {} });
    expect(wins.json.overlapping.map((t: { name: string }) => t.name)).to.deep.equal(['logs', 'everything']);
    const loses = await es.call('POST', '/_index_template/_simulate_index/logs-2024', { index_patterns: ['logs-*'], priority: 2, template: { aliases: { recent: {} } } });
    expect(loses.json.template.aliases).to.deep.equal({ 'all-logs': {} });
    expect((await es.call('GET', '/_index_template')).json.index_templates.map((t: { name: string }) => t.name).sort()).to.deep.equal(['everything', 'logs']);
  });

  it('lists the legacy templates whose patterns overlap the simulated template\'s, before the composable ones', async () => {
    expect((await es.call('PUT', '/_template/old', { index_patterns: ['l*', 'x*'], settings: { number_of_shards: 5 } })).status).to.equal(200);
    expect((await es.call('PUT', '/_template/unrelated', { index_patterns: ['metrics-*'] })).status).to.equal(200);
    const index = await es.call('POST', '/_index_template/_simulate_index/logs-2024');
    expect(index.json.overlapping).to.deep.equal([{ name: 'old', index_patterns: ['l*', 'x*'] }, { name: 'everything', index_patterns: ['*'] }]);
    const template = await es.call('POST', '/_index_template/_simulate/logs');
    expect(template.json.overlapping.map((t: { name: string }) => t.name)).to.deep.equal(['old', 'everything']);
  });
});
