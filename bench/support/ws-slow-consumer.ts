import type { Socket } from 'node:net';
import { once } from 'node:events';
import { Pool } from 'undici';
import WebSocket from 'ws';
import { spawnGateway, tempDir } from '../../spec/support/servers.js';
import { rssOf } from './latency.js';
import { owned } from './teardown.js';

// the fleets stand for many browsers but all connect from this host: the per-address cap
// (HTTP_MAX_CONNECTIONS_PER_CLIENT, 1000 by default) is lifted for them
const ADMIN = { ADMIN_USER: 'bench', ADMIN_PASSWORD: 'bench-password', HTTP_MAX_CONNECTIONS_PER_CLIENT: '1000000' };
const AUTH = 'Basic ' + Buffer.from(`${ADMIN.ADMIN_USER}:${ADMIN.ADMIN_PASSWORD}`).toString('base64');
const HEADERS = { 'content-type': 'application/json', authorization: AUTH };
/** What is written while the client does not read: 200 MB of changes, in 100 KB documents. */
const WRITTEN_BYTES = Number(process.env.BENCH_WS_BYTES ?? 200 * 1024 * 1024);
const DOC_BYTES = 100 * 1024;

export interface SlowConsumerResult {
  writtenMb: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  /** The same writes on a fresh gateway with no stream open: what the writes alone cost (the engine's pages). */
  reference: { rssBeforeMb: number; rssPeakMb: number };
  bufferBytes: number;
  errorFrame?: { status: number; type: string };
  writeSeconds: number;
}

/**
 * bench:streams' WebSocket slow consumer: a gateway child process (embedded engine,
 * STREAM_BUFFER_BYTES at its default, 8 MB), one WebSocket subscription to a document whose client
 * stops reading, and 200 MB of changes to that document written through HTTP meanwhile; the
 * gateway's RSS before and at its highest (sampled after every write), and the frame the client
 * finds once it reads again.
 */
export async function wsSlowConsumer(progress: (line: string) => void): Promise<SlowConsumerResult> {
  const reference = await run(false, progress);
  const stalled = await run(true, progress);
  return { ...stalled, reference: { rssBeforeMb: reference.rssBeforeMb, rssPeakMb: reference.rssPeakMb } };
}

async function run(withClient: boolean, progress: (line: string) => void): Promise<Omit<SlowConsumerResult, 'reference'>> {
  const data = await tempDir('bench-streams-ws-');
  const removeData = owned(() => data.remove());
  const gw = await spawnGateway({ ...ADMIN, DATA_DIR: data.dir, ANALYTICS_ENABLED: 'false', LOGS_ENABLED: 'false', ACCESS_LOG: 'false' });
  const stopGateway = owned(() => gw.stop());
  const pool = new Pool(gw.url, { connections: 4 });
  const closePool = owned(() => pool.close());
  let ws: WebSocket | undefined;
  try {
    const put = async (body: unknown) => {
      const res = await pool.request({ method: 'PUT', path: '/slow/_doc/1', headers: HEADERS, body: JSON.stringify(body) });
      await res.body.dump();
      if (res.statusCode >= 300) throw new Error(`write answered ${res.statusCode}`);
    };
    await put({ v: 0 });
    const frames: Array<Record<string, any>> = [];
    let notify = () => {};
    const until = (check: () => boolean, ms: number) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        notify = () => check() && (clearTimeout(timer), resolve(true));
        notify();
      });
    if (withClient) {
      ws = new WebSocket(`${gw.url.replace('http://', 'ws://')}/slow`);
      await once(ws, 'open');
      ws.on('message', (raw) => {
        frames.push(JSON.parse(raw.toString()));
        notify();
      });
      ws.send(JSON.stringify({ id: 'slow', path: 'slow/_doc/1?streamonly=true', method: 'GET', authorization: AUTH }));
      if (!(await until(() => frames.some((f) => f.live), 10_000))) throw new Error(`the subscription did not go live: ${JSON.stringify(frames).slice(0, 300)}`);
      (ws as unknown as { _socket: Socket })._socket.pause(); // the client stops reading
    }
    const rssBefore = await rssOf(gw.proc.pid!);
    let peak = rssBefore;
    const filler = 'x'.repeat(DOC_BYTES);
    const started = performance.now();
    const writes = Math.ceil(WRITTEN_BYTES / DOC_BYTES);
    for (let i = 1; i <= writes; i++) {
      await put({ v: i, filler });
      if (i % 20 === 0) peak = Math.max(peak, await rssOf(gw.proc.pid!));
    }
    const writeSeconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, await rssOf(gw.proc.pid!));
    progress(`ws slow consumer${withClient ? '' : ' (reference: no stream)'}: ${writes} writes of ${DOC_BYTES / 1024} KB in ${writeSeconds.toFixed(1)} s; gateway RSS ${(rssBefore / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MB`);
    if (ws) {
      (ws as unknown as { _socket: Socket })._socket.resume();
      await until(() => frames.some((f) => f.id === 'slow' && f.status), 20_000);
    }
    const error = frames.find((f) => f.id === 'slow' && f.status);
    return {
      writtenMb: (writes * DOC_BYTES) / 2 ** 20,
      rssBeforeMb: rssBefore / 2 ** 20,
      rssPeakMb: peak / 2 ** 20,
      bufferBytes: 8 * 2 ** 20,
      errorFrame: error && { status: error.status, type: error.error?.type },
      writeSeconds,
    };
  } finally {
    ws?.terminate();
    await closePool();
    await stopGateway();
    await removeData();
  }
}
