// Port checks: a port we are about to bind must be free, and tests get free ports from the OS.
import net from 'node:net';
import { StackError } from './errors.js';

/** Resolves true when nothing listens on host:port (we can bind it ourselves). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false);
      else reject(error);
    });
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export interface PortClaim {
  /** The environment variable that sets this port. */
  variable: string;
  port: number;
  /** What will listen there, for the message. */
  purpose: string;
}

/** Throws one StackError naming every taken port and the variable that moves it. */
export async function assertPortsFree(claims: PortClaim[], host = '127.0.0.1'): Promise<void> {
  const taken: PortClaim[] = [];
  for (const claim of claims) {
    if (!(await isPortFree(claim.port, host))) taken.push(claim);
  }
  if (taken.length === 0) return;
  const what = taken.map((c) => `${c.port} (${c.purpose}, ${c.variable})`).join(', ');
  throw new StackError(
    `port${taken.length > 1 ? 's' : ''} already in use: ${what}`,
    `stop whatever listens there (another \`npm start\`?) or choose free ports, e.g. ${taken
      .map((c) => `${c.variable}=${c.port + 100}`)
      .join(' ')} npm start`,
  );
}
