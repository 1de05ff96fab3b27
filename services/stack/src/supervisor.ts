// Process supervision. Every child runs in its own process group (detached), its output goes to
// `<logDir>/<name>.log` (also streamed with a prefix when verbose), and stopAll() stops them in tiers:
// services first, then Temporal, then PostgreSQL. A detached reaper process (reaper.ts) holds the
// same list, so children do not outlive a runner that is killed outright.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  type WriteStream,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StackError } from './errors.js';
import type { ReaperMessage } from './reaper.js';

/** Stop order: lower tiers stop first. */
export const TIERS = { service: 0, temporal: 1, postgres: 2 } as const;
export type Tier = keyof typeof TIERS;

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  tier: Tier;
  /** Signal for a graceful stop (PostgreSQL: SIGINT = fast shutdown). Default SIGTERM. */
  stopSignal?: NodeJS.Signals;
  /** Send the stop signal to the whole process group (default) or only to the leader. */
  signalGroup?: boolean;
  /** How long to wait after the stop signal before SIGKILL (SIGQUIT for SIGINT). Default 15 s. */
  graceMs?: number;
  /** Keep stdout in memory (for the seed's credentials line). */
  captureStdout?: boolean;
  /** Let the child write straight to our terminal (Jest). */
  inheritStdio?: boolean;
  /** A one-shot command (migrate, seed): its exit is the expected outcome, not a crash to report. */
  oneShot?: boolean;
  uid?: number;
  gid?: number;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly tier: Tier;
  readonly logFile: string;
  readonly exited: Promise<Exit>;
  readonly running: boolean;
  readonly stdout: string;
  /** Stops this process (and its group); resolves when it is gone. */
  stop(): Promise<Exit>;
  /** Last lines of the log file, for error messages. */
  tail(lines?: number): string;
}

export interface SupervisorOptions {
  logDir: string;
  verbose?: boolean;
  /** Start the watchdog that kills our children if this process dies (default true). */
  reaper?: boolean;
}

function reaperEntry(): { command: string; args: string[] } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const js = path.join(here, 'reaper.js');
  // From dist the compiled file exists; from src (Jest) Node 24 strips the types of reaper.ts itself.
  return { command: process.execPath, args: [existsSync(js) ? js : path.join(here, 'reaper.ts')] };
}

function tailOf(file: string, lines = 20): string {
  try {
    const text = readFileSync(file, 'utf8').trimEnd().split('\n');
    return text.slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function killGroup(pid: number, group: boolean, signal: NodeJS.Signals): void {
  try {
    process.kill(group ? -pid : pid, signal);
  } catch {
    // gone already
  }
}

export class Supervisor {
  private readonly children = new Set<ManagedProcess>();
  private reaper: ChildProcess | undefined;
  private unexpected: ((proc: ManagedProcess, exit: Exit) => void) | undefined;
  private stopping = false;

  constructor(private readonly options: SupervisorOptions) {
    mkdirSync(options.logDir, { recursive: true });
  }

  get logDir(): string {
    return this.options.logDir;
  }

  /** Called when a child exits that nobody asked to stop. */
  onUnexpectedExit(handler: (proc: ManagedProcess, exit: Exit) => void): void {
    this.unexpected = handler;
  }

  private ensureReaper(): ChildProcess | undefined {
    if (this.options.reaper === false) return undefined;
    // One reaper per supervisor: once released by stopAll() it is never started again.
    if (this.reaper) return this.reaper;
    const { command, args } = reaperEntry();
    const reaper = spawn(command, args, { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    reaper.unref();
    reaper.channel?.unref();
    reaper.on('error', () => undefined);
    this.reaper = reaper;
    return reaper;
  }

  private tell(message: ReaperMessage): void {
    const reaper = this.ensureReaper();
    if (reaper?.connected) reaper.send(message, (error) => void error);
  }

  spawn(opts: SpawnOptions): ManagedProcess {
    if (this.stopping) throw new StackError(`not starting ${opts.name}: shutting down`);
    const logFile = path.join(this.options.logDir, `${opts.name}.log`);
    appendFileSync(logFile, `\n=== ${new Date().toISOString()} ${opts.command} ${opts.args.join(' ')}\n`);
    // Long-running children write straight into their log file (it survives us, and a dead runner
    // leaves no broken pipe behind); only short commands whose stdout we read get a pipe.
    const piped = opts.captureStdout === true;
    const fd = piped || opts.inheritStdio ? undefined : openSync(logFile, 'a');
    const child = spawn(opts.command, opts.args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      detached: true,
      stdio: opts.inheritStdio ? ['ignore', 'inherit', 'inherit'] : piped ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
      ...(opts.uid === undefined ? {} : { uid: opts.uid }),
      ...(opts.gid === undefined ? {} : { gid: opts.gid }),
    });
    if (fd !== undefined) closeSync(fd);
    let stdout = '';
    let running = child.pid !== undefined;
    const prefix = `[${opts.name}] `;
    const echo = (text: string): void => {
      if (!this.options.verbose || !text) return;
      const body = text.replace(/\n$/, '');
      process.stdout.write(body.split('\n').map((l) => prefix + l).join('\n') + '\n');
    };
    let log: WriteStream | undefined;
    let follower: NodeJS.Timeout | undefined;
    if (piped) {
      log = createWriteStream(logFile, { flags: 'a' });
      const stream = (chunk: Buffer, capture: boolean): void => {
        log?.write(chunk);
        if (capture) stdout += chunk.toString('utf8');
        echo(chunk.toString('utf8'));
      };
      child.stdout?.on('data', (c: Buffer) => stream(c, true));
      child.stderr?.on('data', (c: Buffer) => stream(c, false));
    } else if (this.options.verbose && fd !== undefined) {
      let offset = statSync(logFile).size;
      const follow = (): void => {
        const size = statSync(logFile).size;
        if (size <= offset) return;
        const buffer = Buffer.alloc(size - offset);
        const handle = openSync(logFile, 'r');
        try {
          readSync(handle, buffer, 0, buffer.length, offset);
        } finally {
          closeSync(handle);
        }
        offset = size;
        echo(buffer.toString('utf8'));
      };
      follower = setInterval(follow, 250);
      follower.unref();
    }

    const signalGroup = opts.signalGroup ?? true;
    const stopSignal = opts.stopSignal ?? 'SIGTERM';
    const graceMs = opts.graceMs ?? 15_000;
    let stopRequested = false;

    const exited = new Promise<Exit>((resolve) => {
      let settled = false;
      const done = (exit: Exit): void => {
        if (settled) return;
        settled = true;
        running = false;
        // Stragglers left in the group (grandchildren) go with their leader.
        if (child.pid) killGroup(child.pid, true, 'SIGKILL');
        if (child.pid) this.tell({ op: 'untrack', pid: child.pid });
        if (follower) clearInterval(follower);
        const footer = `=== exited code=${exit.code} signal=${exit.signal}\n`;
        if (log) log.end(footer);
        else if (!opts.inheritStdio) appendFileSync(logFile, footer);
        this.children.delete(proc);
        resolve(exit);
        if (!stopRequested && !this.stopping && !opts.oneShot) this.unexpected?.(proc, exit);
      };
      child.once('error', (error) => {
        appendFileSync(logFile, `spawn failed: ${error.message}\n`);
        done({ code: 127, signal: null });
      });
      child.once('close', (code, signal) => done({ code, signal }));
    });

    const proc: ManagedProcess = {
      name: opts.name,
      pid: child.pid ?? -1,
      tier: opts.tier,
      logFile,
      exited,
      get running() {
        return running;
      },
      get stdout() {
        return stdout;
      },
      stop: async () => {
        stopRequested = true;
        if (!running || !child.pid) return exited;
        const pid = child.pid;
        killGroup(pid, signalGroup, stopSignal);
        const timer = setTimeout(() => {
          killGroup(pid, signalGroup, stopSignal === 'SIGINT' ? 'SIGQUIT' : 'SIGKILL');
          setTimeout(() => killGroup(pid, true, 'SIGKILL'), 5000).unref();
        }, graceMs);
        timer.unref();
        const exit = await exited;
        clearTimeout(timer);
        return exit;
      },
      tail: (lines) => tailOf(logFile, lines),
    };
    if (child.pid) {
      this.children.add(proc);
      this.tell({ op: 'track', pid: child.pid, group: signalGroup, signal: stopSignal, tier: TIERS[opts.tier], graceMs });
    }
    return proc;
  }

  /** Runs a command to completion; a non-zero exit becomes a StackError pointing at its log. */
  async run(opts: Omit<SpawnOptions, 'tier'> & { tier?: Tier; fix?: string }): Promise<ManagedProcess> {
    const proc = this.spawn({ tier: 'service', ...opts, oneShot: true });
    const exit = await proc.exited;
    if (exit.code !== 0) {
      const tail = proc.tail(15);
      throw new StackError(
        `${opts.name} failed (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})${tail ? `:\n${indent(tail)}` : ''}`,
        opts.fix ?? `read ${proc.logFile}`,
        proc.logFile,
      );
    }
    return proc;
  }

  get processes(): ManagedProcess[] {
    return [...this.children];
  }

  /** Stops every running child of one tier (and waits for them). */
  async stopTier(tier: Tier): Promise<number> {
    const procs = [...this.children].filter((p) => p.tier === tier);
    await Promise.all(procs.map((p) => p.stop()));
    return procs.length;
  }

  /** Refuse new children from now on (shutdown has begun). */
  beginShutdown(): void {
    this.stopping = true;
  }

  /** Stops everything: services first, then Temporal, then PostgreSQL; finally releases the reaper. */
  async stopAll(onTier?: (tier: Tier, count: number, ms: number) => void): Promise<void> {
    this.stopping = true;
    for (const tier of Object.keys(TIERS) as Tier[]) {
      const t0 = Date.now();
      const count = await this.stopTier(tier);
      if (count > 0) onTier?.(tier, count, Date.now() - t0);
    }
    this.release();
  }

  /** Lets the reaper go: it exits without touching anything when nothing is tracked. */
  release(): void {
    if (this.reaper?.connected) this.reaper.disconnect();
  }
}

export function indent(text: string, by = '    '): string {
  return text
    .split('\n')
    .map((l) => by + l)
    .join('\n');
}
