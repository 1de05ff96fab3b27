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

/** Stop order: lower tiers stop first (MailDev after the services that send to it). */
export const TIERS = { service: 0, mail: 1, temporal: 2, chain: 2, postgres: 3 } as const;
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

interface SupervisedProcessHooks {
  /** The process has exited; `expected` when a stop was asked for or it is a one-shot command. */
  onExit(proc: SupervisedProcess, exit: Exit, expected: boolean): void;
}

/**
 * One child in its own process group: its output in `<logDir>/<name>.log` (echoed with a prefix when verbose), its exit
 * watched, and a stop that escalates to SIGKILL (SIGQUIT after SIGINT) when the grace period runs out.
 */
class SupervisedProcess implements ManagedProcess {
  readonly name: string;
  readonly tier: Tier;
  readonly logFile: string;
  readonly pid: number;
  readonly exited: Promise<Exit>;
  readonly signalGroup: boolean;
  readonly stopSignal: NodeJS.Signals;
  readonly graceMs: number;
  private readonly child: ChildProcess;
  private captured = '';
  private alive: boolean;
  private stopRequested = false;
  private closeOutput: (footer: string) => void = () => undefined;

  constructor(
    private readonly opts: SpawnOptions,
    private readonly supervisor: Pick<SupervisorOptions, 'logDir' | 'verbose'>,
    hooks: SupervisedProcessHooks,
  ) {
    this.name = opts.name;
    this.tier = opts.tier;
    this.signalGroup = opts.signalGroup ?? true;
    this.stopSignal = opts.stopSignal ?? 'SIGTERM';
    this.graceMs = opts.graceMs ?? 15_000;
    this.logFile = path.join(supervisor.logDir, `${opts.name}.log`);
    appendFileSync(this.logFile, `\n=== ${new Date().toISOString()} ${opts.command} ${opts.args.join(' ')}\n`);
    this.child = this.startChild();
    this.pid = this.child.pid ?? -1;
    this.alive = this.child.pid !== undefined;
    this.exited = this.watchExit(hooks);
  }

  get running(): boolean {
    return this.alive;
  }

  get stdout(): string {
    return this.captured;
  }

  tail(lines?: number): string {
    return tailOf(this.logFile, lines);
  }

  async stop(): Promise<Exit> {
    this.stopRequested = true;
    if (!this.alive || this.pid <= 0) return this.exited;
    const pid = this.pid;
    killGroup(pid, this.signalGroup, this.stopSignal);
    const timer = setTimeout(() => {
      killGroup(pid, this.signalGroup, this.stopSignal === 'SIGINT' ? 'SIGQUIT' : 'SIGKILL');
      setTimeout(() => killGroup(pid, true, 'SIGKILL'), 5000).unref();
    }, this.graceMs);
    timer.unref();
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }

  /**
   * Long-running children write straight into their log file (it survives us, and a dead runner leaves no broken pipe
   * behind); only short commands whose stdout we read get a pipe; Jest writes to our terminal.
   */
  private startChild(): ChildProcess {
    const { opts } = this;
    const piped = opts.captureStdout === true;
    const fd = piped || opts.inheritStdio ? undefined : openSync(this.logFile, 'a');
    const child = spawn(opts.command, opts.args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      detached: true,
      stdio: opts.inheritStdio ? ['ignore', 'inherit', 'inherit'] : piped ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
      ...(opts.uid === undefined ? {} : { uid: opts.uid }),
      ...(opts.gid === undefined ? {} : { gid: opts.gid }),
    });
    if (fd !== undefined) closeSync(fd);
    if (piped) this.capturePipes(child);
    else if (this.supervisor.verbose && fd !== undefined) this.followLogFile();
    else if (!opts.inheritStdio) this.closeOutput = (footer) => appendFileSync(this.logFile, footer);
    return child;
  }

  /** Piped output: into the log, stdout also kept in memory (the seed's credentials line), echoed when verbose. */
  private capturePipes(child: ChildProcess): void {
    const log: WriteStream = createWriteStream(this.logFile, { flags: 'a' });
    const stream = (chunk: Buffer, capture: boolean): void => {
      log.write(chunk);
      if (capture) this.captured += chunk.toString('utf8');
      this.echo(chunk.toString('utf8'));
    };
    child.stdout?.on('data', (c: Buffer) => stream(c, true));
    child.stderr?.on('data', (c: Buffer) => stream(c, false));
    this.closeOutput = (footer) => log.end(footer);
  }

  /** Verbose mode for a child writing to its log file: echo what it appends, every 250 ms. */
  private followLogFile(): void {
    let offset = statSync(this.logFile).size;
    const follower = setInterval(() => {
      const size = statSync(this.logFile).size;
      if (size <= offset) return;
      const buffer = Buffer.alloc(size - offset);
      const handle = openSync(this.logFile, 'r');
      try {
        readSync(handle, buffer, 0, buffer.length, offset);
      } finally {
        closeSync(handle);
      }
      offset = size;
      this.echo(buffer.toString('utf8'));
    }, 250);
    follower.unref();
    this.closeOutput = (footer) => {
      clearInterval(follower);
      appendFileSync(this.logFile, footer);
    };
  }

  private echo(text: string): void {
    if (!this.supervisor.verbose || !text) return;
    const prefix = `[${this.opts.name}] `;
    const body = text.replace(/\n$/, '');
    process.stdout.write(body.split('\n').map((l) => prefix + l).join('\n') + '\n');
  }

  /** Resolves once, when the child has closed (or could not start); then the group goes and the log gets its footer. */
  private watchExit(hooks: SupervisedProcessHooks): Promise<Exit> {
    return new Promise<Exit>((resolve) => {
      let settled = false;
      const done = (exit: Exit): void => {
        if (settled) return;
        settled = true;
        this.alive = false;
        // Stragglers left in the group (grandchildren) go with their leader.
        if (this.pid > 0) killGroup(this.pid, true, 'SIGKILL');
        this.closeOutput(`=== exited code=${exit.code} signal=${exit.signal}\n`);
        resolve(exit);
        hooks.onExit(this, exit, this.stopRequested || this.opts.oneShot === true);
      };
      this.child.once('error', (error) => {
        appendFileSync(this.logFile, `spawn failed: ${error.message}\n`);
        done({ code: 127, signal: null });
      });
      this.child.once('close', (code, signal) => done({ code, signal }));
    });
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
    const proc = new SupervisedProcess(opts, this.options, {
      onExit: (exited, exit, expected) => {
        if (exited.pid > 0) this.tell({ op: 'untrack', pid: exited.pid });
        this.children.delete(exited);
        if (!expected && !this.stopping) this.unexpected?.(exited, exit);
      },
    });
    if (proc.pid > 0) {
      this.children.add(proc);
      this.tell({ op: 'track', pid: proc.pid, group: proc.signalGroup, signal: proc.stopSignal, tier: TIERS[opts.tier], graceMs: proc.graceMs });
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
