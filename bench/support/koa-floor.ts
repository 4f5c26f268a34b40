/**
 * bench:proxy's floor for the embedded deployment: koa and the embedded engine in one process,
 * nothing else — no authentication, classification, authorization or interceptors. What the
 * gateway on its embedded engine cannot go below as long as it is a koa application. Env:
 * ENGINE_DATA_DIR, PORT.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { openEmbeddedEngine } from '../../lib/engine/embedded/index.js';

const engine = await openEmbeddedEngine({ dataDir: process.env.ENGINE_DATA_DIR!, maxContentLength: 100 * 1024 * 1024 });
const app = new Koa();
app.use(async (ctx) => {
  const res = await engine.request({ method: ctx.method, path: ctx.path, querystring: ctx.querystring, headers: ctx.headers, body: ctx.req });
  ctx.status = res.status;
  for (const name in res.headers) ctx.set(name, res.headers[name] as string);
  ctx.body = res.body;
});
process.on('SIGINT', () => process.exit(0));
const server = http.createServer(app.callback());
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`floor listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
