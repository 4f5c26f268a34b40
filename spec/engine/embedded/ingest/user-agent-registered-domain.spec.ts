import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

describe('user_agent and registered_domain processors on the embedded engine', function () {
  this.timeout(60_000);
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  async function simulate(processors: unknown[], source: Record<string, unknown>) {
    const r = await es.call('POST', '/_ingest/pipeline/_simulate', { pipeline: { processors }, docs: [{ _index: 'i', _id: '1', _source: source }] });
    expect(r.status, r.text).to.equal(200);
    return r.json.docs[0] as { doc?: { _source: Record<string, unknown> }; error?: Record<string, unknown> };
  }

  const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/51.0.2704.103 Safari/537.36';

  describe('user_agent', () => {
    it('reads name, version, os and device with uap-core\'s regexes (the reference\'s example)', async () => {
      const r = await simulate([{ user_agent: { field: 'agent' } }], { agent: CHROME_MAC });
      expect(r.doc!._source.user_agent).to.deep.equal({
        name: 'Chrome', original: CHROME_MAC, version: '51.0.2704.103',
        os: { name: 'Mac OS X', version: '10.10.5', full: 'Mac OS X 10.10.5' }, device: { name: 'Mac' },
      });
    });

    it('keeps only the properties asked for, under target_field; a crawler is a Spider device', async () => {
      const r = await simulate([{ user_agent: { field: 'agent', target_field: 'ua', properties: ['os', 'name'] } }], { agent: CHROME_MAC });
      expect(r.doc!._source.ua).to.deep.equal({ name: 'Chrome', os: { name: 'Mac OS X', version: '10.10.5', full: 'Mac OS X 10.10.5' } });
      const bot = await simulate([{ user_agent: { field: 'agent', extract_device_type: true } }], { agent: 'Java/17.0.11' });
      expect(bot.doc!._source.user_agent).to.deep.include({ name: 'Java', version: '17.0.11', device: { name: 'Spider', type: 'Robot' } });
      const other = await simulate([{ user_agent: { field: 'agent', properties: ['name', 'device'] } }], { agent: 'nothing known' });
      expect(other.doc!._source.user_agent).to.deep.equal({ name: 'Other', device: { name: 'Other' } });
    });

    it('ignores a missing field only with ignore_missing; refuses an unknown regex_file and property', async () => {
      expect((await simulate([{ user_agent: { field: 'agent', ignore_missing: true } }], { x: 1 })).doc!._source).to.deep.equal({ x: 1 });
      expect((await simulate([{ user_agent: { field: 'agent' } }], { x: 1 })).error).to.include({ reason: 'field [agent] not present as part of path [agent]' });
      const file = await es.call('PUT', '/_ingest/pipeline/ua', { processors: [{ user_agent: { field: 'a', regex_file: 'custom.yml' } }] });
      expect(file.status).to.equal(400);
      expect(file.json.error).to.include({ type: 'parse_exception', reason: "[regex_file] regex file [custom.yml] doesn't exist (has to exist at node startup)" });
      const prop = await es.call('PUT', '/_ingest/pipeline/ua', { processors: [{ user_agent: { field: 'a', properties: ['brand'] } }] });
      expect(prop.json.error.reason).to.equal('[properties] illegal property value [brand]. valid values are [NAME, OS, DEVICE, ORIGINAL, VERSION]');
    });

    it('charges the document\'s ingest budget, so a huge header fails the document instead of stalling the node', async () => {
      const r = await simulate([{ user_agent: { field: 'agent' } }], { agent: 'Mozilla/5.0 '.repeat(4000) });
      expect(r.error).to.include({ type: 'illegal_argument_exception' });
      expect(String(r.error!.reason)).to.match(/^\[user_agent\] processor would take the document's ingest output to/);
    });
  });

  describe('registered_domain', () => {
    it('splits a name by the public suffix list (the reference\'s example), at the root by default', async () => {
      const r = await simulate([{ registered_domain: { field: 'fqdn', target_field: 'url' } }], { fqdn: 'www.example.ac.uk' });
      expect(r.doc!._source.url).to.deep.equal({ domain: 'www.example.ac.uk', registered_domain: 'example.ac.uk', top_level_domain: 'ac.uk', subdomain: 'www' });
      const root = await simulate([{ registered_domain: { field: 'fqdn' } }], { fqdn: 'example.com' });
      expect(root.doc!._source).to.deep.equal({ fqdn: 'example.com', domain: 'example.com', registered_domain: 'example.com', top_level_domain: 'com' });
      const suffix = await simulate([{ registered_domain: { field: 'fqdn', target_field: 'u' } }], { fqdn: 'co.uk' });
      expect(suffix.doc!._source.u).to.deep.equal({ domain: 'co.uk', top_level_domain: 'co.uk' });
    });

    it('leaves a name under no known suffix alone, or fails with ignore_missing false', async () => {
      for (const fqdn of ['foo.bar.baz', '123']) {
        expect((await simulate([{ registered_domain: { field: 'f', target_field: 'u' } }], { f: fqdn })).doc!._source).to.deep.equal({ f: fqdn });
        expect((await simulate([{ registered_domain: { field: 'f', ignore_missing: false } }], { f: fqdn })).error).to.include({ reason: 'unable to set domain information for document' });
      }
      expect((await simulate([{ registered_domain: { field: 'f', ignore_missing: false } }], {})).error).to.include({ reason: 'field [f] not present as part of path [f]' });
    });
  });
});
