// startOnFreePort: a start that lost its port runs again on a fresh one; other failures and the last attempt's end it.
import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { freeLoopbackPort, isAddressInUse, startOnFreePort } from '../src/http/ports.js';
import { occupyLoopbackPort } from '../src/testing/index.js';

const listenOn = (port: number) =>
  new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

describe('startOnFreePort', () => {
  it('binds a fresh port after an EADDRINUSE, and passes other failures through at once', async () => {
    const occupied = await occupyLoopbackPort();
    try {
      const picked: number[] = [];
      const pickPort = async () => {
        picked.push(picked.length === 0 ? occupied.port : await freeLoopbackPort());
        return picked.at(-1)!;
      };
      const server = await startOnFreePort(listenOn, { isPortTaken: isAddressInUse, pickPort });
      expect(picked).toHaveLength(2);
      expect(server.address()).toMatchObject({ port: picked[1] });
      await new Promise((resolve) => server.close(resolve));

      let starts = 0;
      const refused = startOnFreePort(async () => {
        starts += 1;
        throw new Error('no database');
      }, { isPortTaken: isAddressInUse });
      await expect(refused).rejects.toThrow('no database');
      expect(starts).toBe(1);

      await expect(startOnFreePort(listenOn, { isPortTaken: isAddressInUse, attempts: 2, pickPort: async () => occupied.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await occupied.release();
    }
  });
});
