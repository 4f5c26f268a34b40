import { expect } from 'chai';
import { basic, call } from '../support/http.js';
import { ADMIN } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';
import { within } from '../support/within.js';
import { describeConsole } from './console-fixture.js';

/**
 * The console's insights in Chromium: the overview's live figures (from the gateway's metrics),
 * the analytics page's comparison, filters and charts, and the request logs page, each checked
 * against requests made through the API. Analytics and logs are written in batches: a test waits
 * for the API to show them, then for the page.
 */
describeConsole('the console insights in Chromium (overview figures, analytics, request logs)', 'insights-', (t) => {
  const credential = async (body: object) => {
    const made = await call(t.gw.url, 'POST', '/_credentials', { body: { ops: ['read'], ...body } });
    expect(made.status, made.text).to.equal(201);
    return { username: made.json.credential.username as string, password: made.json.password as string };
  };
  const signInAsAdmin = async () => {
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.watch.textsBecome('who is signed in', '[data-testid="signed-in-as"]', [`${ADMIN.user} (admin)`]);
  };

  before(async () => {
    expect((await call(t.gw.url, 'PUT', '/shop', { body: {} })).status).to.equal(200);
    expect((await call(t.gw.url, 'PUT', '/shop/_doc/1?refresh=true', { body: { name: 'dune' } })).status).to.equal(201);
  });

  it('the overview counts a stream opened through the API while it is open, and shows the request rate and latency', async () => {
    await signInAsAdmin();
    await t.watch.textsBecome('no stream open yet', '[data-testid="open-streams"]', ['0']);
    const stream = await openStream(t.gw.url, '/shop/_search?stream=true', { method: 'POST', body: { query: { match_all: {} } } });
    try {
      await stream.live;
      await t.watch.textsBecome('the open stream', '[data-testid="open-streams"]', ['1']);
    } finally {
      stream.close();
    }
    await t.watch.textsBecome('the stream closed', '[data-testid="open-streams"]', ['0']);
    // the console's own calls are requests too: between two reads the rate is above zero
    await t.watch.textMatches('a request rate', '[data-testid="request-rate"]', /^(?!0\.0$)\d+\.\d$/);
    await t.watch.textMatches('a mean latency', '[data-testid="mean-latency"]', /^\d+\.\d ms$/);
  });

  it('the logs page lists the requests made on an index, filters the failed one, opens its record, and filters by latency and date', async () => {
    const index = 'insights-logs';
    expect((await call(t.gw.url, 'PUT', `/${index}`, { body: {} })).status).to.equal(200);
    expect((await call(t.gw.url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { name: 'logged' } })).status).to.equal(201);
    expect((await call(t.gw.url, 'GET', `/${index}/_doc/missing`)).status).to.equal(404);
    let listed = await call(t.gw.url, 'GET', `/${index}/_logs`);
    await within(10_000, async () => {
      listed = await call(t.gw.url, 'GET', `/${index}/_logs`);
      return listed.json.total === 3;
    });
    await signInAsAdmin();
    await t.open('Logs');
    await t.page.locator('select[name="logs-index"]').selectOption(index);
    await t.watch.textsBecome('the requests on the index', '[data-testid="log-path"]', [`/${index}`, `/${index}/_doc/1?refresh=true`, `/${index}/_doc/missing`]);

    await t.page.locator('select[name="logs-filter"]').selectOption('error');
    await t.watch.textsBecome('only the failed request', '[data-testid="log-path"]', [`/${index}/_doc/missing`]);
    await t.watch.textsBecome('its status', '[data-testid="log-status"]', ['404']);
    const failed = listed.json.logs.find((l: { status: number }) => l.status === 404);
    await t.page.locator(`button[aria-label$=": open request ${failed.id}"]`).click();
    const stored = await call(t.gw.url, 'GET', `/_log/${failed.id}`);
    expect(stored.json.log.path).to.equal(`/${index}/_doc/missing`);
    await t.watch.textsBecome('the whole record', '[data-testid="log-record"]', [JSON.stringify(stored.json.log, null, 2)]);

    // none of the three took an hour
    await t.page.locator('select[name="logs-filter"]').selectOption('');
    await t.page.locator('input[name="start-latency"]').fill('3600000');
    await t.watch.textsBecome('no request that slow', '[data-testid="logs-total"]', ['0']);
    await t.page.locator('input[name="start-latency"]').fill('0');
    await t.watch.textsBecome('all three again', '[data-testid="logs-total"]', ['3']);
    await t.page.locator('input[name="start-date"]').fill('2999-01-01T00:00');
    await t.watch.textsBecome('none from the future', '[data-testid="logs-total"]', ['0']);
    await t.page.locator('input[name="start-date"]').fill('');
    await t.watch.textsBecome('all three again', '[data-testid="logs-total"]', ['3']);
  });

  it('the analytics page compares with the previous period, lists the popular filters and charts latency and searches over time', async () => {
    for (const [user, q] of [['ann', 'dune'], ['bob', 'dune'], ['cy', 'nothing-like-this']]) {
      const headers = { 'x-search-query': q, 'x-user-id': user, 'x-search-filters': 'genre=sf,year=1965' };
      expect((await call(t.gw.url, 'POST', '/shop/_search', { body: { query: { match: { name: q } } }, headers })).status).to.equal(200);
    }
    await within(10_000, async () => (await call(t.gw.url, 'GET', '/_analytics/summary')).json.total_searches === 3);
    const latency = (await call(t.gw.url, 'GET', '/_analytics/latency')).json;
    const perDay = (await call(t.gw.url, 'GET', '/_analytics/request-distribution?interval=day')).json;
    const counts = (buckets: Array<{ count: number }>) => buckets.map((b) => String(b.count));

    await signInAsAdmin();
    await t.open('Analytics');
    await t.watch.textsBecome('the searches', '[data-testid="total-searches"]', ['3']);
    // the previous 30 days had none
    await t.watch.textsBecome('the previous period', '[data-testid="previous-total-searches"]', ['previous period 0 (+3)']);
    await t.watch.textsBecome('the users', '[data-testid="total-users"]', ['3']);
    await t.watch.textsBecome('the popular filters', '[data-testid="popular-filters"] tbody th', ['genre', 'year']);
    await t.watch.textsBecome("the latency chart's numbers", '[data-testid="latency-chart"] tbody td', counts(latency.latencies));
    // what Chart.js drew, as the canvas tells once it has rendered
    const drawn = (chart: string, buckets: Array<{ count: number }>) => `[data-testid="${chart}"] canvas[data-rendered='${JSON.stringify(buckets.map((b) => b.count))}']`;
    await t.watch.visible('the latency chart, drawn', drawn('latency-chart', latency.latencies));
    await t.watch.textsBecome('the chart of the last 30 days', '[data-testid="distribution-chart"] figcaption', ['Searches per day']);
    await t.watch.textsBecome('searches per day', '[data-testid="distribution-chart"] tbody td:nth-of-type(1)', counts(perDay.request_distribution));

    await t.page.locator('select[name="range"]').selectOption('3600');
    // the chart's title is the data's: it changes when the last hour's searches arrive
    await t.watch.textsBecome('the chart of the last hour', '[data-testid="distribution-chart"] figcaption', ['Searches per minute']);
    const since = Math.floor(Date.now() / 1000) - 3600;
    const perMinute = (await call(t.gw.url, 'GET', `/_analytics/request-distribution?interval=minute&from_timestamp=${since}`)).json;
    await t.watch.textsBecome('searches per minute', '[data-testid="distribution-chart"] tbody td:nth-of-type(1)', counts(perMinute.request_distribution));
    await t.watch.visible('the chart of the last hour, drawn', drawn('distribution-chart', perMinute.request_distribution));
    await t.watch.textsBecome('the searches of the last hour', '[data-testid="total-searches"]', ['3']);
  });

  it('a credential without the logs and analytics categories sees neither page; one with logs sees its own index requests only', async () => {
    const plain = await credential({ indices: ['shop'], categories: ['search', 'indices'] });
    await t.signIn(plain.username, plain.password);
    // no stream category: no live view (a page it may not use is hidden)
    await t.watch.textsBecome('its pages', 'nav button', ['Overview', 'Requests', 'Data', 'Indices']);
    await t.page.locator('button').filter({ hasText: 'Sign out' }).click();

    const reader = await credential({ indices: ['shop'], categories: ['indices', 'logs'] });
    const auth = basic(reader.username, reader.password);
    // the admin's write on shop (before); the writes on other indices are not its to see
    await within(10_000, async () => (await call(t.gw.url, 'GET', '/_logs?filter=index', { auth })).json.total === 1);
    await t.signIn(reader.username, reader.password);
    await t.watch.textsBecome('its pages', 'nav button', ['Overview', 'Requests', 'Data', 'Indices', 'Logs']);
    await t.open('Logs');
    await t.page.locator('select[name="logs-filter"]').selectOption('index');
    await t.watch.textsBecome("the write on its index, and not the others'", '[data-testid="log-path"]', ['/shop/_doc/1?refresh=true']);
  });
});
