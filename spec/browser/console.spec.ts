import { expect } from 'chai';
import { basic, call } from '../support/http.js';
import { ADMIN, REPO_ROOT } from '../support/servers.js';
import { describeConsole } from './console-fixture.js';

/**
 * The console (`/_console`, console/), served by the gateway, in Debian's Chromium: signing in
 * with good and bad credentials, what a credential sees, and the admin's pages driven end to end
 * against writes made through the API.
 */
describeConsole('the console in Chromium (served by the gateway at /_console)', 'console-', (t) => {
  let scoped: { username: string; password: string };

  before(async () => {
    for (const index of ['shop', 'hr']) {
      expect((await call(t.gw.url, 'PUT', `/${index}`, { body: {} })).status).to.equal(200);
      await call(t.gw.url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { name: index } });
    }
    await call(t.gw.url, 'PUT', '/shop/_doc/2?refresh=true', { body: { name: 'two' } });
    const made = await call(t.gw.url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['indices', 'search'], ops: ['read'] } });
    expect(made.status, made.text).to.equal(201);
    scoped = { username: made.json.credential.username, password: made.json.password };
  });

  it('is served with a strict Content-Security-Policy, and says how to build it when it is not built', async () => {
    const res = await call(t.gw.url, 'GET', '/_console/', { auth: null });
    expect(res.status).to.equal(200);
    expect(String(res.headers['content-security-policy'])).to.contain("script-src 'self'").and.contain("frame-ancestors 'none'");
    expect(res.headers['cache-control']).to.equal('no-cache');
    const outside = await call(t.gw.url, 'GET', '/_console/assets/..%2f..%2fpackage.json', { auth: null });
    expect(outside.status).to.equal(400);
    const missingFile = await call(t.gw.url, 'GET', '/_console/assets/nope.js', { auth: null });
    expect(missingFile.status).to.equal(404);
    expect(missingFile.text).not.to.contain(REPO_ROOT);
  });

  it('a wrong password is refused with a message; the admin sees every index', async () => {
    await t.signIn(ADMIN.user, 'not-the-password');
    await t.watch.textsBecome('the refusal', '[role="alert"]', ['Wrong username or password.']);
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${ADMIN.user} (admin)`]);
    await t.watch.textsBecome('the indices', '[data-testid="index-row"] th', ['hr', 'shop']);
    const health = await call(t.gw.url, 'GET', '/_cluster/health');
    await t.watch.textsBecome("the cluster's health, as the API says it", '[data-testid="cluster-health"]', [health.json.status]);
  });

  it('the admin creates a scoped credential (its password shown once), signs in with it, and revokes it', async () => {
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${ADMIN.user} (admin)`]);
    await t.page.locator('nav button').filter({ hasText: 'Access control' }).click();
    await t.page.locator('input[name="description"]').fill('console-made');
    await t.page.locator('input[name="indices"]').fill('shop');
    await t.page.locator('input[name="categories"][value="indices"]').click(); // search and docs are checked already
    await t.page.locator('button[type="submit"]').click();
    await t.page.locator('[data-testid="issued-username"]').waitFor({ state: 'visible' });
    const [username] = await t.page.locator('[data-testid="issued-username"]').allTextContents();
    const [password] = await t.page.locator('[data-testid="issued-password"]').allTextContents();
    const listed = await call(t.gw.url, 'GET', `/_credentials/${username}`);
    expect(listed.json.credential).to.deep.include({ description: 'console-made', indices: ['shop'], ops: ['read'] });
    expect(listed.json.credential.categories).to.have.members(['docs', 'search', 'indices']);
    await t.page.locator('button').filter({ hasText: 'I have saved it' }).click();
    await t.page.locator('button').filter({ hasText: 'Sign out' }).click();

    await t.signIn(username, password);
    await t.watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${username} (user)`]);
    await t.watch.textsBecome('its one index', '[data-testid="index-row"] th', ['shop']);
    await t.page.locator('button').filter({ hasText: 'Sign out' }).click();

    await t.signIn(ADMIN.user, ADMIN.password);
    await t.page.locator('nav button').filter({ hasText: 'Access control' }).click();
    await t.page.locator(`button[aria-label="Revoke ${username}"]`).click();
    await t.page.locator('button').filter({ hasText: `Confirm revoking ${username}` }).click();
    // the confirmation goes once the list, read again after the DELETE, no longer has the credential
    await t.page.locator('button').filter({ hasText: `Confirm revoking ${username}` }).waitFor({ state: 'detached' });
    expect(await t.page.locator(`button[aria-label="Revoke ${username}"]`).allTextContents()).to.deep.equal([]);
    expect((await call(t.gw.url, 'GET', '/_security/_authenticate', { auth: basic(username, password) })).status).to.equal(401);
  });

  it('the data browser adds, shows and edits a document; the live view shows a write made through the API', async () => {
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.page.locator('nav button').filter({ hasText: 'Data' }).click();
    await t.page.locator('select[name="index"]').selectOption('shop');
    await t.watch.textsBecome("shop's documents", '[data-testid="doc-row"] th', ['1', '2']);
    await t.page.locator('button').filter({ hasText: 'Add a document' }).click();
    await t.page.locator('input[name="new-id"]').fill('console-1');
    await t.page.locator('textarea[name="document"]').fill('{"name": "from the console"}');
    await t.page.locator('button').filter({ hasText: /^Save$/ }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="data-message"]', ['Document console-1 created.']);
    expect((await call(t.gw.url, 'GET', '/shop/_doc/console-1')).json._source).to.deep.equal({ name: 'from the console' });
    await t.page.locator('button[aria-label="Open document console-1"]').click();
    await t.page.locator('textarea[name="document"]').fill('{"name": "edited in the console", "n": 2}');
    await t.page.locator('button').filter({ hasText: /^Save$/ }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="data-message"]', ['Document console-1 updated.']);
    expect((await call(t.gw.url, 'GET', '/shop/_doc/console-1')).json._source).to.deep.equal({ name: 'edited in the console', n: 2 });

    await t.page.locator('nav button').filter({ hasText: 'Live view' }).click();
    await t.page.locator('select[name="live-index"]').selectOption('shop');
    await t.page.locator('button').filter({ hasText: 'Open stream' }).click();
    await t.watch.textsBecome('the first answer', '[data-testid="stream-first"]', ['result: 3 hits']);
    await call(t.gw.url, 'PUT', '/shop/_doc/live-1', { body: { name: 'written through the API' } });
    await t.watch.textsBecome('the change', '[data-testid="stream-change"]', ['live-1 new: {"name":"written through the API"}']);
  });

  it('the live view streams live aggregations, a document, and a declarative search UI', async () => {
    expect((await call(t.gw.url, 'PUT', '/stock', { body: { mappings: { properties: { k: { type: 'keyword' } } } } })).status).to.equal(200);
    await call(t.gw.url, 'PUT', '/stock/_doc/1?refresh=true', { body: { k: 'a' } });
    const counts = { size: 0, aggs: { k: { terms: { field: 'k' } } } };
    const counted = async () => (await call(t.gw.url, 'POST', '/stock/_search', { body: counts })).json;
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.open('Live view');
    await t.page.locator('select[name="live-index"]').selectOption('stock');
    await t.page.locator('textarea[name="live-body"]').fill(JSON.stringify(counts));
    await t.page.locator('button').filter({ hasText: 'Open stream' }).click();
    const before = await counted();
    await t.watch.textsBecome('the counts', '[data-testid="stream-first"]', [`result: 1 hits, aggregations: ${JSON.stringify(before.aggregations)}`]);
    await call(t.gw.url, 'PUT', '/stock/_doc/2?refresh=true', { body: { k: 'b' } });
    const after = await counted();
    expect(after.aggregations.k.buckets).to.have.length(2);
    await t.watch.textsBecome('the new counts, pushed', '[data-testid="stream-change"]', [`2 hits, aggregations: ${JSON.stringify(after.aggregations)}`]);

    await t.page.locator('select[name="live-kind"]').selectOption('document');
    await t.page.locator('input[name="live-id"]').fill('1');
    await t.page.locator('button').filter({ hasText: 'Reopen' }).click();
    await t.watch.textsBecome('the document', '[data-testid="stream-first"]', ['document 1: {"k":"a"}']);
    await call(t.gw.url, 'PUT', '/stock/_doc/1', { body: { k: 'c' } });
    await t.watch.textsBecome('its change', '[data-testid="stream-change"]', ['1 new: {"k":"c"}']);

    await t.page.locator('select[name="live-kind"]').selectOption('declarative');
    await t.page.locator('textarea[name="live-body"]').fill(JSON.stringify({ query: [{ id: 'results', dataField: ['k'], size: 10 }] }));
    await t.page.locator('button').filter({ hasText: 'Reopen' }).click();
    await t.watch.textsBecome('the UI', '[data-testid="stream-first"]', ['answer: results']);
    await call(t.gw.url, 'PUT', '/stock/_doc/3?refresh=true', { body: { k: 'd' } });
    await t.watch.textsBecome("the result list's change", '[data-testid="stream-change"]', ['results: 3 entered']);
  });

  it('the cache page empties the cache and saves preferences; the analytics page shows the searches made', async () => {
    // three users (the same user typing again within 30 s counts as one search)
    for (const [user, q] of [['ann', 'dune'], ['bob', 'dune'], ['cy', 'nothing-like-this']]) {
      const r = await call(t.gw.url, 'POST', '/shop/_search', { body: { query: { match: { name: q } } }, headers: { 'x-search-query': q, 'x-user-id': user } });
      expect(r.status).to.equal(200);
    }
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.page.locator('nav button').filter({ hasText: 'Analytics' }).click();
    await t.watch.textsBecome('the searches counted', '[data-testid="total-searches"]', ['3']);
    await t.watch.textsBecome('the popular searches', '[data-testid="popular-searches"] tbody th', ['dune', 'nothing-like-this']);
    await t.watch.textsBecome('the search without results', '[data-testid="no-result-searches"] tbody th', ['dune', 'nothing-like-this']);

    await t.page.locator('nav button').filter({ hasText: 'Cache' }).click();
    await t.page.locator('button').filter({ hasText: 'Empty the cache' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="cache-message"]', ['The cache was emptied.']);
    expect((await call(t.gw.url, 'GET', '/_cache/stats')).json.entries).to.equal(0);
    await t.page.locator('input[name="enable_cache"]').click();
    await t.page.locator('button').filter({ hasText: 'Save preferences' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="cache-message"]', ['Preferences saved.']);
    expect((await call(t.gw.url, 'GET', '/_cache/preferences')).json.enable_cache).to.equal(false);
    expect((await call(t.gw.url, 'POST', '/_cache/preferences', { body: { enable_cache: true } })).status).to.equal(200);
  });

  it('the pipelines page dry-runs a definition, saves it (and the route then answers through it) and deletes it', async () => {
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.page.locator('nav button').filter({ hasText: 'Pipelines' }).click();
    await t.page.locator('button').filter({ hasText: 'Dry run' }).click(); // the example: a 422 when the body has no query
    // the search stage fails on a body without a query, and the response prepared first stands
    await t.watch.textsBecome('the stages', '[data-testid="stage-outcome"]', ['prepare-response: ok', 'search: failed (query: is required)']);
    await t.watch.textsBecome('the dry run answer', '[data-testid="dry-run-code"]', ['422']);
    await t.page.locator('button').filter({ hasText: 'Save pipeline' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="pipeline-message"]', ['Pipeline friendly-search saved.']);
    await t.watch.textsBecome('the registered pipelines', '[data-testid="pipeline-row"] th', ['friendly-search']);
    const through = await call(t.gw.url, 'POST', '/_declarative', { body: {} });
    expect(through.status).to.equal(422);
    expect(through.json).to.deep.equal({ message: 'send a query' });
    await t.page.locator('button[aria-label="Delete friendly-search"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="pipeline-message"]', ['Pipeline friendly-search deleted.']);
    expect((await call(t.gw.url, 'GET', '/_pipeline/friendly-search')).status).to.equal(404);
  });

  it('the pipelines page uploads a YAML definition and its script file, dry-runs them and saves them', async () => {
    const yaml = [
      'id: uploaded',
      'routes:',
      '  - { path: /shop/_count, method: GET }',
      'stages:',
      '  - { id: answer, scriptRef: answer.js }',
    ].join('\n');
    const script = 'function handleRequest() { return { response: { code: 200, body: JSON.stringify({ count: 42 }) } } }';
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.open('Pipelines');
    await t.page.locator('input[name="pipeline-file"]').setInputFiles([{ name: 'pipeline.yaml', mimeType: 'application/yaml', buffer: Buffer.from(yaml) }]);
    await t.page.locator('input[name="pipeline-scripts"]').setInputFiles([{ name: 'answer.js', mimeType: 'text/javascript', buffer: Buffer.from(script) }]);
    await t.page.locator('textarea[name="pipeline-sample"]').fill(JSON.stringify({ method: 'GET', path: '/shop/_count' }));
    await t.page.locator('button').filter({ hasText: 'Dry run' }).click();
    await t.watch.textsBecome('the stage', '[data-testid="stage-outcome"]', ['answer: ok']);
    await t.watch.textsBecome('the dry run answer', '[data-testid="dry-run-code"]', ['200']);
    expect((await call(t.gw.url, 'GET', '/_pipeline/uploaded')).status).to.equal(404); // a dry run stores nothing
    await t.page.locator('button').filter({ hasText: 'Save pipeline' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="pipeline-message"]', ['Pipeline uploaded saved.']);
    const stored = await call(t.gw.url, 'GET', '/_pipeline/uploaded');
    expect(stored.json.pipeline.scripts, stored.text).to.deep.equal({ 'answer.js': script });
    expect((await call(t.gw.url, 'GET', '/shop/_count')).json).to.deep.equal({ count: 42 });
    await t.page.locator('button[aria-label="Delete uploaded"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="pipeline-message"]', ['Pipeline uploaded deleted.']);
    expect((await call(t.gw.url, 'GET', '/shop/_count')).json.count).to.be.a('number').and.not.equal(42);
  });

  it('the rules page previews a rule on a search before it is stored, saves it (searches then follow it) and deletes it', async () => {
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.page.locator('nav button').filter({ hasText: 'Rules' }).click();
    await t.page.locator('input[name="rule-id"]').fill('promote-one');
    await t.page.locator('input[name="rule-as-json"]').check();
    await t.page.locator('textarea[name="rule-definition"]').fill(JSON.stringify({ trigger: { type: 'query', operator: 'is', value: 'two' }, actions: { promote: [{ doc: { _id: '1' }, position: 1 }] } }));
    await t.page.locator('select[name="rule-index"]').selectOption('shop');
    await t.page.locator('input[name="rule-text"]').fill('two');
    await t.page.locator('main button').filter({ hasText: /^Preview$/ }).click();
    await t.watch.textsBecome('the search without the rule', '[data-testid="preview-without"] li', ['2']);
    await t.watch.textsBecome('the search with it', '[data-testid="preview-with"] li', ['1 (promoted)', '2']);
    expect((await call(t.gw.url, 'GET', '/_rule/promote-one')).status).to.equal(404); // a preview stores nothing
    await t.page.locator('button').filter({ hasText: 'Save rule' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="rule-message"]', ['Rule promote-one created.']);
    await t.watch.textsBecome('the rules', '[data-testid="rule-row"] th', ['promote-one']);
    const searched = await call(t.gw.url, 'POST', '/shop/_declarative', { body: { query: [{ id: 's', dataField: ['name'], value: 'two' }] } });
    expect(searched.json.s.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1', '2']);
    await t.page.locator('button[aria-label="Delete promote-one"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="rule-message"]', ['Rule promote-one deleted.']);
    expect((await call(t.gw.url, 'GET', '/_rule/promote-one')).status).to.equal(404);
  });

  it('creates an app with its mapping (its read-write credential shown once), and adds search-as-you-type to a text field (close, analyzers, open, mapping)', async () => {
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.open('Indices');
    await t.page.locator('input[name="new-kind"][value="app"]').click();
    await t.page.locator('input[name="new-index"]').fill('books');
    await t.page.locator('input[name="new-analyzers"]').click(); // without them: added below, to an app holding a document
    await t.page.locator('form.create button[type="submit"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="indices-message"]', ['App books created.']);
    expect((await call(t.gw.url, 'GET', '/_apps')).json.apps.map((a: { app: string }) => a.app)).to.include('books');
    const mapping = await call(t.gw.url, 'GET', '/books/_mapping');
    expect(mapping.json.books.mappings.properties.title).to.deep.equal({ type: 'text' });
    const [rwUser] = await t.page.locator('[data-testid="issued-rw-username"]').allTextContents();
    const [rwPassword] = await t.page.locator('[data-testid="issued-rw-password"]').allTextContents();
    const rw = await call(t.gw.url, 'GET', '/_security/_authenticate', { auth: basic(rwUser, rwPassword) });
    expect(rw.status, rw.text).to.equal(200);
    expect(rw.json.metadata.gateway.indices).to.deep.equal(['books']);
    await call(t.gw.url, 'PUT', '/books/book/1?refresh=true', { body: { title: 'Dune' } }); // app style
    await t.page.locator('input[name="autosuggest-field"]').fill('title');
    await t.page.locator('button').filter({ hasText: 'Add search-as-you-type' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="index-message"]', ['title.autosuggest and title.search added.']);
    await call(t.gw.url, 'PUT', '/books/book/2?refresh=true', { body: { title: 'Dune Messiah' } });
    // document 1 was written before the sub-field existed: the console indexed it again
    const typed = await call(t.gw.url, 'POST', '/books/_search', { body: { query: { match: { 'title.autosuggest': 'du' } } } });
    expect(typed.json.hits.hits.map((h: { _id: string }) => h._id).sort()).to.deep.equal(['1', '2']);
    const settings = await call(t.gw.url, 'GET', '/books/_settings');
    expect(Object.keys(settings.json.books.settings.index.analysis.analyzer)).to.have.members(['autosuggest_analyzer', 'ngram_analyzer']);
    const inner = await call(t.gw.url, 'POST', '/books/_search', { body: { query: { match: { 'title.search': 'essi' } } } });
    expect(inner.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2']);
    // the mapping and settings the Data page shows are the API's
    await t.open('Data');
    await t.page.locator('select[name="index"]').selectOption('books');
    await t.page.locator('button').filter({ hasText: 'Mapping and settings' }).click();
    const mapped = await call(t.gw.url, 'GET', '/books/_mapping');
    expect(mapped.json.books.mappings.properties.title.fields.autosuggest).to.include({ analyzer: 'autosuggest_analyzer' });
    await t.watch.textsBecome('the mapping', '[data-testid="mapping"]', [JSON.stringify(mapped.json, null, 2)]);
    await t.watch.textsBecome('the settings', '[data-testid="settings"]', [JSON.stringify(settings.json, null, 2)]);
  });

  it('a scoped credential sees only its own index, and the credential stays in this tab only', async () => {
    await t.signIn(scoped.username, scoped.password);
    await t.watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${scoped.username} (user)`]);
    await t.watch.textsBecome('its one index', '[data-testid="index-row"] th', ['shop']);
    // kept in sessionStorage, never a cookie (the page's globals, seen from the spec's side)
    type InPage = { sessionStorage: { length: number }; document: { cookie: string } };
    await t.page.waitForFunction(() => (globalThis as unknown as InPage).sessionStorage.length === 1 && (globalThis as unknown as InPage).document.cookie === '', undefined, { timeout: 5_000 });
    // the same credential works against the API it saw
    expect((await call(t.gw.url, 'GET', '/_security/_authenticate', { auth: basic(scoped.username, scoped.password) })).json.username).to.equal(scoped.username);
    // it reads the documents, and is offered nothing it may not do (it may only read)
    await t.open('Data');
    const total = (await call(t.gw.url, 'GET', '/shop/_count')).json.count;
    await t.watch.textsBecome('its documents', '[data-testid="doc-total"]', [String(total)]);
    expect(await t.page.locator('main button').filter({ hasText: 'Add a document' }).allTextContents()).to.deep.equal([]);
    await t.open('Indices');
    await t.page.locator('button[aria-label="Manage shop"]').click();
    await t.watch.visible("shop's actions", '[data-testid="index-actions"]');
    for (const action of ['Delete shop', 'Create']) {
      expect(await t.page.locator('main button').filter({ hasText: action }).allTextContents(), action).to.deep.equal([]);
    }
  });
});
