// A loopback port held by something that is not our server, for tests of what happens when a picked port is taken:
// it hangs up on every connection (as a port held by a non-HTTP process would), so readiness probes never pass.
import net from 'node:net';

export interface OccupiedPort {
  port: number;
  release(): Promise<void>;
}

export async function occupyLoopbackPort(): Promise<OccupiedPort> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
