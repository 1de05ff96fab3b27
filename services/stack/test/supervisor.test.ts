// Supervision with real processes: whole process trees stop, in tier order, and the reaper stops
// them when the supervising process disappears.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StackError } from '../src/errors.js';
import { Supervisor } from '../src/supervisor.js';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor(predicate: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A shell that starts two grandchildren (one ignoring SIGTERM) and writes their pids to a file. */
function tree(pidFile: string): string[] {
  return ['-c', `sleep 300 & a=$!; (trap '' TERM; sleep 300) & b=$!; echo "$a $b" > ${pidFile}; wait`];
}

const pidsIn = (file: string): number[] => readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);

describe('Supervisor', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'stack-sup-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stops every process of every tree, services before Temporal before PostgreSQL', async () => {
    const supervisor = new Supervisor({ logDir: dir, reaper: false });
    const order: string[] = [];
    const procs = (['postgres', 'temporal', 'service'] as const).map((tier) => {
      const proc = supervisor.spawn({ name: tier, command: 'sh', args: tree(path.join(dir, `${tier}.pids`)), tier, graceMs: 1000 });
      void proc.exited.then(() => order.push(tier));
      return proc;
    });
    await waitFor(() => ['postgres', 'temporal', 'service'].every((t) => existsSync(path.join(dir, `${t}.pids`)) && readFileSync(path.join(dir, `${t}.pids`), 'utf8').includes(' ')));
    const all = ['postgres', 'temporal', 'service'].flatMap((t) => pidsIn(path.join(dir, `${t}.pids`)));
    expect(all.every(alive)).toBe(true);

    await supervisor.stopAll();
    expect(order).toEqual(['service', 'temporal', 'postgres']);
    expect(procs.every((p) => !p.running)).toBe(true);
    await waitFor(() => all.every((pid) => !alive(pid)));
  });

  it('writes output to the log file and reports a failing command with its log', async () => {
    const supervisor = new Supervisor({ logDir: dir, reaper: false });
    const attempt = supervisor.run({ name: 'failing', command: 'sh', args: ['-c', 'echo "cannot connect to the database" >&2; exit 3'] });
    await expect(attempt).rejects.toBeInstanceOf(StackError);
    const error = (await attempt.catch((e: unknown) => e)) as StackError;
    expect(error.message).toMatch(/exit code 3/);
    expect(error.message).toContain('cannot connect to the database');
    expect(error.logFile).toBe(path.join(dir, 'failing.log'));
    const ok = await supervisor.run({ name: 'seed', command: 'sh', args: ['-c', 'echo log line >&2; echo \'{"credentials":{"a":1}}\''], captureStdout: true });
    expect(ok.stdout.trim()).toBe('{"credentials":{"a":1}}');
    expect(readFileSync(path.join(dir, 'seed.log'), 'utf8')).toContain('log line');
    supervisor.release();
  });

  it('reports a long-running process that exits, but not a one-shot command finishing', async () => {
    const supervisor = new Supervisor({ logDir: dir, reaper: false });
    const reported: string[] = [];
    supervisor.onUnexpectedExit((proc) => reported.push(proc.name));
    await supervisor.run({ name: 'migrate', command: 'sh', args: ['-c', 'exit 0'] });
    const serve = supervisor.spawn({ name: 'serve', command: 'sh', args: ['-c', 'exit 0'], tier: 'service' });
    await serve.exited;
    expect(reported).toEqual(['serve']);
    supervisor.release();
  });

  it('the reaper stops tracked trees when its supervisor vanishes without stopping them', async () => {
    const reaperFile = fileURLToPath(new URL('../src/reaper.ts', import.meta.url));
    const supervisor = new Supervisor({ logDir: dir, reaper: false });
    const pidFile = path.join(dir, 'orphan.pids');
    const proc = supervisor.spawn({ name: 'orphan', command: 'sh', args: tree(pidFile), tier: 'service', graceMs: 1000 });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').includes(' '));
    const pids = [proc.pid, ...pidsIn(pidFile)];

    const reaper = fork(reaperFile, [], { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    await new Promise<void>((resolve) => reaper.once('spawn', () => resolve()));
    reaper.send({ op: 'track', pid: proc.pid, group: true, signal: 'SIGTERM', tier: 0, graceMs: 1000 });
    await new Promise((r) => setTimeout(r, 200));
    reaper.disconnect(); // what the reaper sees when the runner dies
    await waitFor(() => pids.every((pid) => !alive(pid)), 15_000);
    expect(await proc.exited).toMatchObject({ signal: 'SIGTERM' });
  });

  it('a released reaper leaves untracked processes alone', async () => {
    const reaperFile = fileURLToPath(new URL('../src/reaper.ts', import.meta.url));
    const supervisor = new Supervisor({ logDir: dir, reaper: false });
    const proc = supervisor.spawn({ name: 'keeper', command: 'sleep', args: ['300'], tier: 'service' });
    const reaper = fork(reaperFile, [], { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    const reaperExit = new Promise((resolve) => reaper.once('exit', resolve));
    reaper.send({ op: 'track', pid: proc.pid, group: true, signal: 'SIGTERM', tier: 0, graceMs: 1000 });
    reaper.send({ op: 'untrack', pid: proc.pid });
    await new Promise((r) => setTimeout(r, 200));
    reaper.disconnect();
    await reaperExit;
    expect(alive(proc.pid)).toBe(true);
    await proc.stop();
    expect(alive(proc.pid)).toBe(false);
  });
});
