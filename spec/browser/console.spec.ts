import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CONSOLE_DIST } from '../../lib/console/console-assets.js';
import { basic, call } from '../support/http.js';
import { ADMIN, REPO_ROOT, startTestGateway, type TestGateway } from '../support/servers.js';
import { launchChromium, missingPrerequisites, type Browser, type Page } from './chromium.js';
import { PageWatch } from './page-watch.js';

const SCREENSHOTS = path.join(REPO_ROOT, 'spec/browser/screenshots');

/**
 * The console (`/_console`, console/), served by the gateway, in Debian's Chromium: signing in
 * with good and bad credentials, and an overview that shows only what the credential may see.
 */
describe('the console in Chromium (served by the gateway at /_console)', function () {
  const missing = missingPrerequisites();
  if (!existsSync(path.join(CONSOLE_DIST, 'index.html'))) missing.push(`the built console in ${CONSOLE_DIST}: run 'make build'`);
  if (missing.length > 0) {
    const reason = `needs ${missing.join('; ')}`;
    if (process.env.CI === 'true') it('has Chromium and the built console', () => expect.fail(reason));
    else it.skip(reason);
    return;
  }

  this.timeout(30_000);
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let watch: PageWatch;
  let scoped: { username: string; password: string };

  before(async () => {
    gw = await startTestGateway();
    for (const index of ['shop', 'hr']) {
      expect((await call(gw.url, 'PUT', `/${index}`, { body: {} })).status).to.equal(200);
      await call(gw.url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { name: index } });
    }
    await call(gw.url, 'PUT', '/shop/_doc/2?refresh=true', { body: { name: 'two' } });
    const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['indices', 'search'], ops: ['read'] } });
    expect(made.status, made.text).to.equal(201);
    scoped = { username: made.json.credential.username, password: made.json.password };
    browser = await launchChromium();
    await mkdir(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await gw?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    watch = new PageWatch(page, gw.url);
    await page.goto(`${gw.url}/_console`);
  });
  afterEach(async function () {
    const file = path.join(SCREENSHOTS, `console-${this.currentTest!.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`      screenshot: ${path.relative(process.cwd(), file)}`);
    await page.close();
  });

  const signIn = async (username: string, password: string) => {
    await page.locator('input[name="username"]').fill(username);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('button[type="submit"]').click();
  };

  it('is served with a strict Content-Security-Policy, and says how to build it when it is not built', async () => {
    const res = await call(gw.url, 'GET', '/_console/', { auth: null });
    expect(res.status).to.equal(200);
    expect(String(res.headers['content-security-policy'])).to.contain("script-src 'self'").and.contain("frame-ancestors 'none'");
    expect(res.headers['cache-control']).to.equal('no-cache');
    const outside = await call(gw.url, 'GET', '/_console/assets/..%2f..%2fpackage.json', { auth: null });
    expect(outside.status).to.equal(400);
    const missingFile = await call(gw.url, 'GET', '/_console/assets/nope.js', { auth: null });
    expect(missingFile.status).to.equal(404);
    expect(missingFile.text).not.to.contain(REPO_ROOT);
  });

  it('a wrong password is refused with a message; the admin sees every index', async () => {
    await signIn(ADMIN.user, 'not-the-password');
    await watch.textsBecome('the refusal', '[role="alert"]', ['Wrong username or password.']);
    await signIn(ADMIN.user, ADMIN.password);
    await watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${ADMIN.user} (admin)`]);
    await watch.textsBecome('the indices', '[data-testid="index-row"] th', ['hr', 'shop']);
    const health = await call(gw.url, 'GET', '/_cluster/health');
    await watch.textsBecome("the cluster's health, as the API says it", '[data-testid="cluster-health"]', [health.json.status]);
  });

  it('the admin creates a scoped credential (its password shown once), signs in with it, and revokes it', async () => {
    await signIn(ADMIN.user, ADMIN.password);
    await watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${ADMIN.user} (admin)`]);
    await page.locator('nav button').filter({ hasText: 'Access control' }).click();
    await page.locator('input[name="description"]').fill('console-made');
    await page.locator('input[name="indices"]').fill('shop');
    await page.locator('input[name="categories"][value="indices"]').click(); // search and docs are checked already
    await page.locator('button[type="submit"]').click();
    await page.locator('[data-testid="issued-username"]').waitFor({ state: 'visible' });
    const [username] = await page.locator('[data-testid="issued-username"]').allTextContents();
    const [password] = await page.locator('[data-testid="issued-password"]').allTextContents();
    const listed = await call(gw.url, 'GET', `/_credentials/${username}`);
    expect(listed.json.credential).to.deep.include({ description: 'console-made', indices: ['shop'], ops: ['read'] });
    expect(listed.json.credential.categories).to.have.members(['docs', 'search', 'indices']);
    await page.locator('button').filter({ hasText: 'I have saved it' }).click();
    await page.locator('button').filter({ hasText: 'Sign out' }).click();

    await signIn(username, password);
    await watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${username} (user)`]);
    await watch.textsBecome('its one index', '[data-testid="index-row"] th', ['shop']);
    await page.locator('button').filter({ hasText: 'Sign out' }).click();

    await signIn(ADMIN.user, ADMIN.password);
    await page.locator('nav button').filter({ hasText: 'Access control' }).click();
    await page.locator(`button[aria-label="Revoke ${username}"]`).click();
    await page.locator('button').filter({ hasText: `Confirm revoking ${username}` }).click();
    await page.locator(`button[aria-label="Revoke ${username}"]`).waitFor({ state: 'detached' });
    expect((await call(gw.url, 'GET', '/_security/_authenticate', { auth: basic(username, password) })).status).to.equal(401);
  });

  it('the data browser adds, shows and edits a document; the live view shows a write made through the API', async () => {
    await signIn(ADMIN.user, ADMIN.password);
    await page.locator('nav button').filter({ hasText: 'Data' }).click();
    await page.locator('select[name="index"]').selectOption('shop');
    await watch.textsBecome("shop's documents", '[data-testid="doc-row"] th', ['1', '2']);
    await page.locator('button').filter({ hasText: 'Add a document' }).click();
    await page.locator('input[name="new-id"]').fill('console-1');
    await page.locator('textarea[name="document"]').fill('{"name": "from the console"}');
    await page.locator('button').filter({ hasText: /^Save$/ }).click();
    await watch.textsBecome('the outcome', '[data-testid="data-message"]', ['Document console-1 created.']);
    expect((await call(gw.url, 'GET', '/shop/_doc/console-1')).json._source).to.deep.equal({ name: 'from the console' });
    await page.locator('button[aria-label="Open document console-1"]').click();
    await page.locator('textarea[name="document"]').fill('{"name": "edited in the console", "n": 2}');
    await page.locator('button').filter({ hasText: /^Save$/ }).click();
    await watch.textsBecome('the outcome', '[data-testid="data-message"]', ['Document console-1 updated.']);
    expect((await call(gw.url, 'GET', '/shop/_doc/console-1')).json._source).to.deep.equal({ name: 'edited in the console', n: 2 });

    await page.locator('nav button').filter({ hasText: 'Live view' }).click();
    await page.locator('select[name="live-index"]').selectOption('shop');
    await page.locator('button').filter({ hasText: 'Open stream' }).click();
    await watch.textsBecome('the first answer', '[data-testid="stream-first"]', ['result: 3 hits']);
    await call(gw.url, 'PUT', '/shop/_doc/live-1', { body: { name: 'written through the API' } });
    await watch.textsBecome('the change', '[data-testid="stream-change"]', ['live-1 new: {"name":"written through the API"}']);
  });

  it('the cache page empties the cache and saves preferences; the analytics page shows the searches made', async () => {
    // three users (the same user typing again within 30 s counts as one search)
    for (const [user, q] of [['ann', 'dune'], ['bob', 'dune'], ['cy', 'nothing-like-this']]) {
      const r = await call(gw.url, 'POST', '/shop/_search', { body: { query: { match: { name: q } } }, headers: { 'x-search-query': q, 'x-user-id': user } });
      expect(r.status).to.equal(200);
    }
    await signIn(ADMIN.user, ADMIN.password);
    await page.locator('nav button').filter({ hasText: 'Analytics' }).click();
    await watch.textsBecome('the searches counted', '[data-testid="total-searches"]', ['3']);
    await watch.textsBecome('the popular searches', '[data-testid="popular-searches"] tbody th', ['dune', 'nothing-like-this']);
    await watch.textsBecome('the search without results', '[data-testid="no-result-searches"] tbody th', ['dune', 'nothing-like-this']);

    await page.locator('nav button').filter({ hasText: 'Cache' }).click();
    await page.locator('button').filter({ hasText: 'Empty the cache' }).click();
    await watch.textsBecome('the outcome', '[data-testid="cache-message"]', ['The cache was emptied.']);
    expect((await call(gw.url, 'GET', '/_cache/stats')).json.entries).to.equal(0);
    await page.locator('input[name="enable_cache"]').click();
    await page.locator('button').filter({ hasText: 'Save preferences' }).click();
    await watch.textsBecome('the outcome', '[data-testid="cache-message"]', ['Preferences saved.']);
    expect((await call(gw.url, 'GET', '/_cache/preferences')).json.enable_cache).to.equal(false);
    expect((await call(gw.url, 'POST', '/_cache/preferences', { body: { enable_cache: true } })).status).to.equal(200);
  });

  it('the pipelines page dry-runs a definition, saves it (and the route then answers through it) and deletes it', async () => {
    await signIn(ADMIN.user, ADMIN.password);
    await page.locator('nav button').filter({ hasText: 'Pipelines' }).click();
    await page.locator('button').filter({ hasText: 'Dry run' }).click(); // the example: a 422 when the body has no query
    // the search stage fails on a body without a query, and the response prepared first stands
    await watch.textsBecome('the stages', '[data-testid="stage-outcome"]', ['prepare-response: ok', 'search: failed (query: is required)']);
    await watch.textsBecome('the dry run answer', '[data-testid="dry-run-code"]', ['422']);
    await page.locator('button').filter({ hasText: 'Save pipeline' }).click();
    await watch.textsBecome('the outcome', '[data-testid="pipeline-message"]', ['Pipeline friendly-search saved.']);
    await watch.textsBecome('the registered pipelines', '[data-testid="pipeline-row"] th', ['friendly-search']);
    const through = await call(gw.url, 'POST', '/_declarative', { body: {} });
    expect(through.status).to.equal(422);
    expect(through.json).to.deep.equal({ message: 'send a query' });
    await page.locator('button[aria-label="Delete friendly-search"]').click();
    await watch.textsBecome('the outcome', '[data-testid="pipeline-message"]', ['Pipeline friendly-search deleted.']);
    expect((await call(gw.url, 'GET', '/_pipeline/friendly-search')).status).to.equal(404);
  });

  it('the rules page previews a rule on a search before it is stored, saves it (searches then follow it) and deletes it', async () => {
    await signIn(ADMIN.user, ADMIN.password);
    await page.locator('nav button').filter({ hasText: 'Rules' }).click();
    await page.locator('input[name="rule-id"]').fill('promote-one');
    await page.locator('textarea[name="rule-definition"]').fill(JSON.stringify({ trigger: { type: 'query', operator: 'is', value: 'two' }, actions: { promote: [{ doc: { _id: '1' }, position: 1 }] } }));
    await page.locator('select[name="rule-index"]').selectOption('shop');
    await page.locator('input[name="rule-text"]').fill('two');
    await page.locator('button').filter({ hasText: 'Preview' }).click();
    await watch.textsBecome('the search without the rule', '[data-testid="preview-without"] li', ['2']);
    await watch.textsBecome('the search with it', '[data-testid="preview-with"] li', ['1 (promoted)', '2']);
    expect((await call(gw.url, 'GET', '/_rule/promote-one')).status).to.equal(404); // a preview stores nothing
    await page.locator('button').filter({ hasText: 'Save rule' }).click();
    await watch.textsBecome('the outcome', '[data-testid="rule-message"]', ['Rule promote-one created.']);
    await watch.textsBecome('the rules', '[data-testid="rule-row"] th', ['promote-one']);
    const searched = await call(gw.url, 'POST', '/shop/_declarative', { body: { query: [{ id: 's', dataField: ['name'], value: 'two' }] } });
    expect(searched.json.s.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1', '2']);
    await page.locator('button[aria-label="Delete promote-one"]').click();
    await watch.textsBecome('the outcome', '[data-testid="rule-message"]', ['Rule promote-one deleted.']);
    expect((await call(gw.url, 'GET', '/_rule/promote-one')).status).to.equal(404);
  });

  it('a scoped credential sees only its own index, and the credential stays in this tab only', async () => {
    await signIn(scoped.username, scoped.password);
    await watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${scoped.username} (user)`]);
    await watch.textsBecome('its one index', '[data-testid="index-row"] th', ['shop']);
    // kept in sessionStorage, never a cookie (the page's globals, seen from the spec's side)
    type InPage = { sessionStorage: { length: number }; document: { cookie: string } };
    await page.waitForFunction(() => (globalThis as unknown as InPage).sessionStorage.length === 1 && (globalThis as unknown as InPage).document.cookie === '', undefined, { timeout: 5_000 });
    // the same credential works against the API it saw
    expect((await call(gw.url, 'GET', '/_security/_authenticate', { auth: basic(scoped.username, scoped.password) })).json.username).to.equal(scoped.username);
  });
});
