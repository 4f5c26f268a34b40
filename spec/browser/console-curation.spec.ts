import { expect } from 'chai';
import { registerPipeline } from '../pipelines/support.js';
import { call } from '../support/http.js';
import { ADMIN } from '../support/servers.js';
import { describeConsole } from './console-fixture.js';

/**
 * The console's curation pages in Chromium: rules reordered, an index's relevancy settings,
 * synonym sets, a credential edited, a pipeline disabled and enabled — each driven in the page and
 * checked through the API (and by the searches that follow).
 */
describeConsole('the console curates search (rules order, relevance, synonyms, credentials, pipelines)', 'curation-', (t) => {
  const ids = (r: { json: { hits: { hits: Array<{ _id: string }> } } }) => r.json.hits.hits.map((h) => h._id).sort();
  const signInAsAdmin = async () => {
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${ADMIN.user} (admin)`]);
  };

  before(async () => {
    expect((await call(t.gw.url, 'PUT', '/shop', { body: {} })).status).to.equal(200);
    for (const [id, name] of [['1', 'red shoe'], ['2', 'blue shoe'], ['3', 'green hat']]) {
      await call(t.gw.url, 'PUT', `/shop/_doc/${id}?refresh=true`, { body: { name } });
    }
  });

  it('moves a rule up: the API keeps the new order, and the first rule now wins', async () => {
    for (const id of ['r-one', 'r-two']) {
      const put = await call(t.gw.url, 'PUT', `/_rule/${id}`, { body: { trigger: { type: 'always', indices: ['shop'] }, actions: { custom_data: id } } });
      expect(put.status, put.text).to.equal(201);
    }
    const customData = async () => (await call(t.gw.url, 'POST', '/shop/_declarative', { body: { query: [{ id: 's', dataField: ['name'], value: 'shoe' }] } })).json.s.customData;
    expect(await customData()).to.equal('r-one');
    await signInAsAdmin();
    await t.open('Rules');
    await t.watch.textsBecome('the rules', '[data-testid="rule-row"] th', ['r-one', 'r-two']);
    await t.watch.visible('the first rule cannot move up', 'button[aria-label="Move r-one up"]:disabled');
    await t.page.locator('button[aria-label="Move r-two up"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="rule-message"]', ['Rule r-two moved up.']);
    await t.watch.visible('the list read again, r-two first', 'button[aria-label="Move r-two up"]:disabled');
    const listed = await call(t.gw.url, 'GET', '/_rules');
    expect(listed.json.rules.map((r: { id: string }) => r.id)).to.deep.equal(['r-two', 'r-one']);
    expect(await customData()).to.equal('r-two');
    for (const id of ['r-one', 'r-two']) await call(t.gw.url, 'DELETE', `/_rule/${id}`);
  });

  it("saves an index's relevance settings (declarative searches follow them), shows the API's refusal, and deletes them", async () => {
    const search = () => call(t.gw.url, 'POST', '/shop/_declarative', { body: { query: [{ id: 's', value: 'shoe' }] } });
    expect((await search()).status).to.equal(400); // no dataField: nothing to search yet
    await signInAsAdmin();
    await t.open('Relevance');
    await t.page.locator('select[name="relevance-index"]').selectOption('shop');
    await t.watch.textsBecome('no settings yet', '[data-testid="relevance-stored"]', ['No settings for shop yet.']);
    await t.page.locator('select[name="relevance-part"]').selectOption('search');
    await t.page.locator('input[name="relevance-as-json"]').check();
    await t.page.locator('textarea[name="relevance-settings"]').fill(JSON.stringify({ dataField: ['name'], size: 1 }));
    await t.page.locator('button').filter({ hasText: 'Save settings' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="relevance-message"]', ['Settings for shop saved.']);
    await t.watch.textsBecome('what is stored', '[data-testid="relevance-stored"]', ['Stored for: search']);
    expect((await call(t.gw.url, 'GET', '/_searchrelevancy/shop')).json.settings).to.deep.equal({ search: { dataField: ['name'], size: 1 } });
    const followed = await search();
    expect(followed.status, followed.text).to.equal(200);
    expect(followed.json.s.hits.hits).to.have.length(1); // two documents match; the settings' size is 1

    await t.page.locator('textarea[name="relevance-settings"]').fill(JSON.stringify({ dataField: ['name'], fuzziness: 7 }));
    await t.page.locator('button').filter({ hasText: 'Save settings' }).click();
    await t.watch.textsBecome("the API's reason", '[role="alert"]', ['search.fuzziness: must be one of [0, 1, 2, AUTO]']);
    expect((await call(t.gw.url, 'GET', '/_searchrelevancy/shop')).json.settings.search).to.deep.equal({ dataField: ['name'], size: 1 });

    await t.page.locator('button').filter({ hasText: 'Delete settings' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="relevance-message"]', ['Settings for shop deleted.']);
    expect((await call(t.gw.url, 'GET', '/_searchrelevancy/shop')).status).to.equal(404);
  });

  it('a synonym rule added in the console makes a search for the synonym find the document; deleting it undoes that', async () => {
    await signInAsAdmin();
    await t.open('Synonyms');
    await t.page.locator('input[name="synonym-set"]').fill('products');
    await t.page.locator('textarea[name="synonym-set-rules"]').fill('tv, television');
    await t.page.locator('button').filter({ hasText: 'Create set' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="synonyms-message"]', ['Set products created.']);
    await t.watch.textsBecome('the sets', '[data-testid="synonym-set-row"] th', ['products']);
    await t.watch.textsBecome("the set's rules", '[data-testid="synonym-rule-row"] td:nth-child(2)', ['tv, television']);

    // an index whose search analyzer reads the set (the set must exist first)
    const made = await call(t.gw.url, 'PUT', '/catalog', {
      body: {
        settings: { analysis: { filter: { syn: { type: 'synonym_graph', synonyms_set: 'products', updateable: true } }, analyzer: { search_syn: { tokenizer: 'standard', filter: ['lowercase', 'syn'] } } } },
        mappings: { properties: { name: { type: 'text', search_analyzer: 'search_syn' } } },
      },
    });
    expect(made.status, made.text).to.equal(200);
    await call(t.gw.url, 'PUT', '/catalog/_doc/1?refresh=true', { body: { name: 'a notebook for travel' } });
    const laptops = () => call(t.gw.url, 'POST', '/catalog/_search', { body: { query: { match: { name: 'laptop' } } } });
    expect(ids(await laptops())).to.deep.equal([]);

    await t.page.locator('input[name="synonym-rule-id"]').fill('laptop');
    await t.page.locator('input[name="synonym-rule"]').fill('laptop, notebook');
    await t.page.locator('button').filter({ hasText: 'Save rule' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="synonyms-message"]', ['Rule laptop created in products.']);
    await t.watch.textsBecome("the set's rules", '[data-testid="synonym-rule-row"] td:nth-child(2)', ['tv, television', 'laptop, notebook']);
    expect((await call(t.gw.url, 'GET', '/_synonyms/products/laptop')).json).to.deep.equal({ id: 'laptop', synonyms: 'laptop, notebook' });
    expect(ids(await laptops())).to.deep.equal(['1']);

    await t.page.locator('button[aria-label="Delete set products"]').click(); // an index's analyzer uses it
    const refused = await call(t.gw.url, 'DELETE', '/_synonyms/products');
    expect(refused.status).to.equal(400);
    await t.watch.textsBecome("the API's reason", '[role="alert"]', [refused.json.error.reason]);

    await t.page.locator('button[aria-label="Delete rule laptop"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="synonyms-message"]', ['Rule laptop deleted from products.']);
    await t.watch.textsBecome("the set's rules", '[data-testid="synonym-rule-row"] td:nth-child(2)', ['tv, television']);
    expect(ids(await laptops())).to.deep.equal([]);
  });

  it('creates a credential with field rules and a rate limit, then edits its operations and limits', async () => {
    await signInAsAdmin();
    await t.open('Access control');
    await t.page.locator('input[name="description"]').fill('curated');
    await t.page.locator('input[name="indices"]').fill('shop');
    await t.page.locator('input[name="include_fields"]').fill('name, price');
    await t.page.locator('input[name="per_ip_per_hour"]').fill('100');
    await t.page.locator('button').filter({ hasText: 'Create credential' }).click();
    await t.page.locator('[data-testid="issued-username"]').waitFor({ state: 'visible' });
    const [username] = await t.page.locator('[data-testid="issued-username"]').allTextContents();
    const made = (await call(t.gw.url, 'GET', `/_credentials/${username}`)).json.credential;
    expect(made).to.deep.include({ description: 'curated', indices: ['shop'], ops: ['read'], include_fields: ['name', 'price'], rate_limit: { per_ip_per_hour: 100 } });

    await t.page.locator(`button[aria-label="Edit ${username}"]`).click();
    await t.watch.textsBecome('the edit form', '#edit-title', [`Edit ${username}`]);
    const edited = (selector: string) => t.page.locator(`form[aria-labelledby="edit-title"] ${selector}`);
    expect(await edited('input[name="include_fields"]').inputValue()).to.equal('name, price'); // prefilled from the API
    expect(await edited('input[name="per_ip_per_hour"]').inputValue()).to.equal('100');
    await edited('input[name="ops"][value="write"]').click();
    await edited('input[name="include_fields"]').fill('');
    await edited('input[name="per_second"]').fill('5');
    await edited('button[type="submit"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="credential-message"]', [`Credential ${username} updated: ops, include_fields, rate_limit.`]);
    const after = (await call(t.gw.url, 'GET', `/_credentials/${username}`)).json.credential;
    expect(after).to.deep.include({ description: 'curated', indices: ['shop'], ops: ['read', 'write'], rate_limit: { per_second: 5, per_ip_per_hour: 100 } });
    expect(after).not.to.have.property('include_fields');
  });

  it("edits a credential's sources, referers, raw-DSL permission and password; the new password signs in, the old one no longer", async () => {
    const made = await call(t.gw.url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['search', 'declarative'] } });
    expect(made.status).to.equal(201);
    const { username } = made.json.credential;
    const oldPassword: string = made.json.password;
    await signInAsAdmin();
    await t.open('Access control');
    await t.page.locator(`button[aria-label="Edit ${username}"]`).click();
    await t.watch.textsBecome('the edit form', '#edit-title', [`Edit ${username}`]);
    const edited = (selector: string) => t.page.locator(`form[aria-labelledby="edit-title"] ${selector}`);
    expect(await edited('input[name="allow_raw_dsl"]').isChecked()).to.equal(false);
    await edited('input[name="sources"]').fill('127.0.0.0/8, ::1/128');
    await edited('input[name="referers"]').fill('https://shop.example.com/*');
    await edited('input[name="allow_raw_dsl"]').check();
    await edited('input[name="password"]').fill('a new long secret');
    await edited('button[type="submit"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="credential-message"]', [`Credential ${username} updated: sources, referers, allow_raw_dsl, password.`]);
    const after = (await call(t.gw.url, 'GET', `/_credentials/${username}`)).json.credential;
    expect(after).to.deep.include({ sources: ['127.0.0.0/8', '::1/128'], referers: ['https://shop.example.com/*'], allow_raw_dsl: true });
    expect(after).not.to.have.property('hash');

    const basic = (password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    const referer = { referer: 'https://shop.example.com/search' };
    expect((await call(t.gw.url, 'GET', '/shop/_search', { auth: basic('a new long secret'), headers: referer })).status).to.equal(200);
    expect((await call(t.gw.url, 'GET', '/shop/_search', { auth: basic(oldPassword), headers: referer })).status).to.equal(401);
    // the referer rule holds: the right password from another page is refused
    expect((await call(t.gw.url, 'GET', '/shop/_search', { auth: basic('a new long secret'), headers: { referer: 'https://evil.example.net/' } })).status).to.equal(403);

    // prefilled again, the password field empty: saving nothing changes nothing
    await t.page.locator(`button[aria-label="Edit ${username}"]`).click();
    await t.watch.textsBecome('the edit form', '#edit-title', [`Edit ${username}`]);
    expect(await edited('input[name="sources"]').inputValue()).to.equal('127.0.0.0/8, ::1/128');
    expect(await edited('input[name="allow_raw_dsl"]').isChecked()).to.equal(true);
    expect(await edited('input[name="password"]').inputValue()).to.equal('');
    await edited('button[type="submit"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="credential-message"]', [`Nothing changed for ${username}.`]);
  });

  it('disables a pipeline (the route answers as built in again) and enables it, its script file kept', async () => {
    const definition = JSON.stringify({ id: 'count-probe', routes: [{ path: '/shop/_count', method: 'GET' }], stages: [{ id: 'answer', scriptRef: 'answer.js' }] });
    const script = 'function handleRequest() { return { response: { code: 200, body: JSON.stringify({ from: "the pipeline" }) } } }';
    expect((await registerPipeline(t.gw.url, definition, { 'answer.js': script })).status).to.equal(201);
    const count = async () => (await call(t.gw.url, 'GET', '/shop/_count')).json;
    expect(await count()).to.deep.equal({ from: 'the pipeline' });
    await signInAsAdmin();
    await t.open('Pipelines');
    await t.page.locator('button[aria-label="Disable count-probe"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="pipeline-message"]', ['Pipeline count-probe disabled.']);
    await t.watch.visible('the row read again', 'button[aria-label="Enable count-probe"]');
    const stored = (await call(t.gw.url, 'GET', '/_pipeline/count-probe')).json.pipeline;
    expect(stored.enabled).to.equal(false);
    expect(stored.scripts).to.deep.equal({ 'answer.js': script });
    expect((await count()).count).to.equal(3);
    await t.page.locator('button[aria-label="Enable count-probe"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="pipeline-message"]', ['Pipeline count-probe enabled.']);
    expect(await count()).to.deep.equal({ from: 'the pipeline' });
    await call(t.gw.url, 'DELETE', '/_pipeline/count-probe');
  });
});
