import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { call } from '../support/http.js';
import { REPO_ROOT, startTestGateway, type TestGateway } from '../support/servers.js';
import { APP_DIST, sharedChromium, missingPrerequisites, type Browser, type Page } from './chromium.js';
import { PageWatch } from './page-watch.js';
import { serveDirectory, type StaticServer } from './static-server.js';

const SCREENSHOTS = path.join(REPO_ROOT, 'spec/browser/screenshots');

interface Book { title: string; author: string; category: 'science-fiction' | 'fantasy' | 'mystery'; year: number }
const BOOKS: Book[] = [
  { title: 'Dune', author: 'Frank Herbert', category: 'science-fiction', year: 1965 },
  { title: 'Dune Messiah', author: 'Frank Herbert', category: 'science-fiction', year: 1969 },
  { title: 'Children of Dune', author: 'Frank Herbert', category: 'science-fiction', year: 1976 },
  { title: 'Neuromancer', author: 'William Gibson', category: 'science-fiction', year: 1984 },
  { title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin', category: 'science-fiction', year: 1969 },
  { title: 'Hyperion', author: 'Dan Simmons', category: 'science-fiction', year: 1989 },
  { title: 'The Three-Body Problem', author: 'Liu Cixin', category: 'science-fiction', year: 2008 },
  { title: 'Project Hail Mary', author: 'Andy Weir', category: 'science-fiction', year: 2021 },
  { title: 'A Wizard of Earthsea', author: 'Ursula K. Le Guin', category: 'fantasy', year: 1968 },
  { title: 'The Last Unicorn', author: 'Peter S. Beagle', category: 'fantasy', year: 1968 },
  { title: 'Jonathan Strange & Mr Norrell', author: 'Susanna Clarke', category: 'fantasy', year: 2004 },
  { title: 'Mistborn', author: 'Brandon Sanderson', category: 'fantasy', year: 2006 },
  { title: 'The Name of the Wind', author: 'Patrick Rothfuss', category: 'fantasy', year: 2007 },
  { title: 'The Fifth Season', author: 'N. K. Jemisin', category: 'fantasy', year: 2015 },
  { title: 'Piranesi', author: 'Susanna Clarke', category: 'fantasy', year: 2020 },
  { title: 'The Talented Mr Ripley', author: 'Patricia Highsmith', category: 'mystery', year: 1955 },
  { title: 'The Name of the Rose', author: 'Umberto Eco', category: 'mystery', year: 1980 },
  { title: 'The Girl with the Dragon Tattoo', author: 'Stieg Larsson', category: 'mystery', year: 2005 },
  { title: 'In the Woods', author: 'Tana French', category: 'mystery', year: 2007 },
  { title: 'Gone Girl', author: 'Gillian Flynn', category: 'mystery', year: 2012 },
];
const titles = (books: Book[]) => books.map((b) => b.title);
const HIT_TITLES = '[data-testid="hit"] .hit-title';

/**
 * The ReactiveSearch UI library (4.x, built by Vite in spec/browser/app) in Debian's Chromium,
 * talking to the gateway from another origin with a read-only browser credential: what a web
 * page built on the gateway does, through CORS (allowed by the credential's `referers`, no
 * `CORS_ORIGINS`), authentication and the `/{index}/_reactivesearch`
 * API, checked on what the page shows.
 */
describe('ReactiveSearch UI in Chromium against the gateway (cross-origin, read-only credential)', function () {
  const missing = missingPrerequisites();
  if (missing.length > 0) {
    const reason = `needs ${missing.join('; ')}`;
    if (process.env.CI === 'true') it('has Chromium and the built app', () => expect.fail(reason));
    else it.skip(reason);
    return;
  }

  this.timeout(30_000);
  let site: StaticServer;
  let gw: TestGateway;
  let browser: Browser;
  let appUrl: string;
  let page: Page;
  let watch: PageWatch;

  before(async () => {
    site = await serveDirectory(APP_DIST);
    // no CORS_ORIGINS: the page's origin is allowed by its credential's referers alone
    gw = await startTestGateway();
    const created = await call(gw.url, 'PUT', '/books', {
      body: {
        mappings: {
          properties: {
            title: { type: 'text', fields: { keyword: { type: 'keyword' } } },
            author: { type: 'text' },
            category: { type: 'keyword' },
            year: { type: 'integer' },
          },
        },
      },
    });
    expect(created.status, created.text).to.equal(200);
    const bulk = BOOKS.flatMap((b, i) => [JSON.stringify({ index: { _index: 'books', _id: String(i + 1) } }), JSON.stringify(b)]);
    const loaded = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: bulk.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
    expect(loaded.json?.errors, loaded.text).to.equal(false);
    // what a page ships: read-only, one index, the declarative and search APIs, only from the page's origin
    const credential = await call(gw.url, 'POST', '/_credentials', {
      body: { indices: ['books'], categories: ['declarative', 'search'], ops: ['read'], referers: [`${site.origin}/*`], description: 'the books page' },
    });
    expect(credential.status, credential.text).to.equal(201);
    const query = new URLSearchParams({ url: gw.url, app: 'books', credentials: `${credential.json.credential.username}:${credential.json.password}` });
    appUrl = `${site.origin}/?${query}`;
    browser = await sharedChromium();
    await mkdir(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await gw?.close();
    await site?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    watch = new PageWatch(page, gw.url);
    await page.goto(appUrl);
  });
  afterEach(async function () {
    const file = path.join(SCREENSHOTS, `${this.currentTest!.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`      screenshot: ${path.relative(process.cwd(), file)}`);
    await page.close();
  });

  it('lists every book on load, and the category facet counts them', async () => {
    await watch.textsBecome('every book', HIT_TITLES, titles(BOOKS));
    await watch.textsBecome('the number of results', '[data-testid="result-stats"]', ['20 results']);
    await watch.textsBecome('the facet values with counts', '.category-list li label', ['fantasy7', 'mystery5', 'science-fiction8']);
  });

  it('suggests titles while typing; Enter searches and the results follow', async () => {
    await watch.textsBecome('every book', HIT_TITLES, titles(BOOKS));
    const dune = BOOKS.filter((b) => /\bdune\b/i.test(b.title));
    await page.locator('.search-input').fill('dune');
    await watch.textsBecome('the titles matching "dune" as suggestions', '.search-suggestions li .trim', titles(dune));
    await page.locator('.search-input').press('Enter');
    const shown = await watch.textsBecome('the books matching "dune"', HIT_TITLES, titles(dune));
    expect(shown).to.deep.equal(['Children of Dune', 'Dune', 'Dune Messiah']);
  });

  it('a facet value narrows the results, and the year slider narrows them further', async () => {
    await watch.textsBecome('every book', HIT_TITLES, titles(BOOKS));
    await page.locator('.category-list li label').filter({ hasText: 'fantasy' }).click();
    const fantasy = BOOKS.filter((b) => b.category === 'fantasy');
    await watch.textsBecome('the fantasy books', HIT_TITLES, titles(fantasy));

    // the lower handle, from 1950 in steps of 10 years, to 2000
    const lower = page.locator('.rheostat-handle[data-handle-key="0"]');
    for (let step = 0; step < 5; step++) await lower.press('ArrowRight');
    await watch.visible('the slider at 2000', '.rheostat-handle[data-handle-key="0"][aria-valuenow="2000"]');
    const recent = fantasy.filter((b) => b.year >= 2000);
    const shown = await watch.textsBecome('the fantasy books since 2000', HIT_TITLES, titles(recent));
    expect(shown).to.deep.equal(['Jonathan Strange & Mr Norrell', 'Mistborn', 'Piranesi', 'The Fifth Season', 'The Name of the Wind']);
    expect(await page.locator('[data-testid="hit"] .hit-category').allTextContents()).to.deep.equal(recent.map(() => 'fantasy'));
  });
});
