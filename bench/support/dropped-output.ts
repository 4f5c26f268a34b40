import type { ChildServer } from '../../spec/support/servers.js';

/**
 * A started server's output (its access lines: one per request, on by default) read and dropped,
 * as a log shipper in another process would take it, instead of kept in this process as text: the
 * load generator decoding and keeping a gateway's megabytes of lines (and cutting the kept text
 * once past 4 MB, a copy of megabytes per chunk) slowed the very clients that measure it, and only
 * the targets that log (the gateways; never a floor) paid for it. The server's output from its
 * start stays in `output()` for diagnostics.
 */
export function dropOutput(server: ChildServer): ChildServer {
  for (const stream of [server.proc.stdout, server.proc.stderr]) {
    if (!stream) continue;
    stream.removeAllListeners('data');
    stream.on('data', () => {});
  }
  return server;
}
