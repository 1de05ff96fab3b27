// The EVM nodes of `npm test` (issue 12 §3): the real anvil binary from @foundry-rs/anvil's platform package, started
// as the runner starts it: the chain id asked for, on loopback, no block until one is mined, gone when the supervisor
// stops. npm may unpack the binary without its execute bit (no install script runs): anvilBinary() sets it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { constants } from 'node:fs';
import { access, chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { anvilBinary, startAnvil, type Anvil } from '../src/anvil.js';
import { isPortFree } from '../src/ports.js';
import { Supervisor } from '../src/supervisor.js';

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

describe('anvil for npm test', () => {
  let dir: string;
  let supervisor: Supervisor;
  let node: Anvil;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'anvil-test-'));
    supervisor = new Supervisor({ logDir: dir, reaper: false });
    node = await startAnvil({ supervisor, chainId: 31338, name: 'anvil-test', dataDir: path.join(dir, 'anvil') });
  }, 60_000);
  afterAll(async () => {
    await supervisor?.stopAll();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers on 127.0.0.1 with the chain id asked for', async () => {
    expect(node.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(await rpc<string>(node.rpcUrl, 'eth_chainId'))).toBe(31338);
  });

  it('mines no block by itself: a sent transaction waits until a block is mined', async () => {
    const [from] = await rpc<string[]>(node.rpcUrl, 'eth_accounts');
    const height = Number(await rpc<string>(node.rpcUrl, 'eth_blockNumber'));
    const hash = await rpc<string>(node.rpcUrl, 'eth_sendTransaction', [{ from, to: `0x${'11'.repeat(20)}`, value: '0x1' }]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(Number(await rpc<string>(node.rpcUrl, 'eth_blockNumber'))).toBe(height);
    expect(await rpc<unknown>(node.rpcUrl, 'eth_getTransactionReceipt', [hash])).toBeNull();
    await rpc(node.rpcUrl, 'evm_mine');
    expect(Number(await rpc<string>(node.rpcUrl, 'eth_blockNumber'))).toBe(height + 1);
    expect(await rpc<{ status: string }>(node.rpcUrl, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' });
  });

  it('the binary gets its execute bit back when it arrived without one', async () => {
    const binary = await anvilBinary();
    const { mode } = await stat(binary);
    try {
      await chmod(binary, 0o644);
      expect(await anvilBinary()).toBe(binary);
      await expect(access(binary, constants.X_OK)).resolves.toBeUndefined();
    } finally {
      await chmod(binary, mode & 0o7777);
    }
  });

  it('stops with the supervisor, freeing its port', async () => {
    const port = Number(new URL(node.rpcUrl).port);
    expect(await isPortFree(port)).toBe(false);
    await node.process.stop();
    expect(await isPortFree(port)).toBe(true);
  });
});
