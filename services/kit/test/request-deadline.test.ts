// Every request gets an answer within the deadline (createServiceApp's requestDeadline): a route that waits on
// something that never answers is answered 503 in the service's format; what the route does afterwards goes nowhere;
// a streamed response and a body still arriving are not cut.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  UNAVAILABLE_RETRY_AFTER_SECONDS,
  createServiceApp,
  envelopeErrorFormat,
  messageErrorFormat,
  type ErrorFormat,
} from '../src/index.js';
import { capturingLogger } from './fixtures/capture-logs.js';

const DEADLINE_MS = 400;
const never = new Promise<never>(() => undefined);

interface Started {
  url: string;
  port: number;
  logs: ReturnType<typeof capturingLogger>;
  server: Server;
}

const started: Started[] = [];

async function start(errorFormat: ErrorFormat): Promise<Started> {
  const logs = capturingLogger('info');
  const app = await createServiceApp({
    service: 'kit-test',
    logger: logs.logger,
    errorFormat,
    readiness: [],
    requestDeadlineMs: DEADLINE_MS,
    otherBodyRoutes: [{ path: '/uploads', mediaTypes: ['application/octet-stream'] }],
    configure(app) {
      app.get('/quick', (_req, res) => {
        res.json({ ok: true });
      });
      app.get('/hang', async () => {
        await never;
      });
      app.get('/late-callback', (_req, res) => {
        setTimeout(() => res.status(201).json({ late: true }), DEADLINE_MS * 2);
      });
      app.get('/late-failure', async () => {
        await sleep(DEADLINE_MS * 2);
        throw new Error('failed after the deadline');
      });
      app.get('/stream', async (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        for (let i = 0; i < 12; i += 1) {
          res.write(`line ${i}\n`);
          await sleep(DEADLINE_MS / 4);
        }
        res.end();
      });
      app.post('/uploads', async (req, res) => {
        let bytes = 0;
        for await (const chunk of req) bytes += (chunk as Buffer).length;
        if (req.query.then === 'hang') await never;
        res.json({ bytes });
      });
    },
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const result = { url: `http://127.0.0.1:${port}`, port, logs, server };
  started.push(result);
  return result;
}

let crypto: Started;
let envelope: Started;

beforeAll(async () => {
  crypto = await start(messageErrorFormat());
  envelope = await start(envelopeErrorFormat);
});

afterAll(async () => {
  for (const { server } of started) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** One keep-alive connection: each `send` writes a request and resolves with the next whole response (status and body). */
function keepAliveConnection(port: number): { send(request: string): Promise<{ status: number; body: string }>; closed: () => boolean; end(): void } {
  const socket = net.connect(port, '127.0.0.1');
  let buffer = '';
  let closed = false;
  let waiting: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    waiting?.();
  });
  socket.on('close', () => {
    closed = true;
    waiting?.();
  });
  socket.on('error', () => undefined);
  const nextResponse = async (): Promise<{ status: number; body: string }> => {
    for (;;) {
      const split = buffer.indexOf('\r\n\r\n');
      const length = split === -1 ? undefined : /content-length: (\d+)/i.exec(buffer.slice(0, split))?.[1];
      if (split !== -1 && length !== undefined && buffer.length >= split + 4 + Number(length)) {
        const response = { status: Number(buffer.split(' ')[1]), body: buffer.slice(split + 4, split + 4 + Number(length)) };
        buffer = buffer.slice(split + 4 + Number(length));
        return response;
      }
      if (closed) throw new Error('the server closed the connection');
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  };
  return {
    send(request) {
      socket.write(request);
      return nextResponse();
    },
    closed: () => closed,
    end: () => socket.destroy(),
  };
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`;

describe('a request that gets no answer within the deadline', () => {
  it("is answered 503 in the service's format, with Retry-After, and logged with its cause", async () => {
    for (const [app, body] of [
      [crypto, { message: 'The service is temporarily unavailable; retry shortly.' }],
      [envelope, { error: { code: 'service_unavailable', message: 'The service is temporarily unavailable; retry shortly.' } }],
    ] as const) {
      const t0 = performance.now();
      const res = await fetch(`${app.url}/hang`, { signal: AbortSignal.timeout(10_000) });
      const elapsed = performance.now() - t0;
      expect({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() }).toEqual({ status: 503, retryAfter: String(UNAVAILABLE_RETRY_AFTER_SECONDS), body });
      expect(elapsed).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
      expect(elapsed).toBeLessThan(DEADLINE_MS + 1_000);
      const line = app.logs.lines().find((entry) => (entry.req as { url?: string } | undefined)?.url === '/hang');
      expect(line).toMatchObject({ res: { statusCode: 503 }, err: { message: expect.stringMatching(/request deadline of 400 ms/) } });
    }
  });

  it('then answers nothing more: a late answer or failure of the route neither crashes nor closes the keep-alive connection', async () => {
    const connection = keepAliveConnection(envelope.port);
    try {
      expect((await connection.send(get('/late-callback'))).status).toBe(503);
      expect((await connection.send(get('/late-failure'))).status).toBe(503);
      // Both routes finish meanwhile (a late res.json from a timer, a late rejection).
      await sleep(DEADLINE_MS * 3);
      expect(connection.closed()).toBe(false);
      expect(await connection.send(get('/quick'))).toEqual({ status: 200, body: '{"ok":true}' });
    } finally {
      connection.end();
    }
  });
});

describe('what the deadline leaves alone', () => {
  it('a streamed response whose headers are sent, however long it runs', async () => {
    const res = await fetch(`${crypto.url}/stream`);
    expect(res.status).toBe(200);
    expect((await res.text()).split('\n').filter(Boolean)).toHaveLength(12);
  });

  it('a request body still arriving: the clock counts from its last byte', async () => {
    const chunks = 8;
    const chunk = 'x'.repeat(1_000);
    const socket = net.connect(envelope.port, '127.0.0.1');
    let raw = '';
    socket.on('data', (data: Buffer) => (raw += data.toString('latin1')));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(`POST /uploads HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\nContent-Length: ${chunks * chunk.length}\r\nConnection: close\r\n\r\n`);
    // Twice the deadline of sending, a quarter of it between chunks.
    for (let i = 0; i < chunks; i += 1) {
      await sleep(DEADLINE_MS / 4);
      socket.write(chunk);
    }
    await closed;
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    expect(raw.endsWith(`{"bytes":${chunks * chunk.length}}`)).toBe(true);
  });

  it('a request body that has arrived starts the clock afresh', async () => {
    const chunk = 'y'.repeat(1_000);
    const socket = net.connect(envelope.port, '127.0.0.1');
    let raw = '';
    socket.on('data', (data: Buffer) => (raw += data.toString('latin1')));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(`POST /uploads?then=hang HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\nContent-Length: ${2 * chunk.length}\r\nConnection: close\r\n\r\n${chunk}`);
    await sleep(DEADLINE_MS * 0.75);
    socket.write(chunk);
    const lastByte = performance.now();
    await closed;
    expect(raw).toMatch(/^HTTP\/1\.1 503 /);
    expect(performance.now() - lastByte).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
  });
});
