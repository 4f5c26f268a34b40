import { request } from 'undici';
import WebSocket from 'ws';
import { adminAuth, call } from './http.js';
import { launchRedis, type TestRedis } from './redis.js';
import { ADMIN, spawnEngine, spawnGateway, tempDir, type ChildServer } from './servers.js';
import { StreamView } from './stream-views.js';
import { TcpProxy } from './tcp-proxy.js';

/**
 * The way production fails, on one machine (issue 36): Redis, one standalone engine, gateway
 * nodes on the HTTP backend — each talking to Redis through a proxy of its own that can be paused
 * (a partition) — and a round-robin TCP proxy in front of them, as the load balancer. Stream
 * clients (document, search and aggregation streams, over SSE and WebSocket) connect through the
 * balancer and, whenever their connection ends, reconnect through it with their position; a
 * writer writes at a steady rate; meanwhile nodes are SIGKILLed (and started again), Redis is
 * restarted empty, and a node's Redis connection is paused. `runFleet` reports what each client
 * holds against a fresh read, and the figures: time from each fault to resumed delivery, changes
 * replayed on resume, resets announced. Used by spec/streams/fleet.spec.ts and `npm run soak:fleet`.
 */

export type Fault = 'kill-node' | 'restart-redis' | 'pause-redis';

export interface FleetOptions {
  nodes: number;
  /** Faults in order; after each one, every client must have received a later write before the next. */
  faults: Fault[];
  /**
   * Keep going through `faults` again, in order, until this long has passed since the first
   * fault (ms; the soak's duration). Without it, each fault runs once.
   */
  faultsForMs?: number;
  /** Milliseconds between writes (one writer, round-robin over `documents`). */
  writeEveryMs: number;
  documents: number;
  /** Stream clients of each kind on each transport. */
  clientsPerKind: number;
  /** Steady writing before the first fault and after the last (ms). */
  settleMs: number;
  /** Longest wait for every client to resume after a fault, or to equal a fresh read at the end (ms). */
  recoverMs: number;
  log?: (line: string) => void;
}

export interface FleetReport {
  writes: number;
  /** The faults run, in order. */
  faults: Fault[];
  clients: ClientReport[];
  /** Milliseconds from each fault to each client's first message reflecting a write started after it. */
  resumeLatencies: Array<{ fault: Fault; ms: number }>;
  /** Faults whose clients did not all resume within `recoverMs`. */
  unrecovered: Fault[];
}

export interface ClientReport {
  name: string;
  /** The client's view equals a fresh read at the end. */
  matches: boolean;
  expected: unknown;
  actual: unknown;
  /** A change whose `n` is not above the last one shown for its document (applied twice, or out of order). */
  duplicates: number;
  /** A change whose `n` skips one, and no `_reset` announced after it, ever: a silent gap. */
  silentGaps: number;
  /**
   * A change whose `n` skips one, announced by a `_reset` only after it: the node that lost the
   * change was found dead (its liveness key expired) after later changes were shown.
   */
  lateResets: number;
  resets: number;
  reconnects: number;
  /** Changes received on a resumed connection before its live marker (the replay from history). */
  replayed: number;
  /** Error messages or frames received (a stream that ended with one reconnects). */
  errors: string[];
}

const INDEX = 'fleet';
const QUERY = { match: { group: 'x' } };
const AGGS = { total: { sum: { field: 'n' } } };

interface FleetNode {
  server: ChildServer;
  redisProxy: TcpProxy;
}

/** Starts the fleet, runs the faults, stops everything; the report says what the clients saw. */
export async function runFleet(options: FleetOptions): Promise<FleetReport> {
  const log = options.log ?? (() => {});
  const redis = await launchRedis();
  const data = await tempDir('gw-fleet-');
  const engine = await spawnEngine(data.dir);
  const nodes: FleetNode[] = [];
  const balancer = await new TcpProxy([]).listen();
  const clients: FleetClient[] = [];
  let writer: Writer | undefined;
  try {
    const start = async (redisProxy: TcpProxy): Promise<FleetNode> => {
      const server = await spawnGateway({
        ENGINE_URL: engine.url, REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password,
        REDIS_PING_MS: '250', STREAM_HEARTBEAT_MS: '1000', CACHE_QUIET_MS: '300', STREAM_AGG_INTERVAL_MS: '100',
        ACCESS_LOG: 'false', REQUEST_LOGS_ENABLED: 'false', ANALYTICS_ENABLED: 'false',
      }, Math.max(60_000, options.recoverMs)); // a restart on a loaded machine is slow
      return { server, redisProxy };
    };
    for (let i = 0; i < options.nodes; i++) nodes.push(await start(await new TcpProxy([redis.port]).listen()));
    const ports = () => nodes.map((n) => Number(new URL(n.server.url).port));
    balancer.targets = ports();

    await call(balancer.url, 'PUT', `/${INDEX}`, { body: { mappings: { properties: { n: { type: 'long' }, group: { type: 'keyword' } } } } });
    writer = new Writer(balancer.url, options.documents);
    for (let d = 0; d < options.documents; d++) await writer.writeNext(d);
    await call(balancer.url, 'POST', `/${INDEX}/_refresh`);

    for (const transport of ['sse', 'ws'] as const) {
      for (const kind of ['document', 'search', 'aggregation'] as const) {
        for (let i = 0; i < options.clientsPerKind; i++) {
          clients.push(new FleetClient(balancer, `${kind}-${transport}-${i}`, kind, transport, `d${(clients.length) % options.documents}`, writer));
        }
      }
    }
    await Promise.all(clients.map((c) => c.untilLive(options.recoverMs)));
    writer.start(options.writeEveryMs);
    await writer.wrote(Math.max(1, Math.round(options.settleMs / options.writeEveryMs)), options.recoverMs);

    const latencies: FleetReport['resumeLatencies'] = [];
    const unrecovered: Fault[] = [];
    const firstFault = performance.now();
    const ran: Fault[] = [];
    for (let f = 0; f < options.faults.length || (options.faultsForMs !== undefined && performance.now() - firstFault < options.faultsForMs); f++) {
      const fault = options.faults[f % options.faults.length];
      ran.push(fault);
      const at = performance.now();
      log(`fault: ${fault}`);
      let restarted: Promise<void> | undefined;
      if (fault === 'kill-node') {
        // the node holding the most connections (streams) through the balancer
        const held = ports().map((port) => balancer.connectionsTo(port));
        const i = held.indexOf(Math.max(...held));
        const victim = nodes[i];
        await victim.server.stop('SIGKILL');
        balancer.targets = ports().filter((_, j) => j !== i);
        log(`killed node ${i} (${held[i]} connections); starting it again`);
        restarted = start(victim.redisProxy).then((node) => {
          nodes[i] = node;
          balancer.targets = ports();
        });
      } else if (fault === 'restart-redis') {
        await redis.restart(); // SIGKILL and start again, empty: the change history is gone
      } else {
        const node = nodes[Math.floor(Math.random() * nodes.length)];
        node.redisProxy.pause();
        // held until the node notices (its readiness reports the connection it dropped)
        await until(async () => (await call(node.server.url, 'GET', '/_gateway/ready').catch(() => ({ status: 0 }))).status === 503, options.recoverMs);
        node.redisProxy.resume();
      }
      // resumed: a client shows a write started after the fault began
      const resumed = await until(() => clients.every((c) => c.sawWriteFrom(at)), options.recoverMs);
      if (!resumed) unrecovered.push(fault);
      for (const c of clients) {
        const t = c.firstSeenFrom(at);
        if (t !== undefined) latencies.push({ fault, ms: t - at });
      }
      await restarted;
    }
    await writer.wrote(Math.max(1, Math.round(options.settleMs / options.writeEveryMs)), options.recoverMs);
    await writer.stop();

    // the truth: a fresh read once every write is visible
    await call(balancer.url, 'POST', `/${INDEX}/_refresh`);
    const fresh = await call(balancer.url, 'POST', `/${INDEX}/_search`, { body: { size: 1000, query: QUERY, aggs: AGGS } });
    const docs = Object.fromEntries((fresh.json.hits.hits as Array<{ _id: string; _source: unknown }>).map((h) => [h._id, h._source]).sort(([a], [b]) => String(a).localeCompare(String(b))));
    const expectedOf = (c: FleetClient) => (c.kind === 'document' ? docs[c.docId] : c.kind === 'search' ? docs : fresh.json.aggregations);
    await until(() => clients.every((c) => same(c.shown(), expectedOf(c))), options.recoverMs);
    return {
      writes: writer.count,
      faults: ran,
      resumeLatencies: latencies,
      unrecovered,
      clients: clients.map((c) => ({ ...c.report(), expected: expectedOf(c), actual: c.shown(), matches: same(c.shown(), expectedOf(c)) })),
    };
  } finally {
    await writer?.stop();
    for (const c of clients) c.close();
    await balancer.close();
    await Promise.all(nodes.map(async (n) => {
      await n.server.stop();
      await n.redisProxy.close();
    }));
    await engine.stop();
    await redis.stop();
    await data.remove();
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Polls `check` until it holds (true) or `ms` pass (false). */
async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/**
 * One writer: document `d<i>` gets `n` = 1, 2, 3… in turn, each write with that `n` as its
 * external version — a write retried after its node died (it may have been applied) is then
 * refused as a conflict instead of applied twice.
 */
class Writer {
  private readonly n: number[];
  /** performance.now() when each (document, n) write started. */
  private readonly startedAt = new Map<string, number>();
  /** Every write in order: when it started, and the sum of every `n` once it is applied. */
  readonly log: Array<{ startedAt: number; sum: number }> = [];
  private sum = 0;
  count = 0;
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(private readonly url: string, documents: number) {
    this.n = new Array<number>(documents).fill(0);
  }

  startedAtOf(doc: string, n: number): number | undefined {
    return this.startedAt.get(`${doc}/${n}`);
  }

  async writeNext(d: number): Promise<void> {
    const n = ++this.n[d];
    const id = `d${d}`;
    const startedAt = performance.now();
    this.startedAt.set(`${id}/${n}`, startedAt);
    this.sum += 1; // n - (n - 1)
    this.log.push({ startedAt, sum: this.sum });
    for (;;) {
      const res = await call(this.url, 'PUT', `/${INDEX}/_doc/${id}?version=${n}&version_type=external`, { body: { n, group: 'x' } }).catch(() => undefined);
      if (res && (res.status === 200 || res.status === 201 || res.status === 409)) break;
    }
    this.count++;
  }

  start(everyMs: number): void {
    this.running = true;
    this.loop = (async () => {
      let d = 0;
      while (this.running) {
        const next = performance.now() + everyMs;
        await this.writeNext(d);
        d = (d + 1) % this.n.length;
        const wait = next - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })();
  }

  /** Resolves once `k` more writes are done. */
  async wrote(k: number, ms: number): Promise<void> {
    const target = this.count + k;
    await until(() => this.count >= target, ms);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

/** A stream client that reconnects through the balancer with its position whenever its stream ends. */
class FleetClient {
  private readonly view: StreamView;
  /** The last `n` shown per document since the last state. */
  private readonly lastN = new Map<string, number>();
  private position: string | undefined;
  private closed = false;
  private live = false;
  private resumed = false;
  private stopConnection: () => void = () => {};
  private readonly seen: Array<{ doc: string; n: number; at: number }> = [];
  /** Aggregation clients: each sum shown, and when. */
  private readonly sums: Array<{ sum: number; at: number }> = [];
  private readonly counts = { duplicates: 0, silentGaps: 0, lateResets: 0, reconnects: 0, replayed: 0 };
  private readonly errors: string[] = [];
  private readonly duplicateSamples: string[] = [];

  constructor(
    private readonly balancer: TcpProxy,
    readonly name: string,
    readonly kind: 'document' | 'search' | 'aggregation',
    private readonly transport: 'sse' | 'ws',
    readonly docId: string,
    private readonly writer: Writer,
  ) {
    this.view = new StreamView(kind === 'document' ? 'document' : 'search');
    this.connect();
  }

  /** What the client shows: the document, the documents, or the aggregations. */
  shown(): unknown {
    if (this.kind === 'aggregation') return this.view.aggregations;
    const snapshot = this.view.snapshot();
    return this.kind === 'document' ? snapshot._doc : snapshot;
  }

  report(): Omit<ClientReport, 'matches' | 'expected' | 'actual'> {
    return { name: this.name, ...this.counts, resets: this.view.resets, errors: [...this.duplicateSamples, ...this.errors] };
  }

  async untilLive(ms: number): Promise<void> {
    if (!(await until(() => this.live, ms))) throw new Error(`${this.name} did not go live in ${ms} ms`);
  }

  /** Has the client shown a write that started at or after `t` (performance.now())? */
  sawWriteFrom(t: number): boolean {
    return this.firstSeenFrom(t) !== undefined;
  }

  firstSeenFrom(t: number): number | undefined {
    if (this.kind === 'aggregation') {
      const write = this.writer.log.find((w) => w.startedAt >= t);
      return write && this.sums.find((s) => s.sum >= write.sum)?.at;
    }
    for (const s of this.seen) {
      const started = this.writer.startedAtOf(s.doc, s.n);
      if (started !== undefined && started >= t) return s.at;
    }
    return undefined;
  }

  close(): void {
    this.closed = true;
    this.stopConnection();
  }

  private path(): string {
    const since = this.position ? `&since=${encodeURIComponent(this.position)}` : '';
    return this.kind === 'document' ? `/${INDEX}/_doc/${this.docId}?stream=true${since}` : `/${INDEX}/_search?stream=true${since}`;
  }

  private body(): unknown {
    return this.kind === 'search' ? { size: 1000, query: QUERY } : this.kind === 'aggregation' ? { size: 0, query: QUERY, aggs: AGGS } : undefined;
  }

  private reconnect(why: string): void {
    if (this.closed) return;
    this.stopConnection();
    this.counts.reconnects++;
    if (this.errors.length < 20 && why) this.errors.push(why);
    setTimeout(() => this.connect(), 20);
  }

  private connect(): void {
    if (this.closed) return;
    this.live = false;
    this.resumed = !!this.position;
    if (this.transport === 'sse') this.connectSse();
    else this.connectWs();
  }

  private onMessage(data: any, id: string | undefined, initial: boolean): void {
    if (id !== undefined) this.position = id;
    this.view.apply(data);
    if (data?._reset === true) {
      this.lastN.clear();
      // the gaps shown since the last reset are announced now
      this.counts.lateResets += this.counts.silentGaps;
      this.counts.silentGaps = 0;
      return;
    }
    if (data?.error !== undefined) return;
    const at = performance.now();
    const note = (doc: string, n: unknown) => {
      if (typeof n === 'number') this.seen.push({ doc, n, at });
    };
    const sum = data?.aggregations?.total?.value;
    if (typeof sum === 'number') this.sums.push({ sum, at });
    if (initial || (data?.hits?.hits !== undefined) || data?.found !== undefined) {
      // a whole state: the documents it shows, as they are now
      this.lastN.clear();
      if (this.kind === 'document') {
        if (data?._source) this.lastN.set(this.docId, data._source.n);
        note(this.docId, data?._source?.n);
      } else {
        for (const hit of data?.hits?.hits ?? []) {
          this.lastN.set(hit._id, hit._source?.n);
          note(hit._id, hit._source?.n);
        }
      }
      return;
    }
    if (data?.aggregations !== undefined && data?._id === undefined) return;
    if (!this.live && this.resumed) this.counts.replayed++;
    const doc = this.kind === 'document' ? this.docId : String(data?._id);
    const n = data?._source?.n;
    if (typeof n !== 'number') return;
    const prev = this.lastN.get(doc);
    if (prev !== undefined && n <= prev) {
      this.counts.duplicates++;
      if (this.duplicateSamples.length < 5) this.duplicateSamples.push(`duplicate: ${doc} ${prev} -> ${n} (id ${id}, resets ${this.view.resets}, reconnects ${this.counts.reconnects}, live ${this.live})`);
    }
    else if (prev !== undefined && n > prev + 1) {
      this.counts.silentGaps++;
      if (this.errors.length < 20) this.errors.push(`gap: ${doc} ${prev} -> ${n} (id ${id}, resets ${this.view.resets}, reconnects ${this.counts.reconnects}, live ${this.live})`);
    }
    this.lastN.set(doc, n);
    note(doc, n);
  }

  private connectSse(): void {
    const abort = new AbortController();
    // aborting a body makes it emit 'error': only the current connection's events count, or one
    // reconnect would open two connections and show each change twice
    const current = () => !abort.signal.aborted;
    this.stopConnection = () => abort.abort();
    const headers: Record<string, string> = { authorization: adminAuth(), accept: 'text/event-stream' };
    const body = this.body();
    if (body !== undefined) headers['content-type'] = 'application/json';
    request(this.balancer.url + this.path(), { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body), signal: abort.signal }).then((res) => {
      if (!current()) return;
      if (res.statusCode !== 200) {
        res.body.text().then((text) => current() && this.reconnect(`status ${res.statusCode}: ${text.slice(0, 200)}`), () => current() && this.reconnect(`status ${res.statusCode}`));
        return;
      }
      let buf = '';
      let first = true;
      res.body.on('data', (chunk: Buffer) => {
        if (!current()) return;
        buf += chunk.toString('utf8');
        let at;
        while ((at = buf.indexOf('\n\n')) >= 0) {
          const lines = buf.slice(0, at).split('\n');
          buf = buf.slice(at + 2);
          if (lines.includes(':live')) this.live = true;
          const text = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (!text) continue;
          const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
          const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const data = JSON.parse(text);
          if (event === 'error') this.errors.length < 20 && this.errors.push(JSON.stringify(data).slice(0, 300));
          const initial = first && !this.resumed && event !== 'reset';
          if (event !== 'reset') first = false;
          this.onMessage(data, id, initial);
        }
      });
      res.body.on('end', () => current() && this.reconnect(''));
      res.body.on('error', () => current() && this.reconnect(''));
    }, () => current() && this.reconnect(''));
  }

  private connectWs(): void {
    const url = this.balancer.url.replace('http:', 'ws:') + `/${INDEX}`;
    const ws = new WebSocket(url);
    let done = false;
    this.stopConnection = () => {
      done = true;
      ws.terminate();
    };
    ws.on('open', () => {
      const body = this.body();
      ws.send(JSON.stringify({ id: 's', path: this.path().slice(1), method: body === undefined ? 'GET' : 'POST', body, authorization: adminAuth() }));
    });
    ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString());
      if (frame.live === true) this.live = true;
      else if (frame.body !== undefined) this.onMessage(frame.body, frame.position, true);
      else if (frame.event !== undefined) this.onMessage(frame.event, frame.position, false);
      else if (frame.error !== undefined) {
        if (this.errors.length < 20) this.errors.push(`frame: ${frame.message}`);
        if (!done) this.reconnect('');
      }
    });
    ws.on('close', () => !done && this.reconnect(''));
    ws.on('error', () => !done && this.reconnect(''));
  }
}
