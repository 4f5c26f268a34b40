import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { startEngine, type TestEngine } from '../support.js';

// OpenSearch 2's ingest processors (its reference pages of the same names): html_strip, which
// Elasticsearch 8 has alike; copy and remove_by_pattern, which it has not; community_id and
// fingerprint, which it has with other options and other output. An engine answering as OpenSearch
// (API_DIALECT=opensearch) runs them all; any other refuses OpenSearch's own as Elasticsearch does.
describe('embedded engine: OpenSearch 2\'s ingest processors (html_strip, copy, remove_by_pattern, community_id, fingerprint)', function () {
  this.timeout(60_000);
  const engines: Record<string, TestEngine> = {};

  before(async () => {
    engines.opensearch = await startEngine({ apiDialect: 'opensearch' });
    engines.auto = await startEngine({ apiDialect: 'auto' });
  });
  after(async () => {
    for (const es of Object.values(engines)) await es.close();
  });

  async function simulate(es: TestEngine, processors: unknown[], source: Record<string, unknown>) {
    const r = await es.call('POST', '/_ingest/pipeline/_simulate', { pipeline: { processors }, docs: [{ _index: 'i', _id: '1', _source: source }] });
    expect(r.status, r.text).to.equal(200);
    return r.json.docs[0] as { doc?: { _source: Record<string, unknown> }; error?: { type: string; reason: string } };
  }
  const source = async (es: TestEngine, processors: unknown[], doc: Record<string, unknown>) => {
    const out = await simulate(es, processors, doc);
    expect(out.error, JSON.stringify(out.error)).to.equal(undefined);
    return out.doc!._source;
  };

  it('html_strip takes the tags out of a string (or each string of a list) in both dialects', async () => {
    const text = 'This is a <b>test</b> description with <i>some</i> HTML tags &amp; an entity.';
    for (const es of Object.values(engines)) {
      expect(await source(es, [{ html_strip: { field: 'd', target_field: 'clean' } }], { d: text })).to.deep.equal({
        d: text, clean: 'This is a test description with some HTML tags & an entity.',
      });
      expect(await source(es, [{ html_strip: { field: 'd' } }], { d: ['<p>a</p>', 'b<br>'] })).to.deep.equal({ d: ['\na\n', 'b\n'] });
      expect(await source(es, [{ html_strip: { field: 'missing', ignore_missing: true } }], { d: 1 })).to.deep.equal({ d: 1 });
    }
  });

  it('copy puts a deep copy of the source field in the target, which must not exist unless override_target', async () => {
    const es = engines.opensearch;
    const message = { content: { foo: 'bar', zoo: [1, 2, 3] } };
    expect(await source(es, [{ copy: { source_field: 'message.content', target_field: 'content', ignore_missing: true } }], { message }))
      .to.deep.equal({ message, content: message.content });
    expect(await source(es, [{ copy: { source_field: 'a', target_field: 'b', remove_source: true } }], { a: { x: 1 } })).to.deep.equal({ b: { x: 1 } });
    expect(await source(es, [{ copy: { source_field: 'a', target_field: 'b', override_target: true } }], { a: 1, b: 2 })).to.deep.equal({ a: 1, b: 1 });
    expect((await simulate(es, [{ copy: { source_field: 'a', target_field: 'b' } }], { a: 1, b: 2 })).error?.reason).to.equal('target field [b] already exists');
    expect((await simulate(es, [{ copy: { source_field: 'nope', target_field: 'b' } }], { a: 1 })).error?.reason).to.equal('source field [nope] doesn\'t exist');
    expect(await source(es, [{ copy: { source_field: 'nope', target_field: 'b', ignore_missing: true } }], { a: 1 })).to.deep.equal({ a: 1 });
  });

  it('remove_by_pattern removes the top-level fields a pattern matches, or all but those, never the metadata', async () => {
    const es = engines.opensearch;
    const doc = { bar: 'bar', foo1: 'foo1', foo2: 'foo2' };
    expect(await source(es, [{ remove_by_pattern: { field_pattern: 'foo*' } }], doc)).to.deep.equal({ bar: 'bar' });
    expect(await source(es, [{ remove_by_pattern: { field_pattern: ['b*', 'foo2'] } }], doc)).to.deep.equal({ foo1: 'foo1' });
    const kept = await simulate(es, [{ remove_by_pattern: { exclude_field_pattern: 'foo*' } }], doc);
    expect(kept.doc!._source).to.deep.equal({ foo1: 'foo1', foo2: 'foo2' });
    expect(kept.doc).to.include({ _index: 'i', _id: '1' });
    const both = await es.call('PUT', '/_ingest/pipeline/p', { processors: [{ remove_by_pattern: { field_pattern: 'a', exclude_field_pattern: 'b' } }] });
    expect(both.status).to.equal(400);
    expect(both.json.error.type).to.equal('parse_exception');
  });

  it('community_id hashes a flow tuple as the Community ID specification (v1) does, either direction alike', async () => {
    const es = engines.opensearch;
    const processor = { community_id: {
      source_ip_field: 'sip', source_port_field: 'sp', destination_ip_field: 'dip', destination_port_field: 'dp',
      iana_protocol_number_field: 'proto', protocol_field: 'name', icmp_type_field: 'type', icmp_code_field: 'code', target_field: 'id',
    } };
    // the specification's example flow
    const forth = { sip: '128.232.110.120', sp: 34855, dip: '66.35.250.204', dp: 80, proto: 6 };
    expect((await source(es, [processor], forth)).id).to.equal('1:LQU9qZlK+B5F3KDmev6m5PMibrg=');
    expect((await source(es, [processor], { sip: forth.dip, sp: forth.dp, dip: forth.sip, dp: forth.sp, name: 'TCP' })).id).to.equal('1:LQU9qZlK+B5F3KDmev6m5PMibrg=');
    const seeded = await source(es, [{ community_id: { ...processor.community_id, seed: 1 } }], forth);
    expect(seeded.id).to.match(/^1:/).and.not.equal('1:LQU9qZlK+B5F3KDmev6m5PMibrg=');
    // an ICMP echo and its reply are one flow; a one-way message keeps its direction
    const echo = (await source(es, [processor], { sip: '10.0.0.1', dip: '10.0.0.2', proto: 1, type: 8 })).id;
    expect((await source(es, [processor], { sip: '10.0.0.2', dip: '10.0.0.1', proto: 1, type: 0 })).id).to.equal(echo);
    const unreachable = (await source(es, [processor], { sip: '10.0.0.2', dip: '10.0.0.1', proto: 1, type: 3, code: 1 })).id;
    expect((await source(es, [processor], { sip: '10.0.0.1', dip: '10.0.0.2', proto: 1, type: 3, code: 1 })).id).to.not.equal(unreachable);
    expect((await source(es, [processor], { sip: '2001:db8::1', sp: 1, dip: '::ffff:10.0.0.1', dp: 2, proto: 17 })).id).to.match(/^1:[A-Za-z0-9+/]{27}=$/);
    expect((await simulate(es, [processor], { ...forth, sip: 'x' })).error?.reason).to.equal('ip address [x] in the field [sip] is not a valid ipv4/ipv6 address');
    expect((await simulate(es, [processor], { ...forth, proto: 200 })).error?.reason).to.equal('unsupported iana protocol number [200]');
    expect((await simulate(es, [processor], { ...forth, dip: '::1' })).error?.reason).to.equal('source ip and destination ip must have same format');
  });

  it('fingerprint hashes |name|length:value of the fields in name order, objects by their leaves, prefixed by the hash method', async () => {
    const es = engines.opensearch;
    expect((await source(es, [{ fingerprint: { fields: ['foo', 'bar'] } }], { bar: 'bar', foo: 'foo' })).fingerprint)
      .to.equal('SHA-1@2.16.0:fYeen7hTJ2zs9lpmUnk6nvH54sM=');
    const doc = { root: { b: 'value2', a: 'value1' }, n: 12, skip: true };
    const text = '|n|2:12|root.a|6:value1|root.b|6:value2|';
    const sha256 = createHash('sha256').update(text).digest('base64');
    expect((await source(es, [{ fingerprint: { exclude_fields: ['skip'], hash_method: 'SHA-256@2.16.0', target_field: 'h' } }], doc)).h)
      .to.equal(`SHA-256@2.16.0:${sha256}`);
    // no fields named: every source field
    expect((await source(es, [{ fingerprint: {} }], { n: 12 })).fingerprint)
      .to.equal(`SHA-1@2.16.0:${createHash('sha1').update('|n|2:12|').digest('base64')}`);
    expect((await simulate(es, [{ fingerprint: { fields: ['nope'] } }], { n: 1 })).error?.reason).to.equal('field [nope] doesn\'t exist');
    const bad = await es.call('PUT', '/_ingest/pipeline/p', { processors: [{ fingerprint: { hash_method: 'SHA-1' } }] });
    expect(bad.status).to.equal(400);
    expect(bad.json.error.reason).to.equal('[hash_method] hash method must be MD5@2.16.0, SHA-1@2.16.0, SHA-256@2.16.0 or SHA3-256@2.16.0');
  });

  it('a stored pipeline runs them when documents are indexed', async () => {
    const es = engines.opensearch;
    const put = await es.call('PUT', '/_ingest/pipeline/flows', { processors: [
      { copy: { source_field: 'a', target_field: 'b' } }, { remove_by_pattern: { field_pattern: 'tmp*' } }, { fingerprint: { fields: ['a'] } },
    ] });
    expect(put.status, put.text).to.equal(200);
    expect((await es.call('PUT', '/flows/_doc/1?pipeline=flows&refresh=true', { a: 'x', tmp1: 1 })).status).to.equal(201);
    expect((await es.call('GET', '/flows/_doc/1')).json._source).to.deep.equal({
      a: 'x', b: 'x', fingerprint: `SHA-1@2.16.0:${createHash('sha1').update('|a|1:x|').digest('base64')}`,
    });
  });

  it('text_embedding and sparse_encoding (neural plugin) are stored; a document with a mapped field fails as a missing model does', async () => {
    const es = engines.opensearch;
    const processors = [{ text_embedding: { model_id: 'm1', field_map: { text: 'passage_embedding' } } }, { sparse_encoding: { model_id: 'm2', field_map: { title: 'title_tokens' } } }];
    const put = await es.call('PUT', '/_ingest/pipeline/embed', { description: 'd', processors });
    expect(put.json, put.text).to.deep.equal({ acknowledged: true });
    expect((await es.call('GET', '/_ingest/pipeline/embed')).json).to.deep.equal({ embed: { description: 'd', processors } });
    expect(await source(es, processors, { other: 1 })).to.deep.equal({ other: 1 });
    expect((await simulate(es, processors, { text: 'hello' })).error).to.include({ type: 'status_exception', reason: 'Failed to find model m1' });
    const missing = await es.call('PUT', '/_ingest/pipeline/embed', { processors: [{ text_embedding: { model_id: 'm' } }] });
    expect(missing.status).to.equal(400);
    expect(missing.json.error.reason).to.equal('[field_map] required property is missing');
  });

  it('Elasticsearch\'s dialect refuses OpenSearch\'s own processors by name, as Elasticsearch 8 does', async () => {
    for (const type of ['copy', 'remove_by_pattern', 'community_id', 'fingerprint', 'text_embedding']) {
      const r = await engines.auto.call('PUT', '/_ingest/pipeline/p', { processors: [{ [type]: {} }] });
      expect(r.status, type).to.equal(400);
      expect(r.json.error.reason).to.equal(`No processor type exists with name [${type}]`);
    }
  });
});
