import { expect } from 'chai';
import { EsError } from '../../lib/errors/index.js';
import { Redis } from 'ioredis';
import { MemoryChangeBus, RedisChangeBus } from '../../lib/changes/index.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { docChange, uniqueIndex } from './support.js';

const MB = 1024 * 1024;
const big = (version: number) => ({ n: version, text: 'x'.repeat(MB) });

async function refusal(p: Promise<unknown>): Promise<EsError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).to.be.instanceOf(EsError);
  return err as EsError;
}

describe('the in-process change history is bounded in bytes (STREAM_HISTORY_BYTES)', () => {
  it('overwriting a few ids with 1 MB documents keeps at most the byte budget, the newest events, and resumes from them', async () => {
    const bus = new MemoryChangeBus({ historyLength: 10_000, historyBytes: 8 * MB });
    const index = uniqueIndex();
    const positions: string[] = [];
    for (let v = 1; v <= 200; v++) positions.push(await bus.publish(docChange(index, String(v % 10), v, big(v))));
    expect(bus.historyBytes()).to.be.at.most(8 * MB);
    expect(bus.historyBytes()).to.be.at.least(6 * MB);
    // the newest events are all there, in order
    const recent = await bus.history(index, positions[193]);
    expect(recent.map((e) => e.position)).to.deep.equal(positions.slice(194));
    // a position past what the history keeps gets the announced reset, never a silent gap
    const err = await refusal(bus.history(index, positions[100]));
    expect(err).to.include({ status: 400, type: 'illegal_argument_exception' });
    expect(err.reason).to.equal(`position [${positions[100]}] is older than the retained history of index [${index}]; read the current state again`);
    // resuming from the newest position still works (nothing after it)
    expect(await bus.history(index, positions[199])).to.deep.equal([]);
    await bus.close();
  });

  it('the budget is shared by all indices: the oldest events go first, whichever index they belong to', async () => {
    const bus = new MemoryChangeBus({ historyBytes: 4 * MB });
    const quiet = uniqueIndex();
    const busy = uniqueIndex();
    const quietStart = await bus.head(quiet);
    const small = await bus.publish(docChange(quiet, 'a', 1));
    for (let v = 1; v <= 20; v++) await bus.publish(docChange(busy, 'b', v, big(v)));
    expect(bus.historyBytes()).to.be.at.most(4 * MB);
    expect((await refusal(bus.history(quiet, quietStart))).reason).to.match(/is older than the retained history/);
    expect(await bus.history(quiet, small)).to.deep.equal([]);
    await bus.close();
  });

  it('the count bound still holds beside the byte bound, and the bytes it drops are freed', async () => {
    const bus = new MemoryChangeBus({ historyLength: 5, historyBytes: 64 * MB });
    const index = uniqueIndex();
    const start = await bus.head(index);
    const positions: string[] = [];
    for (let v = 1; v <= 50; v++) positions.push(await bus.publish(docChange(index, 'a', v, big(v))));
    expect(bus.historyBytes()).to.be.within(5 * MB, 6 * MB);
    expect(await bus.history(index, positions[44])).to.have.length(5);
    expect((await refusal(bus.history(index, start))).reason).to.match(/older than the retained history/);
    await bus.close();
  });

  it('an event larger than the whole budget is delivered live but not kept', async () => {
    const bus = new MemoryChangeBus({ historyBytes: MB / 2 });
    const index = uniqueIndex();
    const seen: string[] = [];
    const sub = bus.changes(index).subscribe((e) => seen.push(e.position));
    await bus.subscribed(index);
    const before = await bus.publish(docChange(index, 'a', 1));
    const huge = await bus.publish(docChange(index, 'a', 2, big(2)));
    expect(seen).to.deep.equal([before, huge]);
    expect(bus.historyBytes()).to.be.at.most(MB / 2);
    expect((await refusal(bus.history(index, before))).reason).to.match(/older than the retained history/);
    expect(await bus.history(index, huge)).to.deep.equal([]);
    sub.unsubscribe();
    await bus.close();
  });
});

describe('the Redis change history is bounded in bytes per index (STREAM_HISTORY_BYTES)', function () {
  let redis: TestRedis;
  let admin: Redis;
  before(async function () {
    redis = await startRedis(this);
    admin = new Redis(redis.url);
  });
  after(async () => {
    admin?.disconnect();
    await redis?.stop();
  });

  it('1 MB overwrites keep at most the byte budget in the stream; older positions get the reset, recent ones resume', async () => {
    const bus = new RedisChangeBus(redis.url, { historyLength: 10_000, historyBytes: 4 * MB });
    const index = uniqueIndex();
    const positions: string[] = [];
    for (let v = 1; v <= 40; v++) positions.push(await bus.publish(docChange(index, String(v % 10), v, big(v))));
    const kept = Number(await admin.xlen(`gw:changes:{${index}}:history`));
    expect(kept).to.be.within(3, 4);
    expect(Number(await admin.hget(`gw:changes:{${index}}:meta`, 'bytes'))).to.be.at.most(4 * MB);
    expect((await bus.history(index, positions[38])).map((e) => e.position)).to.deep.equal([positions[39]]);
    const err = await refusal(bus.history(index, positions[10]));
    expect(err.reason).to.equal(`position [${positions[10]}] is older than the retained history of index [${index}]; read the current state again`);
    await bus.close();
  });
});
