/**
 * A crowd of slow-body clients (slowloris on the body) on a worker thread of its own: 12,000 sockets'
 * timers and reconnections on the probe's thread would delay the probe itself, which is not the
 * server's doing. This module is the worker too, and imports nothing of the project, so the thread
 * is up in milliseconds: a worker that loaded the whole bench (and through it the gateway) took
 * seconds to start on a busy machine, and once longer than the probe, so the probe measured no crowd.
 */
import { setMaxListeners } from 'node:events';
import net from 'node:net';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Outcome } from './probe.js';

export interface SlowBodiesOptions {
  clients: number;
  /** Local addresses the clients connect from, in turn (each its own per-client cap at the server). */
  addresses: string[];
  authorization: string;
}

export interface SlowBodiesRun {
  /**
   * Resolves once every client has had its first connection answered by the server (accepted, or
   * refused), or 15 s passed: the crowd is there, and measuring may begin. Says how many were
   * accepted and held, and how many had no connection by then.
   */
  ready: Promise<{ held: number; unconnected: number }>;
  /** What every connection got, once `stop` aborted. */
  done: Promise<Outcome[]>;
}

interface WorkerData {
  slowBodies: { url: string } & SlowBodiesOptions;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Each client sends a search's head and then its body a byte every 2 s; a client whose connection
 * the server ends (408 cut, 429/503 refused) records the answer and connects again after a second,
 * until `stop`. Connections are opened over the first second, not in one burst.
 */
async function slowBodies(url: string, options: SlowBodiesOptions, stop: AbortSignal, firstAnswered: (held: boolean) => void): Promise<Outcome[]> {
  const { port, hostname, host } = new URL(url);
  const outcomes: Outcome[] = [];
  const head = `POST /packages/_search HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${options.authorization}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`;
  const client = async (i: number) => {
    let first = true;
    while (!stop.aborted) {
      const t0 = performance.now();
      const outcome = await new Promise<Outcome>((resolve) => {
        const socket = net.connect({ port: Number(port), host: hostname, localAddress: options.addresses[i % options.addresses.length] });
        let received = '';
        let drip: NodeJS.Timeout | undefined;
        let told = !first;
        const tell = (held: boolean) => {
          if (told) return;
          told = true;
          firstAnswered(held);
        };
        const end = (status: Outcome['status']) => {
          clearInterval(drip);
          stop.removeEventListener('abort', onStop);
          socket.destroy();
          tell(false);
          resolve({ status, ms: performance.now() - t0 });
        };
        // what the server did with this connection by the end: still holds it, or never took it
        const onStop = () => end(socket.connecting ? 'connecting' : 'held');
        stop.addEventListener('abort', onStop, { once: true });
        socket.on('connect', () => {
          socket.write(head + '{');
          drip = setInterval(() => socket.write(' '), 2_000);
        });
        socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
        // a refusal is answered at once: a connection still unanswered after a second was accepted and is held
        setTimeout(() => !received && !socket.connecting && !socket.destroyed && tell(true), 1_000).unref();
        // an answer followed by a reset (a refusal closes without reading what was sent) is that answer
        const answered = () => (received.startsWith('HTTP/1.1 ') ? Number(received.slice(9, 12)) : 'error');
        socket.on('error', () => end(answered()));
        socket.on('close', () => end(answered()));
      });
      first = false;
      outcomes.push(outcome);
      if (!stop.aborted) await sleep(1_000);
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, i) => sleep((i / options.clients) * 1_000).then(() => client(i))));
  return outcomes;
}

/** Starts the crowd on its own thread; `stop` ends it. */
export function slowBodiesOffThread(url: string, options: SlowBodiesOptions, stop: AbortSignal): SlowBodiesRun {
  const worker = new Worker(new URL(import.meta.url), { workerData: { slowBodies: { url, ...options } } satisfies WorkerData });
  stop.addEventListener('abort', () => worker.postMessage('stop'), { once: true });
  let readyNow!: (r: { held: number; unconnected: number }) => void;
  const ready = new Promise<{ held: number; unconnected: number }>((resolve) => (readyNow = resolve));
  const done = new Promise<Outcome[]>((resolve, reject) => {
    worker.on('message', (m: { ready: { held: number; unconnected: number } } | { outcomes: Outcome[] }) => {
      if ('ready' in m) return readyNow(m.ready);
      // the worker is ended here once its outcomes arrived (a worker's own exit may drop a message still in flight)
      void worker.terminate().then(() => resolve(m.outcomes));
    });
    worker.once('error', reject);
  });
  // a crowd whose start failed is not waited for
  done.catch(() => readyNow({ held: 0, unconnected: options.clients }));
  return { ready, done };
}

if (!isMainThread && (workerData as Partial<WorkerData> | null)?.slowBodies) {
  const { url, ...options } = (workerData as WorkerData).slowBodies;
  const stop = new AbortController();
  setMaxListeners(0, stop.signal); // one listener per client
  parentPort!.once('message', () => stop.abort());
  let answered = 0;
  let held = 0;
  let readySent = false;
  const sendReady = () => {
    if (readySent) return;
    readySent = true;
    parentPort!.postMessage({ ready: { held, unconnected: options.clients - answered } });
  };
  setTimeout(sendReady, 15_000).unref();
  void slowBodies(url, options, stop.signal, (isHeld) => {
    answered++;
    if (isHeld) held++;
    if (answered === options.clients) sendReady();
  }).then((outcomes) => {
    sendReady();
    parentPort!.postMessage({ outcomes });
  });
}
