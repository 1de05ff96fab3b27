// Where the runner keeps its state. Everything lives under `<repo>/.stack/` (gitignored):
//   .stack/postgres        embedded PostgreSQL cluster of `npm start` (kept across restarts)
//   .stack/temporal        Temporal dev server SQLite file of `npm start`
//   .stack/logs            one log file per child process of `npm start`
//   .stack/maildev         MailDev's messages of `npm start` (the inbox survives a restart)
//   .stack/media           photos' stored media of `npm start` (MEDIA_STORAGE_DIR, unless S3 is configured)
//   .stack/secrets         encryption.key: SECRETS_ENCRYPTION_KEY of `npm start` (generated once, wiped by reset);
//                          litecoind-rpc.password: the --chains node's RPC password (likewise)
//   .stack/litecoind       the --chains Litecoin regtest node's chain and demo wallet (kept across restarts)
//   .stack/anvil           the --chains anvil (ethereum regtest) node: state.json, its chain (kept across restarts)
//   .stack/chains.json     while `npm start -- --chains` runs: what the admin dispatcher passes to crypto's commands
//   .stack/test            everything `npm test` creates (own cluster per run, TLS, logs, Jest results)
//   .stack/tools           downloaded tools (Temporal CLI + test server); `npm run reset` keeps it
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface StackPaths {
  root: string;
  stack: string;
  postgres: string;
  temporal: string;
  temporalDb: string;
  logs: string;
  maildev: string;
  media: string;
  encryptionKey: string;
  litecoind: string;
  litecoinRpcPassword: string;
  anvil: string;
  anvilState: string;
  chainsState: string;
  test: string;
  testTls: string;
  tools: string;
  pythonTools: string;
  sdkDownloads: string;
  lockFile: string;
}

/** Finds the monorepo root: the nearest ancestor whose package.json declares workspaces. */
export function findRepoRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (existsSync(path.join(dir, 'turbo.json')) && existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the Tributary repository root above ${from}`);
    dir = parent;
  }
}

export function stackPaths(root: string = findRepoRoot()): StackPaths {
  const stack = path.join(root, '.stack');
  const tools = path.join(stack, 'tools');
  const pythonTools = path.join(tools, 'python');
  return {
    root,
    stack,
    postgres: path.join(stack, 'postgres'),
    temporal: path.join(stack, 'temporal'),
    temporalDb: path.join(stack, 'temporal', 'temporal.db'),
    logs: path.join(stack, 'logs'),
    maildev: path.join(stack, 'maildev'),
    media: path.join(stack, 'media'),
    encryptionKey: path.join(stack, 'secrets', 'encryption.key'),
    litecoind: path.join(stack, 'litecoind'),
    litecoinRpcPassword: path.join(stack, 'secrets', 'litecoind-rpc.password'),
    anvil: path.join(stack, 'anvil'),
    anvilState: path.join(stack, 'anvil', 'state.json'),
    chainsState: path.join(stack, 'chains.json'),
    test: path.join(stack, 'test'),
    testTls: path.join(stack, 'test', 'tls'),
    tools,
    pythonTools,
    sdkDownloads: path.join(tools, 'temporal-sdk'),
    lockFile: path.join(stack, 'start.pid'),
  };
}
