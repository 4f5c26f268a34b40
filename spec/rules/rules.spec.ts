import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

const PRODUCTS = [
  { _id: '1', name: 'iPhone 15', brand: 'apple', kind: 'phone' },
  { _id: '2', name: 'iPhone 14 refurbished', brand: 'apple', kind: 'phone' },
  { _id: '3', name: 'Galaxy phone', brand: 'samsung', kind: 'phone' },
  { _id: '4', name: 'iPhone case', brand: 'acme', kind: 'case' },
  { _id: '5', name: 'Television 55 inch', brand: 'sony', kind: 'tv' },
];

const ids = (hits: Array<{ _id: string }>) => hits.map((h) => h._id);

for (const backend of BACKENDS) {
  describe(`query rules and search relevancy (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let shopAuth: string;
    let blogAuth: string;

    const search = async (value: string, settings: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, auth?: string) => {
      const res = await call(gw.url, 'POST', '/shop/_declarative', { auth, body: { query: [{ id: 's', dataField: ['name'], value, ...extra }], settings } });
      expect(res.status, res.text).to.equal(200);
      return res.json.s;
    };
    const putRule = async (id: string, rule: Record<string, unknown>, auth?: string) => {
      const res = await call(gw.url, 'PUT', `/_rule/${id}`, { auth, body: rule });
      expect(res.status, res.text).to.be.oneOf([200, 201]);
      return res;
    };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const lines = PRODUCTS.flatMap(({ _id, ...doc }) => [JSON.stringify({ index: { _index: 'shop', _id } }), JSON.stringify(doc)]);
      const bulk = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
      expect(bulk.json.errors, bulk.text).to.equal(false);
      await call(gw.url, 'PUT', '/blog/_doc/1?refresh=true', { body: { name: 'iPhone review' } });
      const make = async (index: string) => {
        const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: [index], categories: ['search', 'declarative', 'rules', 'searchrelevancy'], ops: ['read', 'write', 'delete'] } });
        expect(res.status, res.text).to.equal(201);
        return basic(res.json.credential.username, res.json.password);
      };
      shopAuth = await make('shop');
      blogAuth = await make('blog');
    });
    after(() => stop());
    afterEach(async () => {
      for (const r of (await call(gw.url, 'GET', '/_rules')).json.rules) await call(gw.url, 'DELETE', `/_rule/${r.id}`);
      await call(gw.url, 'DELETE', '/_searchrelevancy/shop');
      await call(gw.url, 'DELETE', '/_searchrelevancy/_default');
    });

    it('promotes, hides and adds custom data for the query it triggers on, and not for others', async () => {
      await putRule('iphone', {
        trigger: { type: 'query', operator: 'is', value: 'IPHONE' },
        actions: { promote: [{ doc: { _id: '3' }, position: 1 }], hide: ['2'], custom_data: { banner: 'sale' } },
      });
      const hit = await search('iphone');
      expect(ids(hit.hits.hits)[0]).to.equal('3');
      expect(ids(hit.hits.hits)).not.to.include('2');
      expect(hit.hits.hidden).to.equal(1);
      expect(hit.promoted).to.have.length(1);
      expect(hit.promoted[0].position).to.equal(1);
      expect(hit.promoted[0].doc._source.name).to.equal('Galaxy phone');
      expect(hit.customData).to.deep.equal({ banner: 'sale' });
      const other = await search('iphone case');
      expect(other.promoted).to.equal(undefined);
      expect(other.customData).to.equal(undefined);
      expect(ids(other.hits.hits)).to.include('2');
      // accents and case do not matter
      expect((await search('ÍPHONE')).customData).to.deep.equal({ banner: 'sale' });
      // suggestion components are curated too
      const sug = await call(gw.url, 'POST', '/shop/_declarative', { body: { query: [{ id: 'sug', type: 'suggestion', dataField: 'name', value: 'iphone' }] } });
      expect(sug.json.sug.customData, sug.text).to.deep.equal({ banner: 'sale' });
      expect(sug.json.sug.suggestions.map((x: { _id: string }) => x._id)).not.to.include('2');
    });

    it('filters and rewrites the search text', async () => {
      await putRule('apple-only', { trigger: { type: 'query', operator: 'contains', value: 'phone' }, actions: { add_filter: { brand: 'apple' } } });
      expect(ids((await search('iphone')).hits.hits).sort()).to.deep.equal(['1', '2']);
      await call(gw.url, 'DELETE', '/_rule/apple-only');
      await putRule('tv', { trigger: { type: 'query', operator: 'is', value: 'tv' }, actions: { replace_search_term: 'television' } });
      expect(ids((await search('tv')).hits.hits)).to.deep.equal(['5']);
      await putRule('words', { trigger: { type: 'query', operator: 'starts_with', value: 'cheap' }, actions: [{ type: 'remove_words', value: ['cheap'] }, { type: 'replace_words', value: { mobile: 'galaxy' } }] });
      expect(ids((await search('cheap mobile')).hits.hits)).to.deep.equal(['3']);
    });

    it('a time window outside now, a disabled rule and enableQueryRules: false do nothing', async () => {
      const now = Math.floor(Date.now() / 1000);
      await putRule('past', { trigger: { type: 'always', timeframe: { end_time: now - 3600 } }, actions: { custom_data: 'past' } });
      await putRule('future', { trigger: { type: 'always', timeframe: { start_time: now + 3600 } }, actions: { custom_data: 'future' } });
      await putRule('off', { enabled: false, trigger: { type: 'always' }, actions: { custom_data: 'off' } });
      expect((await search('iphone')).customData).to.equal(undefined);
      await putRule('now', { trigger: { type: 'always', timeframe: { start_time: now - 60, end_time: now + 3600 } }, actions: { custom_data: 'now' } });
      expect((await search('iphone')).customData).to.equal('now');
      expect((await search('iphone', { enableQueryRules: false })).customData).to.equal(undefined);
    });

    it('the first rule in order wins what has one value; PUT /_rules/_order changes the order', async () => {
      await putRule('a', { trigger: { type: 'always' }, actions: { custom_data: 'a', replace_search_term: 'galaxy' } });
      await putRule('b', { trigger: { type: 'always' }, actions: { custom_data: 'b', replace_search_term: 'television' } });
      expect((await call(gw.url, 'GET', '/_rules')).json.rules.map((r: { id: string }) => r.id)).to.deep.equal(['a', 'b']);
      let s = await search('anything');
      expect([s.customData, ids(s.hits.hits)]).to.deep.equal(['a', ['3']]);
      const order = await call(gw.url, 'PUT', '/_rules/_order', { body: { ids: ['b', 'a'] } });
      expect(order.status, order.text).to.equal(200);
      expect((await call(gw.url, 'GET', '/_rules')).json.rules.map((r: { id: string }) => r.id)).to.deep.equal(['b', 'a']);
      s = await search('anything');
      expect([s.customData, ids(s.hits.hits)]).to.deep.equal(['b', ['5']]);
    });

    it('a new rule goes last, in creation order (not by id), before and after an explicit order', async () => {
      const listed = async () => (await call(gw.url, 'GET', '/_rules')).json.rules.map((r: { id: string }) => r.id);
      for (const id of ['z', 'm', 'a']) await putRule(id, { trigger: { type: 'always' }, actions: { custom_data: id } });
      expect(await listed()).to.deep.equal(['z', 'm', 'a']);
      await putRule('m', { trigger: { type: 'always' }, actions: { custom_data: 'm2' } }); // an update keeps its place
      expect(await listed()).to.deep.equal(['z', 'm', 'a']);
      expect((await call(gw.url, 'PUT', '/_rules/_order', { body: { ids: ['a'] } })).status).to.equal(200);
      await putRule('b', { trigger: { type: 'always' }, actions: { custom_data: 'b' } });
      expect(await listed()).to.deep.equal(['a', 'z', 'm', 'b']);
      expect((await search('anything')).customData).to.equal('a');
    });

    it('filter, matches and expression triggers', async () => {
      await putRule('brand', { trigger: { type: 'filter', filter: { field: 'brand', value: 'Apple' } }, actions: { custom_data: 'apple selected' } });
      const withFacet = await call(gw.url, 'POST', '/shop/_declarative', {
        body: { query: [{ id: 'brand', type: 'term', dataField: 'brand', value: ['apple'] }, { id: 's', dataField: ['name'], value: 'iphone', react: { and: ['brand'] } }] },
      });
      expect(withFacet.json.s.customData, withFacet.text).to.equal('apple selected');
      expect((await search('iphone')).customData).to.equal(undefined);
      await putRule('re', { trigger: { type: 'query', operator: 'matches', value: '^gal.*y$' }, actions: { custom_data: 'regex' } });
      expect((await search('Galaxy')).customData).to.equal('regex');
      await putRule('expr', { trigger: { type: 'always', expression: '$index == "shop" && $query == "case"' }, actions: { custom_data: 'expr' } });
      expect((await search('case')).customData).to.equal('expr');
      expect((await search('cases')).customData).to.equal(undefined);
    });

    it('a rule under test applies inline without being stored', async () => {
      const s = await search('iphone', { queryRule: { trigger: { type: 'query', value: 'iphone' }, actions: { hide: ['1'] } } });
      expect(s.hits.hidden).to.equal(1);
      expect(ids(s.hits.hits)).not.to.include('1');
      expect((await call(gw.url, 'GET', '/_rules')).json.rules).to.deep.equal([]);
      const bad = await call(gw.url, 'POST', '/shop/_declarative', { body: { query: [{ id: 's', dataField: ['name'], value: 'x' }], settings: { queryRule: { trigger: { type: 'nope' }, actions: {} } } } });
      expect(bad.status).to.equal(400);
      expect(bad.json.error.reason).to.match(/^settings\.queryRule\.trigger\.type/);
    });

    it('a plain _search with X-Search-Query gets the rules too', async () => {
      await putRule('iphone', { trigger: { type: 'query', value: 'iphone' }, actions: { promote: [{ doc: { _id: '5' }, position: 1 }], hide: ['1'], custom_data: 1 } });
      const res = await call(gw.url, 'POST', '/shop/_search', { headers: { 'x-search-query': 'iPhone' }, body: { query: { match: { name: 'iphone' } } } });
      expect(res.status, res.text).to.equal(200);
      expect(ids(res.json.hits.hits)[0]).to.equal('5');
      expect(ids(res.json.hits.hits)).not.to.include('1');
      expect(res.json.hits.hidden).to.equal(1);
      expect(res.json.customData).to.equal(1);
      expect(res.json.aggregations).to.equal(undefined);
      const plain = await call(gw.url, 'POST', '/shop/_search', { body: { query: { match: { name: 'iphone' } } } });
      expect(ids(plain.json.hits.hits)).to.include('1');
      expect(plain.json.customData).to.equal(undefined);
    });

    it('an _msearch with X-Search-Query gets the rules per search, and answers only its own searches', async () => {
      await putRule('iphone', { trigger: { type: 'query', value: 'iphone', indices: ['shop'] }, actions: { promote: [{ doc: { _id: '5' }, position: 2 }], hide: ['1'], custom_data: 'm' } });
      const body = [{ index: 'shop' }, { query: { match: { name: 'iphone' } } }, { index: 'blog' }, { query: { match_all: {} } }].map((l) => JSON.stringify(l)).join('\n') + '\n';
      const res = await call(gw.url, 'POST', '/_msearch', { headers: { 'x-search-query': 'iphone', 'content-type': 'application/x-ndjson' }, body });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.responses).to.have.length(2);
      const [shop, blog] = res.json.responses;
      expect(ids(shop.hits.hits)[1]).to.equal('5');
      expect(ids(shop.hits.hits)).not.to.include('1');
      expect([shop.hits.hidden, shop.customData, shop.promoted[0].position]).to.deep.equal([1, 'm', 2]);
      expect(blog.customData).to.equal(undefined);
      expect(blog.hits.hits).to.have.length(1);
    });

    it('validates rules with 400s naming the member, and manages them by id', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{ trigger: { type: 'query' }, actions: { hide: ['1'] } }, /trigger\.value/],
        [{ trigger: { type: 'always' }, actions: { promote: [{ doc: { _id: '1' }, position: 0 }] } }, /actions\.promote\[0\]\.position/],
        [{ trigger: { type: 'always' }, actions: { shuffle: true } }, /shuffle|actions/],
        [{ trigger: { type: 'query', operator: 'matches', value: '(?=x)' }, actions: { hide: ['1'] } }, /trigger\.value/],
        [{ trigger: { type: 'always', expression: '$query ==' }, actions: { hide: ['1'] } }, /trigger\.expression/],
        [{ trigger: { type: 'always', timeframe: { start_time: 10, end_time: 5 } }, actions: { hide: ['1'] } }, /timeframe/],
      ];
      for (const [body, reason] of cases) {
        const res = await call(gw.url, 'POST', '/_rule', { body });
        expect(res.status, res.text).to.equal(400);
        expect(res.json.error.reason).to.match(reason);
      }
      const huge = await call(gw.url, 'POST', '/_rule', { body: { trigger: { type: 'always' }, actions: { custom_data: 'x'.repeat(200_000) } } });
      expect(huge.status, huge.text).to.equal(400);
      expect(huge.json.error.reason).to.match(/above the limit of 102400/);
      const created = await call(gw.url, 'POST', '/_rule', { body: { name: 'gen', trigger: { type: 'always' }, actions: { custom_data: 1 } } });
      expect(created.status).to.equal(201);
      const id = created.json._id;
      expect((await call(gw.url, 'GET', `/_rule/${id}`)).json.rule.name).to.equal('gen');
      expect((await call(gw.url, 'DELETE', `/_rule/${id}`)).status).to.equal(200);
      expect((await call(gw.url, 'GET', `/_rule/${id}`)).status).to.equal(404);
    });

    it("a tenant's rules reach its own indices only, and other tenants cannot see them", async () => {
      const foreign = await call(gw.url, 'PUT', '/_rule/t1', { auth: shopAuth, body: { trigger: { type: 'always', indices: ['blog'] }, actions: { custom_data: 'x' } } });
      expect(foreign.status).to.equal(403);
      expect((await call(gw.url, 'PUT', '/_rule/t2', { auth: shopAuth, body: { trigger: { type: 'always', indices: ['*'] }, actions: { custom_data: 'x' } } })).status).to.equal(403);
      await putRule('shop-rule', { trigger: { type: 'always' }, actions: { custom_data: 'shop tenant' } }, shopAuth);
      expect((await search('iphone', {}, {}, shopAuth)).customData).to.equal('shop tenant');
      const blog = await call(gw.url, 'POST', '/blog/_declarative', { auth: blogAuth, body: { query: [{ id: 's', dataField: ['name'], value: 'iphone' }] } });
      expect(blog.json.s.customData, blog.text).to.equal(undefined);
      expect((await call(gw.url, 'GET', '/_rules', { auth: blogAuth })).json.rules).to.deep.equal([]);
      expect((await call(gw.url, 'GET', '/_rule/shop-rule', { auth: blogAuth })).status).to.equal(403);
      expect((await call(gw.url, 'DELETE', '/_rule/shop-rule', { auth: blogAuth })).status).to.equal(403);
      expect((await call(gw.url, 'GET', '/_rules', { auth: shopAuth })).json.rules.map((r: { id: string }) => r.id)).to.deep.equal(['shop-rule']);
    });

    it("a rule action or relevancy default reading a field hidden from the caller is not applied for it, however it was stored", async () => {
      const created = await call(gw.url, 'PUT', '/vault', { body: { mappings: { properties: { name: { type: 'text' }, secret: { type: 'keyword' }, code: { type: 'alias', path: 'secret' } } } } });
      expect(created.status, created.text).to.equal(200);
      for (const [id, secret] of [['1', 'a'], ['2', 'b']]) await call(gw.url, 'PUT', `/vault/_doc/${id}?refresh=true`, { body: { name: 'vault item', secret } });
      const make = async (fields: Record<string, unknown>) => {
        const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['vault'], categories: ['search', 'declarative', 'rules', 'searchrelevancy'], ops: ['read', 'write'], ...fields } });
        expect(res.status, res.text).to.equal(201);
        return { auth: basic(res.json.credential.username, res.json.password), username: res.json.credential.username as string };
      };
      const found = async (auth: string | undefined, settings: Record<string, unknown> = {}) => {
        const res = await call(gw.url, 'POST', '/vault/_declarative', { auth, body: { query: [{ id: 's', dataField: ['name'], value: 'vault' }], settings } });
        expect(res.status, res.text).to.equal(200);
        return ids(res.json.s.hits.hits).sort();
      };
      // stored before its author was given field rules
      const early = await make({});
      await putRule('vault-secret', { trigger: { type: 'always', indices: ['vault'] }, actions: { add_filter: { secret: 'a' }, custom_data: 'kept' } }, early.auth);
      expect(await found(early.auth)).to.deep.equal(['1']);
      const patched = await call(gw.url, 'PATCH', `/_credentials/${early.username}`, { body: { exclude_fields: ['secret'] } });
      expect(patched.status, patched.text).to.equal(200);
      expect(await found(early.auth)).to.deep.equal(['1', '2']);
      const plain = await call(gw.url, 'POST', '/vault/_search', { auth: early.auth, headers: { 'x-search-query': 'vault' }, body: { query: { match: { name: 'vault' } } } });
      expect(plain.status, plain.text).to.equal(200);
      expect(ids(plain.json.hits.hits).sort()).to.deep.equal(['1', '2']);
      expect(plain.json.customData).to.equal('kept'); // the rule's other actions still apply
      expect(await found(undefined)).to.deep.equal(['1']); // the admin sees every field: the rule applies
      await call(gw.url, 'DELETE', '/_rule/vault-secret');
      // naming an alias of the hidden field, and inline (a rule under test)
      const hiding = await make({ exclude_fields: ['secret'] });
      await putRule('vault-code', { trigger: { type: 'always', indices: ['vault'] }, actions: { add_filter: { code: 'a' } } }, hiding.auth);
      expect(await found(hiding.auth)).to.deep.equal(['1', '2']);
      await call(gw.url, 'DELETE', '/_rule/vault-code');
      expect(await found(hiding.auth, { queryRule: { trigger: { type: 'always' }, actions: { add_filter: { secret: 'a' } } } })).to.deep.equal(['1', '2']);
      // a relevancy default stored before the field rules: its hidden field is left out
      expect((await call(gw.url, 'PUT', '/_searchrelevancy/vault', { body: { search: { dataField: ['secret'], size: 5 } } })).status).to.equal(201);
      const bySecret = { query: [{ id: 's', value: 'a' }] };
      expect(ids((await call(gw.url, 'POST', '/vault/_declarative', { body: bySecret })).json.s.hits.hits)).to.deep.equal(['1']);
      const defaulted = await call(gw.url, 'POST', '/vault/_declarative', { auth: hiding.auth, body: bySecret });
      expect(defaulted.status, defaulted.text).to.equal(400); // no dataField of its own, and the default's is hidden
      expect(defaulted.json.error.reason).to.match(/dataField/);
      await call(gw.url, 'DELETE', '/_searchrelevancy/vault');
      await call(gw.url, 'DELETE', '/vault');
    });

    it('search relevancy settings are defaults a request overrides, validated like a declarative request', async () => {
      const put = await call(gw.url, 'PUT', '/_searchrelevancy/shop', { body: { search: { dataField: [{ field: 'name', weight: 2 }], size: 1 } } });
      expect(put.status, put.text).to.equal(201);
      const s = await call(gw.url, 'POST', '/shop/_declarative', { body: { query: [{ id: 's', value: 'iphone' }] } });
      expect(s.json.s.hits.hits, s.text).to.have.length(1);
      expect((await search('iphone', {}, { size: 3 })).hits.hits).to.have.length(3);
      const off = await call(gw.url, 'POST', '/shop/_declarative', { body: { query: [{ id: 's', value: 'iphone' }], settings: { enableSearchRelevancy: false } } });
      expect(off.status).to.equal(400); // no dataField without the settings
      await call(gw.url, 'PUT', '/_searchrelevancy/_default', { body: { search: { size: 2 } } });
      await call(gw.url, 'DELETE', '/_searchrelevancy/shop');
      expect((await search('iphone')).hits.hits).to.have.length(2);
      const bad = await call(gw.url, 'PUT', '/_searchrelevancy/shop', { body: { search: { fuzziness: 7 } } });
      expect(bad.status).to.equal(400);
      expect(bad.json.error.reason).to.match(/^search\.fuzziness/);
      expect((await call(gw.url, 'PUT', '/_searchrelevancy/blog', { auth: shopAuth, body: { search: { size: 1 } } })).status).to.equal(403);
      expect((await call(gw.url, 'PUT', '/_searchrelevancy/_default', { auth: shopAuth, body: { search: { size: 1 } } })).status).to.equal(403);
      expect((await call(gw.url, 'PUT', '/_searchrelevancy/shop', { auth: shopAuth, body: { search: { size: 1 } } })).status).to.equal(201);
    });

    it("an index's relevancy settings are deleted with the index", async () => {
      await call(gw.url, 'PUT', '/scratch/_doc/1?refresh=true', { body: { name: 'x' } });
      expect((await call(gw.url, 'PUT', '/_searchrelevancy/scratch', { body: { search: { size: 1 } } })).status).to.equal(201);
      expect((await call(gw.url, 'DELETE', '/scratch')).status).to.equal(200);
      expect((await call(gw.url, 'GET', '/_searchrelevancy/scratch')).status).to.equal(404);
    });
  });
}
