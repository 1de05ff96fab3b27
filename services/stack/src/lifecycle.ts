// Shutdown triggers for the runner: Ctrl-C, SIGTERM, SIGHUP (terminal closed), and the launcher
// (bin/tributary.mjs) going away, which closes our IPC channel. The handler runs once; later signals
// only remind the user that we are stopping.
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { StackError } from './errors.js';

export type ShutdownReason = NodeJS.Signals | 'launcher-exit';

export function onShutdown(handler: (reason: ShutdownReason) => void): void {
  let fired = false;
  const fire = (reason: ShutdownReason): void => {
    if (fired) {
      if (reason !== 'launcher-exit') console.log('[stack] still stopping — waiting for children to exit cleanly…');
      return;
    }
    fired = true;
    handler(reason);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => fire(signal));
  if (process.connected) process.on('disconnect', () => fire('launcher-exit'));
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A pid file so that a second `npm start` (or `npm run reset`) in the same checkout refuses early. */
export function runningStartPid(lockFile: string): number | undefined {
  if (!existsSync(lockFile)) return undefined;
  const pid = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid) ? pid : undefined;
}

export function acquireStartLock(lockFile: string): () => void {
  const other = runningStartPid(lockFile);
  if (other) {
    throw new StackError(
      `another \`npm start\` of this checkout is running (pid ${other})`,
      `stop it first (Ctrl-C in its terminal, or kill ${other})`,
    );
  }
  mkdirSync(path.dirname(lockFile), { recursive: true });
  writeFileSync(lockFile, String(process.pid));
  return () => {
    if (runningStartPid(lockFile) === undefined) rmSync(lockFile, { force: true });
  };
}
