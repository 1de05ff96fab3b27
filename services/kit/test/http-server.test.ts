import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { MALFORMED_HTTP_MESSAGE, MALFORMED_URL_MESSAGE, createServiceApp, envelopeErrorFormat, messageErrorFormat, onShutdownSignal, startHttpServer, type ErrorFormat } from '../src/index.js';
import { exchangeRawHttp, rawHttpRequest } from '../src/testing/index.js';
import { capturingLogger } from './fixtures/capture-logs.js';

/** An app whose /slow requests wait until the test releases them. */
function gatedApp() {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let markArrived: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    markArrived = resolve;
  });
  const app: http.RequestListener = (req, res) => {
    if (req.url === '/slow') {
      markArrived();
      void released.then(() => res.end('finished'));
    } else {
      res.end('quick');
    }
  };
  return { app, release, arrived };
}

function get(url: string, agent?: http.Agent): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, agent ? { agent } : {}, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      })
      .on('error', reject);
  });
}

function connectionOutcome(port: number): Promise<'connected' | string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('startHttpServer', () => {
  it('serves on the requested host and reports its URL', async () => {
    const { logger } = capturingLogger();
    const server = await startHttpServer(gatedApp().app, { port: 0, host: '127.0.0.1', logger });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      expect(await get(`${server.url}/`)).toMatchObject({ status: 200, body: 'quick' });
    } finally {
      await server.close();
    }
  });

  it('lets an in-flight request finish during close, refuses new connections, then runs cleanup', async () => {
    const { logger } = capturingLogger();
    const gate = gatedApp();
    const cleanedUp: string[] = [];
    const server = await startHttpServer(gate.app, {
      port: 0,
      host: '127.0.0.1',
      logger,
      graceMs: 10_000,
      onClose: [async () => void cleanedUp.push('orm'), async () => void cleanedUp.push('temporal')],
    });
    const inFlight = get(`${server.url}/slow`);
    await gate.arrived;

    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    expect(await connectionOutcome(server.port)).toBe('ECONNREFUSED');
    expect(closed).toBe(false);
    expect(cleanedUp).toEqual([]);

    gate.release();
    expect(await inFlight).toEqual({ status: 200, body: 'finished', connection: 'close' });
    await closing;
    expect(cleanedUp).toEqual(['orm', 'temporal']);
    // close() is idempotent.
    await server.close();
  });

  it('closes idle keep-alive connections at once instead of waiting for their timeout', async () => {
    const { logger } = capturingLogger();
    const server = await startHttpServer(gatedApp().app, { port: 0, host: '127.0.0.1', logger, graceMs: 30_000 });
    const agent = new http.Agent({ keepAlive: true });
    try {
      expect((await get(`${server.url}/`, agent)).body).toBe('quick');
      const started = Date.now();
      await server.close();
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      agent.destroy();
    }
  });

  it('cuts connections still busy when the grace period ends', async () => {
    const { logger, lines } = capturingLogger();
    const gate = gatedApp();
    const server = await startHttpServer(gate.app, { port: 0, host: '127.0.0.1', logger, graceMs: 300 });
    const stuck = get(`${server.url}/slow`).then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => error.code,
    );
    await gate.arrived;
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await stuck).toBe('ECONNRESET');
    expect(lines().some((line) => line.msg === 'grace period over: closing remaining connections')).toBe(true);
    gate.release();
  });

  it('reports a port that is already taken', async () => {
    const { logger } = capturingLogger();
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as net.AddressInfo;
    try {
      await expect(startHttpServer(gatedApp().app, { port, host: '127.0.0.1', logger })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      blocker.close();
    }
  });
});

describe("startHttpServer: requests Node's HTTP parser refuses", () => {
  async function serve(errorFormat: ErrorFormat) {
    const logs = capturingLogger('info');
    const app = await createServiceApp({ service: 'kit-test', logger: logs.logger, errorFormat, readiness: [], configure: () => {} });
    return { server: await startHttpServer(app, { port: 0, host: '127.0.0.1', logger: logs.logger }), logs };
  }

  it.each([
    ['a NUL in a header value', rawHttpRequest('GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a', [0], 'b\r\n\r\n')],
    ['a bare CR in a header value', rawHttpRequest('GET /healthz HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\rb\r\n\r\n')],
    ['a space in a header name', rawHttpRequest('GET /healthz HTTP/1.1\r\nHost: x\r\nX Request-Id: a\r\n\r\n')],
  ])('answers %s with 400 and the service error body, logged under the request id it returns', async (_case, bytes) => {
    const { server, logs } = await serve(messageErrorFormat());
    try {
      const response = await exchangeRawHttp(server.url, bytes);
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers.connection).toBe('close');
      expect(JSON.parse(response.body)).toEqual({ message: MALFORMED_HTTP_MESSAGE });
      const requestId = response.headers['x-request-id'];
      expect(logs.lines()).toContainEqual(expect.objectContaining({ requestId, msg: 'refused a request the HTTP parser cannot read' }));
    } finally {
      await server.close();
    }
  });

  it('answers a raw non-ASCII byte in the URL with the malformed-URL message, in the envelope for bnpl and photos', async () => {
    const { server } = await serve(envelopeErrorFormat);
    try {
      const response = await exchangeRawHttp(server.url, rawHttpRequest('GET /api/v1/projects/', [0xf4, 0x82], ' HTTP/1.1\r\nHost: x\r\n\r\n'));
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual({ error: { code: 'malformed_request', message: MALFORMED_URL_MESSAGE } });
    } finally {
      await server.close();
    }
  });

  it("keeps Node's own answer to an oversized header block (431) and serves the next connection", async () => {
    const { server } = await serve(messageErrorFormat());
    try {
      const { raw } = await exchangeRawHttp(server.url, rawHttpRequest(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
      expect(raw).toBe('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n');
      expect(await get(`${server.url}/healthz`)).toMatchObject({ status: 200 });
    } finally {
      await server.close();
    }
  });

  it("leaves a plain listener (not a service app) with Node's bare 400", async () => {
    const { logger } = capturingLogger();
    const server = await startHttpServer(gatedApp().app, { port: 0, host: '127.0.0.1', logger });
    try {
      const { raw } = await exchangeRawHttp(server.url, rawHttpRequest('GET / HTTP/1.1\r\nHost: x\r\nX-K: a', [0], '\r\n\r\n'));
      expect(raw).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    } finally {
      await server.close();
    }
  });
});

describe('onShutdownSignal', () => {
  // Jest gives tests a wrapped `process`, so real signal delivery is tested in a child process running the source.
  it('drains an in-flight request and exits 0 on a real SIGTERM', async () => {
    const serverModule = new URL('../src/http/http-server.ts', import.meta.url).href;
    const script = `
      import { onShutdownSignal, startHttpServer } from ${JSON.stringify(serverModule)};
      const logger = { info() {}, warn() {}, error() {} };
      const app = (req, res) => { console.log('arrived'); setTimeout(() => res.end('drained'), 300); };
      const server = await startHttpServer(app, { port: 0, host: '127.0.0.1', logger, onClose: [async () => console.log('cleaned up')] });
      onShutdownSignal(() => server.close());
      console.log(server.url);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '--eval', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const output: string[] = [];
    const waitFor = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (output.join('').includes(text)) {
            child.stdout.off('data', check);
            resolve();
          }
        };
        child.stdout.on('data', (chunk: Buffer) => {
          output.push(chunk.toString());
          check();
        });
        check();
      });
    try {
      await waitFor('http://');
      const url = output.join('').trim().split('\n')[0]!;
      const response = get(`${url}/slow`);
      await waitFor('arrived');
      child.kill('SIGTERM');
      expect((await response).body).toBe('drained');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(output.join('')).toContain('cleaned up');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('runs the shutdown once on the first signal and exits 0; a second signal exits 130 at once', async () => {
    const exits: number[] = [];
    let runs = 0;
    let finish: () => void = () => {};
    const dispose = onShutdownSignal(
      () => {
        runs += 1;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      { signals: ['SIGUSR2'], exit: (code) => exits.push(code) },
    );
    try {
      process.emit('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(runs).toBe(1);
      expect(exits).toEqual([]);
      process.emit('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(exits).toEqual([130]);
      finish();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(exits).toEqual([130, 0]);
      expect(runs).toBe(1);
    } finally {
      dispose();
    }
  });

  it('exits 1 when the shutdown fails', async () => {
    const exits: number[] = [];
    const dispose = onShutdownSignal(() => Promise.reject(new Error('orm close failed')), { signals: ['SIGUSR2'], exit: (code) => exits.push(code) });
    const consoleError = console.error;
    console.error = () => {};
    try {
      process.emit('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(exits).toEqual([1]);
    } finally {
      console.error = consoleError;
      dispose();
    }
  });
});
