/**
 * bench:streams' floor for document-stream fan-out: node:http alone doing what the benchmark asks
 * of the gateway — `GET /{index}/_doc/{id}?stream=true` holds a chunked response open and writes
 * the document, `PUT /{index}/_doc/{id}` keeps the body and writes it to every open stream of
 * that document, then answers. No authentication, engine, bus or framing choices: the memory per
 * open stream and the time to reach every stream that this machine's Node cannot go below.
 * Env: PORT.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const docs = new Map<string, { body: string; streams: Set<http.ServerResponse> }>();
const docOf = (id: string) => {
  let doc = docs.get(id);
  if (!doc) docs.set(id, (doc = { body: '{}', streams: new Set() }));
  return doc;
};

const server = http.createServer((req, res) => {
  const [path, query = ''] = (req.url ?? '/').split('?');
  const id = path.split('/')[3] ?? '';
  if (req.method === 'GET' && query.includes('stream=true')) {
    const doc = docOf(id);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`{"_id":"${id}","_source":${doc.body}}`);
    doc.streams.add(res);
    res.once('close', () => doc.streams.delete(res));
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    if (req.method === 'PUT' && id) {
      const doc = docOf(id);
      doc.body = body;
      const message = Buffer.from(`{"_type":"_doc","_id":"${id}","_source":${body}}`);
      for (const stream of doc.streams) stream.write(message);
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"result":"updated"}');
  });
});
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => process.exit(0));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`floor listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
