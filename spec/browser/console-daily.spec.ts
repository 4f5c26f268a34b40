import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import { ADMIN } from '../support/servers.js';
import { within } from '../support/within.js';
import { describeConsole, VIEWPORTS } from './console-fixture.js';

/** A PNG's width (its IHDR chunk): a full-page screenshot is as wide as the page. */
const pngWidth = async (file: string) => (await readFile(file)).readUInt32BE(16);

type Hit = { _id: string; _source: Record<string, unknown> };
type LogLine = { path: string; querystring: string; background?: boolean };

/**
 * The console for daily work, in Chromium on both backends: the page in the URL, the request
 * panel (through the access rules, logged as any client's request, while the console's own
 * polling stays out of the Logs page), the data browser (columns, sort, filter, paging; an app's
 * typed document saved under its type), index actions, the rule and relevance forms; and a
 * screenshot of every page at a desktop and a phone width (spec/browser/artifacts/daily-*).
 */
describeConsole('the console for daily work', 'daily-', (t) => {
  const GENRES = ['sf', 'novel', 'poetry'];
  let reader: { username: string; password: string };
  const signInAsAdmin = async () => {
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${ADMIN.user} (admin)`]);
  };
  /** Sends what the request panel holds; waits for its answer (the request it answers, and its status). */
  const send = async (request: string, status: number) => {
    await t.page.locator('form.request button[type="submit"]').click();
    await t.watch.textsBecome(`the answer to ${request}`, '[data-testid="answer-request"]', [request]);
    await t.watch.textsBecome(`the status of ${request}`, '[data-testid="answer-status"]', [String(status)]);
  };
  const hash = () => t.page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash);

  before(async () => {
    const mappings = { properties: { title: { type: 'text', fields: { raw: { type: 'keyword' } } }, genre: { type: 'keyword' }, year: { type: 'integer' } } };
    expect((await call(t.gw.url, 'PUT', '/daily', { body: { mappings } })).status).to.equal(200);
    const docs = Array.from({ length: 30 }, (_, i) => [{ index: { _id: `d${i}` } }, { title: `Book ${i}`, genre: GENRES[i % 3], year: 1900 + ((i * 37) % 100) }]).flat();
    const bulk = await call(t.gw.url, 'POST', '/daily/_bulk?refresh=true', { body: ndjson(docs), headers: NDJSON });
    expect(bulk.json.errors, bulk.text).to.equal(false);
    expect((await call(t.gw.url, 'PUT', '/_apps/library')).status).to.equal(200);
    expect((await call(t.gw.url, 'PUT', '/library/book/1?refresh=true', { body: { title: 'Dune' } })).status).to.equal(201);
    expect((await call(t.gw.url, 'PUT', '/library/film/2?refresh=true', { body: { title: 'Alien' } })).status).to.equal(201);
    const made = await call(t.gw.url, 'POST', '/_credentials', { body: { indices: ['daily'], categories: ['search', 'indices'], ops: ['read'] } });
    expect(made.status, made.text).to.equal(201);
    reader = { username: made.json.credential.username, password: made.json.password };
  });

  it('the page is in the URL: a page opened is in the hash, a reload or a link opens it, a page the credential may not use is the overview', async () => {
    await signInAsAdmin();
    await t.open('Indices');
    expect(await hash()).to.equal('#/indices');
    await t.page.goto(`${t.gw.url}/_console/#/logs`);
    await t.watch.textsBecome('the page the link names (still signed in: the tab keeps the credential)', 'main h2', ['Request logs']);
    await t.watch.textsBecome('its navigation entry is the current one', 'nav button[aria-current="page"]', ['Logs']);
    await t.open('Data');
    await t.page.evaluate(() => (globalThis as unknown as { history: { back(): void } }).history.back());
    await t.watch.textsBecome('back where it was', 'main h2', ['Request logs']);
    // the Data page's index is in the URL too
    await t.page.goto(`${t.gw.url}/_console/#/data/library`);
    await t.watch.textsBecome("the index the link names, its documents", '[data-testid="doc-row"] th', ['1', '2']);
    expect(await t.page.locator('select[name="index"]').inputValue()).to.equal('library');
    await t.page.locator('select[name="index"]').selectOption('daily');
    await t.watch.textsBecome('the index chosen', '[data-testid="doc-total"]', [String((await call(t.gw.url, 'GET', '/daily/_count')).json.count)]);
    expect(await hash()).to.equal('#/data/daily');
    await t.open('Logs');
    await t.page.locator('button').filter({ hasText: 'Sign out' }).click();

    await t.signIn(reader.username, reader.password);
    await t.watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${reader.username} (user)`]);
    // the Logs page named in the URL is not this credential's: it sees the overview, not a refusal
    await t.watch.textsBecome('the overview instead', 'main h2', ['Overview']);
    expect(await t.page.locator('nav button').filter({ hasText: 'Logs' }).allTextContents()).to.deep.equal([]);
  });

  it('the request panel checks the body, sends through the access rules, shows the answer and keeps a history', async () => {
    await signInAsAdmin();
    await t.open('Requests');
    await t.page.locator('select[name="request-method"]').selectOption('PUT');
    await t.page.locator('input[name="request-path"]').fill('/daily/_doc/panel-1?refresh=true');
    await t.page.locator('textarea[name="request-body"]').fill('{"title": "From the panel", "year": 2001,}');
    await t.watch.textMatches('where the body stops being JSON', '[data-testid="body-check"]', /^Not sent: line 1, column \d+/);
    await t.watch.visible('nothing is sent while it is not', 'form.request button[type="submit"]:disabled');
    await t.page.locator('textarea[name="request-body"]').fill('{"title": "From the panel", "year": 2001}');
    await t.watch.textsBecome('the body checked', '[data-testid="body-check"]', ['Valid JSON.']);
    await send('PUT /daily/_doc/panel-1?refresh=true', 201);
    expect((await call(t.gw.url, 'GET', '/daily/_doc/panel-1')).json._source).to.deep.equal({ title: 'From the panel', year: 2001 });

    // NDJSON for _bulk, checked line by line
    await t.page.locator('select[name="request-method"]').selectOption('POST');
    await t.page.locator('input[name="request-path"]').fill('/daily/_bulk?refresh=true');
    await t.page.locator('textarea[name="request-body"]').fill('{"index": {"_id": "panel-2"}}\n{"title": "Bulk"\n');
    await t.watch.textMatches('the line that is not JSON', '[data-testid="body-check"]', /^Not sent: line 2 \(NDJSON/);
    await t.page.locator('textarea[name="request-body"]').fill('{"index": {"_id": "panel-2"}}\n{"title": "Bulk", "year": 2002}\n');
    await send('POST /daily/_bulk?refresh=true', 200);
    expect((await call(t.gw.url, 'GET', '/daily/_doc/panel-2')).json._source).to.deep.equal({ title: 'Bulk', year: 2002 });

    await t.page.locator('select[name="request-method"]').selectOption('GET');
    await t.page.locator('input[name="request-path"]').fill('/daily/_doc/panel-1');
    await t.watch.textMatches('a GET carries no body in a browser', '[data-testid="body-check"]', /^Not sent: a browser sends no body with GET/);
    await t.page.locator('textarea[name="request-body"]').fill('');
    await send('GET /daily/_doc/panel-1', 200);
    const [shown] = await t.page.locator('[data-testid="answer-body"]').allTextContents();
    const { _seq_no: _s, _primary_term: _p, ...api } = (await call(t.gw.url, 'GET', '/daily/_doc/panel-1')).json;
    expect(JSON.parse(shown)).to.deep.include(api);

    await t.watch.textsBecome('the history, newest first', '[data-testid="history-entry"] button', [
      'GET /daily/_doc/panel-1', 'POST /daily/_bulk?refresh=true', 'PUT /daily/_doc/panel-1?refresh=true',
    ]);
    await t.page.locator('button[aria-label="Load PUT /daily/_doc/panel-1?refresh=true"]').click();
    expect(await t.page.locator('select[name="request-method"]').inputValue()).to.equal('PUT');
    expect(JSON.parse(await t.page.locator('textarea[name="request-body"]').inputValue())).to.deep.equal({ title: 'From the panel', year: 2001 });
    // a body that names a secret is sent, and not kept
    await t.page.locator('select[name="request-method"]').selectOption('POST');
    await t.page.locator('input[name="request-path"]').fill('/_credentials');
    await t.page.locator('textarea[name="request-body"]').fill('{"indices": ["daily"], "categories": ["search"], "password": "a-password-of-mine"}');
    await send('POST /_credentials', 201);
    await t.watch.textMatches('not kept', '[data-testid="history-entry"]:first-child', /POST \/_credentials 201 \(its body named a secret: not kept\)/);
    type InPage = { localStorage: { getItem(k: string): string | null } };
    const kept = await t.page.evaluate((key) => (globalThis as unknown as InPage).localStorage.getItem(key), `search-gateway-requests:${ADMIN.user}`);
    expect(kept).to.contain('/_credentials').and.not.contain('a-password-of-mine');
    await t.screenshots('requests');
    await t.page.locator('button').filter({ hasText: 'Sign out' }).click();

    // a reader's request goes through its rights: what it may not do is refused, as to any client
    await t.signIn(reader.username, reader.password);
    await t.open('Requests');
    await t.page.locator('select[name="request-method"]').selectOption('DELETE');
    await t.page.locator('input[name="request-path"]').fill('/daily');
    await send('DELETE /daily', 403);
    expect((await call(t.gw.url, 'GET', '/daily/_count')).json.count).to.equal(32);
    await t.page.locator('select[name="request-method"]').selectOption('GET');
    await t.page.locator('input[name="request-path"]').fill('/library/_search');
    await send('GET /library/_search', 403); // another tenant's index
    await t.page.locator('input[name="request-path"]').fill('/daily/_count');
    await send('GET /daily/_count', 200);
    expect(JSON.parse((await t.page.locator('[data-testid="answer-body"]').allTextContents())[0]).count).to.equal(32);
  });

  it("the Logs page shows the requests sent from the panel, and not the console's own polling", async () => {
    await signInAsAdmin();
    // the overview polls the indices and the cluster's health; the panel sends one request
    await t.watch.textMatches("the overview's figures, read", '[data-testid="cluster-health"]', /^(green|yellow|red)$/);
    await t.open('Requests');
    await t.page.locator('input[name="request-path"]').fill('/daily/_count?q=sf');
    await send('GET /daily/_count?q=sf', 200);
    const logs = async (query: string): Promise<LogLine[]> => (await call(t.gw.url, 'GET', `/_logs?size=1000&${query}`)).json.logs;
    await within(10_000, async () => (await logs('background=false')).some((l) => l.path === '/daily/_count' && l.querystring === 'q=sf'));
    // the console's own reads are recorded, marked: a header hides nothing from the record
    const own = await logs('background=true');
    expect(own.map((l) => l.path)).to.include.members(['/_cat/indices', '/_cluster/health']);
    expect(own.every((l) => l.background === true)).to.equal(true);
    expect((await logs('background=false')).map((l) => l.path)).not.to.include.members(['/_cluster/health']);

    await t.open('Logs');
    await t.watch.visible("the panel's request", '[data-testid="log-path"]:text-is("/daily/_count?q=sf")');
    const paths = await t.page.locator('[data-testid="log-path"]').allTextContents();
    // the admin's own polling is left out (only the admin polls the cluster's health); another
    // user's console polling (a reader signed in earlier) is listed: a header never hides one user's
    // requests from another
    expect(paths.filter((p) => p.startsWith('/_cluster/health'))).to.deep.equal([]);
    await t.screenshots('logs');
    await t.page.locator('input[name="logs-own"]').check();
    await t.watch.visible("the console's own requests, when asked for", '[data-testid="log-path"]:text-is("/_cluster/health")');
  });

  it('the data browser shows chosen columns, sorts on one, filters and pages', async () => {
    await signInAsAdmin();
    await t.open('Data');
    await t.page.locator('select[name="index"]').selectOption('daily');
    await t.watch.textsBecome('the columns, from the mapping', '[data-testid="column"]', ['genre', 'title', 'year']);
    const total = (await call(t.gw.url, 'GET', '/daily/_count')).json.count;
    await t.watch.textsBecome('the total', '[data-testid="doc-total"]', [String(total)]);

    // sorted on year, newest first: the page is the API's answer to the same sort
    await t.page.locator('button[aria-label="Sort by year"]').click();
    await t.page.locator('button[aria-label="Sort by year"]').click();
    await t.watch.visible('sorted descending', 'th[aria-sort="descending"]');
    const byYear = (await call(t.gw.url, 'POST', '/daily/_search', { body: { size: 10, sort: [{ year: 'desc' }, '_doc'] } })).json.hits.hits as Hit[];
    await t.watch.textsBecome('the newest ten years', '[data-testid="cell-year"]', byYear.map((h) => String(h._source.year)));

    // filtered: a query string, as the search API takes it
    await t.page.locator('input[name="data-filter"]').fill('genre:sf AND year:>1950');
    await t.page.locator('button').filter({ hasText: /^Filter$/ }).click();
    const filtered = (await call(t.gw.url, 'POST', '/daily/_count', { body: { query: { query_string: { query: 'genre:sf AND year:>1950' } } } })).json.count;
    await t.watch.textsBecome('the documents that match', '[data-testid="doc-total"]', [String(filtered)]);
    expect(new Set(await t.page.locator('[data-testid="cell-genre"]').allTextContents())).to.deep.equal(new Set(['sf']));
    await t.page.locator('input[name="data-filter"]').fill('');
    await t.page.locator('button').filter({ hasText: /^Filter$/ }).click();
    await t.watch.textsBecome('all of them again', '[data-testid="doc-total"]', [String(total)]);

    // a column taken away; pages of 25
    await t.page.locator('input[name="column"][value="title"]').uncheck();
    await t.watch.textsBecome('the columns left, the sorted one marked', '[data-testid="column"]', ['genre', 'year ▼']);
    await t.page.locator('select[name="data-size"]').selectOption('25');
    await t.page.locator('button').filter({ hasText: /^Next$/ }).click();
    const second = (await call(t.gw.url, 'POST', '/daily/_search', { body: { from: 25, size: 25, sort: [{ year: 'desc' }, '_doc'] } })).json.hits.hits as Hit[];
    await t.watch.textsBecome('the second page', '[data-testid="doc-row"] th', second.map((h) => h._id));
    await t.screenshots('data');
  });

  it("saving an app's typed document from the Data page keeps its type", async () => {
    await signInAsAdmin();
    await t.open('Data');
    await t.page.locator('select[name="index"]').selectOption('library');
    await t.watch.textsBecome('each document with its type', '[data-testid="doc-type"]', ['book', 'film']);
    await t.page.locator('button[aria-label="Open document 1"]').click();
    await t.page.locator('textarea[name="document"]').fill('{"title": "Dune", "edited": true}');
    await t.page.locator('button').filter({ hasText: /^Save$/ }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="data-message"]', ['Document 1 updated.']);
    const read = await call(t.gw.url, 'GET', '/library/book/1');
    expect(read.status, read.text).to.equal(200);
    expect(read.json).to.deep.include({ _type: 'book', _source: { title: 'Dune', edited: true } });
    const books = await call(t.gw.url, 'POST', '/library/book/_search', { body: {} });
    expect((books.json.hits.hits as Hit[]).map((h) => h._id)).to.deep.equal(['1']);
    await t.watch.textsBecome('still a book', '[data-testid="doc-type"]', ['book', 'film']);

    // a new typed document, addressed /{app}/{type}/{id}
    await t.page.locator('button').filter({ hasText: 'Add a document' }).click();
    await t.page.locator('input[name="new-id"]').fill('3');
    await t.page.locator('input[name="new-type"]').fill('film');
    await t.page.locator('textarea[name="document"]').fill('{"title": "Solaris"}');
    await t.page.locator('button').filter({ hasText: /^Save$/ }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="data-message"]', ['Document 3 created.']);
    expect((await call(t.gw.url, 'GET', '/library/film/3')).json).to.deep.include({ _type: 'film', _source: { title: 'Solaris' } });

    // a credential whose field rules may not read the type field still browses the documents
    const made = await call(t.gw.url, 'POST', '/_credentials', { body: { indices: ['library'], categories: ['search'], ops: ['read'], include_fields: ['title'] } });
    expect(made.status, made.text).to.equal(201);
    await t.page.locator('button').filter({ hasText: 'Sign out' }).click();
    await t.signIn(made.json.credential.username, made.json.password);
    await t.open('Data');
    await t.watch.textsBecome('its documents', '[data-testid="doc-row"] th', ['1', '2', '3']);
    await t.watch.textsBecome('what it may read of them', '[data-testid="cell-title"]', ['Dune', 'Alien', 'Solaris']);
  });

  it('the Indices page creates an index with the search analyzers, closes and opens it, changes its settings and aliases, and deletes it after a confirmation', async () => {
    await signInAsAdmin();
    await t.open('Indices');
    await t.page.locator('input[name="new-index"]').fill('made');
    await t.page.locator('textarea[name="new-mapping"]').fill('{"properties": {"title": {"type": "text"}, "tag": {"type": "keyword"}}}');
    await t.page.locator('form.create button[type="submit"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="indices-message"]', ['Index made created.']);
    const settings = (await call(t.gw.url, 'GET', '/made/_settings')).json.made.settings.index;
    expect(Object.keys(settings.analysis.analyzer)).to.have.members(['autosuggest_analyzer', 'ngram_analyzer']);
    expect(settings.max_ngram_diff).to.equal('8');
    const title = (await call(t.gw.url, 'GET', '/made/_mapping')).json.made.mappings.properties.title;
    expect(title.fields.autosuggest).to.deep.equal({ type: 'text', analyzer: 'autosuggest_analyzer', search_analyzer: 'simple' });
    expect(title.fields.search).to.deep.equal({ type: 'text', analyzer: 'ngram_analyzer', search_analyzer: 'simple' });
    await call(t.gw.url, 'PUT', '/made/_doc/1?refresh=true', { body: { title: 'Foundation' } });
    const inner = await call(t.gw.url, 'POST', '/made/_search', { body: { query: { match: { 'title.search': 'dati' } } } });
    expect((inner.json.hits.hits as Hit[]).map((h) => h._id)).to.deep.equal(['1']);

    await t.watch.visible("made's actions", '[data-testid="index-actions"]');
    await t.page.locator('button').filter({ hasText: 'Close made' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="index-message"]', ['made closed.']);
    expect((await call(t.gw.url, 'GET', '/_cat/indices/made?format=json&h=status')).json).to.deep.equal([{ status: 'close' }]);
    await t.page.locator('button').filter({ hasText: 'Open made' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="index-message"]', ['made opened.']);
    expect((await call(t.gw.url, 'GET', '/_cat/indices/made?format=json&h=status')).json).to.deep.equal([{ status: 'open' }]);

    await t.page.locator('input[name="setting-number_of_replicas"]').fill('0');
    await t.page.locator('button').filter({ hasText: 'Save settings' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="index-message"]', ['Settings of made saved (number_of_replicas).']);
    expect((await call(t.gw.url, 'GET', '/made/_settings')).json.made.settings.index.number_of_replicas).to.equal('0');
    await t.page.locator('input[name="settings-as-json"]').check();
    await t.page.locator('textarea[name="settings-json"]').fill('{"index": {"refresh_interval": "5s"}}');
    await t.page.locator('button').filter({ hasText: 'Save settings' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="index-message"]', ['Settings of made saved (refresh_interval).']);
    expect((await call(t.gw.url, 'GET', '/made/_settings')).json.made.settings.index.refresh_interval).to.equal('5s');

    await t.page.locator('input[name="new-alias"]').fill('made-alias');
    await t.page.locator('button').filter({ hasText: 'Add alias' }).click();
    await t.watch.textsBecome('the alias', '[data-testid="alias"]', ['made-alias Remove']);
    expect((await call(t.gw.url, 'GET', '/made/_alias')).json).to.deep.equal({ made: { aliases: { 'made-alias': {} } } });
    await t.screenshots('indices');
    await t.page.locator('button[aria-label="Remove alias made-alias"]').click();
    await t.watch.textsBecome('the outcome', '[data-testid="index-message"]', ['Alias made-alias removed.']);
    expect((await call(t.gw.url, 'GET', '/made/_alias')).json).to.deep.equal({ made: { aliases: {} } });

    await t.page.locator('button').filter({ hasText: 'Delete made…' }).click();
    await t.watch.visible('nothing deleted until the name is typed', 'button:text-is("Delete made for good"):disabled');
    await t.page.locator('input[name="confirm-name"]').fill('mad');
    await t.watch.visible('nor with another name', 'button:text-is("Delete made for good"):disabled');
    expect((await call(t.gw.url, 'GET', '/made/_count')).status).to.equal(200);
    await t.page.locator('input[name="confirm-name"]').fill('made');
    await t.page.locator('button').filter({ hasText: 'Delete made for good' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="indices-message"]', ['made deleted.']);
    expect((await call(t.gw.url, 'GET', '/made/_count')).status).to.equal(404);
    // the list, read again, no longer has it
    await t.page.locator('button[aria-label="Manage made"]').waitFor({ state: 'detached' });
  });

  it('a rule and relevance settings are edited in forms (JSON as an option), previewed and saved', async () => {
    await signInAsAdmin();
    await t.open('Rules');
    await t.page.locator('input[name="rule-id"]').fill('form-made');
    await t.page.locator('input[name="rule-name"]').fill('sf first');
    await t.page.locator('select[name="rule-operator"]').selectOption('contains');
    await t.page.locator('input[name="rule-value"]').fill('book');
    await t.page.locator('input[name="rule-promote"]').fill('d3, d6');
    await t.page.locator('input[name="rule-hide"]').fill('d9');
    await t.page.locator('input[name="rule-customData"]').fill('{"banner": "sf"}');
    await t.page.locator('select[name="rule-index"]').selectOption('daily');
    await t.page.locator('input[name="rule-field"]').fill('title');
    await t.page.locator('input[name="rule-text"]').fill('book 1');
    await t.page.locator('main button').filter({ hasText: /^Preview$/ }).click();
    await t.watch.textMatches('the promoted documents first', '[data-testid="preview-with"] li:nth-of-type(1)', /^d3 \(promoted\)$/);
    await t.watch.textMatches('in their order', '[data-testid="preview-with"] li:nth-of-type(2)', /^d6 \(promoted\)$/);
    // the form's rule, as JSON: what will be stored
    await t.page.locator('input[name="rule-as-json"]').check();
    const expected = {
      name: 'sf first', enabled: true, trigger: { type: 'query', operator: 'contains', value: 'book' },
      actions: { promote: [{ doc: { _id: 'd3' }, position: 1 }, { doc: { _id: 'd6' }, position: 2 }], hide: ['d9'], custom_data: { banner: 'sf' } },
    };
    expect(JSON.parse(await t.page.locator('textarea[name="rule-definition"]').inputValue())).to.deep.equal(expected);
    await t.page.locator('input[name="rule-as-json"]').uncheck();
    await t.page.locator('button').filter({ hasText: 'Save rule' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="rule-message"]', ['Rule form-made created.']);
    const stored = (await call(t.gw.url, 'GET', '/_rule/form-made')).json.rule;
    expect(stored).to.deep.include({ name: 'sf first', enabled: true });
    expect(stored.trigger).to.deep.include(expected.trigger);
    await t.screenshots('rules');
    // edited: the form is filled from the stored rule
    await t.page.locator('button[aria-label="Edit form-made"]').click();
    expect(await t.page.locator('input[name="rule-promote"]').inputValue()).to.equal('d3, d6');
    expect((await call(t.gw.url, 'DELETE', '/_rule/form-made')).status).to.equal(200);

    await t.open('Relevance');
    await t.page.locator('select[name="relevance-index"]').selectOption('daily');
    await t.watch.textsBecome('no settings yet', '[data-testid="relevance-stored"]', ['No settings for daily yet.']);
    await t.page.locator('input[name="relevance-field-0"]').fill('title');
    await t.page.locator('input[name="relevance-weight-0"]').fill('3');
    await t.page.locator('input[name="relevance-field-1"]').fill('genre');
    await t.page.locator('select[name="relevance-fuzziness"]').selectOption('1');
    await t.page.locator('input[name="relevance-size"]').fill('5');
    await t.page.locator('button').filter({ hasText: 'Save settings' }).click();
    await t.watch.textsBecome('the outcome', '[data-testid="relevance-message"]', ['Settings for daily saved.']);
    expect((await call(t.gw.url, 'GET', '/_searchrelevancy/daily')).json.settings).to.deep.equal({
      search: { dataField: [{ field: 'title', weight: 3 }, 'genre'], fuzziness: 1, size: 5 },
    });
    const searched = await call(t.gw.url, 'POST', '/daily/_declarative', { body: { query: [{ id: 's', value: 'book' }] } });
    expect(searched.json.s.hits.hits).to.have.length(5);
    await t.page.locator('input[name="relevance-as-json"]').check();
    expect(JSON.parse(await t.page.locator('textarea[name="relevance-settings"]').inputValue())).to.deep.equal({ dataField: [{ field: 'title', weight: 3 }, 'genre'], fuzziness: 1, size: 5 });
    await t.screenshots('relevance');
    expect((await call(t.gw.url, 'DELETE', '/_searchrelevancy/daily')).status).to.equal(200);
  });

  it('every page, at a desktop and a phone width, for the admin and for a reader', async () => {
    // a rule to list (its trigger is the table's widest cell)
    const rule = { name: 'a rule to show', trigger: { type: 'query', operator: 'contains', value: 'a rather long search text', indices: ['daily'] }, actions: { custom_data: 1 } };
    expect((await call(t.gw.url, 'PUT', '/_rule/shown', { body: rule })).status).to.equal(201);
    await signInAsAdmin();
    const labels = (await t.page.locator('nav button').allTextContents()).map((l) => l.trim());
    expect(labels).to.include.members(['Overview', 'Requests', 'Data', 'Indices', 'Logs', 'Rules', 'Relevance']);
    for (const label of labels) {
      await t.open(label);
      await t.watch.visible(`the ${label} page`, 'main h2');
      const [, phone] = await t.screenshots(`admin-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`);
      expect(await pngWidth(phone), `${label}: nothing to scroll sideways on a phone`).to.equal(VIEWPORTS.phone.width);
    }
    await t.page.locator('button').filter({ hasText: 'Sign out' }).click();
    await t.signIn(reader.username, reader.password);
    await t.watch.textsBecome('its pages', 'nav button', ['Overview', 'Requests', 'Data', 'Indices']);
    for (const label of ['Overview', 'Requests', 'Data', 'Indices']) {
      await t.open(label);
      await t.watch.visible(`the ${label} page`, 'main h2');
      const [, phone] = await t.screenshots(`reader-${label.toLowerCase()}`);
      expect(await pngWidth(phone), `${label}: nothing to scroll sideways on a phone`).to.equal(VIEWPORTS.phone.width);
    }
    expect((await call(t.gw.url, 'GET', '/_security/_authenticate', { auth: basic(reader.username, reader.password) })).status).to.equal(200);
  });
});
