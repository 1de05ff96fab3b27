// A TCP proxy on loopback for fault tests: a server that stops answering without refusing or resetting anything (a
// network partition, a stopped process). Passing, it forwards both ways. Frozen, it keeps every connection open and
// accepts new ones, but holds every byte either way: the clients' sockets stay healthy (the kernel acknowledges
// their writes) and nothing comes back. Thawed, it delivers what it held, in order, and forwards again.
import net from 'node:net';

export interface TcpProxy {
  /** The loopback port clients connect to. */
  readonly port: number;
  freeze(): void;
  thaw(): void;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

/** One proxied connection: each direction writes to the other side, or holds its bytes while frozen. */
class ProxiedConnection {
  private readonly held = new Map<net.Socket, Buffer[]>();
  private ended = false;

  constructor(
    private readonly client: net.Socket,
    private readonly upstream: net.Socket,
    private readonly isFrozen: () => boolean,
    onEnd: () => void,
  ) {
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      this.held.set(to, []);
      from.on('data', (chunk: Buffer) => (isFrozen() ? this.held.get(to)!.push(chunk) : to.write(chunk)));
      from.on('error', () => undefined);
      from.on('close', () => {
        this.ended = true;
        // A side that closes while frozen says nothing either: its peer learns of it after the thaw.
        if (!isFrozen()) this.destroy();
        onEnd();
      });
    }
  }

  /** Delivers what was held, in order, then passes on a close that happened meanwhile; true when the connection is over. */
  release(): boolean {
    for (const [to, chunks] of this.held) for (const chunk of chunks.splice(0)) to.write(chunk);
    if (this.ended) {
      this.client.end();
      this.upstream.end();
    }
    return this.ended;
  }

  destroy(): void {
    this.client.destroy();
    this.upstream.destroy();
  }
}

/** Starts a proxy on a free loopback port forwarding to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let frozen = false;
  const connections = new Set<ProxiedConnection>();
  const server = net.createServer((client) => {
    const connection: ProxiedConnection = new ProxiedConnection(client, net.connect(target), () => frozen, () => {
      if (!frozen) connections.delete(connection);
    });
    connections.add(connection);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });

  return {
    port: (server.address() as net.AddressInfo).port,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const connection of connections) if (connection.release()) connections.delete(connection);
    },
    async close() {
      for (const connection of connections) connection.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
