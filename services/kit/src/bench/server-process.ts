// A server under load runs in its own Node process, never in the benchmark's: the load generator must not share
// an event loop with what it measures. Its output goes to a log file; with BENCH_CPU_PROF_DIR set (npm run bench --
// --cpu-prof) Node writes a CPU profile of it on exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICE_NODE_FLAGS } from '../config/node-flags.js';
import { startOnFreePort, type StartOnFreePortOptions } from '../http/ports.js';

/** Directory for CPU profiles of the servers a benchmark starts; unset = no profiling. */
export const BENCH_CPU_PROF_DIR_ENV = 'BENCH_CPU_PROF_DIR';
/** Directory for the servers' log files; default the OS temp directory. */
export const BENCH_LOG_DIR_ENV = 'BENCH_LOG_DIR';

export interface BenchServerOptions {
  /** Names the log file (`<name>.log`) and the CPU profile (`<name>.cpuprofile`). */
  name: string;
  /** The Node script and its arguments (run with this process's Node). */
  script: string;
  args?: string[];
  /** Added to this process's environment; PORT is set to a free port. */
  env?: NodeJS.ProcessEnv;
  /** Path that answers (any status below 500) once the server is ready. Default '/'. */
  readyPath?: string;
  readyTimeoutMs?: number;
}

export interface BenchServer {
  name: string;
  /** The server's process id (to sample its CPU or memory). */
  pid: number;
  /** http://127.0.0.1:<port> */
  url: string;
  logFile: string;
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process is gone (its CPU profile written). */
  stop(): Promise<void>;
}

/** Clock ticks per second of /proc's CPU times: USER_HZ, 100 on every mainstream Linux build. */
const USER_HZ = 100;

/**
 * CPU time (user + system) a process has used so far, in milliseconds, from /proc/<pid>/stat. Linux only: undefined
 * elsewhere, or when the process is gone.
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    // Fields after the command name (which may contain spaces, hence the last ')'): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}


/** Node flags that make `name` write a CPU profile into BENCH_CPU_PROF_DIR on exit; none when it is unset. */
export function cpuProfileFlags(name: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const dir = env[BENCH_CPU_PROF_DIR_ENV];
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status < 500) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** The server exited at startup because its port was taken (by a process that bound it after we picked it). */
export class BenchServerPortTakenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BenchServerPortTakenError';
  }
}

/**
 * Starts `script` on a free port and resolves once it answers; throws with the log's tail if it does not. A port
 * taken before the server bound it costs a start on a fresh one (kit startOnFreePort).
 */
export function startBenchServer(options: BenchServerOptions, ports: Omit<StartOnFreePortOptions, 'isPortTaken'> = {}): Promise<BenchServer> {
  return startOnFreePort((port) => launchBenchServer(options, port), { ...ports, isPortTaken: (error) => error instanceof BenchServerPortTakenError });
}

async function launchBenchServer(options: BenchServerOptions, port: number): Promise<BenchServer> {
  const logDir = process.env[BENCH_LOG_DIR_ENV] ?? tmpdir();
  mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${options.name}.log`);
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...cpuProfileFlags(options.name), options.script, ...(options.args ?? [])], {
    env: { ...process.env, ...options.env, PORT: String(port) },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.kill('SIGTERM');
    await exited(child);
    clearTimeout(killer);
  };
  const answering = await waitUntilAnswering(`${url}${options.readyPath ?? '/'}`, child, options.readyTimeoutMs ?? 30_000);
  // Answered, but by whoever holds the port if our server has died meanwhile.
  if (!answering || child.exitCode !== null || child.signalCode !== null) {
    await stop();
    const message = `${options.name} did not start answering on ${url} (log ${logFile}):\n${tail(logFile)}`;
    throw /EADDRINUSE/.test(tail(logFile)) ? new BenchServerPortTakenError(message) : new Error(message);
  }
  return { name: options.name, pid: child.pid ?? -1, url, logFile, stop };
}
