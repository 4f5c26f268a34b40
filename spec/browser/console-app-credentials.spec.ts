import { expect } from 'chai';
import { call } from '../support/http.js';
import { ADMIN } from '../support/servers.js';
import { describeConsole, type ConsoleUnderTest } from './console-fixture.js';

/**
 * The console signed in with the credentials the gateway issues for an app (`PUT /_apps/{app}`,
 * `POST /{app}/_credentials {"read_only":true}`): it shows what the credential may see — the app's
 * index, its documents, mapping and count, the search preview — and hides the pages it may not
 * use; nothing it shows is a refusal. Screenshots at a desktop and a phone width.
 */
describeConsole('the console with an app\'s credentials', 'console-app-', (t) => {
  let readOnly: { username: string; password: string };

  before(async () => {
    expect((await call(t.gw.url, 'PUT', '/_apps/books')).status).to.be.oneOf([200, 201]);
    expect((await call(t.gw.url, 'PUT', '/_apps/secrets')).status).to.be.oneOf([200, 201]);
    await call(t.gw.url, 'PUT', '/books/_doc/1', { body: { title: 'Dune', genre: 'sf', year: 1965 } });
    await call(t.gw.url, 'PUT', '/books/_doc/2?refresh=true', { body: { title: 'Emma', genre: 'novel', year: 1815 } });
    await call(t.gw.url, 'PUT', '/secrets/_doc/1?refresh=true', { body: { code: 'other tenant' } });
    const ro = await call(t.gw.url, 'POST', '/books/_credentials', { body: { read_only: true } });
    expect(ro.status, ro.text).to.equal(201);
    readOnly = { username: ro.json.credential.username, password: ro.json.password };
  });

  /**
   * No refusal reached the page, and none is shown. A status is matched as a word: the page
   * shows the gateway's URL, whose ephemeral port may hold the digits 403 (40363).
   */
  const noRefusal = async (u: ConsoleUnderTest, where: string) => {
    expect(u.watch.lines.filter((l) => /gateway 40[13]/.test(l)), where).to.deep.equal([]);
    const text = (await u.page.locator('main').allTextContents()).join(' ');
    expect(text, where).not.to.match(/unauthorized|forbidden|security_exception|\b40[13]\b|secrets/i);
  };

  it('an app\'s read-only pair: Overview, Data and Search preview show the app\'s index, and no refusal', async () => {
    await t.signIn(readOnly.username, readOnly.password);
    await t.watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${readOnly.username} (user)`]);
    // the pages it may use, and no others (no access control, logs, analytics, rules…)
    await t.watch.textsBecome('its pages', 'nav button', ['Overview', 'Requests', 'Data', 'Live view', 'Search preview']);

    await t.watch.textsBecome('its one index', '[data-testid="index-row"] th', ['books']);
    await t.watch.textsBecome('its document count', '[data-testid="index-row"] td:nth-of-type(2)', ['2']);
    await t.watch.textsBecome('its rights', '[data-testid="rights-indices"]', ['books (app books)']);
    await noRefusal(t, 'Overview');
    await t.screenshots('read-only-overview');

    await t.open('Data');
    await t.watch.textsBecome('the app\'s index to pick', 'select[name="index"] option', ['books']);
    await t.watch.textsBecome('its documents', '[data-testid="doc-total"]', ['2']);
    // a reader: no adding, and the mapping without the settings (the index administrator's)
    expect(await t.page.locator('button').filter({ hasText: 'Add a document' }).allTextContents()).to.deep.equal([]);
    await t.page.locator('button').filter({ hasText: 'Mapping' }).click();
    await t.watch.visible('the mapping', '[data-testid="mapping"]');
    const [mapping] = await t.page.locator('[data-testid="mapping"]').allTextContents();
    const api = await call(t.gw.url, 'GET', '/books/_mapping');
    expect(JSON.parse(mapping)).to.deep.equal(api.json);
    await noRefusal(t, 'Data');
    await t.screenshots('read-only-data');

    await t.open('Search preview');
    await t.watch.textsBecome('the app\'s index to pick', 'select[name="builder-index"] option', ['books']);
    await t.watch.visible('its text fields, from the mapping', 'input[name="search-field"]');
    await t.watch.textsBecome('the results, live', '[data-testid="result-total"]', ['2']);
    await t.watch.textMatches('the origins it may be used from', '[data-testid="allowed-origins"]', /names no referers/);
    await noRefusal(t, 'Search preview');
    await t.screenshots('read-only-search-preview');
  });

  it('the search preview says which origins browser apps may call the index from (its credentials\' referers)', async () => {
    const made = await call(t.gw.url, 'POST', '/books/_credentials', { body: { read_only: true } });
    const patched = await call(t.gw.url, 'PATCH', `/_credentials/${made.json.credential.username}`, { body: { referers: ['https://books.example/*'] } });
    expect(patched.status, patched.text).to.equal(200);
    // what the gateway answers that origin: a preflight, before any credential
    const preflight = await call(t.gw.url, 'OPTIONS', '/books/_search', { auth: null, headers: { origin: 'https://books.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-allow-origin']).to.equal('https://books.example');
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.open('Search preview');
    await t.watch.textsBecome('the origin its credential allows', '[data-testid="index-origin"]', ['https://books.example']);
    await t.watch.textMatches('with which credential', '[data-testid="allowed-origins"]', new RegExp(`https://books\\.example \\(with ${made.json.credential.username}\\)`));
    await t.watch.textsBecome('the results, live', '[data-testid="result-total"]', ['2']);
    await t.screenshots('admin-search-preview-origins');
  });
});
