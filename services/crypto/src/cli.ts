#!/usr/bin/env node
// Entry points the stack runner (and operators) use: migrate | seed | serve | worker (the kit's runServiceCli).
// `seed` and `worker` read SECRETS_ENCRYPTION_KEY too (`serve` validates it with the rest of its env): check it first,
// so a missing key in production stops the process at startup with a message naming the variable.
import { loadConfig, secretsEnv } from '@tributary/kit';
import { runServiceCli } from '@tributary/kit/runtime';
import { cryptoService } from './service.js';

const command = process.argv[2];
try {
  if (command === 'seed' || command === 'worker') loadConfig(secretsEnv);
  runServiceCli(cryptoService, command);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
