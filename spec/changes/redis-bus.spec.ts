import { expect } from 'chai';
import { Redis } from 'ioredis';
import { EsError } from '../../lib/errors/index.js';
import { isHistoryGone, RedisChangeBus, type ChangeEvent } from '../../lib/changes/index.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { docChange, eventually, record, recordLive, uniqueIndex } from './support.js';

/** Fails the test if anything escaped as an unhandled error while it ran. */
function watchUnhandled(): { errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const onError = (err: unknown) => errors.push(err);
  process.on('unhandledRejection', onError);
  process.on('uncaughtException', onError);
  return {
    errors,
    stop() {
      process.off('unhandledRejection', onError);
      process.off('uncaughtException', onError);
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (err: unknown) => err,
  );
}

const versions = (events: ChangeEvent[]) => events.map((e) => (e.kind === 'document' ? e.version : -1));
const offsets = (events: ChangeEvent[]) => events.map((e) => Number(e.position.slice(-16)));

describe('RedisChangeBus: two nodes on one Redis', function () {
  let redis: TestRedis;
  let admin: Redis;
  let nodeA: RedisChangeBus;
  let nodeB: RedisChangeBus;
  const log: string[] = [];

  before(async function () {
    redis = await startRedis(this);
    admin = new Redis(redis.url);
    await admin.config('SET', 'stream-node-max-entries', '1');
  });
  after(async () => {
    admin?.disconnect();
    await redis?.stop();
  });
  beforeEach(() => {
    nodeA = new RedisChangeBus(redis.url, { historyLength: 5, log: (m) => log.push(m) });
    nodeB = new RedisChangeBus(redis.url, { historyLength: 5, log: (m) => log.push(m) });
  });
  afterEach(async () => {
    await nodeA.close();
    await nodeB.close();
  });

  it('an event published on node A reaches subscribers on both nodes, once each', async () => {
    const index = uniqueIndex();
    const onA = await recordLive(nodeA, index);
    const onB = await recordLive(nodeB, index);
    const onB2 = await recordLive(nodeB, index);
    expect((await admin.pubsub('NUMSUB', `gw:changes:{${index}}`))[1]).to.equal(2);
    const position = await nodeA.publish(docChange(index, 'a', 1));
    for (const r of [onA, onB, onB2]) expect((await r.until(1)).map((e) => e.position)).to.deep.equal([position]);
    await nodeB.publish(docChange(index, 'a', 2));
    for (const r of [onA, onB, onB2]) expect(versions(await r.until(2))).to.deep.equal([1, 2]);
    onB.subscription.unsubscribe();
    onB2.subscription.unsubscribe();
    await eventually(async () => (await admin.pubsub('NUMSUB', `gw:changes:{${index}}`))[1] === 1);
  });

  /**
   * Node B's subscriber connection dropped (only B subscribes), then the versions `from`..`to` published
   * by node A while it is away, on a fresh index whose version 1 B has seen. B reconnects by itself:
   * on a loaded machine it may be back before the publishes are done, and such an attempt tests no
   * gap: it is made again on another index (5 attempts; the last is asserted whatever it found).
   */
  async function publishedWhileBAway(from: number, to: number): Promise<{ index: string; onB: Awaited<ReturnType<typeof recordLive>> }> {
    for (let attempt = 1; ; attempt++) {
      const index = uniqueIndex();
      const onB = await recordLive(nodeB, index);
      await nodeA.publish(docChange(index, 'a', 1));
      await onB.until(1);
      await admin.client('KILL', 'TYPE', 'pubsub');
      for (let v = from; v <= to; v++) await nodeA.publish(docChange(index, 'a', v));
      const subscribers = (await admin.pubsub('NUMSUB', `gw:changes:{${index}}`))[1];
      if (subscribers === 0 || attempt === 5) {
        expect(subscribers, 'published while B was away').to.equal(0);
        return { index, onB };
      }
      onB.subscription.unsubscribe();
      await eventually(() => nodeB.stats().channels === 0, 5_000, () => 'B leaves the attempt\'s channel');
    }
  }

  it('fills from the history the events a node missed while its subscriber connection was down', async () => {
    const { index, onB } = await publishedWhileBAway(2, 4);
    await eventually(() => nodeB.stats().channels === 1 && onB.events.length >= 4, 5_000, () => `got ${versions(onB.events)}`);
    await nodeA.publish(docChange(index, 'a', 5));
    await onB.until(5);
    expect(versions(onB.events)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(offsets(onB.events)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(onB.error).to.equal(undefined);
  });

  it('a history that lost events a node delivered (a failover to a replica behind) starts a new life, and the streams are reset', async () => {
    const index = uniqueIndex();
    const onB = await recordLive(nodeB, index);
    for (let v = 1; v <= 3; v++) await nodeA.publish(docChange(index, 'a', v));
    await onB.until(3);
    // what a replica promoted before it received events 2 and 3 holds; then the connections move to it
    await admin.hset(`gw:changes:{${index}}:meta`, 'top', 1);
    await admin.xtrim(`gw:changes:{${index}}:history`, 'MAXLEN', 1);
    await admin.client('KILL', 'TYPE', 'pubsub');
    await eventually(() => onB.error !== undefined, 5_000, () => 'the stream is told');
    expect(isHistoryGone(onB.error)).to.equal(true);
    // offsets 2 and 3 are not handed out again in the same epoch: a position B's clients hold stays unambiguous
    const next = await nodeA.publish(docChange(index, 'a', 4));
    expect(next.split('-')[0]).to.not.equal(onB.events[2].position.split('-')[0]);
    expect(isHistoryGone(await rejection(nodeA.history(index, onB.events[2].position)))).to.equal(true);
  });

  it('ends the streams with the clear error when the history no longer holds what a node missed', async () => {
    const { index, onB } = await publishedWhileBAway(2, 12); // history keeps 5
    await eventually(() => onB.error !== undefined, 5_000, () => 'the stream errors');
    expect(onB.error).to.be.instanceOf(EsError).and.include({ status: 400, type: 'illegal_argument_exception' });
    expect((onB.error as EsError).reason).to.equal(
      `position [${onB.events[0].position}] is older than the retained history of index [${index}]; read the current state again`,
    );
    expect(versions(onB.events)).to.deep.equal([1]);
    expect(nodeB.stats()).to.deep.equal({ subscriptions: 0, channels: 0 });
    // The node is fine: a new stream on the index works.
    const again = await recordLive(nodeB, index);
    await nodeA.publish(docChange(index, 'a', 13));
    expect(versions(await again.until(1))).to.deep.equal([13]);
  });
});

describe('RedisChangeBus: a node dies with a write in flight', function () {
  this.timeout(30_000);
  let redis: TestRedis;

  before(async function () {
    redis = await startRedis(this);
  });
  after(async () => redis?.stop());

  it('another node notices once its liveness key expires, and resets the streams on the index', async () => {
    const index = uniqueIndex();
    const survivor = new RedisChangeBus(redis.url, { livenessMs: 100 });
    const doomed = new RedisChangeBus(redis.url, { livenessMs: 100 });
    try {
      const onSurvivor = await recordLive(survivor, index);
      await doomed.publish(docChange(index, 'a', 1));
      await onSurvivor.until(1);
      // the engine may have applied this write; its change is never published: the node "dies"
      await doomed.inFlight(index);
      const other = uniqueIndex();
      const onOther = await recordLive(survivor, other);
      await doomed.close();
      await eventually(() => onSurvivor.error !== undefined, 10_000, () => 'the stream on the index is told');
      expect(isHistoryGone(onSurvivor.error)).to.equal(true);
      expect(versions(onSurvivor.events)).to.deep.equal([1]);
      // an index the dead node was not writing to goes on
      await survivor.publish(docChange(other, 'b', 1));
      expect(versions(await onOther.until(1))).to.deep.equal([1]);
      expect(onOther.error).to.equal(undefined);
    } finally {
      await survivor.close();
      await doomed.close();
    }
  });

  it('a write that completes releases its mark: nothing is reset when its node goes away', async () => {
    const index = uniqueIndex();
    const survivor = new RedisChangeBus(redis.url, { livenessMs: 100 });
    const leaving = new RedisChangeBus(redis.url, { livenessMs: 100 });
    try {
      const onSurvivor = await recordLive(survivor, index);
      const release = await leaving.inFlight(index); // lists the node in gw:nodes first
      await leaving.publish(docChange(index, 'a', 1));
      release();
      await onSurvivor.until(1);
      await eventually(async () => Object.keys(await new Promise<Record<string, string>>((resolve) => {
        const admin = new Redis(redis.url);
        admin.hgetall(`gw:node:{${(leaving as unknown as { nodeId: string }).nodeId}}:inflight`).then((h) => {
          admin.disconnect();
          resolve(h);
        });
      })).length === 0, 5_000, () => 'the mark released');
      await leaving.close();
      // its liveness key expires and the survivor claims it (nothing in flight): the stream goes on
      await eventually(async () => {
        const admin = new Redis(redis.url);
        const members = await admin.smembers('gw:nodes');
        admin.disconnect();
        return !members.includes((leaving as unknown as { nodeId: string }).nodeId);
      }, 10_000, () => 'the departed node claimed');
      await survivor.publish(docChange(index, 'a', 2));
      expect(versions(await onSurvivor.until(2))).to.deep.equal([1, 2]);
      expect(onSurvivor.error).to.equal(undefined);
    } finally {
      await survivor.close();
      await leaving.close();
    }
  });
});

describe('RedisChangeBus: Redis killed and restarted', function () {
  this.timeout(60_000);

  for (const durable of [false, true]) {
    describe(durable ? 'with the history persisted (appendonly, fsync always)' : 'without persistence', function () {
      let redis: TestRedis;
      let nodeA: RedisChangeBus;
      let nodeB: RedisChangeBus;
      let unhandled: ReturnType<typeof watchUnhandled>;

      before(async function () {
        redis = await startRedis(this, { durable });
      });
      after(async () => {
        await redis?.stop();
      });
      beforeEach(() => {
        unhandled = watchUnhandled();
        nodeA = new RedisChangeBus(redis.url);
        nodeB = new RedisChangeBus(redis.url);
      });
      afterEach(async () => {
        await nodeA.close();
        await nodeB.close();
        unhandled.stop();
      });

      it('no node crashes, publishing during the outage rejects cleanly, and every live subscriber is told of the change it lost', async () => {
        const index = uniqueIndex();
        const onB = await recordLive(nodeB, index);
        const onA = await recordLive(nodeA, index);
        const before = await nodeA.publish(docChange(index, 'a', 1));
        await onB.until(1);

        await redis.kill();
        // awaited while Redis is down (it restarts below): a publish that waited for Redis would never settle
        const refused = await rejection(nodeA.publish(docChange(index, 'a', 2)));
        expect(refused).to.be.instanceOf(EsError).and.include({ status: 503, type: 'change_bus_unavailable_exception' });
        expect((refused as EsError).reason).to.match(/^the change bus is unavailable: /);
        expect(await rejection(nodeB.history(index, before))).to.be.instanceOf(EsError).and.include({ status: 503 });
        await redis.restart();

        // event 2 was never published: node A rotates the history once Redis is back, and the
        // live subscribers of both nodes end with historyGone instead of going on past the gap
        await eventually(() => onA.error !== undefined && onB.error !== undefined, 15_000, () => 'both live subscribers are told');
        for (const err of [onA.error, onB.error]) {
          expect(isHistoryGone(err), String(err)).to.equal(true);
          expect((err as EsError).reason).to.contain('read the current state again');
        }
        expect(versions(onB.events)).to.deep.equal([1]);
        // the old position cannot be resumed from: the history was reset
        const err = await rejection(nodeB.history(index, before));
        expect(isHistoryGone(err)).to.equal(true);
        // subscribers that start again (after a fresh read) get what is published from now on
        const againB = await recordLive(nodeB, index);
        await nodeA.publish(docChange(index, 'a', 3));
        await nodeB.publish(docChange(index, 'a', 4));
        expect(versions(await againB.until(2))).to.deep.equal([3, 4]);
        expect(againB.error).to.equal(undefined);
        expect(unhandled.errors).to.deep.equal([]);
      });

      it(durable ? 'a live subscriber through a restart without writes meanwhile goes on, losing nothing' : 'a live subscriber through a restart that lost the history is told, even without writes meanwhile', async () => {
        const index = uniqueIndex();
        const onB = await recordLive(nodeB, index);
        await nodeA.publish(docChange(index, 'a', 1));
        await onB.until(1);
        await redis.kill();
        await redis.restart();
        if (durable) {
          await eventually(() => nodeA.connection().connected && nodeB.connection().connected, 15_000, () => 'both nodes connected');
          await nodeA.publish(docChange(index, 'a', 2));
          expect(versions(await onB.until(2))).to.deep.equal([1, 2]);
          expect(onB.error).to.equal(undefined);
        } else {
          await eventually(() => onB.error !== undefined, 15_000, () => 'the subscriber is told');
          expect(isHistoryGone(onB.error)).to.equal(true);
        }
        expect(unhandled.errors).to.deep.equal([]);
      });

      it('a node started while Redis is down rejects publishes, and works once Redis is back', async () => {
        const index = uniqueIndex();
        await redis.kill();
        const late = new RedisChangeBus(redis.url);
        try {
          // (another index: the refused change is a gap there, which the node announces once Redis is back);
          // awaited while Redis is down: a publish that waited for Redis would never settle
          expect(await rejection(late.publish(docChange(`${index}-refused`, 'a', 1)))).to.be.instanceOf(EsError).and.include({ status: 503 });
          const stream = record(late, index);
          const live = late.subscribed(index); // resolves once the subscription is taken, after the restart
          await redis.restart();
          await live;
          await eventually(() => nodeA.connection().connected, 15_000, () => 'node A connected');
          await nodeA.publish(docChange(index, 'a', 2));
          expect(versions(await stream.until(1))).to.deep.equal([2]);
          expect(unhandled.errors).to.deep.equal([]);
        } finally {
          await late.close();
          await redis.restart(); // whatever happened, leave Redis up for the next test
        }
      });

      if (durable) {
        it('a stream that resumes from its last position after the restart loses nothing', async () => {
          const index = uniqueIndex();
          const stream = await recordLive(nodeB, index);
          for (let v = 1; v <= 3; v++) await nodeA.publish(docChange(index, 'a', v));
          await stream.until(3);
          const lastSeen = stream.events[2].position;
          stream.subscription.unsubscribe(); // the client disconnected with the outage

          await redis.kill();
          await redis.restart();
          // (a publish refused while reconnecting would be a gap: the history would start again)
          await eventually(() => nodeA.connection().connected, 15_000, () => 'node A connected');
          for (let v = 4; v <= 6; v++) await nodeA.publish(docChange(index, 'a', v));

          const resumed = await recordLive(nodeB, index);
          const missed = await nodeB.history(index, lastSeen);
          expect(versions(missed)).to.deep.equal([4, 5, 6]);
          await nodeA.publish(docChange(index, 'a', 7));
          expect(versions(await resumed.until(1))).to.deep.equal([7]);
          expect(offsets([...stream.events, ...missed, ...resumed.events])).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
          expect(unhandled.errors).to.deep.equal([]);
        });
      }
    });
  }
});
