/**
 * bench:streams' floor for document subscriptions multiplexed over WebSockets: the `ws` library
 * alone doing what the benchmark asks of the gateway — a subscribe frame
 * `{id, path: "{index}/_doc/{id}"}` is answered with `{id, channel, body}` (the document) and
 * `{id, channel, live: true}`; `PUT /{index}/_doc/{id}` over HTTP keeps the body and sends
 * `{"channel":…,"event":…}` to every subscription of that document, each frame one `ws.send`,
 * then answers. No authentication, engine, bus or stream state: the memory per subscription and
 * the time to reach every subscription that this machine's Node and `ws` cannot go below.
 * Env: PORT.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

interface Subscription {
  ws: WebSocket;
  channel: string;
}

const docs = new Map<string, { body: string; subscriptions: Set<Subscription> }>();
const docOf = (id: string) => {
  let doc = docs.get(id);
  if (!doc) docs.set(id, (doc = { body: '{}', subscriptions: new Set() }));
  return doc;
};

const server = http.createServer((req, res) => {
  const id = (req.url ?? '/').split('?')[0].split('/')[3] ?? '';
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    if (req.method === 'PUT' && id) {
      const doc = docOf(id);
      doc.body = body;
      for (const s of doc.subscriptions) s.ws.send(`{"channel":${s.channel},"event":{"_type":"_doc","_id":"${id}","_source":${body}}}`);
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"result":"updated"}');
  });
});

const wss = new WebSocketServer({ server, perMessageDeflate: false });
wss.on('connection', (ws) => {
  const mine = new Map<string, { doc: ReturnType<typeof docOf>; s: Subscription }>();
  ws.on('message', (raw: Buffer) => {
    const frame = JSON.parse(raw.toString()) as { id: string; path: string; unsubscribe?: boolean };
    if (frame.unsubscribe) {
      const held = mine.get(frame.id);
      held?.doc.subscriptions.delete(held.s);
      mine.delete(frame.id);
      return;
    }
    const doc = docOf(frame.path.split('?')[0].split('/')[2] ?? '');
    const s = { ws, channel: JSON.stringify(frame.id) };
    doc.subscriptions.add(s);
    mine.set(frame.id, { doc, s });
    ws.send(`{"id":${s.channel},"channel":${s.channel},"body":{"_source":${doc.body}}}`);
    ws.send(`{"id":${s.channel},"channel":${s.channel},"live":true}`);
  });
  ws.on('close', () => {
    for (const { doc, s } of mine.values()) doc.subscriptions.delete(s);
  });
});

process.on('SIGTERM', () => process.exit(0));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`floor listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
