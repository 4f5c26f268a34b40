/**
 * The floor of bench/support/crowd-cost.ts: a bare `node:http` server held to the gateway's own
 * connection limits by the same connection guard (lib/connections), whose only handler reads a
 * request's body and answers 200 at its end — what refusing, holding and cutting a crowd of
 * slow-body clients costs with no app behind it. Prints `floor listening on <url>`; SIGUSR2 prints
 * `floor-stats <open> <refused> <cut>`.
 */
import http from 'node:http';
import { guardConnections, listenWithin, serverOptions } from '../../lib/connections/index.js';
import { loadEngineServerConfig } from '../../lib/config/index.js';

const limits = loadEngineServerConfig(process.env).http;
const server = http.createServer(serverOptions(limits), (req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => res.end('{}'));
  req.on('error', () => undefined);
});
const guard = guardConnections(server, limits, { log: () => undefined });
process.on('SIGUSR2', () => {
  const s = guard.stats();
  process.stdout.write(`floor-stats ${s.open} ${s.refused} ${s.slowBodiesCut}\n`);
});
process.on('SIGTERM', () => process.exit(0));
await listenWithin(server, limits, 0, '127.0.0.1');
const address = server.address() as { port: number };
process.stdout.write(`floor listening on http://127.0.0.1:${address.port}\n`);
