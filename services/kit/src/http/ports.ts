// Ports for servers we start ourselves (tests, benchmarks, the embedded stack): a free one picked up front, and a start
// that survives losing it. A port the OS reports free can be taken before our server binds it — by another server
// starting beside it, or as the local port of an outgoing connection — so a start that fails for that reason is made
// again on a fresh port.
import { createServer } from 'node:net';

/** A port free on 127.0.0.1 right now (the OS's choice for port 0). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port assigned'))));
    });
  });
}

export interface StartOnFreePortOptions {
  /** Whether a failed start lost its port (EADDRINUSE, or the server's own report of it). */
  isPortTaken(error: unknown): boolean;
  /** Starts in all; default 3. */
  attempts?: number;
  /** Where ports come from; a free loopback port by default (tests of the callers pass their own). */
  pickPort?: () => Promise<number>;
}

/** Runs `start` on a picked port; when the port was taken before the bind, again on a fresh one, up to `attempts` starts. */
export async function startOnFreePort<T>(start: (port: number) => Promise<T>, options: StartOnFreePortOptions): Promise<T> {
  const { attempts = 3, pickPort = freeLoopbackPort } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await pickPort());
    } catch (error) {
      if (attempt >= attempts || !options.isPortTaken(error)) throw error;
    }
  }
}

/** A listen error's "the port is taken". */
export const isAddressInUse = (error: unknown): boolean => (error as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE';
