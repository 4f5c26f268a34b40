import { expect } from 'chai';
import { Redis } from 'ioredis';
import { EsError } from '../../lib/errors/index.js';
import { MemoryChangeBus, RedisChangeBus, formatPosition, type ChangeBus, type NewChange } from '../../lib/changes/index.js';
import { launchSentinel, startRedis, type TestRedis, type TestSentinel } from '../support/redis.js';
import { docChange, eventually, record, recordLive, uniqueIndex } from './support.js';

/** One bus implementation, as the contract spec drives it. */
interface BusUnderTest {
  name: string;
  /** Called in `before`: start whatever the implementation needs. */
  setUp(suite: Mocha.Context): Promise<void>;
  tearDown(): Promise<void>;
  create(historyLength?: number): ChangeBus;
  /** Makes the implementation lose its history, as a restart (memory) or a flushed Redis would. */
  reset(bus: ChangeBus): Promise<ChangeBus>;
  /** Subscribers the outside world sees for the index's channel (Redis: PUBSUB NUMSUB). */
  channelSubscribers(bus: ChangeBus, index: string): Promise<number>;
  /** Nodes whose feed of every index event is live (Redis: PUBSUB NUMSUB of its channel; memory: always). */
  indexFeedsLive(count: number): Promise<boolean>;
  /** Memory only: local delivery is synchronous; over Redis it comes back on the subscriber connection. */
  deliversBeforePublishResolves: boolean;
}

let redis: TestRedis | undefined;
let admin: Redis | undefined;

const IMPLEMENTATIONS: BusUnderTest[] = [
  {
    name: 'memory',
    deliversBeforePublishResolves: true,
    async setUp() {},
    async tearDown() {},
    create: (historyLength) => new MemoryChangeBus({ historyLength }),
    async reset(bus) {
      await bus.close();
      return new MemoryChangeBus();
    },
    async channelSubscribers(bus) {
      return bus.stats().channels;
    },
    async indexFeedsLive() {
      return true;
    },
  },
  ...(['redis', 'redis, sharded pub/sub', 'redis through Sentinel'] as const).map((name): BusUnderTest => {
    const sharded = name === 'redis, sharded pub/sub';
    let sentinel: TestSentinel | undefined;
    return {
      name,
      deliversBeforePublishResolves: false,
      async setUp(suite) {
        redis = await startRedis(suite);
        admin = new Redis(redis.url);
        // One entry per stream node, so `MAXLEN ~ N` trims to N exactly and small histories are testable.
        await admin.config('SET', 'stream-node-max-entries', '1');
        if (name === 'redis through Sentinel') sentinel = await launchSentinel(redis);
      },
      async tearDown() {
        admin?.disconnect();
        await sentinel?.stop();
        await redis?.stop();
      },
      create: (historyLength) => new RedisChangeBus(sentinel?.url ?? redis!.url, { historyLength, sharded }),
      async reset(bus) {
        await admin!.flushall();
        return bus;
      },
      async channelSubscribers(_bus, index) {
        const channel = `gw:changes:{${index}}`;
        const [, count] = (sharded ? await admin!.pubsub('SHARDNUMSUB', channel) : await admin!.pubsub('NUMSUB', channel)) as [string, number];
        return Number(count);
      },
      async indexFeedsLive(count) {
        const [, live] = (await admin!.pubsub('NUMSUB', 'gw:index-events')) as [string, number];
        return Number(live) >= count;
      },
    };
  }),
];

for (const impl of IMPLEMENTATIONS) {
  describe(`ChangeBus contract: ${impl.name}`, function () {
    let bus: ChangeBus;

    before(async function () {
      await impl.setUp(this);
    });
    after(() => impl.tearDown());
    beforeEach(() => {
      bus = impl.create(50);
    });
    afterEach(async () => {
      await bus.close();
    });

    it('delivers published events in order, with the positions publish returned, increasing', async () => {
      const index = uniqueIndex();
      const seen = await recordLive(bus, index);
      const positions: string[] = [];
      for (let v = 1; v <= 20; v++) positions.push(await bus.publish(docChange(index, 'a', v)));
      const events = await seen.until(20);
      expect(events.map((e) => e.position)).to.deep.equal(positions);
      expect([...positions].sort()).to.deep.equal(positions);
      expect(new Set(positions).size).to.equal(20);
      const last = events[19];
      expect(last).to.include({ kind: 'document', index, type: '_doc', id: 'a', op: 'index', version: 20, seqNo: 19, primaryTerm: 1 });
      expect(last.kind === 'document' && last.source).to.deep.equal({ n: 20 });
      expect(last.time).to.be.a('number').within(Date.now() - 60_000, Date.now());
    });

    it('assigns the position itself, whatever the input carries', async () => {
      const index = uniqueIndex();
      const seen = await recordLive(bus, index);
      const stray = { ...docChange(index, 'a', 1), position: 'bogus-0000000000000001' } as unknown as NewChange;
      const position = await bus.publish(stray);
      expect(position).to.not.equal('bogus-0000000000000001');
      expect((await seen.until(1))[0].position).to.equal(position);
    });

    it('keeps the order of concurrent publishes (history order = live order = position order)', async () => {
      const index = uniqueIndex();
      const seen = await recordLive(bus, index);
      const positions = await Promise.all(Array.from({ length: 100 }, (_, i) => bus.publish(docChange(index, `d${i}`, i + 1))));
      const events = await seen.until(100);
      expect(events.map((e) => e.position)).to.deep.equal([...positions].sort());
      const replay = await bus.history(index, events[49].position);
      expect(replay.map((e) => e.position)).to.deep.equal(events.slice(50).map((e) => e.position));
    });

    it('gives every subscriber of the index the event, and nothing of other indices', async () => {
      const index = uniqueIndex();
      const other = uniqueIndex();
      const first = await recordLive(bus, index);
      const second = await recordLive(bus, index);
      const elsewhere = await recordLive(bus, other);
      await bus.publish(docChange(index, 'a', 1));
      await first.until(1);
      await second.until(1);
      // Parsed once and fanned out: both subscribers hold the very same object.
      expect(first.events[0]).to.equal(second.events[0]);
      expect(elsewhere.events).to.have.length(0);
      expect(bus.stats()).to.deep.equal({ subscriptions: 3, channels: 2 });
    });

    if (impl.deliversBeforePublishResolves) {
      it('has called the node\'s subscribers when publish resolves', async () => {
        const index = uniqueIndex();
        const seen = await recordLive(bus, index);
        await bus.publish(docChange(index, 'a', 1));
        expect(seen.events).to.have.length(1);
      });
    }

    it('stops delivering to a subscriber once it unsubscribes', async () => {
      const index = uniqueIndex();
      const leaving = await recordLive(bus, index);
      const staying = await recordLive(bus, index);
      await bus.publish(docChange(index, 'a', 1));
      await leaving.until(1);
      leaving.subscription.unsubscribe();
      await bus.publish(docChange(index, 'a', 2));
      await bus.publish(docChange(index, 'a', 3));
      await staying.until(3);
      expect(leaving.events.map((e) => e.kind === 'document' && e.version)).to.deep.equal([1]);
    });

    it('holds one channel per index while it has subscribers, and none once they leave', async () => {
      const index = uniqueIndex();
      const recorders = await Promise.all(Array.from({ length: 50 }, () => recordLive(bus, index)));
      expect(bus.stats()).to.deep.equal({ subscriptions: 50, channels: 1 });
      expect(await impl.channelSubscribers(bus, index)).to.equal(1);
      await bus.publish(docChange(index, 'a', 1));
      for (const r of recorders) await r.until(1);
      for (const r of recorders) r.subscription.unsubscribe();
      expect(bus.stats()).to.deep.equal({ subscriptions: 0, channels: 0 });
      await eventually(async () => (await impl.channelSubscribers(bus, index)) === 0, 5_000, () => 'channel unsubscribed');
      // A later subscriber takes the channel again.
      const again = await recordLive(bus, index);
      await bus.publish(docChange(index, 'a', 2));
      await again.until(1);
      expect(again.events[0]).to.include({ version: 2 });
      again.subscription.unsubscribe();
      expect(bus.stats()).to.deep.equal({ subscriptions: 0, channels: 0 });
    });

    it('history(since) returns exactly the events after since', async () => {
      const index = uniqueIndex();
      const start = await bus.head(index);
      expect(start).to.match(/^[a-z0-9]+-0{16}$/);
      expect(await bus.history(index, start)).to.deep.equal([]);
      const positions: string[] = [];
      for (let v = 1; v <= 10; v++) positions.push(await bus.publish(docChange(index, 'a', v)));
      expect(await bus.head(index)).to.equal(positions[9]);
      const all = await bus.history(index, start);
      expect(all.map((e) => e.position)).to.deep.equal(positions);
      expect(all.map((e) => e.kind === 'document' && e.version)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const later = await bus.history(index, positions[6]);
      expect(later.map((e) => e.position)).to.deep.equal(positions.slice(7));
      expect(await bus.history(index, positions[9])).to.deep.equal([]);
    });

    it('history events are the events live subscribers got', async () => {
      const index = uniqueIndex();
      const start = await bus.head(index);
      const seen = await recordLive(bus, index);
      await bus.publish(docChange(index, 'a', 1, { title: 'ünïcode ✓', nested: { list: [1, 'two', null], empty: {} } }));
      await bus.publish({ kind: 'document', index, type: 'tweet', id: 'a', op: 'delete', version: 2, seqNo: 1, primaryTerm: 1 });
      await seen.until(2);
      expect(await bus.history(index, start)).to.deep.equal(seen.events);
      expect(seen.events[1]).to.not.have.property('source');
    });

    it('refuses a position older than the retained history, with the clear error', async () => {
      const index = uniqueIndex();
      const positions: string[] = [];
      for (let v = 1; v <= 80; v++) positions.push(await bus.publish(docChange(index, 'a', v)));
      // 50 retained: resuming after #30 still works (31..80 kept), after #29 it cannot.
      expect(await bus.history(index, positions[29])).to.have.length(50);
      const err = await bus.history(index, positions[28]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(EsError);
      expect(err).to.include({ status: 400, type: 'illegal_argument_exception' });
      expect((err as EsError).reason).to.equal(
        `position [${positions[28]}] is older than the retained history of index [${index}]; read the current state again`,
      );
    });

    it('refuses a position from another epoch (restart, flushed history) or from the future', async () => {
      const index = uniqueIndex();
      const before = await bus.publish(docChange(index, 'a', 1));
      bus = await impl.reset(bus);
      await bus.publish(docChange(index, 'a', 2));
      for (const unknown of [before, formatPosition('zzzzzz', 1), formatPosition((await bus.head(index)).split('-')[0], 99)]) {
        const err = await bus.history(index, unknown).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, unknown).to.be.instanceOf(EsError).and.include({ status: 400, type: 'illegal_argument_exception' });
        expect((err as EsError).reason).to.match(/is unknown to the change history of index .*; read the current state again$/);
      }
    });

    it('rejects a malformed position with a 400', async () => {
      for (const bad of ['', 'abc', '12', 'x-1', 'ABC-0000000000000001']) {
        const err = await bus.history('some-index', bad).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, bad).to.be.instanceOf(EsError).and.include({ status: 400, type: 'illegal_argument_exception' });
        expect((err as EsError).reason).to.contain('invalid change position');
      }
    });

    it('carries index delete and close events in the same order and history', async () => {
      const index = uniqueIndex();
      const start = await bus.head(index);
      const seen = await recordLive(bus, index);
      await bus.publish(docChange(index, 'a', 1));
      await bus.publish({ kind: 'index', index, op: 'close' });
      await bus.publish({ kind: 'index', index, op: 'delete', time: 1234 });
      const events = await seen.until(3);
      expect(events[1]).to.include({ kind: 'index', index, op: 'close' });
      expect(events[2]).to.deep.equal({ kind: 'index', index, op: 'delete', time: 1234, position: events[2].position });
      expect(await bus.history(index, start)).to.deep.equal(events);
      expect(seen.completed).to.equal(false);
    });

    it('indexChanges() carries every index\'s delete and close events to every node, documents not', async () => {
      const other = impl.create(50);
      try {
        const index = uniqueIndex();
        const here: unknown[] = [];
        const there: unknown[] = [];
        const subs = [bus.indexChanges().subscribe((e) => here.push(e)), other.indexChanges().subscribe((e) => there.push(e))];
        await eventually(() => impl.indexFeedsLive(impl.name === 'memory' ? 1 : 2));
        await bus.publish(docChange(index, 'a', 1));
        await bus.publish({ kind: 'index', index, op: 'close' });
        await bus.publish({ kind: 'index', index: `${index}-2`, op: 'delete' });
        const expected = (n: number) => (n === 0 ? { kind: 'index', index, op: 'close' } : { kind: 'index', index: `${index}-2`, op: 'delete' });
        await eventually(() => here.length === 2 && (impl.name === 'memory' || there.length === 2));
        here.forEach((e, n) => expect(e).to.include(expected(n)));
        if (impl.name !== 'memory') there.forEach((e, n) => expect(e).to.include(expected(n)));
        for (const sub of subs) sub.unsubscribe();
      } finally {
        await other.close();
      }
    });

    it('mappingChanges() carries announcements to every node (this one before announceMapping resolves), outside any history', async () => {
      const other = impl.create(50);
      try {
        const index = uniqueIndex();
        const here: Array<{ index: string }> = [];
        const there: Array<{ index: string }> = [];
        const subs = [bus.mappingChanges().subscribe((e) => here.push(e)), other.mappingChanges().subscribe((e) => there.push(e))];
        await eventually(() => bus.connection().connected && other.connection().connected);
        await bus.announceMapping(index);
        expect(here.map((e) => e.index)).to.deep.equal([index]);
        // the other node hears of it once its subscription is live: announced until it does
        if (impl.name !== 'memory') {
          await eventually(async () => {
            await bus.announceMapping(index);
            return there.length > 0;
          });
          expect(there[0].index).to.equal(index);
        }
        // no event in the index's history
        expect((await bus.head(index)).endsWith('-' + '0'.repeat((await bus.head(index)).split('-')[1].length))).to.equal(true);
        for (const sub of subs) sub.unsubscribe();
      } finally {
        await other.close();
      }
    });

    it('close() completes every live observable and refuses to publish', async () => {
      const index = uniqueIndex();
      const seen = await recordLive(bus, index);
      await bus.close();
      expect(seen.completed).to.equal(true);
      expect(bus.stats()).to.deep.equal({ subscriptions: 0, channels: 0 });
      const err = await bus.publish(docChange(index, 'a', 1)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(EsError).and.include({ status: 503 });
      const late = record(bus, index);
      expect(late.completed).to.equal(true);
    });

    it('subscribed() refuses an index nobody on the node subscribes to', async () => {
      let refused = false;
      await bus.subscribed(uniqueIndex()).catch(() => (refused = true));
      expect(refused).to.equal(true);
    });
  });
}
