import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import os from 'node:os';
import v8 from 'node:v8';
import { simpleMatch } from '../../../wildcard/index.js';

/**
 * The one node the embedded engine is, as Elasticsearch's node-level APIs describe a node: its
 * identity (a persistent id derived from the data directory, an ephemeral id per start, name,
 * address, roles, attributes) and its live figures, measured where Node.js can measure them
 * (heap, machine memory, CPU, load, file descriptors, the data directory's filesystem).
 */

/** The roles of a default Elasticsearch 8.15 node, sorted, and their `_cat/nodes` abbreviations. */
export const NODE_ROLES: ReadonlyArray<[role: string, abbreviation: string]> = [
  ['data', 'd'], ['data_cold', 'c'], ['data_content', 's'], ['data_frozen', 'f'], ['data_hot', 'h'], ['data_warm', 'w'],
  ['ingest', 'i'], ['master', 'm'], ['ml', 'l'], ['remote_cluster_client', 'r'], ['transform', 't'],
];

export const TRANSPORT_PORT = 9300;
const DEFAULT_HTTP_ADDRESS = '127.0.0.1:9200';

export interface FsFigures {
  path: string;
  total: number;
  free: number;
  available: number;
}

export interface NodeFigures {
  at: number;
  heapUsed: number;
  heapCommitted: number;
  heapMax: number;
  nonHeapUsed: number;
  ramTotal: number;
  ramFree: number;
  /** Percent of all CPUs busy since the previous sample (or since boot, the first time). */
  cpuPercent: number;
  /** 1m, 5m, 15m; null where the platform has none (Windows). */
  load: [number, number, number] | null;
  processCpuMillis: number;
  openFileDescriptors: number;
  maxFileDescriptors: number;
  uptimeMillis: number;
  fs: FsFigures;
}

function base64Id(bytes: Buffer): string {
  return bytes.toString('base64url').slice(0, 22);
}

function cpuTotals(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const c of os.cpus()) {
    idle += c.times.idle;
    total += c.times.idle + c.times.user + c.times.nice + c.times.sys + c.times.irq;
  }
  return { idle, total };
}

function openDescriptors(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return -1;
  }
}

function maxDescriptors(): number {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m && m[1] !== 'unlimited' ? Number(m[1]) : -1;
  } catch {
    return -1;
  }
}

export class LocalNode {
  /** Persistent: the same data directory is the same node across restarts. */
  readonly id: string;
  /** A new one each time the engine starts, as ES's. */
  readonly ephemeralId = base64Id(randomBytes(16));
  readonly ip = '127.0.0.1';
  readonly host = '127.0.0.1';
  readonly transportAddress = `127.0.0.1:${TRANSPORT_PORT}`;
  readonly startedAt = Date.now();
  private lastCpu = { idle: 0, total: 0 };

  constructor(
    readonly name: string,
    private readonly dataDir: string,
  ) {
    this.id = base64Id(createHash('sha256').update(`node:${dataDir}`).digest());
  }

  get roles(): string[] {
    return NODE_ROLES.map(([r]) => r);
  }

  /** `cdfhilmrstw`: the roles' abbreviations, sorted (RestNodesAction.getRoleAbbreviationString). */
  get roleAbbreviations(): string {
    return NODE_ROLES.map(([, a]) => a).sort().join('');
  }

  /** The attributes a default 8.15 node with X-Pack advertises. */
  get attributes(): Record<string, string> {
    const cpus = os.availableParallelism();
    return {
      'ml.allocated_processors': String(cpus),
      'ml.allocated_processors_double': cpus.toFixed(1),
      'ml.config_version': '12.0.0',
      'ml.machine_memory': String(os.totalmem()),
      'ml.max_jvm_size': String(v8.getHeapStatistics().heap_size_limit),
      'transform.config_version': '10.0.0',
      'xpack.installed': 'true',
    };
  }

  /** The HTTP address a client reached this node at (its Host header), else the default port. */
  httpAddress(hostHeader: string | string[] | undefined): string {
    const h = Array.isArray(hostHeader) ? hostHeader[0] : hostHeader;
    return h && /^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(h) ? h : DEFAULT_HTTP_ADDRESS;
  }

  /**
   * Node filters as ES resolves them (DiscoveryNodes.resolveNodes) for one node: `_all`, `*`,
   * `_local`, `_master`, the id, the name, the address, wildcards over id and name, `role:true|false`
   * and `attr:value`. A filter that names no node matches nothing.
   */
  matches(filters: string[]): boolean {
    if (!filters.length) return true;
    let selected = false;
    for (const f of filters) {
      if (f === '_all' || f === '*' || f === '_local' || f === '_master' || f === this.id || f === this.name || f === this.ip || f === this.host) {
        selected = true;
        continue;
      }
      if (f.includes('*') && [this.id, this.name, this.ip].some((v) => simpleMatch(f, v))) {
        selected = true;
        continue;
      }
      const colon = f.indexOf(':');
      if (colon > 0) {
        const [key, value] = [f.slice(0, colon), f.slice(colon + 1)];
        const role = key === 'data' || key === 'ingest' || key === 'master' || key === 'ml' || key === 'transform' || key === 'remote_cluster_client';
        if (role) {
          if (value === 'true') selected = true;
          continue;
        }
        if (key === 'voting_only' || key === 'coordinating_only') continue;
        const attr = this.attributes[key];
        if (attr !== undefined && simpleMatch(value, attr)) selected = true;
      }
    }
    return selected;
  }

  async figures(): Promise<NodeFigures> {
    const mem = process.memoryUsage();
    const heap = v8.getHeapStatistics();
    const cpu = cpuTotals();
    const total = cpu.total - this.lastCpu.total;
    const idle = cpu.idle - this.lastCpu.idle;
    this.lastCpu = cpu;
    const usage = process.cpuUsage();
    const fs = await statfs(this.dataDir).then(
      (s) => ({ path: this.dataDir, total: s.blocks * s.bsize, free: s.bfree * s.bsize, available: s.bavail * s.bsize }),
      () => ({ path: this.dataDir, total: 0, free: 0, available: 0 }),
    );
    const load = os.loadavg();
    return {
      at: Date.now(),
      heapUsed: mem.heapUsed,
      heapCommitted: mem.heapTotal,
      heapMax: heap.heap_size_limit,
      nonHeapUsed: Math.max(0, mem.rss - mem.heapTotal),
      ramTotal: os.totalmem(),
      ramFree: os.freemem(),
      cpuPercent: total > 0 ? Math.round((100 * (total - idle)) / total) : 0,
      load: process.platform === 'win32' ? null : [load[0], load[1], load[2]],
      processCpuMillis: Math.round((usage.user + usage.system) / 1000),
      openFileDescriptors: openDescriptors(),
      maxFileDescriptors: maxDescriptors(),
      uptimeMillis: Math.round(process.uptime() * 1000),
      fs,
    };
  }
}

/** ES's calculatePercentage: used of max, rounded (0 when max is unknown). */
export function percentOf(used: number, max: number): number {
  return max <= 0 ? 0 : Math.round((100 * used) / max);
}
