import net from 'node:net';

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  json: any;
}

export interface HalfSentRequest {
  /** Sends the rest of the head and reads the answer (the request asks for `Connection: close`). */
  finish(): Promise<RawReply>;
}

/**
 * A request whose head is sent in two parts: between them the connection carries a request that
 * has begun, so a server that closes its idle connections keeps this one — what lets a test send
 * a request on an open connection at a moment of its choosing (after a shutdown began).
 */
export async function halfSent(base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<HalfSentRequest> {
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  const ended = new Promise<void>((resolve) => {
    socket.once('end', resolve);
    socket.once('close', () => resolve());
    socket.once('error', () => resolve());
  });
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  await new Promise<void>((resolve) => socket.write(lines.join('\r\n') + '\r\n', () => resolve()));
  return {
    async finish() {
      socket.write('\r\n');
      await ended;
      const split = received.indexOf('\r\n\r\n');
      if (split < 0) throw new Error(`no complete answer: ${JSON.stringify(received)}`);
      const [statusLine, ...headerLines] = received.slice(0, split).split('\r\n');
      const head: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        head[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = received.slice(split + 4);
      return { status: Number(statusLine.split(' ')[1]), headers: head, json: body ? JSON.parse(body) : undefined };
    },
  };
}
