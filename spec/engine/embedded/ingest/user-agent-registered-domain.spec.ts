import { expect } from 'chai';
import { ParsedAgentCache, UserAgentParsers, userAgentPatterns, type ParsedAgent } from '../../../../lib/engine/embedded/ingest/processors/user-agent.js';
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

    it('gives the same results from the parse cache, never the cached objects themselves', async () => {
      const expected = { name: 'Chrome', version: '51.0.2704.103', os: { name: 'Mac OS X', version: '10.10.5', full: 'Mac OS X 10.10.5' }, device: { name: 'Mac', type: 'Desktop' } };
      const processors = [{ user_agent: { field: 'agent', properties: ['name', 'version', 'os', 'device'], extract_device_type: true } }, { set: { field: 'user_agent.os.name', value: 'changed' } }];
      const first = await simulate(processors, { agent: CHROME_MAC });
      expect(first.doc!._source.user_agent).to.deep.equal({ ...expected, os: { ...expected.os, name: 'changed' } });
      const again = await simulate([processors[0]], { agent: CHROME_MAC });
      expect(again.doc!._source.user_agent).to.deep.equal(expected);
    });

    it('charges the ingest budget for a header parsed, not for one found in the cache', async () => {
      // 100 parses of ordinary headers are beyond one document's budget (about 9); one parse and 99 lookups are not
      const agent = `${CHROME_MAC} budget-${Date.now()}`;
      const processors = Array.from({ length: 100 }, (_, i) => ({ user_agent: { field: 'agent', target_field: `ua${i}`, properties: ['name'] } }));
      const r = await simulate(processors, { agent });
      expect(r.error, JSON.stringify(r.error)).to.equal(undefined);
      expect(r.doc!._source.ua99).to.deep.equal({ name: 'Chrome' });
    });
  });

  describe('user_agent\'s patterns and cache', () => {
    it('compiles a pattern when first tried, and the rest in the background a chunk at a time', async () => {
      const parsers = new UserAgentParsers(userAgentPatterns(), 0); // chunks of no time: a turn of the loop before each pattern
      expect(parsers.compiled()).to.deep.equal({ compiled: 0, total: 1175 });
      expect(parsers.parse('Java/17.0.11').client).to.deep.equal({ name: 'Java', versions: ['17', '0', '11', undefined] });
      const tried = parsers.compiled().compiled;
      expect(tried).to.be.within(1, 1174);
      let turns = 0;
      let warm = false;
      const done = parsers.warmUp().then(() => (warm = true));
      while (!warm) {
        await new Promise((resolve) => setImmediate(resolve));
        turns++;
      }
      await done;
      expect(parsers.compiled()).to.deep.equal({ compiled: 1175, total: 1175 });
      // eventLoopTurn is two immediates, so the other work here got about one turn per two patterns
      expect(turns).to.be.at.least((1175 - tried) / 2 - 1);
      expect(parsers.parse(CHROME_MAC).client).to.deep.equal({ name: 'Chrome', versions: ['51', '0', '2704', '103'] });
    });

    it('keeps at most its size of headers, the least recently used out first, and no header beyond its byte bound', () => {
      const entry = (name: string): ParsedAgent => ({ client: { name, versions: [] } });
      const cache = new ParsedAgentCache(2, 10_000);
      cache.set('a', entry('a'));
      cache.set('b', entry('b'));
      expect(cache.get('a')).to.deep.equal(entry('a'));
      cache.set('c', entry('c'));
      expect(cache.size).to.equal(2);
      expect(cache.get('b')).to.equal(undefined);
      expect(cache.get('a')).to.deep.equal(entry('a'));
      expect(cache.get('c')).to.deep.equal(entry('c'));
      cache.set('x'.repeat(10_000), entry('huge'));
      expect(cache.get('x'.repeat(10_000))).to.equal(undefined);
      expect(cache.size).to.equal(2);
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
