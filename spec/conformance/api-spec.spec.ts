import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCall, choosePath, loadApiSpecs, ParamError, toApiSpec, type ApiSpecs } from '../../conformance/index.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const API_DIR = path.resolve(REPO_ROOT, process.env.CONFORMANCE_DIR ?? '../shared/conformance', 'api');

const indexSpec = toApiSpec('index', {
  url: {
    paths: [
      { path: '/{index}/_doc/{id}', methods: ['PUT', 'POST'], parts: { id: {}, index: {} } },
      { path: '/{index}/_doc', methods: ['POST'], parts: { index: {} } },
      { path: '/{index}/{type}/{id}', methods: ['PUT', 'POST'], parts: { id: {}, index: {}, type: {} } },
    ],
  },
  params: { refresh: {}, routing: {}, version: {} },
  body: {},
}, ['pretty', 'filter_path']);

const searchSpec = toApiSpec('search', {
  url: {
    paths: [
      { path: '/_search', methods: ['GET', 'POST'] },
      { path: '/{index}/_search', methods: ['GET', 'POST'], parts: { index: {} } },
    ],
  },
  params: { size: {}, _source_includes: {}, rest_total_hits_as_int: {} },
});

describe('conformance: API spec resolution', () => {
  it('chooses the most specific path whose parts are all given', () => {
    expect(choosePath(indexSpec, new Set(['index', 'id']))?.path).to.equal('/{index}/_doc/{id}');
    expect(choosePath(indexSpec, new Set(['index']))?.path).to.equal('/{index}/_doc');
    expect(choosePath(indexSpec, new Set(['index', 'id', 'type']))?.path).to.equal('/{index}/{type}/{id}');
    expect(choosePath(indexSpec, new Set(['id']))).to.equal(undefined);
  });

  it('fills parts URL-encoded, joins lists with commas, and puts the rest in the query string', () => {
    const call = buildCall(searchSpec, { index: ['a b', 'c中'], size: 0, _source_includes: ['x', 'y'], rest_total_hits_as_int: true });
    expect(call.url).to.equal('/a%20b,c%E4%B8%AD/_search?size=0&_source_includes=x%2Cy&rest_total_hits_as_int=true');
    expect(call.method).to.equal('GET');
    expect(call.body).to.equal(undefined);
  });

  it('uses POST instead of GET when there is a body, and serialises it as JSON', () => {
    const call = buildCall(searchSpec, { index: 'test', body: { query: { match_all: {} } } });
    expect(call.method).to.equal('POST');
    expect(call.body).to.equal('{"query":{"match_all":{}}}');
    expect(call.headers['content-type']).to.equal('application/json');
  });

  it("takes the spec's first method otherwise (PUT for index with an id)", () => {
    expect(buildCall(indexSpec, { index: 'i', id: '1', body: {} }).method).to.equal('PUT');
    expect(buildCall(indexSpec, { index: 'i', body: {} }).method).to.equal('POST');
  });

  it('accepts common params and rejects unknown ones with a ParamError', () => {
    expect(buildCall(indexSpec, { index: 'i', id: '1', pretty: true, body: {} }).url).to.equal('/i/_doc/1?pretty=true');
    expect(() => buildCall(indexSpec, { index: 'i', id: '1', nonsense: 1, body: {} })).to.throw(ParamError);
  });

  it('lets explicit headers override the content type', () => {
    const call = buildCall(indexSpec, { index: 'i', id: '1', body: 'raw' }, { 'Content-Type': 'text/plain' });
    expect(call.headers['content-type']).to.equal('text/plain');
    expect(call.body).to.equal('raw');
  });

  describe('against the real API specs', () => {
    let specs: ApiSpecs;
    before(async () => {
      specs = await loadApiSpecs(API_DIR);
    });

    it('serialises bulk bodies as NDJSON with a trailing newline', () => {
      const call = buildCall(specs.get('bulk')!, {
        refresh: true,
        body: [{ index: { _index: 'test', _id: '1' } }, { f: 1 }, '{"delete":{"_index":"test","_id":"2"}}'],
      });
      expect(call.method).to.equal('POST');
      expect(call.url).to.equal('/_bulk?refresh=true');
      expect(call.headers['content-type']).to.equal('application/x-ndjson');
      expect(call.body).to.equal('{"index":{"_index":"test","_id":"1"}}\n{"f":1}\n{"delete":{"_index":"test","_id":"2"}}\n');
    });

    it('passes a string bulk body through as written', () => {
      const body = '{"index":{"_index":"t"}}\n{"a":1}\n';
      expect(buildCall(specs.get('bulk')!, { index: 't', body }).body).to.equal(body);
    });

    it('resolves HEAD APIs and index-level paths', () => {
      expect(buildCall(specs.get('indices.exists')!, { index: 'test' })).to.include({ method: 'HEAD', url: '/test' });
      expect(buildCall(specs.get('indices.create')!, { index: 'test', body: { settings: {} } })).to.include({ method: 'PUT', url: '/test' });
      expect(buildCall(specs.get('get')!, { index: 'test', id: 'a/b' })).to.include({ method: 'GET', url: '/test/_doc/a%2Fb' });
      expect(buildCall(specs.get('indices.refresh')!, {})).to.include({ method: 'POST', url: '/_refresh' });
    });
  });
});
