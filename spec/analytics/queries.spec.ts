import { expect } from 'chai';
import { ANALYTICS_INDEX, ANALYTICS_INDEX_BODY, type AnalyticsEvent } from '../../lib/analytics/events.js';
import { liveAnswers } from '../../lib/analytics/live.js';
import { ANALYTICS_ENDPOINTS, analyticsQuery, type AnalyticsScope } from '../../lib/analytics/queries.js';
import { callJson } from '../../lib/engine/index.js';
import { EsError } from '../../lib/errors/index.js';
import { BACKENDS } from '../support/backends.js';
import type { TestGateway } from '../support/servers.js';

const NOW = Date.UTC(2024, 2, 15, 12, 0, 0); // Friday 15 March 2024, noon UTC
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const seconds = (ms: number) => String(ms / 1000);

type Event = Partial<AnalyticsEvent> & Pick<AnalyticsEvent, 'type' | 'time' | 'search_id' | 'index' | 'query' | 'user_id'>;
const search = (id: string, at: number, e: Partial<AnalyticsEvent>): Event =>
  ({ type: 'search', time: at, search_id: id, index: 'books', query: '', user_id: '', filters: [], custom: [], credential: 'admin', status: 200, kind: 'search', ...e });
const click = (of: string, at: number, e: Partial<AnalyticsEvent>): Event =>
  ({ type: 'click', time: at, search_id: of, index: 'books', query: '', user_id: '', filters: [], custom: [], credential: 'admin', click_type: 'result', ...e });

/**
 * The events every expectation below is counted from. In the last 30 days: eight searches (three
 * find nothing), four clicks on three of them, one conversion. Before that (the previous
 * timeframe of `summary`): two searches. `dune`'s first search is at 23:30 UTC on the 14th: the
 * next day in Paris.
 */
const EVENTS: Event[] = [
  search('s1', NOW - 1 * HOUR, { query: 'dune', user_id: 'u1', hits: 5, hit_ids: ['b1', 'b2', 'b3'], took: 12, filters: ['genre=sf'], custom: ['platform=android'] }),
  search('s2', NOW - 2 * HOUR, { query: 'dune', user_id: 'u2', hits: 5, hit_ids: ['b1', 'b2'], took: 25, filters: ['genre=sf', 'year=1965'], custom: ['platform=ios'] }),
  search('s3', NOW - 12.5 * HOUR, { query: 'dune', user_id: 'u1', hits: 4, hit_ids: ['b1'], took: 1500, custom: ['platform=android'] }),
  search('s4', NOW - 3 * HOUR, { query: 'emma', user_id: 'u3', hits: 1, hit_ids: ['b4'], took: 8, filters: ['genre=novel'] }),
  search('s5', NOW - 4 * HOUR, { query: 'zzz', user_id: 'u3', hits: 0, hit_ids: [], took: 3 }),
  search('s6', NOW - 5 * HOUR, { query: 'zzz', index: 'films', user_id: 'u4', hits: 0, hit_ids: [], took: 5 }),
  search('s7', NOW - 6 * HOUR, { query: 'alien', index: 'films', user_id: 'u4', hits: 2, hit_ids: ['f1', 'f2'], took: 40, filters: ['genre=sf'] }),
  search('s8', NOW - 7 * HOUR, { query: 'bad', index: 'films', user_id: 'u2', hits: 0, hit_ids: [], took: 2, status: 400 }),
  click('s1', NOW - 1 * HOUR + 60_000, { query: 'dune', user_id: 'u1', doc_id: 'b1', position: 1, custom: ['platform=android'] }),
  click('s1', NOW - 1 * HOUR + 90_000, { query: 'dune', user_id: 'u1', doc_id: 'b2', position: 2, custom: ['platform=android'] }),
  click('s2', NOW - 2 * HOUR + 60_000, { query: 'dune', user_id: 'u2', doc_id: 'b1', position: 1, custom: ['platform=ios'] }),
  click('s7', NOW - 6 * HOUR + 60_000, { query: 'alien', index: 'films', user_id: 'u4', doc_id: 'f2', position: 2 }),
  { type: 'conversion', time: NOW - HOUR + 120_000, search_id: 's1', index: 'books', query: 'dune', user_id: 'u1', doc_id: 'b1', filters: [], custom: ['platform=android'], credential: 'admin' },
  search('old1', NOW - 40 * DAY, { query: 'dune', user_id: 'u5', hits: 5, hit_ids: ['b1'], took: 10 }),
  search('old2', NOW - 35 * DAY, { query: 'emma', user_id: 'u6', hits: 0, hit_ids: [], took: 20 }),
];

for (const backend of BACKENDS) {
  describe(`search analytics: the query endpoints (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    /** An endpoint's answer as the gateway's analytics routes compute it (the system index is not reachable over HTTP). */
    const ask = (name: string, params: Record<string, string> | string = {}, scope: AnalyticsScope = {}) =>
      analyticsQuery(gw.backend, name, new URLSearchParams(params), scope, NOW) as Promise<any>;
    const refusal = async (name: string, params: Record<string, string> | string, scope: AnalyticsScope = {}) => {
      try {
        await ask(name, params, scope);
      } catch (err) {
        expect(err).to.be.instanceOf(EsError);
        return err as EsError;
      }
      throw new Error(`${name}?${new URLSearchParams(params)} was answered`);
    };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(() => stop());

    it('before anything is recorded (no analytics index): every endpoint answers zeros and empty lists', async () => {
      await callJson(gw.backend, 'DELETE', `/${ANALYTICS_INDEX}`);
      expect(await ask('popular-searches', { click_analytics: 'true' })).to.deep.equal({ popular_searches: [] });
      expect(await ask('no-result-searches')).to.deep.equal({ no_results_searches: [] });
      expect(await ask('popular-results')).to.deep.equal({ popular_results: [] });
      expect(await ask('popular-filters')).to.deep.equal({ popular_filters: [] });
      expect(await ask('latency')).to.deep.equal({ latencies: [], total_searches: 0, avg_search_latency: 0 });
      expect(await ask('request-distribution')).to.deep.equal({ request_distribution: [] });
      expect(await ask('recent-searches')).to.deep.equal({ recent_searches: [] });
      expect(await ask('query-overview', { query: 'dune' })).to.deep.equal({ histogram: [], top_clicks: [], top_results: [] });
      const zeros = {
        total_searches: 0, total_no_results_searches: 0, no_results_rate: 0, total_clicks: 0, avg_click_rate: 0, total_conversions: 0,
        avg_conversion_rate: 0, total_users: 0, avg_click_position: 0, avg_search_latency: 0,
      };
      expect(await ask('summary')).to.deep.equal({ ...zeros, compare_timeframe: zeros });
    });

    describe('over a known set of events', () => {
      before(async () => {
        const created = await callJson(gw.backend, 'PUT', `/${ANALYTICS_INDEX}`, ANALYTICS_INDEX_BODY);
        expect(created.status, JSON.stringify(created.body)).to.equal(200);
        const lines = EVENTS.map((e) => `${JSON.stringify({ index: e.type === 'search' ? { _id: e.search_id } : {} })}\n${JSON.stringify(e)}\n`).join('');
        const res = await gw.backend.request({ method: 'POST', path: `/${ANALYTICS_INDEX}/_bulk`, querystring: 'refresh=true', headers: { 'content-type': 'application/x-ndjson' }, body: lines });
        expect(res.status).to.equal(200);
      });

      it('popular-searches: searches by query, most first; with click_analytics, clicks, the share of searches clicked and converted, the mean click position', async () => {
        expect(await ask('popular-searches')).to.deep.equal({
          popular_searches: [
            { key: 'dune', count: 3 },
            { key: 'zzz', count: 2 },
            { key: 'alien', count: 1 },
            { key: 'bad', count: 1 },
            { key: 'emma', count: 1 },
          ],
        });
        const engaged = await ask('popular-searches', { click_analytics: 'true', size: '3' });
        expect(engaged.popular_searches).to.deep.equal([
          // s1 and s2 clicked (three clicks, positions 1, 2, 1), s1 converted, s3 neither
          { key: 'dune', count: 3, clicks: 3, click_rate: 66.67, click_position: 1.33, conversion_rate: 33.33 },
          { key: 'zzz', count: 2, clicks: 0, click_rate: 0, click_position: 0, conversion_rate: 0 },
          { key: 'alien', count: 1, clicks: 1, click_rate: 100, click_position: 2, conversion_rate: 0 },
        ]);
      });

      it('no-result-searches, popular-filters', async () => {
        expect(await ask('no-result-searches')).to.deep.equal({ no_results_searches: [{ key: 'zzz', count: 2 }, { key: 'bad', count: 1 }] });
        expect(await ask('popular-filters')).to.deep.equal({
          popular_filters: [
            { key: 'genre', value: 'sf', count: 3 },
            { key: 'genre', value: 'novel', count: 1 },
            { key: 'year', value: '1965', count: 1 },
          ],
        });
      });

      it('popular-results: documents by the searches whose top hits held them, with their index and, asked, their clicks', async () => {
        expect((await ask('popular-results', { size: '3' })).popular_results).to.deep.equal([
          { key: 'b1', count: 3, index: 'books' },
          { key: 'b2', count: 2, index: 'books' },
          { key: 'b3', count: 1, index: 'books' },
        ]);
        const engaged = (await ask('popular-results', { click_analytics: 'true' })).popular_results;
        expect(engaged.map((r: { key: string }) => r.key)).to.deep.equal(['b1', 'b2', 'b3', 'b4', 'f1', 'f2']);
        expect(engaged[0]).to.deep.equal({ key: 'b1', count: 3, index: 'books', clicks: 2, click_rate: 66.67, click_position: 1, conversion_rate: 33.33 });
        expect(engaged[1]).to.deep.equal({ key: 'b2', count: 2, index: 'books', clicks: 1, click_rate: 50, click_position: 2, conversion_rate: 0 });
        expect(engaged[5]).to.deep.equal({ key: 'f2', count: 1, index: 'films', clicks: 1, click_rate: 100, click_position: 2, conversion_rate: 0 });
      });

      it('summary: totals and rates of the range, and the same of the timeframe before it', async () => {
        expect(await ask('summary')).to.deep.equal({
          total_searches: 8,
          total_no_results_searches: 3,
          no_results_rate: 37.5,
          total_clicks: 4,
          avg_click_rate: 37.5, // s1, s2, s7
          total_conversions: 1,
          avg_conversion_rate: 12.5,
          total_users: 4,
          avg_click_position: 1.5,
          avg_search_latency: 199.38, // 1595 / 8
          compare_timeframe: {
            total_searches: 2, total_no_results_searches: 1, no_results_rate: 50, total_clicks: 0, avg_click_rate: 0, total_conversions: 0,
            avg_conversion_rate: 0, total_users: 2, avg_click_position: 0, avg_search_latency: 15,
          },
        });
      });

      it('latency: 10 ms buckets by their lower bound, the slow ones (≥ 1000 ms) in one last bucket', async () => {
        expect(await ask('latency')).to.deep.equal({
          latencies: [{ key: 0, count: 4 }, { key: 10, count: 1 }, { key: 20, count: 1 }, { key: 40, count: 1 }, { key: 1000, count: 1 }],
          total_searches: 8,
          avg_search_latency: 199.38,
        });
      });

      it('request-distribution: searches per interval and per status', async () => {
        const byDay = await ask('request-distribution', { interval: 'day' });
        expect(byDay).to.deep.equal({
          request_distribution: [
            { key: Date.UTC(2024, 2, 14), key_as_string: '2024-03-14T00:00:00.000Z', count: 1, buckets: [{ key: 200, count: 1 }] },
            { key: Date.UTC(2024, 2, 15), key_as_string: '2024-03-15T00:00:00.000Z', count: 7, buckets: [{ key: 200, count: 6 }, { key: 400, count: 1 }] },
          ],
        });
        // 30 days are drawn by day unless told otherwise
        expect(await ask('request-distribution')).to.deep.equal(byDay);
        const hourly = (await ask('request-distribution', { interval: 'hour', from_timestamp: seconds(NOW - 3 * HOUR - 1) })).request_distribution;
        expect(hourly.map((b: { key: number; count: number }) => [b.key, b.count])).to.deep.equal([[NOW - 3 * HOUR, 1], [NOW - 2 * HOUR, 1], [NOW - HOUR, 1]]);
      });

      it('recent-searches: newest first; user_id keeps one user’s', async () => {
        expect(await ask('recent-searches', { size: '3' })).to.deep.equal({
          recent_searches: [
            { key: 'dune', time: NOW - HOUR, hits: 5, index: 'books' },
            { key: 'dune', time: NOW - 2 * HOUR, hits: 5, index: 'books' },
            { key: 'emma', time: NOW - 3 * HOUR, hits: 1, index: 'books' },
          ],
        });
        expect(await ask('recent-searches', { user_id: 'u4' })).to.deep.equal({
          recent_searches: [
            { key: 'zzz', time: NOW - 5 * HOUR, hits: 0, index: 'films' },
            { key: 'alien', time: NOW - 6 * HOUR, hits: 2, index: 'films' },
          ],
        });
      });

      it('query-overview: one query’s searches per day, its clicked and its shown documents; time_zone moves a search to the next day', async () => {
        expect(await ask('query-overview', { query: 'dune' })).to.deep.equal({
          histogram: [
            { key: Date.UTC(2024, 2, 14), key_as_string: '2024-03-14T00:00:00.000Z', count: 1 },
            { key: Date.UTC(2024, 2, 15), key_as_string: '2024-03-15T00:00:00.000Z', count: 2 },
          ],
          top_clicks: [{ key: 'b1', count: 2 }, { key: 'b2', count: 1 }],
          top_results: [{ key: 'b1', count: 3 }, { key: 'b2', count: 2 }, { key: 'b3', count: 1 }],
        });
        // s3, at 23:30 UTC on the 14th, is on the 15th in Paris
        const paris = await ask('query-overview', { query: 'dune', time_zone: 'Europe/Paris' });
        expect(paris.histogram).to.deep.equal([{ key: Date.UTC(2024, 2, 14, 23), key_as_string: '2024-03-15T00:00:00.000+01:00', count: 3 }]);
        expect((await ask('query-overview', { query: 'dune', time_zone: '+01:00' })).histogram.map((b: { count: number }) => b.count)).to.deep.equal([3]);
        const daily = await ask('request-distribution', { interval: 'day', time_zone: 'Europe/Paris' });
        expect(daily.request_distribution.map((b: { count: number }) => b.count)).to.deep.equal([8]);
      });

      it('the time range: epoch seconds or ISO dates, both ends included; the previous timeframe follows it', async () => {
        const lastHours = await ask('popular-searches', { from_timestamp: seconds(NOW - 3 * HOUR), to_timestamp: seconds(NOW - HOUR) });
        expect(lastHours.popular_searches).to.deep.equal([{ key: 'dune', count: 2 }, { key: 'emma', count: 1 }]);
        const iso = await ask('popular-searches', { from_timestamp: '2024-03-15T00:00:00Z', to_timestamp: '2024-03-15T12:00:00Z' });
        expect(iso.popular_searches[0]).to.deep.equal({ key: 'dune', count: 2 });
        const older = await ask('summary', { from_timestamp: seconds(NOW - 45 * DAY), to_timestamp: seconds(NOW - 30 * DAY) });
        expect([older.total_searches, older.compare_timeframe.total_searches]).to.deep.equal([2, 0]);
        // nothing before the range's start in the default 30 days
        expect((await ask('popular-searches', { to_timestamp: seconds(NOW - 8 * HOUR) })).popular_searches).to.deep.equal([{ key: 'dune', count: 1 }]);
      });

      it('a custom-event filter keeps the searches (and clicks) that carry it; user_id keeps a user’s', async () => {
        const android = await ask('popular-searches', { platform: 'android', click_analytics: 'true' });
        expect(android.popular_searches).to.deep.equal([{ key: 'dune', count: 2, clicks: 2, click_rate: 50, click_position: 1.5, conversion_rate: 50 }]);
        expect((await ask('popular-searches', 'platform=android&platform=ios')).popular_searches).to.deep.equal([{ key: 'dune', count: 3 }]);
        expect((await ask('summary', { platform: 'windows' })).total_searches).to.equal(0);
        expect((await ask('summary', { user_id: 'u1' }))).to.include({ total_searches: 2, total_clicks: 2, total_users: 1 });
      });

      it('the scope: the path’s index, a credential’s index patterns, both at once', async () => {
        const keys = async (scope: AnalyticsScope) => (await ask('popular-searches', {}, scope)).popular_searches.map((b: { key: string; count: number }) => `${b.key}:${b.count}`);
        expect(await keys({ index: 'books' })).to.deep.equal(['dune:3', 'emma:1', 'zzz:1']);
        expect(await keys({ patterns: ['film*'] })).to.deep.equal(['alien:1', 'bad:1', 'zzz:1']);
        expect(await keys({ patterns: ['bo*', 'films'] })).to.deep.equal(['dune:3', 'zzz:2', 'alien:1', 'bad:1', 'emma:1']);
        expect(await keys({ index: 'books,films', patterns: ['*'] })).to.have.length(5);
        expect(await keys({ index: 'films', patterns: ['books'] })).to.deep.equal([]);
        expect(await keys({ patterns: [] })).to.deep.equal([]);
        const filmsSummary = await ask('summary', {}, { patterns: ['films'] });
        expect(filmsSummary).to.include({ total_searches: 3, total_clicks: 1, total_conversions: 0, total_users: 2 });
      });

      it('size limits the lists (1 to 1000); bad values are 400s, unknown endpoints 404s', async () => {
        expect((await ask('popular-searches', { size: '2' })).popular_searches).to.have.length(2);
        expect((await ask('recent-searches', { size: '1000' })).recent_searches).to.have.length(8);
        const bad: Array<[string, Record<string, string>, string]> = [
          ['popular-searches', { size: '1001' }, '[size]'],
          ['popular-searches', { size: '0' }, '[size]'],
          ['popular-searches', { size: 'ten' }, '[size]'],
          ['summary', { from_timestamp: 'yesterday' }, '[from_timestamp]'],
          ['summary', { to_timestamp: String(NOW) }, 'epoch seconds'],
          ['summary', { from_timestamp: seconds(NOW), to_timestamp: seconds(NOW - HOUR) }, '[from_timestamp]'],
          ['popular-searches', { click_analytics: 'yes' }, '[click_analytics]'],
          ['query-overview', { time_zone: 'Mars/Olympus' }, '[query]'],
          ['query-overview', { query: 'dune', time_zone: 'Mars/Olympus' }, '[time_zone]'],
          ['request-distribution', { interval: 'fortnight' }, '[interval]'],
          ['request-distribution', { interval: 'toString' }, '[interval]'],
          ['request-distribution', { interval: 'minute' }, 'more than 10000 buckets'],
        ];
        for (const [name, params, reason] of bad) {
          const err = await refusal(name, params);
          expect([err.status, err.type], `${name} ${JSON.stringify(params)}`).to.deep.equal([400, 'illegal_argument_exception']);
          expect(err.reason).to.include(reason);
        }
        const unknown = await refusal('most-wanted', {});
        expect([unknown.status, unknown.type]).to.deep.equal([404, 'resource_not_found_exception']);
        expect(unknown.reason).to.include('popular-searches');
        expect(ANALYTICS_ENDPOINTS).to.have.length(9);
      });
    });
  });
}

describe('search analytics: live answers', () => {
  const live = (compute: () => Promise<object>) => {
    const aborted = new AbortController();
    return { answers: liveAnswers(compute, 5, aborted.signal)[Symbol.asyncIterator](), aborted };
  };

  it('the first answer at once, then one more each time the answer changes, none while it does not; abort ends it', async () => {
    let computed = 0;
    let value = 'a';
    const { answers, aborted } = live(async () => {
      computed++;
      if (computed === 6) value = 'c';
      return { value };
    });
    expect(await answers.next()).to.deep.equal({ value: '{"value":"a"}', done: false });
    expect(computed).to.equal(1);
    value = 'b';
    expect(await answers.next()).to.deep.equal({ value: '{"value":"b"}', done: false });
    expect(computed).to.equal(2);
    // computations 3, 4 and 5 find "b" again: nothing is yielded until the sixth finds "c"
    expect(await answers.next()).to.deep.equal({ value: '{"value":"c"}', done: false });
    expect(computed).to.equal(6);
    const pending = answers.next();
    aborted.abort();
    expect(await pending).to.deep.equal({ value: undefined, done: true });
  });

  it('a failed computation is one ES-shaped error, and the end', async () => {
    let computed = 0;
    const { answers } = live(async () => {
      if (++computed === 2) throw new EsError(400, 'illegal_argument_exception', 'no such thing');
      return { computed };
    });
    expect((await answers.next()).value).to.equal('{"computed":1}');
    const failed = await answers.next();
    expect(JSON.parse(failed.value as string)).to.deep.equal({
      error: { root_cause: [{ type: 'illegal_argument_exception', reason: 'no such thing' }], type: 'illegal_argument_exception', reason: 'no such thing' },
      status: 400,
    });
    expect(await answers.next()).to.deep.equal({ value: undefined, done: true });
  });
});
