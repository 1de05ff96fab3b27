// A real HTTPS server for webhook tests: records every request's raw bytes, headers and arrival time and
// answers what the test says. Its certificate comes from generateTestTls; clients trust it via NODE_EXTRA_CA_CERTS.
import { createServer } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadTestTls } from './tls.js';
import type { TestTlsMaterial } from './tls.js';

export interface ReceivedRequest {
  /** 0-based arrival index. */
  index: number;
  method: string;
  /** Path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Exact bytes received. */
  body: Buffer;
  /** When the request arrived (first byte of headers parsed). */
  receivedAt: Date;
  remoteAddress: string | undefined;
}

export interface ReceiverResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering (to provoke client timeouts). */
  delayMs?: number;
}

export interface HttpsReceiverOptions {
  /** Decides each answer; default 200 with an empty body. */
  respond?: (request: ReceivedRequest) => ReceiverResponse | Promise<ReceiverResponse>;
  /** Default: read from TRIBUTARY_TEST_TLS_DIR. */
  tls?: TestTlsMaterial;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface HttpsReceiver {
  /** Base URL using the host name `localhost`, e.g. https://localhost:43121 */
  url: string;
  port: number;
  /** Every request so far, in arrival order. */
  requests: ReceivedRequest[];
  /** Resolves once at least `count` requests arrived (rejects after `timeoutMs`, default 10 s). */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  setResponder(respond: HttpsReceiverOptions['respond']): void;
  /** Forgets recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

export async function startHttpsReceiver(options: HttpsReceiverOptions = {}): Promise<HttpsReceiver> {
  const tls = options.tls ?? (await loadTestTls());
  const host = options.host ?? '127.0.0.1';
  let respond = options.respond;
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  let closed = false;

  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const receivedAt = new Date();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        index: requests.length,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        receivedAt,
        remoteAddress: req.socket.remoteAddress,
      };
      requests.push(received);
      for (const wake of waiters) wake();
      Promise.resolve(respond ? respond(received) : { status: 200 })
        .then(async (answer) => {
          if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
          if (res.destroyed || closed) return;
          res.writeHead(answer.status, answer.headers);
          res.end(answer.body ?? '');
        })
        .catch((error: unknown) => {
          if (!res.headersSent && !res.destroyed) {
            res.writeHead(500);
            res.end(String(error));
          }
        });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://localhost:${port}`,
    port,
    requests,
    async waitForRequests(count, timeoutMs = 10_000) {
      if (requests.length >= count) return requests.slice();
      return new Promise<ReceivedRequest[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} webhook requests, got ${requests.length} within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(requests.slice());
        };
        waiters.add(check);
      });
    },
    setResponder(next) {
      respond = next;
    },
    reset() {
      requests.length = 0;
    },
    async close() {
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
