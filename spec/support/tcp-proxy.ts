import net from 'node:net';

/**
 * A TCP proxy for fault tests, on an ephemeral port of 127.0.0.1. Each connection goes to the
 * next target in turn (round-robin; a target that refuses is skipped, as a load balancer's health
 * check would), bytes copied both ways. `pause()` stalls every connection without closing it —
 * bytes wait in the proxy, new connections wait too — as a network partition does; `resume()`
 * lets them flow again.
 */
export class TcpProxy {
  private readonly server = net.createServer((client) => this.accept(client));
  private next = 0;
  private paused = false;
  private readonly waiting: Array<() => void> = [];
  private readonly sockets = new Set<net.Socket>();
  /** Connections open now, by target port. */
  private readonly open = new Map<number, number>();
  port = 0;

  constructor(public targets: number[]) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  /** Connections open now to the target on `port`. */
  connectionsTo(port: number): number {
    return this.open.get(port) ?? 0;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const go of this.waiting.splice(0)) go();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private accept(client: net.Socket): void {
    this.track(client);
    client.pause();
    client.on('error', () => client.destroy());
    const connect = (attempt: number) => {
      if (client.destroyed) return;
      if (this.paused) return void this.waiting.push(() => connect(attempt));
      const port = this.targets[this.next++ % this.targets.length];
      const upstream = net.connect(port, '127.0.0.1');
      this.track(upstream);
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        this.open.set(port, (this.open.get(port) ?? 0) + 1);
        upstream.once('close', () => this.open.set(port, (this.open.get(port) ?? 1) - 1));
        this.pipe(client, upstream);
        this.pipe(upstream, client);
        client.resume();
      });
      upstream.on('error', () => {
        upstream.destroy();
        if (!connected && attempt < this.targets.length) connect(attempt + 1);
        else client.destroy();
      });
      upstream.once('close', () => connected && client.destroy());
      client.once('close', () => upstream.destroy());
    };
    connect(1);
  }

  /** Copies `from` to `to`, holding the bytes while the proxy is paused. */
  private pipe(from: net.Socket, to: net.Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (!this.paused) return void to.write(chunk);
      from.pause();
      this.waiting.push(() => {
        to.write(chunk);
        from.resume();
      });
    });
    from.once('end', () => to.end());
  }
}
