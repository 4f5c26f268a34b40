import { classificationOf } from '../../support/classification.js';
import { requestTarget } from '../../../lib/request/index.js';
import { expect } from 'chai';
import { typedMappings, typelessRequest } from '../../../lib/auth/classify/index.js';

/** [method, path, query string, the Elasticsearch 8 path (and query string) or undefined: not a typed path]. */
type Row = [method: string, path: string, querystring: string, expected: string | undefined];

const ROWS: Row[] = [
  // the typed APIs on an index's documents
  ['POST', '/books/_doc/_search', '', '/books/_search'],
  ['POST', '/books/_doc/_search/template', '', '/books/_search/template'],
  ['POST', '/books/_doc/_msearch', '', '/books/_msearch'],
  ['GET', '/books/_doc/_msearch/template', '', '/books/_msearch/template'],
  ['POST', '/books/_doc/_count', '', '/books/_count'],
  ['GET', '/books/_doc/_validate/query', 'q=x', '/books/_validate/query?q=x'],
  ['POST', '/books/_doc/_mget', '', '/books/_mget'],
  ['POST', '/books/_doc/_bulk', 'refresh=true', '/books/_bulk?refresh=true'],
  ['PUT', '/books/_doc/_bulk', '', '/books/_bulk'],
  ['POST', '/books/_doc/_termvectors', '', '/books/_termvectors'],
  ['POST', '/books/_doc/_mtermvectors', '', '/books/_mtermvectors'],
  ['POST', '/books/_doc/_delete_by_query', '', '/books/_delete_by_query'],
  ['POST', '/books/_doc/_update_by_query', '', '/books/_update_by_query'],
  // … on one document
  ['POST', '/books/_doc/1/_update', 'refresh=true', '/books/_update/1?refresh=true'],
  ['PUT', '/books/_doc/1/_create', '', '/books/_create/1'],
  ['POST', '/books/_doc/1/_create', '', '/books/_create/1'],
  ['GET', '/books/_doc/1/_source', '', '/books/_source/1'],
  ['HEAD', '/books/_doc/1/_source', '', '/books/_source/1'],
  ['GET', '/books/_doc/1/_explain', '', '/books/_explain/1'],
  ['POST', '/books/_doc/1/_termvectors', '', '/books/_termvectors/1'],
  ['POST', '/books/_doc/a%2Fb/_update', '', '/books/_update/a%2Fb'],
  ['POST', '/books/_doc/_search/_update', '', '/books/_update/_search'],
  // mappings, typed: include_type_name is Elasticsearch 7's alone
  ['GET', '/books/_mapping/_doc', '', '/books/_mapping'],
  ['GET', '/books/_mappings/_doc', 'include_type_name=true&pretty', '/books/_mappings?pretty'],
  ['PUT', '/books/_mapping/_doc', 'include_type_name', '/books/_mapping'],
  ['POST', '/books/_mapping/_doc', 'include_type_name=false', '/books/_mapping'],
  ['PUT', '/books/_doc/_mapping', '', '/books/_mapping'],
  ['GET', '/books/_mapping/_doc/field/title', '', '/books/_mapping/field/title'],
  ['GET', '/books/_doc/_mapping/field/title', '', '/books/_mapping/field/title'],
  ['GET', '/_mapping/_doc', '', '/_mapping'],
  ['GET', '/_mapping/_doc/field/title', '', '/_mapping/field/title'],
  // index expressions as Elasticsearch 7 took them; the type spelled with escapes
  ['POST', '/a,b*/_doc/_search', '', '/a,b*/_search'],
  ['POST', '/_all/_doc/_search', '', '/_all/_search'],
  ['POST', '/books//_doc//_search/', '', '/books/_search'],
  // a typed path is Elasticsearch 7's API whatever the method (docs/api-compatibility.md)
  ['GET', '/books/_doc/_search', 'q=title:dune', '/books/_search?q=title:dune'],
  ['GET', '/books/_doc/_count', '', '/books/_count'],
  ['GET', '/books/%5Fdoc/_count', '', '/books/_count'],
  // Elasticsearch 8's own, and what ES 7 routed elsewhere (a method its typed API does not take)
  ['GET', '/books/_doc/1', '', undefined],
  ['PUT', '/books/_doc/1', '', undefined],
  ['POST', '/books/_doc', '', undefined],
  ['PUT', '/books/_doc/_search', '', undefined],
  ['DELETE', '/books/_doc/_search', '', undefined],
  ['GET', '/books/_doc/_update', '', undefined],
  ['GET', '/books/_doc/1/_update', '', undefined],
  ['DELETE', '/books/_mapping/_doc', '', undefined],
  ['PUT', '/_mapping/_doc', '', undefined],
  ['GET', '/books/_search', '', undefined],
  ['GET', '/books/_mapping', 'include_type_name=true', undefined],
  ['GET', '/books/product/_search', '', undefined],
  ['GET', '/_doc/_search', '', undefined],
  ['GET', '/books/_doc/_stats', '', undefined],
];

/** The Elasticsearch 8 form of a request given as a client writes it, read through the edge's decoder. */
const typeless = (r: { method: string; path: string; querystring: string }) => {
  const out = typelessRequest(r.method, requestTarget(r.path, r.querystring));
  return out && { path: out.target.path, querystring: out.target.querystring, typedAnswer: out.typedAnswer };
};

describe('Elasticsearch 7 typed paths (`_doc`) in their Elasticsearch 8 form', () => {
  for (const [method, path, querystring, expected] of ROWS) {
    it(`${method} ${path}${querystring ? '?' + querystring : ''} → ${expected ?? 'as it is'}`, () => {
      const out = typeless({ method, path, querystring });
      if (expected === undefined) return void expect(out).to.equal(undefined);
      expect(out, 'a typed path').not.to.equal(undefined);
      expect(out!.path + (out!.querystring ? '?' + out!.querystring : '')).to.equal(expected);
    });
  }

  it('a typed mapping read asks for the typed answer only with include_type_name=true', () => {
    expect(typeless({ method: 'GET', path: '/books/_mapping/_doc', querystring: 'include_type_name=true' })!.typedAnswer).to.equal(true);
    expect(typeless({ method: 'GET', path: '/books/_mapping/_doc', querystring: 'include_type_name' })!.typedAnswer).to.equal(true);
    expect(typeless({ method: 'GET', path: '/books/_mapping/_doc', querystring: 'include_type_name=false' })!.typedAnswer).to.equal(false);
    expect(typeless({ method: 'GET', path: '/books/_mapping/_doc', querystring: '' })!.typedAnswer).to.equal(false);
    expect(typeless({ method: 'PUT', path: '/books/_mapping/_doc', querystring: 'include_type_name=true' })!.typedAnswer).to.equal(false);
  });

  it('include_type_name that is not a boolean is refused as Elasticsearch refuses it', () => {
    expect(() => typeless({ method: 'GET', path: '/books/_mapping/_doc', querystring: 'include_type_name=maybe' }))
      .to.throw('Failed to parse value [maybe] as only [true] or [false] are allowed.');
  });

  it('a typed answer puts each index\'s mappings under `_doc`; an index without mappings keeps `{}`', () => {
    expect(typedMappings({ a: { mappings: { properties: { t: { type: 'text' } } } }, b: { mappings: {} } })).to.deep.equal({
      a: { mappings: { _doc: { properties: { t: { type: 'text' } } } } },
      b: { mappings: {} },
    });
  });

  it('the normalized request is classified as its Elasticsearch 8 form', () => {
    const es8 = typeless({ method: 'POST', path: '/books/_doc/_search', querystring: '' })!;
    expect(classificationOf({ method: 'POST', ...es8 })).to.include({ category: 'search', operation: 'read', action: 'indices:data/read/search' });
    const update = typeless({ method: 'POST', path: '/books/_doc/1/_update', querystring: '' })!;
    expect(classificationOf({ method: 'POST', ...update })).to.include({ category: 'docs', operation: 'write', action: 'indices:data/write/update', id: '1' });
  });

  it('a typed path that was not normalized is classified as Elasticsearch 8 reads it (the engine gets it so)', () => {
    // `_search` is then a document's id: a write, not a read
    expect(classificationOf({ method: 'POST', path: '/books/_doc/_search', querystring: '' })).to.include({ category: 'docs', operation: 'write', id: '_search' });
    expect(classificationOf({ method: 'GET', path: '/books/_doc/_search', querystring: '' })).to.include({ category: 'docs', operation: 'read', id: '_search', action: 'indices:data/read/get' });
    // no Elasticsearch 8 API: unknown, so refused for scoped credentials
    expect(classificationOf({ method: 'POST', path: '/books/_doc/1/_update', querystring: '' })).to.include({ known: false });
  });
});
