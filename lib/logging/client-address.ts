import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type Koa from 'koa';
import type { TrustedProxy } from '../config/index.js';

/**
 * Who the client is, when reverse proxies stand in front of the gateway (TRUSTED_PROXIES).
 *
 * Contract: a request's client address is its direct peer's, unless that peer is a trusted proxy;
 * then the proxy's forwarding header (`X-Forwarded-For`, or `Forwarded` when there is none) is
 * read right to left — the hops the trusted proxies appended — and the first address that is not
 * a trusted proxy is the client (a client cannot spoof past a proxy: what it wrote itself stands
 * left of what the proxies appended). When every hop is trusted, the leftmost one is the client.
 * A header entry that is not an address ends the walk at the last trusted hop.
 */
export class ClientAddresses {
  private readonly trusted = new BlockList();
  private readonly any: boolean;
  /** Resolved once per request: it is read by authentication, authorization, logs and analytics. */
  private readonly resolved = new WeakMap<IncomingMessage, string>();

  constructor(proxies: readonly TrustedProxy[]) {
    for (const p of proxies) this.trusted.addSubnet(p.address, p.prefix, p.family);
    this.any = proxies.length > 0;
  }

  of(req: IncomingMessage): string {
    const peer = peerOf(req);
    if (!this.any || !this.isTrusted(peer)) return peer;
    let client = this.resolved.get(req);
    if (client === undefined) {
      client = this.walk(peer, forwardedFor(req));
      this.resolved.set(req, client);
    }
    return client;
  }

  /** Whether a connection's peer is a trusted proxy (its connections carry many clients). */
  isTrustedPeer(remoteAddress: string): boolean {
    return this.any && this.isTrusted(plain(remoteAddress));
  }

  private walk(peer: string, hops: string[]): string {
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plain(hops[i]);
      if (isIP(hop) === 0) return client;
      client = hop;
      if (!this.isTrusted(hop)) return hop;
    }
    return client;
  }

  private isTrusted(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.trusted.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * Makes `ctx.request.ip` of every request of `app` the client address (koa's own proxy mode
   * believes `X-Forwarded-*` from anyone, so it stays off): every reader of the client address —
   * credential `sources`, the per-address login limit, access lines, request logs, analytics —
   * reads it there.
   */
  install<S, C>(app: Koa<S, C>): void {
    const addresses = this;
    Object.defineProperty(app.request, 'ip', {
      configurable: true,
      get(this: Koa.Request) {
        return addresses.of(this.req);
      },
      set() {
        // the address is the connection's and the trusted proxies' to say
      },
    });
  }
}

/**
 * A connection's peer address, made plain once per connection: it is read several times per
 * request (authentication, access line, request log), and a keep-alive connection carries many.
 */
const peers = new WeakMap<object, string>();
function peerOf(req: IncomingMessage): string {
  const socket = req.socket;
  let peer = peers.get(socket);
  if (peer === undefined) {
    peer = plain(socket.remoteAddress ?? '');
    // before the socket knows its peer (or after it is gone) the answer is not kept
    if (socket.remoteAddress !== undefined) peers.set(socket, peer);
  }
  return peer;
}

/** `::ffff:10.0.0.1` is 10.0.0.1; `[::1]:443` and `10.0.0.1:443` (Forwarded's node form) lose the port. */
function plain(address: string): string {
  let a = address.trim();
  if (a.startsWith('"') && a.endsWith('"')) a = a.slice(1, -1);
  if (a.startsWith('[')) a = a.slice(1, a.indexOf(']') > 0 ? a.indexOf(']') : undefined);
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(':'));
  if (a.toLowerCase().startsWith('::ffff:') && isIP(a.slice(7)) === 4) a = a.slice(7);
  return a;
}

/** The forwarding chain, leftmost (the first sender) first. */
function forwardedFor(req: IncomingMessage): string[] {
  const xff = req.headers['x-forwarded-for'];
  if (xff !== undefined) return (Array.isArray(xff) ? xff.join(',') : xff).split(',').map((h) => h.trim()).filter((h) => h !== '');
  const forwarded = req.headers.forwarded;
  if (forwarded === undefined) return [];
  const hops: string[] = [];
  for (const element of forwarded.split(',')) {
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'for') hops.push(pair.slice(eq + 1).trim());
    }
  }
  return hops;
}
