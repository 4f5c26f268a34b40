import { expect } from 'chai';
import { EsError } from '../../lib/errors/index.js';
import { translateDeclarative, validateDeclarative } from '../../lib/declarative/index.js';
import { mappingsOf, principal } from './fixtures.js';

async function refusal(body: unknown, who = principal(), defaultIndex: string | undefined = 'places'): Promise<EsError> {
  try {
    await validateDeclarative(body, who, mappingsOf, { defaultIndex });
  } catch (err) {
    expect(err).to.be.instanceOf(EsError);
    return err as EsError;
  }
  throw new Error('expected a refusal');
}

const expect400 = async (body: unknown, reason: string | RegExp, who = principal()) => {
  const err = await refusal(body, who);
  expect(err.status, err.reason).to.equal(400);
  expect(err.type).to.equal('illegal_argument_exception');
  if (typeof reason === 'string') expect(err.reason).to.equal(reason);
  else expect(err.reason).to.match(reason);
};

describe('declarative validation: every refusal names the JSON path', () => {
  it('refuses a missing body, a missing query, unknown keys at every level', async () => {
    await expect400(undefined, 'request body is required');
    await expect400({}, 'query: is required');
    await expect400({ query: [{ id: 'a' }], extra: 1 }, 'extra: unknown key [extra]');
    await expect400({ query: [{ id: 'a' }, { id: 'b', dataFeild: 'name' }] }, 'query[1].dataFeild: unknown key [dataFeild]');
    await expect400({ query: [{ id: 'a', dataField: [{ field: 'name', boost: 2 }] }] }, 'query[0].dataField[0].boost: unknown key [boost]');
    await expect400({ query: [{ id: 'a', react: { and: ['b'], xor: ['c'] } }] }, 'query[0].react.xor: unknown key [xor]');
    await expect400({ query: [{ id: 'a' }], settings: { cache: true } }, 'settings.cache: unknown key [cache]');
  });

  it('refuses wrong types and values', async () => {
    await expect400({ query: { id: 'a' } }, 'query: must be array');
    await expect400({ query: [{ id: 7 }] }, 'query[0].id: must be string');
    await expect400({ query: [{ id: 'a', size: '10' }] }, 'query[0].size: must be integer');
    await expect400({ query: [{ id: 'a', size: -1 }] }, 'query[0].size: must be >= 0');
    await expect400({ query: [{ id: 'a', type: 'sql' }] }, 'query[0].type: must be one of [search, term, range, geo, suggestion]');
    await expect400({ query: [{ id: 'a', dataField: [{ field: 'name', weight: 'x' }] }] }, 'query[0].dataField[0].weight: must be number');
    await expect400({ query: [{ id: 'a', type: 'range', dataField: 'price', value: { start: 1, lte: 5 } }] }, 'query[0].value.lte: unknown key [lte]');
    await expect400({ query: [{ id: 'a', type: 'geo', dataField: 'location', value: { location: { lat: 'x', lon: 1 }, distance: 1 } }] }, 'query[0].value.location.lat: must be number');
    await expect400({ query: [{ id: 'a', type: 'term', dataField: 'city', value: [{ match_all: {} }] }] }, 'query[0].value[0]: must be string,number,boolean');
  });

  it('settings.backend accepts elasticsearch and opensearch only; other settings are typed', async () => {
    await expect400({ query: [{ id: 'a' }], settings: { backend: 'solr' } }, 'settings.backend: must be one of [elasticsearch, opensearch]');
    await expect400({ query: [{ id: 'a' }], settings: { recordAnalytics: 'yes' } }, 'settings.recordAnalytics: must be boolean');
    await expect400({ query: [{ id: 'a' }], settings: { customEvents: { platform: { os: 'ios' } } } }, 'settings.customEvents.platform: must be string,number,boolean');
    const ok = await validateDeclarative(
      { query: [{ id: 'a', dataField: 'name' }], settings: { backend: 'opensearch', recordAnalytics: true, userId: 'u1', customEvents: { platform: 'ios' }, useCache: false, enableQueryRules: true } },
      principal(), mappingsOf, { defaultIndex: 'places' },
    );
    expect(ok.translation.plan.executing).to.have.length(1);
  });

  it('refuses duplicate ids and a component reacting to itself, with the path of the reference', async () => {
    await expect400({ query: [{ id: 'a' }, { id: 'a' }] }, 'query[1].id: duplicate component id [a] (first at query[0])');
    await expect400({ query: [{ id: 'a', react: 'a' }] }, 'query[0].react: component [a] reacts to itself');
    await expect400({ query: [{ id: 'a', react: { and: ['b', { not: 'a' }] } }, { id: 'b' }] }, 'query[0].react.and[1].not: component [a] reacts to itself');
  });

  it('an id the request does not carry contributes nothing (ReactiveSearch clients send part of a UI, and name `<id>__internal`)', async () => {
    const v = await validateDeclarative(
      { query: [{ id: 'a', dataField: 'name', value: 'x' }, { id: 'c', dataField: 'name', react: { and: ['a', 'c__internal', { or: ['price'] }] } }] },
      principal(), mappingsOf, { defaultIndex: 'places' },
    );
    const alone = await validateDeclarative(
      { query: [{ id: 'a', dataField: 'name', value: 'x' }, { id: 'c', dataField: 'name', react: { and: ['a'] } }] },
      principal(), mappingsOf, { defaultIndex: 'places' },
    );
    expect(v.translation.msearch[3]).to.deep.equal(alone.translation.msearch[3]);
  });

  it('accepts components reacting to each other (react is not transitive)', async () => {
    const v = await validateDeclarative(
      { query: [{ id: 'a', react: { and: 'b' }, dataField: 'name' }, { id: 'b', dataField: 'name', react: ['c'] }, { id: 'c', dataField: 'name', react: { not: ['a'] } }] },
      principal(), mappingsOf, { defaultIndex: 'places' },
    );
    expect(v.translation.plan.executing.map((p) => p.id)).to.deep.equal(['a', 'b', 'c']);
  });

  it('refuses a react nested deeper than 16 levels, however deep (no stack overflow)', async () => {
    const nested = (depth: number): unknown => {
      let r: unknown = 'b';
      for (let i = 1; i < depth; i++) r = { and: r };
      return r;
    };
    const body = (depth: number) => ({ query: [{ id: 'a', react: nested(depth) }, { id: 'b' }] });
    // nested(n) holds n - 1 objects: 17 levels are one too many, 16 go on to the other checks
    await expect400(body(18), 'query[0].react: nested deeper than 16 levels');
    await expect400(body(100_000), 'query[0].react: nested deeper than 16 levels');
    expect((await refusal(body(17))).reason).to.not.match(/nested deeper/);
  });

  it('refuses unknown fields with the path of the member naming them', async () => {
    await expect400({ query: [{ id: 'a', dataField: 'nmae', value: 'x' }] }, 'query[0].dataField: unknown field [nmae] in index [places]');
    await expect400({ query: [{ id: 'a', dataField: ['name', { field: 'secret' }] }] }, 'query[0].dataField[1]: unknown field [secret] in index [places]');
    await expect400({ query: [{ id: 'a', dataField: 'name', sortField: 'name^100' }] }, 'query[0].sortField: unknown field [name^100] in index [places]');
    await expect400({ query: [{ id: 'f', type: 'term', dataField: 'city', aggregationField: '_id' }] }, 'query[0].aggregationField: unknown field [_id] in index [places]');
    await expect400({ query: [{ id: 'a', dataField: 'name', highlightField: ['name', '*'] }] }, 'query[0].highlightField[1]: unknown field [*] in index [places]');
    await expect400({ query: [{ id: 'g', type: 'geo', dataField: 'city' }] }, 'query[0].dataField: field [city] is not a geo_point');
    await expect400({ query: [{ id: 't', type: 'term', dataField: 'description' }] }, /^query\[0\]\.dataField: field \[description\] has no keyword sub-field/);
    await expect400({ query: [{ id: 't', type: 'term', dataField: ['city', 'cuisine'] }] }, 'query[0].dataField: a term component takes exactly one field');
  });

  it('needs an index for every component', async () => {
    const err = await validateDeclarative({ query: [{ id: 'a', dataField: 'name' }] }, principal(), mappingsOf).catch((e: EsError) => e);
    expect(err).to.be.instanceOf(EsError);
    expect((err as EsError).reason).to.equal('query[0].index: no index given (neither in the component nor in the path)');
  });

  it("refuses sizes above the credential's max_size; the admin has none", async () => {
    await expect400({ query: [{ id: 'a', dataField: 'name' }, { id: 'b', dataField: 'name', size: 11 }] }, "query[1].size: [11] is above this credential's max_size of [10]", principal({ max_size: 10 }));
    const admin = await validateDeclarative({ query: [{ id: 'b', dataField: 'name', size: 500 }] }, principal({ max_size: 10 }, 'admin'), mappingsOf, { defaultIndex: 'places' });
    expect(admin.translation.msearch[1]).to.have.property('size', 500);
  });

  it('refuses raw DSL (defaultQuery, customQuery) with 403 unless the credential allows it', async () => {
    for (const member of ['defaultQuery', 'customQuery']) {
      const err = await refusal({ query: [{ id: 'a', dataField: 'name', [member]: { match_all: {} } }] });
      expect(err.status).to.equal(403);
      expect(err.type).to.equal('security_exception');
      expect(err.reason).to.equal(`query[0].${member}: raw query DSL is not allowed for user [tester]`);
    }
    const allowed = await validateDeclarative({ query: [{ id: 'a', dataField: 'name', defaultQuery: { match_all: {} } }] }, principal({ allow_raw_dsl: true }), mappingsOf, { defaultIndex: 'places' });
    expect(allowed.translation.msearch[1]).to.deep.equal({ query: { bool: { must: [{ match_all: {} }] } }, size: 10 });
  });
});

describe('declarative injection attempts stay data', () => {
  const dsl = async (component: Record<string, unknown>) => {
    const v = await validateDeclarative({ query: [{ id: 'x', ...component }] }, principal(), mappingsOf, { defaultIndex: 'places' });
    return translateDeclarative(v);
  };
  const PAYLOADS = ['*:*', '{"match_all":{}}', '" OR 1=1 --', '{"query":{"match_all":{}}}', '_source:*', '\\"}}],"query":{"match_all":{}}', 'name:* OR description:*', '</script><script>'];

  it('search values are only ever a query string', async () => {
    for (const payload of PAYLOADS) {
      const { lines, ndjson } = await dsl({ dataField: 'name', value: payload });
      const should = ((lines[1].query as any).bool.must[0].bool.should as any[]);
      expect(should.map((s) => s.multi_match.query)).to.deep.equal([payload, payload, payload]);
      expect(should.map((s) => s.multi_match.fields)).to.deep.equal([['name'], ['name'], ['name']]);
      // the serialised request is two lines, and its structure is the one built: nothing leaked out of the string
      expect(ndjson.split('\n')).to.have.length(3);
      expect(JSON.parse(ndjson.split('\n')[1])).to.deep.equal(lines[1]);
      expect(JSON.stringify(lines[1])).not.to.include('"match_all":{}}]');
    }
  });

  it('a query object as a value is refused by the schema, never spliced in', async () => {
    for (const type of ['search', 'suggestion']) {
      const err = await refusal({ query: [{ id: 'x', type, dataField: 'name', value: { match_all: {} } }] });
      expect(err.reason).to.equal('query[0].value: must be string,number,null');
    }
    const err = await refusal({ query: [{ id: 'x', type: 'range', dataField: 'price', value: { start: { match_all: {} } } }] });
    expect(err.reason).to.equal('query[0].value.start: must be number,string,null');
    const geo = await refusal({ query: [{ id: 'x', type: 'geo', dataField: 'location', value: { location: { lat: 1, lon: 2 }, distance: 1, _source: ['*'] } }] });
    expect(geo.reason).to.equal('query[0].value._source: unknown key [_source]');
  });

  it('term values stay term values, even when they look like queries or wildcards', async () => {
    const { lines } = await dsl({ type: 'term', dataField: 'city', value: ['*', '*:*', '{"match_all":{}}'], execute: true });
    const list = await validateDeclarative(
      { query: [{ id: 'x', type: 'term', dataField: 'city', value: ['*', '*:*', '{"match_all":{}}'] }, { id: 'l', dataField: 'name', react: 'x' }] },
      principal(), mappingsOf, { defaultIndex: 'places' },
    );
    expect(lines[1].query).to.deep.equal({ match_all: {} }); // a facet never filters itself
    expect((list.translation.msearch[3].query as any).bool.must[0]).to.deep.equal({ terms: { city: ['*', '*:*', '{"match_all":{}}'] } });
  });

  it('_source tricks in values, field names and include lists change nothing', async () => {
    const { lines } = await dsl({ dataField: 'name', value: '_source', includeFields: ['name'] });
    expect(lines[1]._source).to.deep.equal({ includes: ['name'] });
    const err = await refusal({ query: [{ id: 'x', dataField: '_source' }] });
    expect(err.reason).to.equal('query[0].dataField: unknown field [_source] in index [places]');
    // a credential's include rules cannot be widened by the component's own list
    const narrowed = await validateDeclarative(
      { query: [{ id: 'x', dataField: 'name', includeFields: ['*', 'description'] }] },
      principal({ include_fields: ['name'] }), mappingsOf, { defaultIndex: 'places' },
    );
    expect(narrowed.translation.msearch[1]._source).to.equal(false);
  });

  it('field weights are numbers, never strings spliced into field names', async () => {
    const err = await refusal({ query: [{ id: 'x', dataField: [{ field: 'name', weight: '100,description' }] }] });
    expect(err.reason).to.equal('query[0].dataField[0].weight: must be number');
  });
});
