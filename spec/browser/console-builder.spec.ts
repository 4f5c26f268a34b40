import { expect } from 'chai';
import { createRequire } from 'node:module';
import { call } from '../support/http.js';
import { ADMIN } from '../support/servers.js';
import { describeConsole } from './console-fixture.js';

const require = createRequire(import.meta.url);
type Appbase = { reactiveSearchv3(query: unknown[]): Promise<Record<string, { hits: { hits: Array<{ _id: string }> } }>> };
const Appbase = require('appbase-js5') as (config: { url: string; app: string; credentials: string; enableTelemetry?: boolean }) => Appbase;

/** The code a snippet shows, with the signed-in admin's password where it says PASSWORD. */
const withPassword = (code: string) => code.replaceAll(`${ADMIN.user}:PASSWORD`, `${ADMIN.user}:${ADMIN.password}`);

/**
 * The console's search preview: a search UI composed from an index's fields, used live in
 * Chromium (writes through the API show at once), with the declarative request, the engine
 * request it becomes, and snippets that really work when run.
 */
describeConsole('the console builds a live search UI', 'builder-', (t) => {
  before(async () => {
    const made = await call(t.gw.url, 'PUT', '/books', {
      body: { mappings: { properties: { title: { type: 'text', fields: { keyword: { type: 'keyword' } } }, genre: { type: 'keyword' }, year: { type: 'integer' } } } },
    });
    expect(made.status, made.text).to.equal(200);
    const books = [
      { title: 'Dune', genre: 'sf', year: 1965 },
      { title: 'Dune Messiah', genre: 'sf', year: 1969 },
      { title: 'Emma', genre: 'novel', year: 1815 },
    ];
    for (const [i, book] of books.entries()) await call(t.gw.url, 'PUT', `/books/_doc/${i + 1}?refresh=true`, { body: book });
  });

  const texts = (selector: string) => t.page.locator(selector).allTextContents();

  it('composes a search box, a facet and a range from the mapping, and the UI answers as the user types and picks', async () => {
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.open('Search preview');
    await t.page.locator('select[name="builder-index"]').selectOption('books');
    await t.page.locator('input[name="facet-field"][value="genre"]').click();
    await t.page.locator('select[name="range-field"]').selectOption('year');
    await t.watch.textsBecome('every book, nothing typed yet', '[data-testid="result"]', ['Dune', 'Dune Messiah', 'Emma']);
    await t.watch.textsBecome("the facet's counts", '[data-testid="facet-value"]', ['novel (1)', 'sf (2)']);

    await t.page.locator('input[name="preview-search"]').fill('dune');
    await t.watch.textsBecome('the books found', '[data-testid="result"]', ['Dune', 'Dune Messiah']);
    await t.watch.textsBecome('the facet, counted over the search', '[data-testid="facet-value"]', ['sf (2)']);
    await t.watch.textsBecome('the total', '[data-testid="result-total"]', ['2']);
    await t.page.locator('input[name="range-start"]').fill('1966');
    await t.watch.textsBecome('the range narrows the results', '[data-testid="result"]', ['Dune Messiah']);

    // what the page shows is what the API answers for the request it shows
    const [shown] = await texts('[data-testid="declarative-request"]');
    const request = JSON.parse(shown);
    expect(request.query.map((c: { id: string }) => c.id)).to.include.members(['search', 'facet-genre', 'range', 'results']);
    const answer = await call(t.gw.url, 'POST', '/books/_declarative', { body: request });
    expect(answer.json.results.hits.hits.map((h: { _source: { title: string } }) => h._source.title)).to.deep.equal(['Dune Messiah']);
    const validated = await call(t.gw.url, 'POST', '/books/_declarative/validate', { body: request });
    expect(validated.json.path).to.equal('/_msearch');
    const { method, path, body } = validated.json;
    await t.watch.textsBecome('the engine request, as validate answers it', '[data-testid="engine-request"]', [JSON.stringify({ method, path, body }, null, 2)]);
  });

  it('is live: a book written through the API enters the results and the facet counts it, then leaves when deleted', async () => {
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.open('Search preview');
    await t.page.locator('select[name="builder-index"]').selectOption('books');
    await t.page.locator('input[name="facet-field"][value="genre"]').click();
    await t.page.locator('input[name="preview-search"]').fill('dune');
    await t.watch.textsBecome('the books found', '[data-testid="result"]', ['Dune', 'Dune Messiah']);
    await t.watch.textsBecome('the stream is open', '[data-testid="builder-live"]', ['live']);

    expect((await call(t.gw.url, 'PUT', '/books/_doc/4?refresh=true', { body: { title: 'Children of Dune', genre: 'sf', year: 1976 } })).status).to.equal(201);
    await t.watch.textsBecome('the new book, pushed', '[data-testid="result"]', ['Children of Dune', 'Dune', 'Dune Messiah']);
    await t.watch.textsBecome('the facet, recounted', '[data-testid="facet-value"]', ['sf (3)']);
    await t.watch.textsBecome('the total, recounted', '[data-testid="result-total"]', ['3']);
    expect(await t.page.locator('[data-testid="result"].fresh').allTextContents()).to.deep.equal(['Children of Dune']);

    expect((await call(t.gw.url, 'DELETE', '/books/_doc/4?refresh=true')).status).to.equal(200);
    await t.watch.textsBecome('the deleted book, gone', '[data-testid="result"]', ['Dune', 'Dune Messiah']);
    await t.watch.textsBecome('the facet, recounted again', '[data-testid="facet-value"]', ['sf (2)']);
  });

  it('offers suggestions as the user types; the fetch and appbase-js snippets answer the same when run', async () => {
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.open('Search preview');
    await t.page.locator('select[name="builder-index"]').selectOption('books');
    await t.page.locator('input[name="preview-search"]').fill('mess');
    await t.watch.textsBecome('a suggestion for what was typed', '[data-testid="suggestion"]', ['Dune Messiah']);
    await t.page.locator('[data-testid="suggestion"]').click();
    await t.watch.textsBecome('the suggestion, searched (any of its words)', '[data-testid="result"]', ['Dune', 'Dune Messiah']);

    const [fetchCode] = await texts('[data-testid="snippet-fetch"]');
    expect(fetchCode).to.contain(`${t.gw.url}/books/_declarative`).and.contain(`${ADMIN.user}:PASSWORD`).and.not.contain(ADMIN.password);
    // the snippet as a user pastes it, run here (Node has fetch and btoa)
    const run = new Function(`return (async () => { ${withPassword(fetchCode)}\n return answer; })();`) as () => Promise<Record<string, { hits: { hits: Array<{ _id: string }> } }>>;
    const fetched = await run();
    expect(fetched.results.hits.hits.map((h) => h._id)).to.deep.equal(['2', '1']); // Dune Messiah first: both words

    const [appbaseCode] = await texts('[data-testid="snippet-appbase"]');
    const query = JSON.parse(appbaseCode.slice(appbaseCode.indexOf('reactiveSearchv3(') + 'reactiveSearchv3('.length, appbaseCode.lastIndexOf(');')));
    const config = /Appbase\(\{ url: '([^']+)', app: '([^']+)', credentials: '([^']+)' \}\)/.exec(withPassword(appbaseCode));
    expect(config, appbaseCode).to.not.equal(null);
    const client = Appbase({ url: config![1], app: config![2], credentials: config![3], enableTelemetry: false });
    const viaAppbase = await client.reactiveSearchv3(query);
    expect(viaAppbase.results.hits.hits.map((h) => h._id)).to.deep.equal(['2', '1']);

    const [reactCode] = await texts('[data-testid="snippet-react"]');
    expect(reactCode).to.contain('<SearchBox componentId="search" dataField={["title"]} />').and.contain('<ReactiveList componentId="results"');
  });

  it('a credential without the declarative category has no search preview', async () => {
    const made = await call(t.gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['search'], ops: ['read'] } });
    await t.signIn(made.json.credential.username, made.json.password);
    await t.watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${made.json.credential.username} (user)`]);
    expect(await t.page.locator('nav button').allTextContents()).to.not.include('Search preview');
  });
});
