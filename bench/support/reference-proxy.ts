/**
 * bench:proxy's yardstick: the least an authenticated proxy can do (node:http, an undici keep-alive
 * pool, a constant-time Basic credential check). Env: UPSTREAM_URL, PORT, REFERENCE_AUTH ("user:password").
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';

const upstream = new Pool(process.env.UPSTREAM_URL!, { connections: 64, pipelining: 1 });
const expected = Buffer.from('Basic ' + Buffer.from(process.env.REFERENCE_AUTH!).toString('base64'));
const authorized = (header = '') => Buffer.byteLength(header) === expected.length && timingSafeEqual(Buffer.from(header), expected);

const server = http.createServer(async (req, res) => {
  if (!authorized(req.headers.authorization)) return void res.writeHead(401, { 'www-authenticate': 'Basic' }).end();
  const { authorization, host, connection, 'keep-alive': _, ...headers } = req.headers;
  try {
    const answer = await upstream.request({ method: req.method as 'GET', path: req.url!, headers, body: req.headers['content-length'] || req.headers['transfer-encoding'] ? req : null });
    const { connection: _c, 'keep-alive': _k, 'transfer-encoding': _t, ...passed } = answer.headers;
    res.writeHead(answer.statusCode, passed as http.OutgoingHttpHeaders);
    await pipeline(answer.body, res);
  } catch {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  }
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`reference listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
