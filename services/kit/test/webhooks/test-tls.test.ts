import { afterAll, describe, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTestTls, startHttpsReceiver } from '../../src/testing/index.js';
import { certificateSerial } from '../../src/testing/tls.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

function get(url: string, ca: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', ca, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('certificateSerial', () => {
  it('is always a positive, minimally encoded 16-byte serial (first byte 0x01..0x7f)', () => {
    // Regression: a leading 0x00 byte before one below 0x80 made OpenSSL refuse the certificate ("illegal padding").
    for (let i = 0; i < 5000; i++) {
      const serial = certificateSerial();
      expect(serial).toMatch(/^[0-7][0-9a-f]{31}$/);
      expect(serial.startsWith('00')).toBe(false);
    }
  });
});

describe('generateTestTls', () => {
  it('writes a CA and a server certificate for localhost, 127.0.0.1 and ::1, and keeps valid files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tls-'));
    dirs.push(dir);
    const material = await generateTestTls(dir);
    const ca = new X509Certificate(await readFile(join(dir, 'ca.pem')));
    const server = new X509Certificate(await readFile(join(dir, 'server.pem')));
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.checkIP('::1')).toBe('::1');
    expect(server.checkHost('example.com')).toBeUndefined();
    expect(((await stat(join(dir, 'server-key.pem'))).mode & 0o077)).toBe(0);
    // A second call keeps the files a running process may already trust; force regenerates.
    expect((await generateTestTls(dir)).ca).toBe(material.ca);
    expect((await generateTestTls(dir, { force: true })).ca).not.toBe(material.ca);
  });

  it('serves HTTPS that a client trusting only the test CA accepts, and a different CA rejects', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tls-'));
    const other = await mkdtemp(join(tmpdir(), 'tls-'));
    dirs.push(dir, other);
    const tls = await generateTestTls(dir);
    const otherTls = await generateTestTls(other);
    const receiver = await startHttpsReceiver({ tls });
    try {
      expect(await get(`${receiver.url}/x`, tls.ca)).toBe(200);
      expect(await get(`https://127.0.0.1:${receiver.port}/y`, tls.ca)).toBe(200);
      await expect(get(`${receiver.url}/z`, otherTls.ca)).rejects.toThrow();
      expect(receiver.requests.map((r) => [r.method, r.path, r.body.toString()])).toEqual([['POST', '/x', '{}'], ['POST', '/y', '{}']]);
      expect(receiver.requests[0]!.receivedAt).toBeInstanceOf(Date);
    } finally {
      await receiver.close();
    }
  });
});
