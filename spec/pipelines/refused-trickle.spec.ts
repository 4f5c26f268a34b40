/**
 * A pipeline refused part way (a script nested too deeply) has the rest of its body read and
 * dropped, so that the answer goes out on a connection the client can go on using: for a few
 * seconds at most (REFUSED_DRAIN_MS). A client trickling the rest just above HTTP_BODY_MIN_RATE
 * (never cut as slow) held its connection unanswered for as long as it kept sending — a 50 MB
 * body at 8 KB/s: hours. Past the bound the refusal is answered at once and the connection closed.
 * On both backends.
 */
import net from 'node:net';
import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { adminAuth } from '../support/http.js';

const BOUNDARY = '----spec-trickle-4c1e';
const DEFINITION = 'id: deep\nroutes: [{ path: /deep, method: POST }]\nstages:\n  - { id: deep, scriptRef: deep.js }\n';
/** The bound on dropping a refused body, and what the answer may take past it. */
const DRAIN_MS = 5_000;
const LATE_MS = 4_000;

interface Trickled {
  /** The answer's status line and body, once it came (and how long after the refusal's bytes were sent). */
  answer: Promise<{ head: string; body: string; afterMs: number }>;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
  stop(): void;
}

/** POST /_pipeline declaring 50 MB: the definition, then a script part opening 2,000 parentheses, then 4 KB more of them every 500 ms. */
async function trickle(base: string): Promise<Trickled> {
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const opening = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="pipeline"; filename="pipeline.yaml"\r\nContent-Type: application/yaml\r\n\r\n${DEFINITION}\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="deep.js"; filename="deep.js"\r\nContent-Type: application/javascript\r\n\r\nfunction handleRequest() { return ${'('.repeat(2_000)}`;
  socket.write(`POST /_pipeline HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${adminAuth()}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n${opening}`);
  const sentAt = performance.now();
  const filler = '('.repeat(4 * 1024);
  const timer = setInterval(() => socket.writable && socket.write(filler), 500);
  let received = '';
  let resolveAnswer!: (a: { head: string; body: string; afterMs: number }) => void;
  const answer = new Promise<{ head: string; body: string; afterMs: number }>((resolve) => (resolveAnswer = resolve));
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('utf8');
    const split = received.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length: (\d+)/i.exec(received)?.[1];
    if (split >= 0 && length !== undefined && received.length >= split + 4 + Number(length)) {
      resolveAnswer({ head: received.slice(0, split), body: received.slice(split + 4, split + 4 + Number(length)), afterMs: performance.now() - sentAt });
    }
  });
  socket.on('error', () => undefined); // the server closing while the filler is written
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  closed.then(() => clearInterval(timer));
  return { answer, closed, stop: () => { clearInterval(timer); socket.destroy(); } };
}

/** `promise`, or a failure saying what did not come within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

for (const backend of BACKENDS) {
  describe(`a refused pipeline's trickling body (${backend.name})`, function () {
    this.timeout(30_000);

    it('is dropped for a few seconds at most, then the refusal is answered and the connection closed', async () => {
      const { gateway, stop } = await backend.start();
      const sent = await trickle(gateway.url);
      try {
        const answer = await within(sent.answer, DRAIN_MS + LATE_MS, 'the refusal');
        expect(answer.head).to.match(/^HTTP\/1\.1 400 /);
        expect(answer.head).to.match(/\r\nconnection: close/i);
        expect(JSON.parse(answer.body).error.reason).to.equal('stage [deep]: the script [deep.js] does not parse: the script is nested too deeply to compile (more than 1000 levels)');
        // dropped for the bound, not cut as slow before it (8 KB/s is above HTTP_BODY_MIN_RATE)
        expect(answer.afterMs).to.be.at.least(DRAIN_MS - 500);
        await within(sent.closed, 5_000, 'the connection closed');
      } finally {
        sent.stop();
        await stop();
      }
    });
  });
}
