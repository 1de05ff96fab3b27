#!/usr/bin/env node
// Dispatcher behind `npm run --silent admin -- <service> <command> ... [--json]`: runs the service's built operator
// entry point (services/<service>/dist/admin/cli.js) under the repo's Node 24 with stdio passed through, and exits
// with its code. Plain JavaScript, no dependencies. When SECRETS_ENCRYPTION_KEY is unset it passes the key `npm start`
// keeps in .stack/secrets/encryption.key, so secrets written by a command are readable by the running services. While
// `npm start -- --chains` runs it also passes what that start wrote in .stack/chains.json (crypto: CRYPTO_NETWORK=regtest,
// CRYPTO_LTC_RPC_URL, CRYPTO_ETH_RPC_URL, CRYPTO_PAY_WALLET), so `crypto pay` sends real transactions on its chain;
// explicit variables win.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stateEnv } from './stack-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SERVICES = ['bnpl', 'crypto', 'photos'];
const [service, ...args] = process.argv.slice(2);

if (!service || !SERVICES.includes(service)) {
  console.error(`usage error: npm run --silent admin -- <${SERVICES.join('|')}> <command> ... [--json] (got ${service ? `"${service}"` : 'no service'})`);
  if (args.includes('--json')) console.log(JSON.stringify({ error: { code: 'usage', message: 'unknown or missing service' } }));
  process.exit(2);
}

const entry = path.join(root, 'services', service, 'dist', 'admin', 'cli.js');
if (!existsSync(entry)) {
  console.error(`error: ${path.relative(root, entry)} is not built; run \`npm run build\` (or \`npm start\`, which builds) first`);
  process.exit(1);
}

const env = { ...process.env };
const keyFile = path.join(root, '.stack', 'secrets', 'encryption.key');
if (!env.SECRETS_ENCRYPTION_KEY?.trim() && existsSync(keyFile)) env.SECRETS_ENCRYPTION_KEY = readFileSync(keyFile, 'utf8').trim();
Object.assign(env, stateEnv(path.join(root, '.stack', 'chains.json'), service, env));

const node24 = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'node.cmd' : 'node');
const child = spawn(existsSync(node24) ? node24 : process.execPath, [entry, ...args], { stdio: 'inherit', env, cwd: root });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
child.on('error', (error) => {
  console.error(`error: cannot run ${entry}: ${error.message}`);
  process.exit(1);
});
