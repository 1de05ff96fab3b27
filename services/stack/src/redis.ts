// A throwaway Redis for `npm test` (the rate-limit tests' shared store and the scale-out test): Debian's
// `redis-server` (npm test installs it with apt when it runs as root, like chromium and litecoind) on a free loopback
// port, nothing saved to disk, stopped with the run. TEST_REDIS_URL already set is used as it is; without
// redis-server the tests that need Redis fail naming the fix.
import { connect } from 'node:net';
import { freeLoopbackPort } from '@tributary/kit';
import { StackError } from './errors.js';
import type { ManagedProcess, Supervisor } from './supervisor.js';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const TEST_REDIS_URL_ENV = 'TEST_REDIS_URL';
/** The tests' logical database: far from the default 0 that a developer's own Redis is likely to use. */
const TEST_REDIS_DB = 15;

export interface TestRedis {
  url: string;
  process: ManagedProcess;
}

export async function startTestRedis(opts: { supervisor: Supervisor; name: string; timeoutMs?: number }): Promise<TestRedis> {
  const port = await freeLoopbackPort();
  // No persistence (--save '' and no append-only file), loopback only, no protected-mode prompt to trip over.
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--databases', '16'];
  const proc = opts.supervisor.spawn({ name: opts.name, command: REDIS_SERVER, args, tier: 'chain', graceMs: 5_000 });
  await waitForPing(port, proc, opts.timeoutMs ?? 15_000);
  return { url: `redis://127.0.0.1:${port}/${TEST_REDIS_DB}`, process: proc };
}

/** Until the server answers PING with PONG, or its process exits, or the time is up. */
async function waitForPing(port: number, proc: ManagedProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.running) throw new StackError(`${proc.name} exited during startup`, undefined, proc.logFile);
    if (await pings(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new StackError(`${proc.name} did not answer PING within ${timeoutMs / 1000} s`, undefined, proc.logFile);
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
