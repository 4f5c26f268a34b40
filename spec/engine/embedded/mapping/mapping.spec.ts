import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

describe('embedded engine: mapping types and parameters', () => {
  let es: TestEngine;
  const mappingOf = async (index: string) => (await es.call('GET', `/${index}/_mapping`)).json[index].mappings;
  const count = async (index: string, query: unknown) => (await es.call('POST', `/${index}/_search`, { query })).json.hits.total.value;

  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  it('numbers: coercion, ranges per type with ES errors, ignore_malformed, coerce: false, scaled_float, null_value', async () => {
    await es.call('PUT', '/num', {
      mappings: {
        properties: {
          b: { type: 'byte' }, i: { type: 'integer', coerce: false }, l: { type: 'long', ignore_malformed: true },
          s: { type: 'scaled_float', scaling_factor: 10 }, h: { type: 'half_float' }, nv: { type: 'long', null_value: 5 },
        },
      },
    });
    let r = await es.call('PUT', '/num/_doc/1', { b: 128 });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('document_parsing_exception');
    expect(r.json.error.caused_by).to.deep.equal({ type: 'illegal_argument_exception', reason: 'Value [128] is out of range for a byte' });
    r = await es.call('PUT', '/num/_doc/1', { b: 'x' });
    expect(r.json.error.caused_by).to.deep.equal({ type: 'number_format_exception', reason: 'For input string: "x"' });
    r = await es.call('PUT', '/num/_doc/1', { i: 1.5 });
    expect(r.json.error.caused_by.reason).to.equal('Value [1.5] has a decimal part');
    r = await es.call('PUT', '/num/_doc/1?refresh=true', { b: '12.7', l: 'not a number', s: 1.26, h: 0.1, nv: null });
    expect(r.status).to.equal(201);
    expect(await count('num', { term: { b: 12 } })).to.equal(1);
    expect(await count('num', { term: { s: 1.3 } })).to.equal(1);
    expect(await count('num', { term: { nv: 5 } })).to.equal(1);
    expect(await count('num', { term: { _ignored: 'l' } })).to.equal(1);
    r = await es.call('POST', '/num/_search', { docvalue_fields: ['h', 's'] });
    expect(r.json.hits.hits[0].fields).to.deep.equal({ h: [0.0999755859375], s: [1.3] });
    expect(r.json.hits.hits[0]._ignored).to.deep.equal(['l']);
  });

  it('booleans accept "true"/"false"; keyword ignore_above and normalizer', async () => {
    await es.call('PUT', '/kb', {
      settings: { analysis: { normalizer: { lc: { type: 'custom', filter: ['lowercase'] } } } },
      mappings: { properties: { ok: { type: 'boolean' }, k: { type: 'keyword', ignore_above: 3, normalizer: 'lc' } } },
    });
    let r = await es.call('PUT', '/kb/_doc/1?refresh=true', { ok: 'false', k: 'ABC' });
    expect(r.status).to.equal(201);
    r = await es.call('PUT', '/kb/_doc/2?refresh=true', { ok: 'yes' });
    expect(r.json.error.caused_by.reason).to.equal('Failed to parse value [yes] as only [true] or [false] are allowed.');
    await es.call('PUT', '/kb/_doc/3?refresh=true', { k: 'ABCD' });
    expect(await count('kb', { term: { ok: false } })).to.equal(1);
    expect(await count('kb', { term: { k: 'abc' } })).to.equal(1);
    expect(await count('kb', { term: { k: 'abcd' } })).to.equal(0);
  });

  it('dates: custom formats with || alternatives, epoch_second, errors', async () => {
    await es.call('PUT', '/dt', { mappings: { properties: { d: { type: 'date', format: 'dd/MM/yyyy||yyyy-MM-dd HH:mm:ss' }, e: { type: 'date', format: 'epoch_second' } } } });
    let r = await es.call('PUT', '/dt/_doc/1?refresh=true', { d: '04/03/2021', e: 1600000000 });
    expect(r.status).to.equal(201);
    r = await es.call('PUT', '/dt/_doc/2?refresh=true', { d: '2021-03-05 10:11:12' });
    expect(r.status).to.equal(201);
    r = await es.call('PUT', '/dt/_doc/3', { d: '2021-13-05' });
    expect(r.json.error.caused_by.reason).to.equal('failed to parse date field [2021-13-05] with format [dd/MM/yyyy||yyyy-MM-dd HH:mm:ss]');
    r = await es.call('POST', '/dt/_search', { sort: ['d'], docvalue_fields: ['d', 'e'] });
    expect(r.json.hits.hits.map((h: { sort: number[] }) => h.sort[0])).to.deep.equal([Date.UTC(2021, 2, 4), Date.UTC(2021, 2, 5, 10, 11, 12)]);
    expect(r.json.hits.hits[0].fields).to.deep.equal({ d: ['04/03/2021'], e: ['1600000000'] });
    r = await es.call('PUT', '/dt2', { mappings: { properties: { d: { type: 'date', format: 'no_such_format' } } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('mapper_parsing_exception');
  });

  it('dynamic mapping: gateway string convention, date and numeric detection, dynamic_date_formats', async () => {
    await es.call('PUT', '/dyn', { mappings: { numeric_detection: true, dynamic_date_formats: ['MM/dd/yyyy'] } });
    await es.call('PUT', '/dyn/_doc/1?refresh=true', { s: 'hello', n: '12', f: '1.5', d: '03/04/2021', iso: '2021-01-01', b: true, x: 1.5, o: { y: 2 } });
    const m = await mappingOf('dyn');
    expect(m.properties).to.deep.equal({
      s: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 }, raw: { type: 'keyword' } } },
      n: { type: 'long' }, f: { type: 'float' }, d: { type: 'date', format: 'MM/dd/yyyy' },
      iso: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 }, raw: { type: 'keyword' } } },
      b: { type: 'boolean' }, x: { type: 'float' }, o: { properties: { y: { type: 'long' } } },
    });
  });

  it('dynamic_templates: match/unmatch, path_match, match_mapping_type, regex, {name} and {dynamic_type}', async () => {
    await es.call('PUT', '/tpl', {
      mappings: {
        dynamic_templates: [
          { ids: { match: '*_id', unmatch: 'skip_id', mapping: { type: 'keyword' } } },
          { longs_as_int: { match_mapping_type: 'long', mapping: { type: 'integer' } } },
          { user_text: { path_match: 'user.*', path_unmatch: 'user.age', mapping: { type: 'text', analyzer: 'whitespace', copy_to: 'all_{name}' } } },
          { re: { match_pattern: 'regex', match: '^t\\d+$', mapping: { type: '{dynamic_type}', index: false } } },
          { strings: { match_mapping_type: 'string', mapping: { type: 'keyword', ignore_above: 10 } } },
        ],
      },
    });
    const r = await es.call('PUT', '/tpl/_doc/1?refresh=true', { a_id: 5, skip_id: 6, user: { name: 'Kim Lee', age: 3 }, t1: 'x', other: 'text' });
    expect(r.status).to.equal(201);
    const m = await mappingOf('tpl');
    expect(m.properties.a_id).to.deep.equal({ type: 'keyword' });
    expect(m.properties.skip_id).to.deep.equal({ type: 'integer' });
    expect(m.properties.user.properties.name).to.deep.equal({ type: 'text', analyzer: 'whitespace', copy_to: ['all_name'] });
    expect(m.properties.user.properties.age).to.deep.equal({ type: 'integer' });
    expect(m.properties.t1).to.deep.equal({ type: 'text', index: false });
    expect(m.properties.other).to.deep.equal({ type: 'keyword', ignore_above: 10 });
    expect(m.properties.all_name).to.deep.equal({ type: 'keyword', ignore_above: 10 });
    expect(await count('tpl', { term: { all_name: 'Kim Lee' } })).to.equal(1);
    expect(await count('tpl', { term: { 'user.name': 'Kim' } })).to.equal(1);
  });

  it('dynamic: strict, false and runtime at any level; enabled: false objects are not parsed', async () => {
    await es.call('PUT', '/st', {
      mappings: {
        dynamic: 'strict',
        properties: { free: { type: 'object', dynamic: true }, off: { type: 'object', dynamic: false }, rt: { type: 'object', dynamic: 'runtime' }, blob: { type: 'object', enabled: false } },
      },
    });
    let r = await es.call('PUT', '/st/_doc/1', { nope: 1 });
    expect(r.json.error).to.include({ type: 'strict_dynamic_mapping_exception', reason: 'mapping set to strict, dynamic introduction of [nope] within [_doc] is not allowed' });
    r = await es.call('PUT', '/st/_doc/1?refresh=true', { free: { a: 1 }, off: { b: 2 }, rt: { c: 'x' }, blob: { anything: [1, { deep: true }] } });
    expect(r.status).to.equal(201);
    const m = await mappingOf('st');
    expect(m.dynamic).to.equal('strict');
    expect(m.properties.free).to.deep.equal({ dynamic: 'true', properties: { a: { type: 'long' } } });
    expect(m.properties.off).to.deep.equal({ dynamic: 'false' });
    expect(m.properties.blob).to.deep.equal({ enabled: false });
    expect(m.runtime).to.deep.equal({ 'rt.c': { type: 'keyword' } });
    expect(await count('st', { exists: { field: 'off.b' } })).to.equal(0);
  });

  it('copy_to, index: false (doc values kept) and multi-fields', async () => {
    await es.call('PUT', '/cp', {
      mappings: {
        properties: {
          first: { type: 'text', copy_to: ['full'] }, last: { type: 'text', copy_to: 'full' }, full: { type: 'text' },
          hidden: { type: 'keyword', index: false }, title: { type: 'text', fields: { raw: { type: 'keyword' } } },
        },
      },
    });
    await es.call('PUT', '/cp/_doc/1?refresh=true', { first: 'John', last: 'Smith', hidden: 'h', title: 'Hello World' });
    expect(await count('cp', { bool: { must: [{ term: { full: 'john' } }, { term: { full: 'smith' } }] } })).to.equal(1);
    expect(await count('cp', { term: { 'title.raw': 'Hello World' } })).to.equal(1);
    const r = await es.call('POST', '/cp/_search', { sort: ['hidden'], _source: ['full'] });
    expect(r.json.hits.hits[0].sort).to.deep.equal(['h']);
    expect(r.json.hits.hits[0]._source).to.deep.equal({});
  });

  it('GET _mapping shows definitions as ES stores them; unknown parameters are refused', async () => {
    await es.call('PUT', '/shown', {
      mappings: {
        properties: {
          'a.b': { type: 'keyword', index: 'true', doc_values: true, ignore_above: '20' },
          t: { type: 'text', norms: true, index_options: 'offsets', position_increment_gap: 10, fielddata: 'true' },
          o: { type: 'object', properties: { x: { type: 'long', coerce: true } } },
        },
      },
    });
    const m = await mappingOf('shown');
    expect(m.properties).to.deep.equal({
      a: { properties: { b: { type: 'keyword', ignore_above: 20 } } },
      t: { type: 'text', index_options: 'offsets', position_increment_gap: 10, fielddata: true },
      o: { properties: { x: { type: 'long' } } },
    });
    const r = await es.call('PUT', '/bad', { mappings: { properties: { k: { type: 'keyword', analyzer: 'standard' } } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('Failed to parse mapping: unknown parameter [analyzer] on mapper [k] of type [keyword]');
    const r2 = await es.call('PUT', '/bad', { mappings: { properties: { s: { type: 'scaled_float' } } } });
    expect(r2.json.error.reason).to.equal('Failed to parse mapping: Field [scaling_factor] is required');
  });

  it('mapping updates: compatible changes applied, conflicting ones refused with ES messages', async () => {
    await es.call('PUT', '/up', { mappings: { properties: { t: { type: 'text', analyzer: 'standard' }, k: { type: 'keyword', ignore_above: 5 } } } });
    let r = await es.call('PUT', '/up/_mapping', { properties: { t: { type: 'text', analyzer: 'standard', fields: { raw: { type: 'keyword' } } }, k: { type: 'keyword', ignore_above: 50 } } });
    expect(r.json).to.deep.equal({ acknowledged: true });
    const m = await mappingOf('up');
    expect(m.properties.t.fields).to.deep.equal({ raw: { type: 'keyword' } });
    expect(m.properties.k.ignore_above).to.equal(50);
    r = await es.call('PUT', '/up/_mapping', { properties: { t: { type: 'text', analyzer: 'whitespace' } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('Mapper for [t] conflicts with existing mapper:\n\tCannot update parameter [analyzer] from [standard] to [whitespace]');
    r = await es.call('PUT', '/up/_mapping', { properties: { k: { type: 'long' } } });
    expect(r.json.error.reason).to.equal('mapper [k] cannot be changed from type [keyword] to [long]');
  });

  it('GET _mapping/field/{fields} with wildcards and multi-fields', async () => {
    const r = await es.call('GET', '/up/_mapping/field/t*');
    expect(r.json).to.deep.equal({
      up: {
        mappings: {
          t: { full_name: 't', mapping: { t: { type: 'text', analyzer: 'standard', fields: { raw: { type: 'keyword' } } } } },
          't.raw': { full_name: 't.raw', mapping: { raw: { type: 'keyword' } } },
        },
      },
    });
  });
});
