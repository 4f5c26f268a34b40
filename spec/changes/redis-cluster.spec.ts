import { expect } from 'chai';
import { isHistoryGone, RedisChangeBus, type ChangeEvent } from '../../lib/changes/index.js';
import { launchRedisCluster, redisServerAvailable, type TestRedisCluster } from '../support/redis.js';
import { docChange, eventually, recordLive, uniqueIndex } from './support.js';

const versions = (events: ChangeEvent[]) => events.map((e) => (e.kind === 'document' ? e.version : -1));

/** The bus on a real Redis Cluster (three masters), with classic and with sharded pub/sub. */
describe('RedisChangeBus on a Redis Cluster (redis+cluster://)', function () {
  this.timeout(120_000);
  let cluster: TestRedisCluster;

  before(async function () {
    if (!redisServerAvailable()) this.skip();
    cluster = await launchRedisCluster();
  });
  after(async () => cluster?.stop());

  for (const sharded of [false, true]) {
    it(`${sharded ? 'sharded pub/sub (SPUBLISH/SSUBSCRIBE)' : 'classic pub/sub'}: delivery between nodes, history, and a dead node's write in flight announced`, async () => {
      // the default liveness: it also bounds each publish and history read, and a shorter one
      // times them out on a loaded machine (the PINGs then drop and connect again, over and over)
      const options = { sharded, livenessMs: 2_000 };
      const a = new RedisChangeBus(cluster.url, options);
      const b = new RedisChangeBus(cluster.url, options);
      try {
        // several indices: their keys and channels land on different masters of the cluster
        const indices = [uniqueIndex(), uniqueIndex(), uniqueIndex()];
        const onB = await Promise.all(indices.map((index) => recordLive(b, index)));
        // published at once: on a cluster, a PUBLISH reaches another node's subscriber after its
        // reply, so B's catch-up read may see an event before its message (it used to be lost)
        const first = await Promise.all(indices.map((index) => a.publish(docChange(index, 'x', 1))));
        await Promise.all(indices.map((index) => a.publish(docChange(index, 'x', 2))));
        for (const r of onB) expect(versions(await r.until(2, 20_000))).to.deep.equal([1, 2]);
        expect(versions(await b.history(indices[0], first[0]))).to.deep.equal([2]);

        // node A dies with a write to indices[1] in flight: B resets that index's streams only
        await a.inFlight(indices[1]);
        await a.close();
        await eventually(() => onB[1].error !== undefined, 30_000, () => 'the stream on the index is told');
        expect(isHistoryGone(onB[1].error)).to.equal(true);
        expect(onB[0].error ?? onB[2].error).to.equal(undefined);
      } finally {
        await a.close();
        await b.close();
      }
    });
  }
});
