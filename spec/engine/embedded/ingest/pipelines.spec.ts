import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';
import { NDJSON } from '../../../support/http.js';


describe('ingest pipelines on the embedded engine', function () {
  this.timeout(60_000);
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  /** The `_source` a one-document simulation of `processors` leaves (the reference's examples). */
  async function simulated(processors: unknown[], source: Record<string, unknown>) {
    const r = await es.call('POST', '/_ingest/pipeline/_simulate', { pipeline: { processors }, docs: [{ _index: 'i', _id: '1', _source: source }] });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.docs[0].error, r.text).to.equal(undefined);
    return r.json.docs[0].doc._source;
  }

  async function simulatedError(processors: unknown[], source: Record<string, unknown>) {
    const r = await es.call('POST', '/_ingest/pipeline/_simulate', { pipeline: { processors }, docs: [{ _source: source }] });
    expect(r.status, r.text).to.equal(200);
    return r.json.docs[0].error;
  }

  describe('the pipeline API', () => {
    it('stores a pipeline durably, answers it by id, by wildcard and all, and deletes it', async () => {
      const body = { description: 'describe pipeline', version: 123, _meta: { owner: 'me' }, processors: [{ set: { field: 'foo', value: 'bar' } }] };
      expect((await es.call('PUT', '/_ingest/pipeline/my-pipeline-id', body)).json).to.deep.equal({ acknowledged: true });
      await es.call('PUT', '/_ingest/pipeline/other', { processors: [] });
      expect((await es.call('GET', '/_ingest/pipeline/my-pipeline-id')).json).to.deep.equal({ 'my-pipeline-id': body });
      expect(Object.keys((await es.call('GET', '/_ingest/pipeline/my-*')).json)).to.deep.equal(['my-pipeline-id']);
      expect(Object.keys((await es.call('GET', '/_ingest/pipeline')).json)).to.include.members(['my-pipeline-id', 'other']);
      expect((await es.call('GET', '/_ingest/pipeline/other?summary=true')).json).to.deep.equal({ other: {} });
      const missing = await es.call('GET', '/_ingest/pipeline/nope');
      expect([missing.status, missing.json]).to.deep.equal([404, {}]);

      // durable: a restart of the engine keeps it
      const dataDir = es.dataDir;
      await es.close(false);
      es = await startEngine({ dataDir });
      expect((await es.call('GET', '/_ingest/pipeline/my-pipeline-id')).json).to.deep.equal({ 'my-pipeline-id': body });

      expect((await es.call('DELETE', '/_ingest/pipeline/other')).json).to.deep.equal({ acknowledged: true });
      const gone = await es.call('DELETE', '/_ingest/pipeline/other');
      expect(gone.status).to.equal(404);
      expect(gone.json.error).to.include({ type: 'resource_not_found_exception', reason: 'pipeline [other] is missing' });
    });

    it('if_version: updates only the version named, and takes the next version when the body names none', async () => {
      await es.call('PUT', '/_ingest/pipeline/v', { version: 1, processors: [] });
      const conflict = await es.call('PUT', '/_ingest/pipeline/v?if_version=2', { processors: [] });
      expect(conflict.status).to.equal(409);
      expect(conflict.json.error.reason).to.equal('version conflict, required version [2] for pipeline [v] but current version is [1]');
      expect((await es.call('PUT', '/_ingest/pipeline/v?if_version=1', { processors: [] })).status).to.equal(200);
      expect((await es.call('GET', '/_ingest/pipeline/v')).json.v.version).to.equal(2);
    });

    it('refuses an unknown processor, a missing option and an unsupported one with parse_exception naming them', async () => {
      const unknown = await es.call('PUT', '/_ingest/pipeline/bad', { processors: [{ geoip: { field: 'ip' } }] });
      expect(unknown.status).to.equal(400);
      expect(unknown.json.error).to.include({ type: 'parse_exception', reason: 'No processor type exists with name [geoip]', processor_type: 'geoip' });
      const missing = await es.call('PUT', '/_ingest/pipeline/bad', { processors: [{ set: { value: 1, tag: 't' } }] });
      expect(missing.json.error).to.include({ type: 'parse_exception', reason: '[field] required property is missing', property_name: 'field', processor_type: 'set', processor_tag: 't' });
      const extra = await es.call('PUT', '/_ingest/pipeline/bad', { processors: [{ set: { field: 'a', value: 1, bogus: true } }] });
      expect(extra.json.error.reason).to.equal('processor [set] doesn\'t support one or more provided configuration parameters [bogus]');
      expect((await es.call('GET', '/_ingest/pipeline/bad')).status).to.equal(404);
    });

    it('refuses a grok pattern the linear-time engine cannot run (lookahead), at creation', async () => {
      const r = await es.call('PUT', '/_ingest/pipeline/bad', { processors: [{ grok: { field: 'm', patterns: ['(?!x)%{WORD:w}'] } }] });
      expect(r.status).to.equal(400);
      expect(r.json.error).to.include({ type: 'parse_exception', property_name: 'patterns', processor_type: 'grok' });
      expect(r.json.error.reason).to.match(/linear-time engine/);
    });

    it('GET _ingest/processor/grok answers the default pattern bank', async () => {
      const r = await es.call('GET', '/_ingest/processor/grok?s=true');
      expect(r.status).to.equal(200);
      expect(r.json.patterns.WORD).to.equal('\\b\\w+\\b');
      expect(Object.keys(r.json.patterns)).to.deep.equal(Object.keys(r.json.patterns).sort());
    });
  });

  describe('processors (the reference examples)', () => {
    it('set with a template, copy_from, override and ignore_empty_value', async () => {
      expect(await simulated([{ set: { field: 'hostname', value: '{{{host.name}}}' } }], { host: { name: 'x' } })).to.deep.equal({ host: { name: 'x' }, hostname: 'x' });
      expect(await simulated([{ set: { field: 'copy', copy_from: 'a' } }], { a: [1, { b: 2 }] })).to.deep.equal({ a: [1, { b: 2 }], copy: [1, { b: 2 }] });
      expect(await simulated([{ set: { field: 'a', value: 2, override: false } }], { a: 1 })).to.deep.equal({ a: 1 });
      expect(await simulated([{ set: { field: 'a', value: '{{missing}}', ignore_empty_value: true } }], {})).to.deep.equal({});
      expect(await simulated([{ set: { field: '{{k}}', value: 'v' } }], { k: 'dynamic' })).to.deep.equal({ k: 'dynamic', dynamic: 'v' });
    });

    it('remove (list, ignore_missing, keep), rename, append (allow_duplicates)', async () => {
      expect(await simulated([{ remove: { field: ['a', 'b.c', 'zz'], ignore_missing: true } }], { a: 1, b: { c: 2, d: 3 } })).to.deep.equal({ b: { d: 3 } });
      expect(await simulated([{ remove: { keep: ['url.original'] } }], { url: { original: 'u', other: 1 }, x: 1 })).to.deep.equal({ url: { original: 'u' } });
      expect(await simulated([{ rename: { field: 'provider', target_field: 'cloud.provider' } }], { provider: 'aws' })).to.deep.equal({ cloud: { provider: 'aws' } });
      expect(await simulatedError([{ rename: { field: 'foo', target_field: 'bar' } }], {})).to.include({ type: 'illegal_argument_exception', reason: 'field [foo] doesn\'t exist' });
      expect(await simulated([{ append: { field: 'tags', value: ['production', '{{app}}', 'prod'], allow_duplicates: false } }], { tags: 'prod', app: 'web' }))
        .to.deep.equal({ tags: ['prod', 'production', 'web'], app: 'web' });
      expect(await simulated([{ append: { field: 'n', value: 'x' } }], {})).to.deep.equal({ n: ['x'] });
    });

    it('lowercase, uppercase, trim, split (preserve_trailing), join, gsub', async () => {
      expect(await simulated([{ lowercase: { field: 'a' } }, { uppercase: { field: 'b', target_field: 'c' } }, { trim: { field: 'd' } }], { a: 'AbC', b: ['x', 'y'], d: '  t  ' }))
        .to.deep.equal({ a: 'abc', b: ['x', 'y'], c: ['X', 'Y'], d: 't' });
      expect(await simulated([{ split: { field: 'my_field', separator: '\\s+' } }], { my_field: 'a  b c ' })).to.deep.equal({ my_field: ['a', 'b', 'c'] });
      expect(await simulated([{ split: { field: 'f', separator: ',', preserve_trailing: true } }], { f: 'A,,B,,' })).to.deep.equal({ f: ['A', '', 'B', '', ''] });
      expect(await simulated([{ join: { field: 'joined_array_field', separator: '-' } }], { joined_array_field: ['a', 1, true] })).to.deep.equal({ joined_array_field: 'a-1-true' });
      expect(await simulated([{ gsub: { field: 'field1', pattern: '\\.', replacement: '-' } }], { field1: '1.2.3' })).to.deep.equal({ field1: '1-2-3' });
      expect(await simulated([{ gsub: { field: 'f', pattern: '(\\w+)@(\\w+)', replacement: '$2 at $1' } }], { f: 'me@host' })).to.deep.equal({ f: 'host at me' });
      expect(await simulatedError([{ lowercase: { field: 'n' } }], { n: 1 })).to.include({ reason: 'field [n] of type [java.lang.Integer] cannot be cast to [java.lang.String]' });
    });

    it('convert to every type, auto included', async () => {
      const src = { i: '0x1F', l: '9007199254740', f: '1.5', d: '2.25', b: 'TRUE', s: 12, ip: '10.0.0.1', a1: 'false', a2: '42', a3: '3.5', a4: 'text', list: ['1', '2'] };
      expect(await simulated([
        { convert: { field: 'i', type: 'integer' } }, { convert: { field: 'l', type: 'long' } }, { convert: { field: 'f', type: 'float' } },
        { convert: { field: 'd', type: 'double' } }, { convert: { field: 'b', type: 'boolean' } }, { convert: { field: 's', type: 'string' } },
        { convert: { field: 'ip', type: 'ip' } }, { convert: { field: 'a1', type: 'auto' } }, { convert: { field: 'a2', type: 'auto' } },
        { convert: { field: 'a3', type: 'auto' } }, { convert: { field: 'a4', type: 'auto' } }, { convert: { field: 'list', type: 'integer' } },
      ], src)).to.deep.equal({ i: 31, l: 9007199254740, f: 1.5, d: 2.25, b: true, s: '12', ip: '10.0.0.1', a1: false, a2: 42, a3: 3.5, a4: 'text', list: [1, 2] });
      expect(await simulatedError([{ convert: { field: 'x', type: 'integer' } }], { x: 'abc' })).to.include({ reason: 'unable to convert [abc] to integer' });
    });

    it('date: java-time patterns with timezone, ISO8601, UNIX, UNIX_MS, TAI64N, output_format', async () => {
      expect(await simulated([{ date: { field: 'initial_date', target_field: 'timestamp', formats: ['dd/MM/yyyy HH:mm:ss'], timezone: 'Europe/Amsterdam' } }], { initial_date: '12/06/2016 17:00:00' }))
        .to.deep.include({ timestamp: '2016-06-12T17:00:00.000+02:00' });
      expect((await simulated([{ date: { field: 'd', formats: ['ISO8601'] } }], { d: '2016-06-12T17:00:00Z' }))['@timestamp']).to.equal('2016-06-12T17:00:00.000Z');
      expect((await simulated([{ date: { field: 'd', formats: ['UNIX'] } }], { d: '1465750800.5' }))['@timestamp']).to.equal('2016-06-12T17:00:00.500Z');
      expect((await simulated([{ date: { field: 'd', formats: ['UNIX_MS'] } }], { d: 1465750800000 }))['@timestamp']).to.equal('2016-06-12T17:00:00.000Z');
      expect((await simulated([{ date: { field: 'd', formats: ['TAI64N'] } }], { d: '4000000050d506482dbdf024' }))['@timestamp']).to.equal('2012-12-22T01:00:46.767Z');
      expect((await simulated([{ date: { field: 'd', formats: ['yyyy-MM-dd', 'UNIX'], output_format: 'yyyy/MM/dd' } }], { d: '2016-06-12' }))['@timestamp']).to.equal('2016/06/12');
      expect(await simulatedError([{ date: { field: 'd', formats: ['yyyy'] } }], { d: 'nope' })).to.include({ reason: 'unable to parse date [nope]' });
    });

    it('json (target_field, add_to_root) and kv (include_keys, prefix, trim, value lists)', async () => {
      expect(await simulated([{ json: { field: 'string_source', target_field: 'json_target' } }], { string_source: '{"foo": 2000}' }))
        .to.deep.equal({ string_source: '{"foo": 2000}', json_target: { foo: 2000 } });
      expect(await simulated([{ json: { field: 's', add_to_root: true } }], { s: '{"a": 1, "b": {"c": 2}}' })).to.deep.equal({ s: '{"a": 1, "b": {"c": 2}}', a: 1, b: { c: 2 } });
      expect(await simulated([{ kv: { field: 'message', field_split: ' ', value_split: '=' } }], { message: 'ip=1.2.3.4 error=REFUSED error=AGAIN' }))
        .to.deep.include({ ip: '1.2.3.4', error: ['REFUSED', 'AGAIN'] });
      expect(await simulated([{ kv: { field: 'm', field_split: '&', value_split: '=', include_keys: ['a'], prefix: 'p_', trim_value: '"', target_field: 't' } }], { m: 'a="1"&b=2' }))
        .to.deep.include({ t: { p_a: '1' } });
    });

    it('dissect with append (+, /n, append_separator), skip (?), reference (* &) and padding (->)', async () => {
      expect(await simulated([{ dissect: { field: 'message', pattern: '%{clientip} %{ident} %{auth} [%{@timestamp}] "%{verb} %{request} HTTP/%{httpversion}" %{status} %{size}' } }],
        { message: '1.2.3.4 - - [30/Apr/1998:22:00:52 +0000] "GET /english/venues/cities/images/montpellier/18.gif HTTP/1.0" 200 3171' }))
        .to.deep.include({ clientip: '1.2.3.4', ident: '-', auth: '-', '@timestamp': '30/Apr/1998:22:00:52 +0000', verb: 'GET', status: '200', size: '3171', httpversion: '1.0' });
      expect(await simulated([{ dissect: { field: 'm', pattern: '%{+name/2} %{+name/1} %{?skip} %{*k} %{&k}', append_separator: ',' } }], { m: 'john smith x color red' }))
        .to.deep.include({ name: 'smith,john', color: 'red' });
      expect(await simulated([{ dissect: { field: 'm', pattern: '%{ts->} %{level}' } }], { m: '2016     INFO' })).to.deep.include({ ts: '2016', level: 'INFO' });
      expect(await simulatedError([{ dissect: { field: 'm', pattern: '%{a} %{b}' } }], { m: 'nospace' })).to.include({ type: 'dissect_exception' });
    });

    it('grok with the default bank, pattern_definitions, types, several patterns and trace_match', async () => {
      expect(await simulated([{ grok: { field: 'message', patterns: ['%{IP:client} %{WORD:method} %{URIPATHPARAM:request} %{NUMBER:bytes:int} %{NUMBER:duration:float}'] } }],
        { message: '55.3.244.1 GET /index.html 15824 0.043' }))
        .to.deep.include({ client: '55.3.244.1', method: 'GET', request: '/index.html', bytes: 15824, duration: 0.043 });
      const src = await simulated([{ grok: { field: 'message', patterns: ['%{FAVORITE_DOG:pet}', '%{FAVORITE_CAT:pet}'], pattern_definitions: { FAVORITE_DOG: 'beagle', FAVORITE_CAT: 'burmese' }, trace_match: true } }], { message: 'I love burmese cats!' });
      expect(src).to.deep.include({ pet: 'burmese' });
      const r = await es.call('POST', '/_ingest/pipeline/_simulate', { pipeline: { processors: [{ grok: { field: 'm', patterns: ['x', '(?<word>\\w+)'], trace_match: true } }] }, docs: [{ _source: { m: 'hello' } }] });
      expect(r.json.docs[0].doc._ingest._grok_match_index).to.equal('1');
      expect(r.json.docs[0].doc._source.word).to.equal('hello');
      expect(await simulatedError([{ grok: { field: 'm', patterns: ['%{NUMBER:n}'] } }], { m: 'abc' })).to.include({ reason: 'Provided Grok expressions do not match field value: [abc]' });
    });

    it('a catastrophic pattern runs in linear time', async () => {
      // backtracking over 5000 a's would not end in the test's timeout: no wall-clock bound needed
      const error = await simulatedError([{ grok: { field: 'm', patterns: ['^(a+)+$'] } }], { m: `${'a'.repeat(5000)}b` });
      expect(error.reason).to.match(/do not match/);
    });

    it('script (ctx is the document, params), if conditions, fail, drop, foreach', async () => {
      expect(await simulated([{ script: { source: 'ctx.count = params.n + ctx.x', params: { n: 2 } } }], { x: 1 })).to.deep.equal({ x: 1, count: 3 });
      expect(await simulated([{ set: { field: 'seen', value: true, if: 'ctx.level == "error"' } }, { set: { field: 'other', value: 1, if: 'ctx.level != "error"' } }], { level: 'error' }))
        .to.deep.equal({ level: 'error', seen: true });
      expect(await simulatedError([{ fail: { message: 'The production tag is not present, found tags: {{{tags}}}' } }], { tags: 'x' }))
        .to.include({ type: 'fail_processor_exception', reason: 'The production tag is not present, found tags: x' });
      expect(await simulated([{ foreach: { field: 'values', processor: { uppercase: { field: '_ingest._value' } } } }], { values: ['foo', 'bar'] })).to.deep.equal({ values: ['FOO', 'BAR'] });
      expect(await simulated([{ foreach: { field: 'm', processor: { set: { field: '_ingest._value.seen', value: '{{_ingest._key}}' } } } }], { m: { a: {}, b: {} } }))
        .to.deep.equal({ m: { a: { seen: 'a' }, b: { seen: 'b' } } });
      const dropped = await es.call('POST', '/_ingest/pipeline/_simulate', { pipeline: { processors: [{ drop: { if: 'ctx.x == 1' } }] }, docs: [{ _source: { x: 1 } }, { _source: { x: 2 } }] });
      expect(dropped.json.docs[0]).to.equal(null);
      expect(dropped.json.docs[1].doc._source).to.deep.equal({ x: 2 });
    });

    it('ignore_failure, on_failure with _ingest.on_failure_* at processor and pipeline level', async () => {
      expect(await simulated([{ rename: { field: 'foo', target_field: 'bar', ignore_failure: true } }], { a: 1 })).to.deep.equal({ a: 1 });
      expect(await simulated([{
        rename: { field: 'foo', target_field: 'bar', tag: 'r1', on_failure: [{ set: { field: 'error.message', value: '{{ _ingest.on_failure_message }} {{_ingest.on_failure_processor_type}} {{_ingest.on_failure_processor_tag}}' } }] },
      }], {})).to.deep.equal({ error: { message: 'field [foo] doesn\'t exist rename r1' } });
      const r = await es.call('POST', '/_ingest/pipeline/_simulate', {
        pipeline: { processors: [{ fail: { message: 'nope' } }], on_failure: [{ set: { field: '_index', value: 'failed-{{ _index }}' } }] },
        docs: [{ _index: 'logs', _source: {} }],
      });
      expect(r.json.docs[0].doc._index).to.equal('failed-logs');
    });

    it('pipeline processor: nested pipelines, and a cycle is detected', async () => {
      await es.call('PUT', '/_ingest/pipeline/inner', { processors: [{ set: { field: 'inner', value: true } }] });
      expect(await simulated([{ pipeline: { name: 'inner' } }], {})).to.deep.equal({ inner: true });
      await es.call('PUT', '/_ingest/pipeline/loop-a', { processors: [{ pipeline: { name: 'loop-b' } }] });
      await es.call('PUT', '/_ingest/pipeline/loop-b', { processors: [{ pipeline: { name: 'loop-a' } }] });
      expect(await simulatedError([{ pipeline: { name: 'loop-a' } }], {})).to.include({ reason: 'Cycle detected for pipeline: loop-a' });
    });

    it('terminate: the pipeline it runs in stops there; the calling pipeline and the final pipeline go on', async () => {
      await es.call('PUT', '/_ingest/pipeline/stops-early', { processors: [
        { append: { field: 'steps', value: 'before' } },
        { terminate: { if: 'ctx.number < 50' } },
        { append: { field: 'steps', value: 'after' } },
      ] });
      expect(await simulated([{ pipeline: { name: 'stops-early' } }, { append: { field: 'steps', value: 'outer' } }], { number: 40, steps: [] }))
        .to.deep.equal({ number: 40, steps: ['before', 'outer'] });
      expect(await simulated([{ pipeline: { name: 'stops-early' } }], { number: 60, steps: [] })).to.deep.equal({ number: 60, steps: ['before', 'after'] });
      await es.call('PUT', '/_ingest/pipeline/finally', { processors: [{ append: { field: 'steps', value: 'final' } }] });
      await es.call('PUT', '/terminated', { settings: { index: { default_pipeline: 'stops-early', final_pipeline: 'finally' } } });
      await es.call('PUT', '/terminated/_doc/1?refresh=true', { number: 40, steps: [] });
      expect((await es.call('GET', '/terminated/_doc/1')).json._source.steps).to.deep.equal(['before', 'final']);
    });

    it('redact: what a pattern matches becomes <NAME>, overlapping matches once; a missing field fails only without ignore_missing', async () => {
      const processor = { redact: { field: 'm', patterns: ['%{EMAILADDRESS:EMAIL}', '%{IP:IP_ADDRESS}', '%{CARD:CC}'], pattern_definitions: { CARD: '\\d{4}[ -]\\d{4}' } } };
      expect(await simulated([processor], { m: 'mail jo@example.com from 10.0.0.1 and 10.0.0.2, card 1234-5678' }))
        .to.deep.equal({ m: 'mail <EMAIL> from <IP_ADDRESS> and <IP_ADDRESS>, card <CC>' });
      expect(await simulated([{ redact: { field: 'm', patterns: ['%{IP:ip}'], prefix: '*', suffix: '*' } }], { m: '55.3.244.1 GET' })).to.deep.equal({ m: '*ip* GET' });
      expect(await simulated([{ redact: { field: 'absent', patterns: ['%{IP:ip}'] } }], { m: 'x' })).to.deep.equal({ m: 'x' });
      expect(await simulatedError([{ redact: { field: 'absent', patterns: ['%{IP:ip}'], ignore_missing: false } }], { m: 'x' }))
        .to.include({ reason: 'field [absent] is null or missing' });
    });

    it('dot_expander: a dotted field becomes its object path (at the top, under path, or every one with *), kept beside or over what is there', async () => {
      expect(await simulated([{ dot_expander: { field: 'foo.bar' } }], { 'foo.bar': 'value' })).to.deep.equal({ foo: { bar: 'value' } });
      // an existing value is kept as a list with the new one, or replaced with override
      expect(await simulated([{ dot_expander: { field: 'foo.bar' } }], { 'foo.bar': 'a', foo: { bar: 'b' } })).to.deep.equal({ foo: { bar: ['b', 'a'] } });
      expect(await simulated([{ dot_expander: { field: '*', override: true } }], { 'foo.bar': 'baz', foo: { bar: 'x', qux: 'quux' }, 'a.b.c': 1, plain: 2 }))
        .to.deep.equal({ foo: { bar: 'baz', qux: 'quux' }, a: { b: { c: 1 } }, plain: 2 });
      expect(await simulated([{ dot_expander: { path: 'foo', field: 'bar.baz' } }], { foo: { 'bar.baz': 1 } })).to.deep.equal({ foo: { bar: { baz: 1 } } });
      expect(await simulatedError([{ dot_expander: { field: 'foo.bar' } }], { 'foo.bar': 1, foo: 'value' }))
        .to.include({ reason: 'cannot expend [foo.bar], because [foo] is not an object field, but a value field' });
      const bad = await es.call('PUT', '/_ingest/pipeline/dots', { processors: [{ dot_expander: { field: 'foo' } }] });
      expect(bad.status).to.equal(400);
      expect(bad.json.error.reason).to.equal('[field] field does not contain a dot and is not a wildcard');
    });

    it('sort: a list in natural order, ascending or desc, to target_field; a non-list, a bad order or mixed kinds are refused', async () => {
      expect(await simulated([{ sort: { field: 'v' } }], { v: ['foo', 'bar', 'Baz'] })).to.deep.equal({ v: ['Baz', 'bar', 'foo'] });
      expect(await simulated([{ sort: { field: 'v', order: 'desc', target_field: 't' } }], { v: [3, 10, 1.5] })).to.deep.equal({ v: [3, 10, 1.5], t: [10, 3, 1.5] });
      expect(await simulatedError([{ sort: { field: 'v' } }], { v: 'x' })).to.include({ reason: 'field [v] of type [java.lang.String] cannot be cast to [java.util.List]' });
      expect(await simulatedError([{ sort: { field: 'v' } }], { v: [1, 'a'] })).to.include({ type: 'illegal_argument_exception' });
      const bad = await es.call('PUT', '/_ingest/pipeline/s', { processors: [{ sort: { field: 'v', order: 'up' } }] });
      expect(bad.json.error.reason).to.equal('[order] Sort direction [up] not recognized. Valid values are: [asc, desc]');
    });

    it('bytes: a human byte size as its number of bytes (units b to pb, fractions truncated); no unit is refused', async () => {
      expect(await simulated([{ bytes: { field: 'b', target_field: 't' } }], { b: '1kb' })).to.deep.equal({ b: '1kb', t: 1024 });
      expect(await simulated([{ bytes: { field: 'b' } }], { b: ['2MB', '1.5k', '-1', '7 b'] })).to.deep.equal({ b: [2097152, 1536, -1, 7] });
      expect(await simulatedError([{ bytes: { field: 'b' } }], { b: '12' }))
        .to.include({ type: 'parse_exception', reason: 'failed to parse setting [b] with value [12] as a size in bytes: unit is missing or unrecognized' });
    });

    it('csv: a line split into target_fields with quote, separator, trim and empty_value; a broken line fails', async () => {
      expect(await simulated([{ csv: { field: 'v', target_fields: ['a', 'b', 'c'] } }], { v: 'aa,bb,cc,dd' })).to.deep.equal({ v: 'aa,bb,cc,dd', a: 'aa', b: 'bb', c: 'cc' });
      expect(await simulated([{ csv: { field: 'v', target_fields: ['a', 'b', 'c', 'd', 'e'], quote: "'", separator: ';' } }], { v: "'aa';'b;b';'cc';d,d;'ee''ee'" }))
        .to.deep.include({ a: 'aa', b: 'b;b', c: 'cc', d: 'd,d', e: "ee'ee" });
      expect(await simulated([{ csv: { field: 'v', target_fields: ['a', 'b', 'c'], trim: true, quote: "'" } }], { v: "    aa,  bb  ,    'cc'" }))
        .to.deep.include({ a: 'aa', b: 'bb', c: 'cc' });
      // an empty field is not set, unless empty_value
      expect(await simulated([{ csv: { field: 'v', target_fields: ['a', 'b', 'c'] } }], { v: 'x,,z' })).to.deep.equal({ v: 'x,,z', a: 'x', c: 'z' });
      expect(await simulated([{ csv: { field: 'v', target_fields: ['a', 'b'], empty_value: 'none' } }], { v: ',y' })).to.deep.equal({ v: ',y', a: 'none', b: 'y' });
      expect(await simulatedError([{ csv: { field: 'v', target_fields: ['a', 'b'] } }], { v: '"open,x' })).to.include({ reason: 'Unmatched quote' });
      expect(await simulatedError([{ csv: { field: 'v', target_fields: ['a', 'b'] } }], { v: 'a"b,c' })).to.include({ reason: 'Illegal character inside unquoted field at 1' });
      const bad = await es.call('PUT', '/_ingest/pipeline/c', { processors: [{ csv: { field: 'v', target_fields: ['a'], separator: ';;' } }] });
      expect(bad.json.error.reason).to.equal('[separator] separator has to be single character like , or ;');
    });

    it('date_index_name: _index becomes the date math name of the date, rounded; a write goes to the index it names', async () => {
      // the reference's example
      const r = await es.call('POST', '/_ingest/pipeline/_simulate', {
        pipeline: { processors: [{ date_index_name: { field: 'date1', index_name_prefix: 'my-index-', date_rounding: 'M' } }] },
        docs: [{ _source: { date1: '2016-04-25T12:02:01.789Z' } }],
      });
      expect(r.json.docs[0].doc._index, r.text).to.equal('<my-index-{2016-04-25T12:02:01.789||/M{yyyy-MM-dd|UTC}}>');
      await es.call('PUT', '/_ingest/pipeline/monthly', { processors: [{ date_index_name: { field: 'd', index_name_prefix: 'ev-', date_rounding: 'd', date_formats: ['UNIX_MS'], timezone: '+02:00', index_name_format: 'yyyy.MM.dd' } }] });
      const w = await es.call('PUT', '/events/_doc/1?pipeline=monthly', { d: Date.UTC(2016, 3, 22, 23, 0) });
      expect(w.json._index, w.text).to.equal('ev-2016.04.23');
      expect(await simulatedError([{ date_index_name: { field: 'd', date_rounding: 'd' } }], { d: 'yesterday' })).to.include({ reason: 'unable to parse date [yesterday]' });
    });

    it('uri_parts: a URI\'s parts under url (the reference\'s example), escapes decoded, the original kept or the field removed', async () => {
      const original = 'http://myusername:mypassword@www.example.com:80/foo.gif?key1=val1&key2=val2#fragment';
      expect(await simulated([{ uri_parts: { field: 'input_field', target_field: 'url', keep_original: true, remove_if_successful: false } }], { input_field: original })).to.deep.equal({
        input_field: original,
        url: {
          domain: 'www.example.com', extension: 'gif', fragment: 'fragment', original, password: 'mypassword', path: '/foo.gif',
          port: 80, query: 'key1=val1&key2=val2', scheme: 'http', user_info: 'myusername:mypassword', username: 'myusername',
        },
      });
      expect(await simulated([{ uri_parts: { field: 'u', keep_original: false, remove_if_successful: true } }], { u: 'https://example.org/a%20b' }))
        .to.deep.equal({ url: { scheme: 'https', domain: 'example.org', path: '/a b' } });
      expect(await simulatedError([{ uri_parts: { field: 'u' } }], { u: 'not a uri' })).to.include({ reason: 'unable to parse URI [not a uri]' });
    });

    it('urldecode: a string (or each of a list) decoded as Java\'s URLDecoder, + as a space; a bad escape fails', async () => {
      expect(await simulated([{ urldecode: { field: 'u' } }], { u: 'foo%20bar+baz%E2%82%AC' })).to.deep.equal({ u: 'foo bar baz\u20ac' });
      expect(await simulated([{ urldecode: { field: 'u', target_field: 't' } }], { u: ['a%2Fb', 'c'] })).to.deep.equal({ u: ['a%2Fb', 'c'], t: ['a/b', 'c'] });
      expect(await simulatedError([{ urldecode: { field: 'u' } }], { u: '100%' })).to.include({ reason: 'Could not URL-decode value.' });
    });
  });

  describe('simulate verbose', () => {
    it('answers each processor\'s result: success with the document, skipped with its condition, error, error_ignored', async () => {
      const r = await es.call('POST', '/_ingest/pipeline/_simulate?verbose=true', {
        pipeline: { processors: [
          { set: { field: 'field2', value: '_value', tag: 'first', description: 'sets field2' } },
          { set: { field: 'x', value: 1, if: 'ctx.nope != null' } },
          { rename: { field: 'missing', target_field: 'y', ignore_failure: true } },
          { fail: { message: 'stop' } },
        ] },
        docs: [{ _index: 'index', _id: 'id', _source: { foo: 'bar' } }],
      });
      expect(r.status, r.text).to.equal(200);
      const results = r.json.docs[0].processor_results;
      expect(results.map((p: { status: string }) => p.status)).to.deep.equal(['success', 'skipped', 'error_ignored', 'error']);
      expect(results[0]).to.deep.include({ processor_type: 'set', tag: 'first', description: 'sets field2' });
      expect(results[0].doc).to.deep.include({ _index: 'index', _id: 'id', _version: '-3', _source: { foo: 'bar', field2: '_value' } });
      expect(results[0].doc._ingest.pipeline).to.equal('_simulate_pipeline');
      expect(results[1]).to.deep.equal({ processor_type: 'set', status: 'skipped', if: { condition: 'ctx.nope != null', result: false } });
      expect(results[2].ignored_error.error).to.include({ type: 'illegal_argument_exception', reason: 'field [missing] doesn\'t exist' });
      expect(results[3]).to.deep.include({ processor_type: 'fail', status: 'error' });
      expect(results[3].error).to.include({ type: 'fail_processor_exception', reason: 'stop' });
    });
  });

  describe('on writes', () => {
    before(async () => {
      await es.call('PUT', '/_ingest/pipeline/tagger', { processors: [{ set: { field: 'tagged', value: '{{_index}}' } }] });
      await es.call('PUT', '/_ingest/pipeline/router', { processors: [{ set: { field: '_index', value: 'routed-{{kind}}' } }, { set: { field: '_id', value: 'r-{{n}}' } }] });
      await es.call('PUT', '/_ingest/pipeline/final', { processors: [{ set: { field: 'final', value: true } }] });
      await es.call('PUT', '/_ingest/pipeline/dropper', { processors: [{ drop: { if: 'ctx.drop == true' } }] });
      await es.call('PUT', '/_ingest/pipeline/failer', { processors: [{ fail: { message: 'no {{n}}' } }] });
    });

    it('?pipeline= on index, _create and auto ids; ctx._index and ctx._id re-target the write', async () => {
      expect((await es.call('PUT', '/w1/_doc/1?pipeline=tagger', { a: 1 })).status).to.equal(201);
      expect((await es.call('GET', '/w1/_doc/1')).json._source).to.deep.equal({ a: 1, tagged: 'w1' });
      expect((await es.call('PUT', '/w1/_create/2?pipeline=tagger', { a: 2 })).status).to.equal(201);
      expect((await es.call('GET', '/w1/_doc/2')).json._source.tagged).to.equal('w1');
      const routed = await es.call('POST', '/w1/_doc?pipeline=router', { kind: 'x', n: 7 });
      expect(routed.status, routed.text).to.equal(201);
      expect(routed.json).to.include({ _index: 'routed-x', _id: 'r-7' });
      expect((await es.call('GET', '/routed-x/_doc/r-7')).json._source).to.deep.equal({ kind: 'x', n: 7 });
    });

    it('a failing pipeline fails its document with the processor\'s error; a dropped one answers a noop', async () => {
      const failed = await es.call('PUT', '/w1/_doc/3?pipeline=failer', { n: 3 });
      expect(failed.status).to.equal(500);
      expect(failed.json.error).to.include({ type: 'fail_processor_exception', reason: 'no 3' });
      expect((await es.call('GET', '/w1/_doc/3')).status).to.equal(404);
      const dropped = await es.call('PUT', '/w1/_doc/4?pipeline=dropper', { drop: true });
      expect([dropped.status, dropped.json]).to.deep.equal([200, { _index: 'w1', _id: '4', _version: -3, result: 'noop', _shards: { total: 0, successful: 0, failed: 0 } }]);
      const missing = await es.call('PUT', '/w1/_doc/5?pipeline=nope', {});
      expect(missing.json.error).to.include({ type: 'illegal_argument_exception', reason: 'pipeline with id [nope] does not exist' });
    });

    it('_bulk: the URL pipeline, a per-action pipeline, and per-item failures and drops', async () => {
      const r = await es.call('POST', '/_bulk?pipeline=tagger&refresh=true', ndjson([
        { index: { _index: 'b1', _id: '1' } }, { n: 1 },
        { index: { _index: 'b1', _id: '2', pipeline: 'failer' } }, { n: 2 },
        { create: { _index: 'b1', _id: '3', pipeline: 'dropper' } }, { drop: true },
        { index: { _index: 'b1', _id: '4', pipeline: '_none' } }, { n: 4 },
        { index: { _index: 'b1', _id: '5', pipeline: 'mypipeline' } }, { n: 5 },
      ]), NDJSON);
      expect(r.status, r.text).to.equal(200);
      expect(r.json.errors).to.equal(true);
      const items = r.json.items;
      expect(items[0].index).to.include({ status: 201, result: 'created' });
      expect(items[1].index).to.include({ status: 500 });
      expect(items[1].index.error).to.include({ type: 'fail_processor_exception', reason: 'no 2' });
      expect(items[2].create).to.include({ status: 200, result: 'noop', _version: -3 });
      expect(items[3].index).to.include({ status: 201 });
      expect(items[4].index.error).to.include({ reason: 'pipeline with id [mypipeline] does not exist' });
      expect((await es.call('GET', '/b1/_doc/1')).json._source).to.deep.equal({ n: 1, tagged: 'b1' });
      expect((await es.call('GET', '/b1/_doc/4')).json._source).to.deep.equal({ n: 4 });
      expect((await es.call('GET', '/b1/_count')).json.count).to.equal(2);
    });

    it('an in-process caller\'s URL parameters count whether given in the path or apart', async () => {
      const NDJSON_TYPE = { 'content-type': 'application/x-ndjson' };
      const inPath = await es.engine.request({ method: 'POST', path: '/inproc/_bulk?pipeline=tagger&refresh=true', headers: NDJSON_TYPE, body: ndjson([{ index: { _id: '1' } }, { n: 1 }]) });
      expect(inPath.status).to.equal(200);
      const apart = await es.engine.request({ method: 'POST', path: '/inproc/_bulk', querystring: 'pipeline=tagger', headers: NDJSON_TYPE, body: ndjson([{ index: { _id: '2' } }, { n: 2 }]) });
      expect(apart.status).to.equal(200);
      for (const id of ['1', '2']) expect((await es.call('GET', `/inproc/_doc/${id}`)).json._source.tagged).to.equal('inproc');
    });

    it('index.default_pipeline and index.final_pipeline run on writes; pipeline=_none skips the default only', async () => {
      await es.call('PUT', '/dp', { settings: { index: { default_pipeline: 'tagger', final_pipeline: 'final' } } });
      await es.call('PUT', '/dp/_doc/1', { a: 1 });
      expect((await es.call('GET', '/dp/_doc/1')).json._source).to.deep.equal({ a: 1, tagged: 'dp', final: true });
      await es.call('PUT', '/dp/_doc/2?pipeline=_none', { a: 2 });
      expect((await es.call('GET', '/dp/_doc/2')).json._source).to.deep.equal({ a: 2, final: true });
      const inUse = await es.call('DELETE', '/_ingest/pipeline/final');
      expect(inUse.status).to.equal(400);
      expect(inUse.json.error.reason).to.match(/cannot be deleted because it is the final pipeline/);
      await es.call('PUT', '/dp/_settings', { index: { final_pipeline: '_none' } });
      await es.call('PUT', '/dp/_doc/3', { a: 3 });
      expect((await es.call('GET', '/dp/_doc/3')).json._source).to.deep.equal({ a: 3, tagged: 'dp' });
    });

    it('reroute: the rest of the pipelines (callers and the final one) is skipped and the new target\'s default pipeline runs, found in its template when it does not exist yet', async () => {
      await es.call('PUT', '/_ingest/pipeline/to-b', { processors: [{ set: { field: 'before', value: true } }, { reroute: { destination: 'rr-b' } }, { set: { field: 'skipped', value: true } }] });
      await es.call('PUT', '/_ingest/pipeline/in-b', { processors: [{ set: { field: 'in_b', value: true } }] });
      await es.call('PUT', '/_ingest/pipeline/never', { processors: [{ set: { field: 'final_of_a', value: true } }] });
      await es.call('PUT', '/rr-a', { settings: { index: { default_pipeline: 'to-b', final_pipeline: 'never' } } });
      // rr-b does not exist: its default pipeline is the one its template gives it
      await es.call('PUT', '/_index_template/rr-b', { index_patterns: ['rr-b'], template: { settings: { index: { default_pipeline: 'in-b' } } } });
      const written = await es.call('PUT', '/rr-a/_doc/1?refresh=true', { n: 1 });
      expect(written.status, written.text).to.equal(201);
      expect(written.json._index).to.equal('rr-b');
      expect((await es.call('GET', '/rr-b/_doc/1')).json._source).to.deep.equal({ n: 1, before: true, in_b: true });
    });

    it('reroute in data stream mode: <type>-<dataset>-<namespace> from field references (sanitized) or static values, the data_stream fields set', async () => {
      const processor = { reroute: { dataset: ['{{service.name}}', 'fallback'], namespace: '{{{tenant}}}' } };
      const r = await es.call('POST', '/_ingest/pipeline/_simulate', { pipeline: { processors: [processor] }, docs: [
        { _index: 'logs-generic-default', _source: { service: { name: 'My-App' }, tenant: 'Acme Corp', event: { dataset: 'x' } } },
        { _index: 'logs-generic-default', _source: { service: { name: 7 } } },
        { _index: 'not_a_stream', _source: {} },
      ] });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.docs[0].doc._index).to.equal('logs-my_app-acme_corp');
      expect(r.json.docs[0].doc._source).to.deep.equal({
        service: { name: 'My-App' }, tenant: 'Acme Corp', event: { dataset: 'my_app' },
        data_stream: { type: 'logs', dataset: 'my_app', namespace: 'acme_corp' },
      });
      // a reference to a non-string is passed over: the static value, and the current namespace
      expect(r.json.docs[1].doc._index).to.equal('logs-fallback-default');
      expect(r.json.docs[2].error.reason).to.equal('invalid data stream name: [not_a_stream]; must follow naming scheme <type>-<dataset>-<namespace>');
      const both = await es.call('PUT', '/_ingest/pipeline/bad-reroute', { processors: [{ reroute: { destination: 'x', dataset: 'y' } }] });
      expect(both.status).to.equal(400);
      expect(both.json.error.reason).to.equal('[destination] can only be set if dataset and namespace are not set');
      const invalid = await es.call('PUT', '/_ingest/pipeline/bad-reroute', { processors: [{ reroute: { dataset: 'a-b' } }] });
      expect(invalid.json.error.reason).to.equal("[dataset] 'a-b' contains disallowed characters");
    });

    it('_update_by_query?pipeline= runs the pipeline over every matching document', async () => {
      await es.call('POST', '/_bulk?refresh=true', ndjson([{ index: { _index: 'u1', _id: '1' } }, { n: 1 }, { index: { _index: 'u1', _id: '2' } }, { n: 2 }]), NDJSON);
      const r = await es.call('POST', '/u1/_update_by_query?pipeline=tagger&refresh=true', { query: { match_all: {} } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.updated).to.equal(2);
      expect((await es.call('GET', '/u1/_doc/2')).json._source).to.deep.equal({ n: 2, tagged: 'u1' });
    });
  });
});
