import { expect } from 'chai';
import { callJson } from '../../lib/engine/index.js';
import { LOGS_INDEX, RequestLog } from '../../lib/logs/index.js';
import { BACKENDS } from '../support/backends.js';
import { adminAuth, basic, call } from '../support/http.js';
import { ADMIN, type TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';
import { within } from '../support/within.js';

/** A record as `/_logs` shows it. */
interface Log {
  id: string;
  timestamp: string;
  time: number;
  method: string;
  path: string;
  querystring: string;
  category: string;
  operation: string;
  action: string;
  indices: string[];
  status: number;
  took: number;
  user: string;
  ip: string;
  kind: string;
  weight: number;
  stream?: boolean;
  background?: boolean;
  request_body?: string;
  response_body?: string;
  request_truncated?: boolean;
  response_truncated?: boolean;
}

const WAIT_MS = 15_000;
/** Records are written every 50 ms instead of every second: a test still waits for them to show (`logsWhen`). */
const FLUSH = { LOGS_FLUSH_MS: '50' };
const DAY_MS = 24 * 3600_000;

/** The logs a GET of `path` answers once `until` holds for them (records are written in the background). */
async function logsWhen(gw: TestGateway, path: string, until: (logs: Log[]) => boolean, auth?: string): Promise<Log[]> {
  let logs: Log[] = [];
  await within(WAIT_MS, async () => {
    const res = await call(gw.url, 'GET', path, { auth });
    expect(res.status, res.text).to.equal(200);
    logs = res.json.logs;
    return until(logs);
  });
  return logs;
}

/** Every stored record as the engine holds it, read as the admin of the engine itself (the system index is no client's). */
async function rawRecords(gw: TestGateway): Promise<string> {
  const res = await callJson(gw.backend, 'POST', `/${LOGS_INDEX}/_search`, { size: 10_000, query: { match_all: {} } }, 'ignore_unavailable=true');
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return JSON.stringify(res.body);
}

const has = (logs: Log[], method: string, path: string) => logs.some((l) => l.method === method && l.path === path);
const find = (logs: Log[], method: string, path: string) => logs.find((l) => l.method === method && l.path === path)!;

for (const backend of BACKENDS) {
  describe(`request logs (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start(FLUSH));
    });
    after(() => stop());

    it('records each request: method, path, category, indices, status, took, user, newest first; not the logs API itself', async () => {
      await call(gw.url, 'PUT', '/orders/_doc/1?refresh=true', { body: { item: 'book' } });
      await call(gw.url, 'POST', '/orders/_search', { body: { query: { match: { item: 'book' } } } });
      await call(gw.url, 'GET', '/orders/_doc/missing');
      const logs = await logsWhen(gw, '/orders/_logs', (l) => l.length >= 3);
      expect(logs.map((l) => `${l.method} ${l.path} ${l.status}`)).to.deep.equal([
        'GET /orders/_doc/missing 404',
        'POST /orders/_search 200',
        'PUT /orders/_doc/1 201',
      ]);
      const [get, search, put] = logs;
      expect(put).to.include({ category: 'docs', operation: 'write', action: 'indices:data/write/index', kind: 'index', user: ADMIN.user, querystring: 'refresh=true' });
      expect(search).to.include({ category: 'search', operation: 'read', action: 'indices:data/read/search', kind: 'search' });
      expect(get).to.include({ category: 'docs', kind: 'other' });
      for (const l of logs) {
        expect(l.indices).to.deep.equal(['orders']);
        expect(l.took).to.be.a('number').at.least(0);
        expect(l.id).to.be.a('string').with.length.above(8);
        expect(Date.parse(l.timestamp)).to.equal(l.time);
        expect(l.ip).to.be.a('string').that.is.not.empty;
        expect(l).not.to.have.property('request_body');
        expect(l).not.to.have.property('response_body');
      }
      // reading the logs is not logged
      const all = await logsWhen(gw, '/_logs?size=1000', (l) => has(l, 'GET', '/orders/_doc/missing'));
      expect(all.some((l) => l.path.includes('_logs') || l.path.startsWith('/_log/'))).to.equal(false);
      expect(all.map((l) => l.time)).to.deep.equal([...all.map((l) => l.time)].sort((a, b) => b - a));
    });

    it('filter: search, suggestion, index, delete, success, error', async () => {
      await call(gw.url, 'PUT', '/kinds/_doc/1?refresh=true', { body: { title: 'dune' } });
      await call(gw.url, 'POST', '/kinds/_search', { body: {} });
      await call(gw.url, 'POST', '/_declarative', { body: { query: [{ id: 'box', type: 'suggestion', dataField: ['title'], value: 'du', index: 'kinds' }] } });
      await call(gw.url, 'DELETE', '/kinds/_doc/1');
      await call(gw.url, 'GET', '/kinds/_doc/nothing-here');
      await logsWhen(gw, '/kinds/_logs', (l) => has(l, 'GET', '/kinds/_doc/nothing-here'));
      const paths = async (filter: string) => (await call(gw.url, 'GET', `/kinds/_logs?filter=${filter}`)).json.logs.map((l: Log) => `${l.method} ${l.path}`);
      expect(await paths('search')).to.deep.equal(['POST /kinds/_search']);
      expect(await paths('suggestion')).to.deep.equal(['POST /_declarative']);
      expect(await paths('index')).to.deep.equal(['PUT /kinds/_doc/1']);
      expect(await paths('delete')).to.deep.equal(['DELETE /kinds/_doc/1']);
      expect(await paths('error')).to.deep.equal(['GET /kinds/_doc/nothing-here']);
      expect(await paths('success')).to.have.members(['POST /kinds/_search', 'POST /_declarative', 'PUT /kinds/_doc/1', 'DELETE /kinds/_doc/1']);
      const bad = await call(gw.url, 'GET', '/_logs?filter=everything');
      expect(bad.status).to.equal(400);
      expect(bad.json.error.type).to.equal('illegal_argument_exception');
    });

    it('size and from page through the records; size over 1000 is refused', async () => {
      for (let i = 0; i < 5; i++) await call(gw.url, 'GET', `/pages/_doc/${i}`);
      const all = await logsWhen(gw, '/pages/_logs', (l) => l.length === 5);
      expect(all.map((l) => l.path)).to.deep.equal(['/pages/_doc/4', '/pages/_doc/3', '/pages/_doc/2', '/pages/_doc/1', '/pages/_doc/0']);
      const page = await call(gw.url, 'GET', '/pages/_logs?from=1&size=2');
      expect(page.json).to.include({ total: 5, from: 1, size: 2 });
      expect(page.json.logs.map((l: Log) => l.path)).to.deep.equal(['/pages/_doc/3', '/pages/_doc/2']);
      expect((await call(gw.url, 'GET', '/_logs?size=1000')).status).to.equal(200);
      for (const q of ['size=1001', 'size=-1', 'size=ten', 'from=x']) {
        const res = await call(gw.url, 'GET', `/_logs?${q}`);
        expect(res.status, q).to.equal(400);
        expect(res.json.error.type, q).to.equal('illegal_argument_exception');
      }
      expect((await call(gw.url, 'GET', '/_logs/search?size=5000')).status).to.equal(400);
    });

    it('start_date and end_date (ISO 8601 or epoch ms) bound the records by time', async () => {
      for (let i = 0; i < 3; i++) await call(gw.url, 'GET', `/dates/_doc/${i}`);
      const [last, middle, first] = await logsWhen(gw, '/dates/_logs', (l) => l.length === 3);
      const paths = async (q: string) => (await call(gw.url, 'GET', `/dates/_logs?${q}`)).json.logs.map((l: Log) => l.path);
      expect(await paths(`start_date=${middle.time}`)).to.include(middle.path).and.not.include(first.time < middle.time ? first.path : '-');
      expect(await paths(`start_date=${new Date(middle.time).toISOString()}&end_date=${new Date(middle.time).toISOString()}`)).to.include(middle.path);
      expect(await paths(`end_date=${first.time}`)).to.include(first.path).and.not.include(last.time > first.time ? last.path : '-');
      expect(await paths(`start_date=${last.time + 1}`)).to.deep.equal([]);
      expect(await paths(`end_date=${first.time - 1}`)).to.deep.equal([]);
      expect((await call(gw.url, 'GET', '/_logs?start_date=yesterday')).status).to.equal(400);
    });

    it('/_logs/search: start_latency, end_latency and order_by_latency', async () => {
      await call(gw.url, 'PUT', '/slow/_doc/1?refresh=true', { body: { n: 1 } });
      for (let i = 0; i < 4; i++) await call(gw.url, 'POST', '/slow/_search', { body: { query: { match_all: {} } } });
      await logsWhen(gw, '/slow/_logs', (l) => l.length === 5);
      const took = async (q: string) => (await call(gw.url, 'GET', `/slow/_logs/search?${q}`)).json.logs.map((l: Log) => l.took);
      const desc = await took('order_by_latency=desc');
      expect(desc).to.have.length(5);
      expect(desc).to.deep.equal([...desc].sort((a, b) => b - a));
      const asc = await took('order_by_latency=asc');
      expect(asc).to.deep.equal([...asc].sort((a, b) => a - b));
      const [max] = desc;
      expect(await took(`start_latency=${max}`)).to.have.length.at.least(1).and.satisfy((t: number[]) => t.every((x) => x >= max));
      const [min] = asc;
      expect(await took(`end_latency=${min}`)).to.have.length.at.least(1).and.satisfy((t: number[]) => t.every((x) => x <= min));
      expect(await took(`start_latency=${max + 1}&end_latency=${max + 1000}`)).to.deep.equal([]);
      expect((await call(gw.url, 'GET', '/_logs/search?order_by_latency=up')).status).to.equal(400);
      expect((await call(gw.url, 'GET', '/_logs?order_by_latency=desc')).status).to.equal(400);
    });

    it("background: a console's own requests (X-Gateway-Console: background) are recorded, marked, and left out or listed alone", async () => {
      await call(gw.url, 'GET', '/marked/_doc/polled', { headers: { 'x-gateway-console': 'background' } });
      await call(gw.url, 'GET', '/marked/_doc/sent');
      // another value of the header marks nothing
      await call(gw.url, 'GET', '/marked/_doc/other', { headers: { 'x-gateway-console': 'yes' } });
      const all = await logsWhen(gw, '/marked/_logs', (l) => l.length === 3);
      expect(find(all, 'GET', '/marked/_doc/polled')).to.include({ background: true });
      expect(find(all, 'GET', '/marked/_doc/sent')).not.to.have.property('background');
      const paths = async (q: string) => (await call(gw.url, 'GET', `/marked/_logs?${q}`)).json.logs.map((l: Log) => l.path);
      expect(await paths('background=false')).to.deep.equal(['/marked/_doc/other', '/marked/_doc/sent']);
      expect(await paths('background=true')).to.deep.equal(['/marked/_doc/polled']);
      expect((await call(gw.url, 'GET', '/marked/_logs/search?background=false&order_by_latency=asc')).json.logs).to.have.length(2);
      // the header is anyone's to send: another user's marked requests are never left out of the admin's listing
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['marked'], categories: ['docs'], ops: ['read'] } });
      const tenant = basic(made.json.credential.username, made.json.password);
      await call(gw.url, 'GET', '/marked/_doc/hidden-by-a-tenant', { auth: tenant, headers: { 'x-gateway-console': 'background' } });
      await logsWhen(gw, '/marked/_logs', (l) => has(l, 'GET', '/marked/_doc/hidden-by-a-tenant'));
      expect(await paths('background=false')).to.include('/marked/_doc/hidden-by-a-tenant');
      expect(await paths('background=true')).to.deep.equal(['/marked/_doc/polled']);
      const bad = await call(gw.url, 'GET', '/_logs?background=maybe');
      expect(bad.status).to.equal(400);
      expect(bad.json.error.reason).to.equal('[background] must be true or false, got [maybe]');
    });

    it('records a live stream when it ends', async () => {
      await call(gw.url, 'PUT', '/live/_doc/1?refresh=true', { body: { n: 1 } });
      const stream = await openStream(gw.url, '/live/_doc/1?stream=true');
      await stream.until((m) => m.length >= 1);
      // still open: only the write is recorded
      await logsWhen(gw, '/live/_logs', (l) => l.length === 1);
      stream.close();
      const [streamed] = await logsWhen(gw, '/live/_logs', (l) => l.length === 2);
      expect(streamed).to.include({ method: 'GET', path: '/live/_doc/1', querystring: 'stream=true', category: 'streams', status: 200, stream: true });
    });

    it('GET /_log/{id} answers one record; an unknown id is 404', async () => {
      await call(gw.url, 'GET', '/single/_doc/1');
      const [log] = await logsWhen(gw, '/single/_logs', (l) => l.length === 1);
      const one = await call(gw.url, 'GET', `/_log/${log.id}`);
      expect(one.status, one.text).to.equal(200);
      expect(one.json.log).to.deep.equal(log);
      const missing = await call(gw.url, 'GET', '/_log/no-such-record');
      expect(missing.status).to.equal(404);
      expect(missing.json.error.type).to.equal('resource_not_found_exception');
    });

    it('a scoped credential sees only the records of its own indices', async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['tenant-a*'], categories: ['docs', 'search', 'logs'], ops: ['read', 'write'] } });
      expect(made.status, made.text).to.equal(201);
      const tenant = basic(made.json.credential.username, made.json.password);
      await call(gw.url, 'PUT', '/tenant-a1/_doc/1?refresh=true', { body: { x: 1 } });
      await call(gw.url, 'PUT', '/tenant-b1/_doc/1?refresh=true', { body: { x: 1 } });
      await call(gw.url, 'POST', '/tenant-a1,tenant-b1/_search', { body: {} });
      await call(gw.url, 'POST', '/_search', { body: {} });
      await call(gw.url, 'GET', '/tenant-a1/_doc/1', { auth: tenant });
      const admin = await logsWhen(gw, '/_logs?size=1000', (l) => has(l, 'GET', '/tenant-a1/_doc/1') && has(l, 'POST', '/_search'));
      const seen = await logsWhen(gw, '/_logs?size=1000', (l) => has(l, 'GET', '/tenant-a1/_doc/1'), tenant);
      expect(seen.length).to.be.above(0);
      for (const l of seen) {
        expect(l.indices.length, JSON.stringify(l)).to.be.above(0);
        for (const i of l.indices) expect(i, JSON.stringify(l)).to.match(/^tenant-a/);
      }
      expect(has(seen, 'PUT', '/tenant-a1/_doc/1')).to.equal(true);
      expect(find(seen, 'GET', '/tenant-a1/_doc/1').user).to.equal(made.json.credential.username);
      expect(has(seen, 'PUT', '/tenant-b1/_doc/1')).to.equal(false);
      expect(has(seen, 'POST', '/tenant-a1,tenant-b1/_search')).to.equal(false);
      expect(has(seen, 'POST', '/_search')).to.equal(false);
      // the same through the index's own route, and another index's is refused
      const own = await call(gw.url, 'GET', '/tenant-a1/_logs', { auth: tenant });
      expect(own.status, own.text).to.equal(200);
      expect(own.json.logs.map((l: Log) => l.path)).to.have.members(['/tenant-a1/_doc/1', '/tenant-a1/_doc/1']);
      const foreign = await call(gw.url, 'GET', '/tenant-b1/_logs', { auth: tenant });
      expect(foreign.status).to.equal(403);
      expect(foreign.json.error.type).to.equal('security_exception');
      // one record by id: another tenant's is as missing as none
      const other = find(admin, 'PUT', '/tenant-b1/_doc/1');
      expect((await call(gw.url, 'GET', `/_log/${other.id}`, { auth: tenant })).status).to.equal(404);
      expect((await call(gw.url, 'GET', `/_log/${other.id}`)).status).to.equal(200);
      const mine = find(seen, 'PUT', '/tenant-a1/_doc/1');
      expect((await call(gw.url, 'GET', `/_log/${mine.id}`, { auth: tenant })).json.log).to.deep.equal(mine);
      // the admin sees tenant b's records under its index
      expect((await call(gw.url, 'GET', '/tenant-b1/_logs')).json.logs.map((l: Log) => l.path)).to.include('/tenant-b1/_doc/1');
    });

    it('a request naming more than 1,000 index expressions is recorded with the first 1,000 and their count, and only the admin sees it', async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['wide-tenant*'], categories: ['docs', 'search', 'logs'], ops: ['read', 'write'] } });
      expect(made.status, made.text).to.equal(201);
      const tenant = basic(made.json.credential.username, made.json.password);
      // every expression within the tenant's patterns, so that only the cut can hide the record
      const patterns = Array.from({ length: 1_500 }, (_, i) => `wide-tenant-${i}-*`);
      const wide = await call(gw.url, 'POST', '/_credentials', { body: { indices: patterns, categories: ['search'] } });
      expect(wide.status, wide.text).to.equal(201);
      const logs = await logsWhen(gw, '/_logs?size=1000', (l) => l.some((x) => x.method === 'POST' && x.path === '/_credentials' && x.indices.includes('wide-tenant-0-*')));
      const record = logs.find((x) => x.method === 'POST' && x.path === '/_credentials' && x.indices.includes('wide-tenant-0-*'))! as Log & { index_count: number };
      expect(record.indices).to.deep.equal(patterns.slice(0, 1_000));
      expect(record.index_count).to.equal(1_500);
      // the tenant sees its own request (written after the wide one), never the cut record
      await call(gw.url, 'GET', '/wide-tenant-1/_doc/1', { auth: tenant });
      const seen = await logsWhen(gw, '/_logs?size=1000', (l) => has(l, 'GET', '/wide-tenant-1/_doc/1'), tenant);
      expect(seen.map((l) => l.id)).not.to.include(record.id);
      expect((await call(gw.url, 'GET', `/_log/${record.id}`, { auth: tenant })).status).to.equal(404);
      expect((await call(gw.url, 'GET', `/_log/${record.id}`)).status).to.equal(200);
    });

    it('a credential without the logs category is refused', async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['tenant-a*'], categories: ['docs'], ops: ['read'] } });
      const res = await call(gw.url, 'GET', '/_logs', { auth: basic(made.json.credential.username, made.json.password) });
      expect(res.status).to.equal(403);
    });

    it('purges records older than the retention', async () => {
      await call(gw.url, 'GET', '/old/_doc/1');
      await logsWhen(gw, '/old/_logs', (l) => l.length === 1);
      // a node's purge, run as if eight days had passed (retention: 7 days)
      const node = new RequestLog(gw.backend, { bodies: false, bodyMaxBytes: 1024, retentionDays: 7 });
      try {
        await node.purge(Date.now() + 8 * DAY_MS);
      } finally {
        await node.close();
      }
      await logsWhen(gw, '/_logs', (l) => l.length === 0);
      expect((await call(gw.url, 'GET', '/_logs')).json.total).to.equal(0);
    });
  });

  describe(`request logs on a busy node: the sampling rule (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    // every second is past its budget of full records (0): each fast, successful read is sampled, one in four
    before(async () => {
      // the metrics are read on METRICS_PORT's server: outside the request path, so the reads are not sampled themselves
      ({ gateway: gw, stop } = await backend.start({ ...FLUSH, LOGS_ALL_PER_SECOND: '0', LOGS_SAMPLE_EVERY: '4', METRICS_PORT: '0' }));
    });
    after(() => stop());

    it('keeps every error and write, one in LOGS_SAMPLE_EVERY fast successful reads, and counts what it leaves out', async () => {
      await call(gw.url, 'PUT', '/sampled/_doc/1?refresh=true', { body: { n: 1 } });
      for (let i = 0; i < 12; i++) expect((await call(gw.url, 'GET', `/sampled/_doc/1?preference=read-${i}`)).status).to.equal(200);
      for (let i = 0; i < 3; i++) expect((await call(gw.url, 'GET', `/sampled/_doc/missing-${i}`)).status).to.equal(404);
      let sampledOut = NaN;
      await within(WAIT_MS, async () => {
        const metrics = await (await fetch(`${gw.metricsUrl}/metrics`)).text();
        sampledOut = Number(/^gateway_request_logs_sampled_out_total (\d+)$/m.exec(metrics)?.[1]);
        return sampledOut === 9;
      });
      expect(sampledOut).to.equal(9);
      const logs = await logsWhen(gw, '/sampled/_logs?size=100', (l) => l.length >= 7);
      const reads = logs.filter((l) => l.status === 200).map((l) => l.querystring);
      // the 1st, 5th and 9th of the twelve: counted, not random
      expect(reads).to.deep.equal(['preference=read-8', 'preference=read-4', 'preference=read-0']);
      expect(logs.filter((l) => l.status === 404).map((l) => l.path)).to.have.members(['/sampled/_doc/missing-0', '/sampled/_doc/missing-1', '/sampled/_doc/missing-2']);
      expect(has(logs, 'PUT', '/sampled/_doc/1')).to.equal(true);
      expect(logs).to.have.length(7);
      // each record says how many requests it stands for: a sampled read its four, the rest itself,
      // so the weights count every request made (the 12 reads, 3 errors and the write)
      expect(logs.filter((l) => l.status === 200).map((l) => l.weight)).to.deep.equal([4, 4, 4]);
      expect(logs.filter((l) => l.status !== 200).map((l) => l.weight)).to.deep.equal([1, 1, 1, 1]);
      expect(logs.reduce((n, l) => n + l.weight, 0)).to.equal(16);
      // and the listing says so: 7 records standing for 16 requests
      const listing = await call(gw.url, 'GET', '/sampled/_logs?size=1');
      expect([listing.json.total, listing.json.requests]).to.deep.equal([7, 16]);
    });
  });

  describe(`request logs with bodies (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ ...FLUSH, LOGS_BODIES: 'true', LOGS_BODY_MAX: '1kb' }));
    });
    after(() => stop());

    it('keeps request and response bodies, streamed ones and those a step read alike', async () => {
      await call(gw.url, 'PUT', '/notes/_doc/1?refresh=true', { body: { title: 'hello logs' } });
      await call(gw.url, 'POST', '/notes/_search', { body: { query: { match: { title: 'hello' } } } });
      const logs = await logsWhen(gw, '/notes/_logs', (l) => l.length === 2);
      const put = find(logs, 'PUT', '/notes/_doc/1');
      expect(JSON.parse(put.request_body!)).to.deep.equal({ title: 'hello logs' });
      expect(JSON.parse(put.response_body!)).to.include({ result: 'created', _id: '1' });
      const search = find(logs, 'POST', '/notes/_search');
      expect(JSON.parse(search.request_body!)).to.deep.equal({ query: { match: { title: 'hello' } } });
      expect(JSON.parse(search.response_body!).hits.total.value).to.equal(1);
      expect(put.request_truncated).to.equal(undefined);
    });

    it('cuts bodies at LOGS_BODY_MAX', async () => {
      const long = 'x'.repeat(5000);
      await call(gw.url, 'PUT', '/big/_doc/1?refresh=true', { body: { text: long } });
      await call(gw.url, 'GET', '/big/_doc/1');
      const logs = await logsWhen(gw, '/big/_logs', (l) => l.length === 2);
      const put = find(logs, 'PUT', '/big/_doc/1');
      expect(put.request_truncated).to.equal(true);
      expect(Buffer.byteLength(put.request_body!)).to.be.at.most(1024);
      expect(put.request_body!.startsWith('{"text":"xxx')).to.equal(true);
      const get = find(logs, 'GET', '/big/_doc/1');
      expect(get.response_truncated).to.equal(true);
      expect(Buffer.byteLength(get.response_body!)).to.be.at.most(1024);
    });

    it('never stores a password, a secret member, a secret parameter or the Authorization header', async () => {
      const chosen = 'Chosen-Pa55word-for-logs';
      const made = await call(gw.url, 'POST', '/_credentials', { body: { password: chosen, indices: ['vault'], categories: ['docs'], ops: ['read'] } });
      expect(made.status, made.text).to.equal(201);
      const generated = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['vault'], categories: ['docs'], ops: ['read'] } });
      const generatedPassword: string = generated.json.password;
      expect(generatedPassword).to.be.a('string').with.length.above(8);
      await call(gw.url, 'PUT', '/vault/_doc/1?refresh=true', { body: { name: 'box', nested: { deep: [{ api_key: 'k-1234567-nested' }] }, client_secret: { a: 'obj-secret-999' } } });
      await call(gw.url, 'GET', '/vault/_search?access_token=qs-token-777&q=box');
      // the credential's own login is recorded under its name, without its header
      const tenantAuth = basic(made.json.credential.username, chosen);
      await call(gw.url, 'GET', '/vault/_doc/1', { auth: tenantAuth });
      let raw = '';
      await within(WAIT_MS, async () => {
        raw = await rawRecords(gw);
        return raw.includes(`"user":"${made.json.credential.username}"`) && (raw.match(/"path":"\/_credentials"/g)?.length ?? 0) === 2;
      });
      for (const secret of [chosen, generatedPassword, 'k-1234567-nested', 'obj-secret-999', 'qs-token-777', adminAuth().slice(6), tenantAuth.slice(6), ADMIN.password]) {
        expect(raw, secret).not.to.include(secret);
      }
      expect(raw.toLowerCase()).not.to.include('authorization');
      expect(raw).to.include('[redacted]');
      const creds = await logsWhen(gw, '/_logs?size=1000', (l) => l.filter((x) => x.path === '/_credentials').length === 2);
      for (const l of creds.filter((x) => x.path === '/_credentials')) {
        expect(JSON.parse(l.response_body!).password).to.equal('[redacted]');
        expect(JSON.parse(l.response_body!).credential.indices).to.deep.equal(['vault']);
      }
      const put = find(creds, 'PUT', '/vault/_doc/1');
      expect(JSON.parse(put.request_body!)).to.deep.equal({ name: 'box', nested: { deep: [{ api_key: '[redacted]' }] }, client_secret: '[redacted]' });
      expect(find(creds, 'GET', '/vault/_search').querystring).to.equal('access_token=[redacted]&q=box');
    });
  });
}
