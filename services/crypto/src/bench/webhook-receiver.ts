// The local HTTPS webhook receiver of the `webhook-deliveries` benchmark, in its own process (forked with an IPC
// channel): answers every POST 200 once its body is read, and reports each request's path to the parent as it
// arrives, so both sides of the benchmark are received by the same, separate event loop. Its certificate is the test
// TLS material in WEBHOOK_RECEIVER_TLS_DIR (the kit's generateTestTls; senders trust its CA).
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadTestTls } from '@tributary/kit/testing';

/** Where the receiver's key and certificate are. */
export const WEBHOOK_RECEIVER_TLS_DIR_ENV = 'WEBHOOK_RECEIVER_TLS_DIR';

/** What the receiver tells its parent: once its port, then the path of every request received. */
export type ReceiverMessage = { listening: number } | { received: string };

const send = (message: ReceiverMessage) => process.send?.(message);

if (process.send) {
  const tls = await loadTestTls(process.env[WEBHOOK_RECEIVER_TLS_DIR_ENV]);
  const server = createServer({ key: tls.key, cert: tls.cert, keepAliveTimeout: 30_000 }, (req, res) => {
    req.resume();
    req.on('end', () => {
      send({ received: req.url ?? '' });
      res.writeHead(200, { 'content-length': '0' });
      res.end();
    });
  });
  server.listen(0, '127.0.0.1', () => send({ listening: (server.address() as AddressInfo).port }));
  process.on('disconnect', () => {
    server.closeAllConnections();
    server.close();
  });
}
