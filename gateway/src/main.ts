#!/usr/bin/env node
// `node gateway/dist/main.js`: the federated gateway on PORT (default 4000).
import { loadConfig, onShutdownSignal } from '@tributary/kit';
import { gatewayEnv } from './config.js';
import { startGateway } from './gateway.js';

try {
  const server = await startGateway(loadConfig(gatewayEnv));
  onShutdownSignal(() => server.close());
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
