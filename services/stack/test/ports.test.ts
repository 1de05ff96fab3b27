import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { StackError } from '../src/errors.js';
import { freeLoopbackPort } from '@tributary/kit';
import { assertPortsFree, isPortFree } from '../src/ports.js';

describe('port checks', () => {
  let server: net.Server;
  let taken: number;

  beforeAll(async () => {
    server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    taken = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('sees a listening port as taken and an unused one as free', async () => {
    expect(await isPortFree(taken)).toBe(false);
    expect(await isPortFree(await freeLoopbackPort())).toBe(true);
  });

  it('names the variable to change for every taken port', async () => {
    const free = await freeLoopbackPort();
    const check = assertPortsFree([
      { variable: 'BNPL_PORT', port: taken, purpose: 'bnpl' },
      { variable: 'GATEWAY_PORT', port: free, purpose: 'gateway' },
    ]);
    await expect(check).rejects.toBeInstanceOf(StackError);
    await expect(check).rejects.toThrow(new RegExp(`${taken} \\(bnpl, BNPL_PORT\\)`));
    const error = (await check.catch((e: unknown) => e)) as StackError;
    expect(error.fix).toContain(`BNPL_PORT=`);
    expect(error.message).not.toContain('GATEWAY_PORT');
  });

  it('passes when everything is free', async () => {
    await expect(assertPortsFree([{ variable: 'GATEWAY_PORT', port: await freeLoopbackPort(), purpose: 'gateway' }])).resolves.toBeUndefined();
  });
});
