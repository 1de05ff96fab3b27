// Listening and graceful shutdown: stop accepting, let in-flight requests finish (up to graceMs),
// then close what is left, then run the service's own cleanup (ORM, Temporal connections).
// (No runtime imports of other kit modules: a test runs this file as is in a child Node process.)
import { createServer, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '../logging/index.js';

/** Answers a request Node's HTTP parser refused (the server's 'clientError' event). */
export type ClientErrorListener = (error: NodeJS.ErrnoException, socket: Socket) => void;

/**
 * An app may carry its own ClientErrorListener under this key: createServiceApp attaches one that answers in the
 * service's error format (parse-errors.ts). Without one, Node's own bare answers stay.
 */
export const CLIENT_ERROR_LISTENER = Symbol('tributary.clientErrorListener');

export interface StartHttpServerOptions {
  port: number;
  host: string;
  logger: Logger;
  /** How long close() waits for in-flight requests before cutting connections. Default 10 s. */
  graceMs?: number;
  /** Cleanup run in order after the server has closed. */
  onClose?: Array<() => Promise<void>>;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startHttpServer(app: RequestListener, options: StartHttpServerOptions): Promise<RunningServer> {
  const { logger } = options;
  const graceMs = options.graceMs ?? 10_000;
  const server = createServer();
  const inFlight = new Set<ServerResponse>();
  let closing: Promise<void> | undefined;

  server.on('request', (_req, res: ServerResponse) => {
    // Responses to requests arriving on an already-open keep-alive socket during shutdown end that socket.
    if (closing) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (closing) server.closeIdleConnections();
    });
  });
  // Registered after the tracker so every request is counted before the app can answer it.
  server.on('request', app);
  const clientErrorListener = (app as RequestListener & { [CLIENT_ERROR_LISTENER]?: ClientErrorListener })[CLIENT_ERROR_LISTENER];
  if (clientErrorListener) server.on('clientError', clientErrorListener);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  logger.info({ url }, 'listening');

  async function shutDown(): Promise<void> {
    logger.info({ inFlight: inFlight.size, graceMs }, 'shutting down: draining in-flight requests');
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace-over'>((resolve) => {
      timer = setTimeout(() => resolve('grace-over'), graceMs);
    });
    if ((await Promise.race([closed, graceOver])) === 'grace-over') {
      logger.warn({ inFlight: inFlight.size }, 'grace period over: closing remaining connections');
      server.closeAllConnections();
      await closed;
    }
    clearTimeout(timer);
    for (const cleanup of options.onClose ?? []) {
      try {
        await cleanup();
      } catch (error) {
        logger.error({ err: error }, 'cleanup after shutdown failed');
      }
    }
    logger.info('server closed');
  }

  return {
    url,
    port: address.port,
    close: () => (closing ??= shutDown()),
  };
}

export interface ShutdownSignalOptions {
  signals?: NodeJS.Signals[];
  /** How the process ends once `fn` settles; replaceable in tests. */
  exit?: (code: number) => void;
}

/**
 * Runs `fn` once on the first SIGTERM/SIGINT, then exits (0, or 1 if `fn` failed). A second signal exits at
 * once with 130 so an operator can always interrupt a stuck shutdown. Returns a function removing the handlers.
 */
export function onShutdownSignal(fn: () => Promise<void>, options: ShutdownSignalOptions = {}): () => void {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let shuttingDown = false;
  const handler = (): void => {
    if (shuttingDown) {
      exit(130);
      return;
    }
    shuttingDown = true;
    fn().then(
      () => exit(0),
      (error: unknown) => {
        console.error('shutdown failed', error);
        exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.off(signal, handler);
  };
}
