// The chain watchers as they run in production (issue 12 §4): the crypto worker, a real process, starts a
// chain-watch-<chain> workflow per configured node on the run's Temporal server and scans the real litecoind regtest
// node; the serve process reports each watcher's health in /readyz and GraphQL. The node is reached through a TCP
// relay this test can cut (the node itself is shared with other test files), and the worker is killed with SIGKILL:
// after either, the watcher resumes from its cursor, and every payment is counted exactly once.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import { testTemporalAddress } from '@tributary/kit/testing';
import { chainWatchWorkflowId } from '@tributary/workflows';
import { PaymentRequest } from '../src/modules/payment-requests/index.js';
import { Payment } from '../src/modules/payments/index.js';
import { createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';
import { LTC_ASSET_ID, litecoinRpcUrl, litecoinTestNode, type LitecoinTestNode } from './litecoin-node.js';

const NAMESPACE = `chain-watch-test-${process.pid}`;
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

let litecoin: LitecoinTestNode;
let relay: Relay;
let h: Harness;
let merchant: TestMerchant;
let worker: ChildProcess | undefined;
let env: NodeJS.ProcessEnv;

/** A TCP relay to the node on a fixed local port, which `cut()` closes (refusing connections) and `restore()` reopens. */
interface Relay {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
}

async function startRelay(target: URL): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  const port = await listen(0);
  return {
    port,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
    restore: async () => {
      await listen(port);
    },
  };
}

async function registerNamespace(): Promise<void> {
  const connection = await Connection.connect({ address: testTemporalAddress() });
  try {
    // protobufjs takes a number for an int64 (its typings name only Long, which crypto does not depend on).
    await connection.workflowService.registerNamespace({ namespace: NAMESPACE, workflowExecutionRetentionPeriod: { seconds: 86_400 as never } });
  } finally {
    await connection.close();
  }
  // A new namespace takes a moment to be served.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
}

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, [cli, 'worker'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  return child;
}

async function stopWorker(signal: NodeJS.Signals): Promise<void> {
  const child = worker;
  worker = undefined;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function createRequest(amount: string): Promise<{ slug: string; address: string }> {
  const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ asset_id: LTC_ASSET_ID, title: 'Watched order', amount }),
  });
  expect(res.status).toBe(201);
  const { id, address } = ((await res.json()) as { payment_request: { id: string; address: string } }).payment_request;
  return { slug: id, address };
}

const requestOf = (slug: string) => h.orm.em.fork().findOneOrFail(PaymentRequest, { slug });

interface WatcherView {
  chain: string;
  healthy: boolean;
  lagBlocks: number | null;
  cursorHeight: number | null;
  tipHeight: number | null;
  lastError: string | null;
}

async function watchers(): Promise<WatcherView[]> {
  const res = await gql(h.service.url, '{ cryptoChainWatchers { chain healthy lagBlocks cursorHeight tipHeight lastError } }', { authorization: `Bearer ${merchant.key}` });
  expect(res.status).toBe(200);
  return (res.body.data as { cryptoChainWatchers: WatcherView[] }).cryptoChainWatchers;
}
const watcherOf = async (chain: string) => (await watchers()).find((w) => w.chain === chain)!;

beforeAll(async () => {
  litecoin = await litecoinTestNode('tributary-chain-watch-workflow');
  relay = await startRelay(new URL(litecoinRpcUrl()));
  await registerNamespace();
  const node = new URL(litecoinRpcUrl());
  node.port = String(relay.port);
  const chainEnv = {
    CRYPTO_NETWORK: 'regtest',
    CRYPTO_LTC_RPC_URL: node.toString(),
    // A bitcoin node that is never there: its watcher stays unhealthy, and the gateway stays ready.
    CRYPTO_BTC_RPC_URL: 'http://watcher:secret@127.0.0.1:9',
    CRYPTO_CHAIN_POLL_INTERVAL_MS: '200',
    TEMPORAL_NAMESPACE: NAMESPACE,
  };
  h = await startHarness({ env: chainEnv });
  merchant = await createMerchant(h, 'Watched by the workflow');
  env = { ...process.env, ...chainEnv, DATABASE_URL: h.db.url, TEMPORAL_ADDRESS: testTemporalAddress(), LOG_LEVEL: 'warn' };
  worker = startWorker();
}, 60_000);
afterAll(async () => {
  await stopWorker('SIGTERM');
  await relay?.cut();
  await h?.close();
});

describe('chain-watch-<chain> workflows run by the crypto worker', () => {
  it('a real payment is found and counted as blocks arrive; the watcher reports itself healthy, the missing node unhealthy', async () => {
    // The first scan starts at the node's tip (README Decisions): pay once the watcher has looked.
    await until('the litecoin watcher\'s first scan', () => watcherOf('litecoin'), (w) => w.cursorHeight !== null);
    const request = await createRequest('0.5');
    await litecoin.pay(request.address, 0.5);
    await litecoin.mine(6);
    await until('the request to be paid', () => requestOf(request.slug), (r) => r.status === 'paid');

    const ltc = await until('the litecoin watcher at the tip', () => watcherOf('litecoin'), (w) => w.lagBlocks === 0);
    expect(ltc).toMatchObject({ healthy: true, lastError: null });
    const btc = await until('the bitcoin watcher to report its error', () => watcherOf('bitcoin'), (w) => w.lastError !== null);
    expect(btc.healthy).toBe(false);
    const ready = await fetch(`${h.service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { 'chain:litecoin': 'ok', 'chain:bitcoin': 'failed' }, degraded: ['chain:bitcoin'] });

    const connection = await Connection.connect({ address: testTemporalAddress() });
    try {
      const { workflowExecutionInfo } = await connection.workflowService.describeWorkflowExecution({ namespace: NAMESPACE, execution: { workflowId: chainWatchWorkflowId('litecoin') } });
      expect(workflowExecutionInfo?.status).toBe(1); // RUNNING
    } finally {
      await connection.close();
    }
  }, 120_000);

  it('with the node unreachable the watcher is unhealthy and nothing is missed: back, it resumes from its cursor', async () => {
    await relay.cut();
    const request = await createRequest('0.3');
    await litecoin.pay(request.address, 0.3);
    await litecoin.mine(6);
    const down = await until('the litecoin watcher to report the node down', () => watcherOf('litecoin'), (w) => !w.healthy);
    expect(down.lastError).toEqual(expect.any(String));
    expect((await requestOf(request.slug)).status).toBe('pending');

    await relay.restore();
    await until('the request to be paid', () => requestOf(request.slug), (r) => r.status === 'paid');
    expect((await requestOf(request.slug)).amountPaid.toString()).toBe('0.3');
    await until('the litecoin watcher healthy again', () => watcherOf('litecoin'), (w) => w.healthy && w.lagBlocks === 0);
  }, 120_000);

  it('a worker killed with SIGKILL: a new worker carries on from the cursor, each payment counted once', async () => {
    const request = await createRequest('0.2');
    await litecoin.pay(request.address, 0.1);
    await litecoin.mine(3);
    await litecoin.pay(request.address, 0.1);
    await litecoin.mine(40);
    await stopWorker('SIGKILL');
    worker = startWorker();
    const paid = await until('the request to be paid', () => requestOf(request.slug), (r) => r.status === 'paid');
    expect(paid.amountPaid.toString()).toBe('0.2');
    const payments = await h.orm.em.fork().find(Payment, { paymentRequest: paid.id });
    expect(payments.map((p) => [p.value.toString(), p.counted])).toEqual([
      ['0.1', true],
      ['0.1', true],
    ]);
    const tip = await litecoin.rpc.getBlockCount();
    await until('the watcher at the tip', () => watcherOf('litecoin'), (w) => w.cursorHeight === tip && w.lagBlocks === 0);
  }, 150_000);
});
