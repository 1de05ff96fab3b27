// The regtest node's RPC credentials reach litecoind only as Bitcoin Core's salted `-rpcauth` form; and the node keeps
// mining wallet transactions however long it runs (npm start -- --chains mines one block every 10 s).
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { litecoinRpc, rpcAuth, startLitecoinRegtest } from '../src/litecoin.js';
import { Supervisor } from '../src/supervisor.js';

describe('rpcAuth', () => {
  it('is user:salt$HMAC-SHA256(salt, password) in hex, with a fresh salt each time, and never the password', () => {
    const value = rpcAuth('tributary', 'secret-password');
    const match = /^tributary:([0-9a-f]{32})\$([0-9a-f]{64})$/.exec(value);
    expect(match).not.toBeNull();
    expect(match![2]).toBe(createHmac('sha256', match![1]!).update('secret-password').digest('hex'));
    expect(value).not.toContain('secret-password');
    expect(rpcAuth('tributary', 'secret-password')).not.toBe(value);
  });
});

describe('startLitecoinRegtest', () => {
  let supervisor: Supervisor | undefined;
  let dir: string | undefined;
  afterAll(async () => {
    await supervisor?.stopAll();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('mines blocks with wallet transactions past height 432, where MWEB would otherwise activate and break mining', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'stack-litecoin-'));
    supervisor = new Supervisor({ logDir: path.join(dir, 'logs') });
    const { rpcUrl } = await startLitecoinRegtest({ supervisor, dataDir: path.join(dir, 'node') });
    await litecoinRpc(rpcUrl, 'createwallet', ['w']);
    const miner = await litecoinRpc<string>(rpcUrl, 'getnewaddress', ['', 'bech32'], { wallet: 'w' });
    await litecoinRpc(rpcUrl, 'generatetoaddress', [440, miner], { timeoutMs: 60_000 });
    await litecoinRpc(rpcUrl, 'sendtoaddress', [miner, 1], { wallet: 'w' });
    const [block] = await litecoinRpc<string[]>(rpcUrl, 'generatetoaddress', [1, miner]);
    const mined = await litecoinRpc<{ height: number; tx: string[] }>(rpcUrl, 'getblock', [block, 1]);
    expect(mined.height).toBe(441);
    expect(mined.tx).toHaveLength(2);
  }, 120_000);
});
