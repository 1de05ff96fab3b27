// What a running `npm start` tells the admin dispatcher (bin/admin.mjs): .stack/chains.json, written by
// `npm start -- --chains` (services/stack/src/chains.ts) and removed when it stops, holds per service the variables its
// operator commands need (crypto: CRYPTO_NETWORK=regtest, CRYPTO_LTC_RPC_URL, CRYPTO_ETH_RPC_URL, CRYPTO_PAY_WALLET).
// Plain JavaScript, no dependencies, like the dispatcher.
import { existsSync, readFileSync } from 'node:fs';

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * The variables `file` gives `service`'s commands, minus those `env` already sets (an explicit value wins). None when
 * the file is missing or unreadable, or the start that wrote it is no longer running (it was killed before removing it).
 */
export function stateEnv(file, service, env) {
  if (!existsSync(file)) return {};
  let state;
  try {
    state = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
  if (!Number.isInteger(state?.pid) || state.pid <= 0 || !pidAlive(state.pid)) return {};
  const vars = state.services?.[service];
  if (!vars || typeof vars !== 'object') return {};
  const out = {};
  for (const [name, value] of Object.entries(vars)) {
    if (typeof value === 'string' && !env[name]?.trim()) out[name] = value;
  }
  return out;
}
