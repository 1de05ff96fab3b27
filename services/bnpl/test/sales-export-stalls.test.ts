// Stalled CSV downloads on the real app and database: clients that ask for the export and never read it, more of them
// than the service's pool has connections, spread over several merchants (each may run BNPL_EXPORTS_PER_MERCHANT at
// once), each bigger than the sockets on both ends buffer. The export holds no connection between its batches, so
// another merchant is still answered at once; one more download of a merchant already running its share is refused 429;
// and a stalled download is cut off after the idle timeout.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@tributary/kit/testing';
import pg from 'pg';
import { seedLoans } from '../src/bench/sales-seed.js';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';

const EXPORT = '/api/v1/merchant/sales/export.csv';
/** The default: each merchant runs at most two exports at once. */
const PER_MERCHANT = 2;
const IDLE_TIMEOUT_SECONDS = 2;
/** Ample time for one download to fill the sockets' buffers and stall, even on a busy machine. */
const STALL_MS = 8_000;
/** Loans of each stalling merchant: a download of ~8 MB, more than the sockets on both ends buffer. */
const LOANS = 40_000;

let h: Harness;
let poolSize: number;
const stalling: TestMerchant[] = [];
let other: TestMerchant;

beforeAll(async () => {
  h = await startHarness({ env: { BNPL_EXPORT_IDLE_TIMEOUT_SECONDS: String(IDLE_TIMEOUT_SECONDS) } });
  const pool = (await h.service.orm.driver.getConnection().getNativeClient()) as unknown as { options: { max: number } };
  poolSize = pool.options.max;
  const merchants = Math.floor(poolSize / PER_MERCHANT) + 1;
  const client = new pg.Client({ connectionString: h.db.url });
  await client.connect();
  try {
    for (let i = 0; i < merchants; i += 1) {
      const shop = await createMerchant(h, `Stalling Shop ${i}`);
      await seedLoans(client, shop.merchant.id, LOANS, 1 + i * LOANS);
      stalling.push(shop);
    }
    other = await createMerchant(h, 'Another Shop');
    await seedLoans(client, other.merchant.id, 3, 1 + merchants * LOANS);
  } finally {
    await client.end();
  }
}, 120_000);
afterAll(async () => {
  await h?.close();
});

interface StalledDownload {
  /** The first bytes the server sent (status line and headers). */
  head: string;
  /** Reads everything else until the server closes the connection; resolves with all the bytes received. */
  drain(): Promise<string>;
  destroy(): void;
}

/** GET export.csv on a raw socket that reads the first chunk and then nothing. */
function stalledDownload(shop: TestMerchant): Promise<StalledDownload> {
  const socket = net.connect(h.service.port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`GET ${EXPORT} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${shop.token}\r\n\r\n`);
  return new Promise((resolve) => {
    socket.once('data', (first: Buffer) => {
      socket.pause();
      const head = first.toString('latin1');
      resolve({
        head,
        destroy: () => socket.destroy(),
        drain: () =>
          new Promise((done) => {
            let all = head;
            socket.on('data', (chunk: Buffer) => (all += chunk.toString('latin1')));
            socket.on('close', () => done(all));
            socket.resume();
          }),
      });
    });
  });
}

const dt = (shop: TestMerchant) => ({ authorization: `Bearer ${shop.token}` });
/** Records of a whole CSV body (each ends in CRLF). */
const csvLines = (text: string) => text.split('\r\n').length - 1;

describe('stalled export downloads', () => {
  it('take none of the pool: with more of them open than it has connections, another merchant is answered at once', async () => {
    const downloads = await Promise.all(stalling.flatMap((shop) => Array.from({ length: PER_MERCHANT }, () => stalledDownload(shop))));
    try {
      expect(downloads.length).toBeGreaterThan(poolSize);
      for (const download of downloads) expect(download.head).toMatch(/^HTTP\/1\.1 200 /);

      // Another merchant: answered (with every connection held, it would wait for one and get a 503).
      const list = await fetch(`${h.service.url}/api/v1/merchant/sales?limit=1`, { headers: dt(other), signal: AbortSignal.timeout(30_000) });
      expect(list.status).toBe(200);
      const csv = await fetch(`${h.service.url}${EXPORT}`, { headers: dt(other), signal: AbortSignal.timeout(30_000) });
      expect({ status: csv.status, lines: csvLines(await csv.text()) }).toEqual({ status: 200, lines: 4 });

      // One more download of a merchant already running its share.
      const refused = await fetch(`${h.service.url}${EXPORT}`, { headers: dt(stalling[0]!), signal: AbortSignal.timeout(30_000) });
      expect({ status: refused.status, retryAfter: refused.headers.get('retry-after'), body: await refused.json() }).toEqual({
        status: 429,
        retryAfter: '10',
        body: { error: { code: 'rate_limited', message: 'A merchant runs at most 2 sales exports at once; retry once one has finished.', retry_after_seconds: 10 } },
      });
    } finally {
      for (const download of downloads) download.destroy();
    }
    // A client gone gives its slot back.
    const again = await waitFor(() => fetch(`${h.service.url}${EXPORT}`, { headers: dt(stalling[0]!) }).then(async (res) => ({ status: res.status, lines: csvLines(await res.text()) })), (res) => res.status === 200);
    expect(again).toEqual({ status: 200, lines: LOANS + 1 });
  }, 120_000);

  it('are cut off once their client has read nothing for the idle timeout', async () => {
    const download = await stalledDownload(stalling[1]!);
    try {
      expect(download.head).toMatch(/^HTTP\/1\.1 200 /);
      // Time to fill the sockets' buffers (a few MB) and stall, then the idle timeout, with room to spare.
      await sleep(STALL_MS + IDLE_TIMEOUT_SECONDS * 1000);
      // What is left to read ends short, without the chunked body's last chunk: the server closed the connection.
      const text = await download.drain();
      expect(text.endsWith('\r\n0\r\n\r\n')).toBe(false);
      expect(text.match(/\r\n[0-9a-f]{8}-[0-9a-f]{4}-/g)?.length ?? 0).toBeLessThan(LOANS);
    } finally {
      download.destroy();
    }
  }, 60_000);
});
