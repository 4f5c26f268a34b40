import { Redis } from 'ioredis';
import { RedisChangeBus, type NewChange } from '../../lib/changes/index.js';
import { summarize, type Summary } from './latency.js';

/**
 * What one write costs the Redis bus, by the number of nodes: N `RedisChangeBus` instances in this
 * process (each with its own publisher and subscriber connection, as N gateway nodes have), one
 * local subscriber per interested node, writes published from node 0 the way a gateway write
 * does it (`inFlight` mark → write → `publish` → release). Counted, not timed where it can be:
 * Redis commands per write (INFO commandstats), pub/sub messages delivered per write (the buses'
 * `onDelivered`), Redis CPU per write (INFO cpu) and this process's CPU per delivered change;
 * the extra round trip of the `inFlight` mark is timed against `publish` alone.
 */
export interface BusPerWrite {
  nodes: number;
  interested: number;
  writes: number;
  commandsPerWrite: Record<string, number>;
  deliveriesPerWrite: number;
  redisCpuUsPerWrite: number;
  nodeCpuUsPerDelivery: number;
  publishOnly: Summary;
  markThenPublish: Summary;
}

const change = (index: string, n: number): NewChange => ({
  kind: 'document', index, type: '_doc', id: `d${n % 10}`, op: 'index', version: n, seqNo: n, primaryTerm: 1, source: { n, text: 'a change of about the size of a small document' },
});

async function commandCalls(admin: Redis): Promise<Map<string, number>> {
  const info = await admin.info('commandstats');
  const calls = new Map<string, number>();
  for (const m of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) calls.set(m[1], Number(m[2]));
  return calls;
}

async function redisCpuSeconds(admin: Redis): Promise<number> {
  const info = await admin.info('cpu');
  const get = (k: string) => Number(new RegExp(`^${k}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return get('used_cpu_user') + get('used_cpu_sys');
}

export async function busPerWrite(redisUrl: string, nodes: number, interested: number, writes: number): Promise<BusPerWrite> {
  let delivered = 0;
  // a long liveness: no PING, beat or tail check falls inside the counted window
  const buses = Array.from({ length: nodes }, () => new RedisChangeBus(redisUrl, { livenessMs: 600_000, onDelivered: () => delivered++ }));
  const admin = new Redis(redisUrl);
  const index = `buscost-${nodes}-${interested}-${process.pid}`;
  const subscriptions = [];
  try {
    for (let i = 0; i < interested; i++) {
      const bus = buses[nodes - 1 - i]; // node 0 writes; the interested ones are the others first
      subscriptions.push(bus.changes(index).subscribe(() => {}));
      await bus.subscribed(index);
    }
    // the other nodes follow another index each: they are connected, but not interested
    for (let i = interested; i < nodes; i++) {
      subscriptions.push(buses[nodes - 1 - i].changes(`${index}-other`).subscribe(() => {}));
      await buses[nodes - 1 - i].subscribed(`${index}-other`);
    }
    const writer = buses[0];
    for (let n = 0; n < 50; n++) await writer.publish(change(index, n)); // warm: scripts loaded
    const deliveredTarget = () => delivered >= (50 + writes) * interested;

    const before = await commandCalls(admin);
    const cpuBefore = await redisCpuSeconds(admin);
    const nodeCpu = process.cpuUsage();
    const deliveredBefore = delivered;
    for (let n = 50; n < 50 + writes; n++) {
      const release = await writer.inFlight!(index);
      await writer.publish(change(index, n));
      release();
    }
    const deadline = performance.now() + 30_000;
    while (!deliveredTarget() && performance.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    const nodeCpuUs = process.cpuUsage(nodeCpu);
    const cpuAfter = await redisCpuSeconds(admin);
    const after = await commandCalls(admin);
    const commandsPerWrite: Record<string, number> = {};
    for (const [name, calls] of after) {
      const d = calls - (before.get(name) ?? 0);
      if (d / writes >= 0.01 && name !== 'info') commandsPerWrite[name] = d / writes;
    }
    const deliveries = delivered - deliveredBefore;

    // the extra round trip: publish alone against the mark then publish (timed, sequential)
    const publishOnly: number[] = [];
    const markThenPublish: number[] = [];
    for (let n = 0; n < writes; n++) {
      let t0 = performance.now();
      await writer.publish(change(index, 10_000 + n));
      publishOnly.push(performance.now() - t0);
      t0 = performance.now();
      const release = await writer.inFlight!(index);
      await writer.publish(change(index, 20_000 + n));
      markThenPublish.push(performance.now() - t0);
      release();
    }
    return {
      nodes,
      interested,
      writes,
      commandsPerWrite,
      deliveriesPerWrite: deliveries / writes,
      redisCpuUsPerWrite: ((cpuAfter - cpuBefore) * 1e6) / writes,
      nodeCpuUsPerDelivery: deliveries > 0 ? (nodeCpuUs.user + nodeCpuUs.system) / deliveries : NaN,
      publishOnly: summarize(publishOnly),
      markThenPublish: summarize(markThenPublish),
    };
  } finally {
    for (const s of subscriptions) s.unsubscribe();
    await Promise.all(buses.map((b) => b.close()));
    await admin.quit().catch(() => admin.disconnect());
  }
}
