/**
 * The machine's floor for one HTTP round trip between two processes: a bare Node HTTP server
 * that reads the request and answers the bytes in ANSWER_FILE (JSON), nothing else — no koa, no
 * engine. A cache hit cannot be served faster than this on the same machine. Env: ANSWER_FILE, PORT.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = readFileSync(process.env.ANSWER_FILE!);
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length, 'x-elastic-product': 'Elasticsearch' });
    res.end(answer);
  });
});
process.on('SIGINT', () => process.exit(0));
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`fixed listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
