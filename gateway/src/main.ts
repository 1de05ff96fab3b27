#!/usr/bin/env node
// `node gateway/dist/main.js`: the federated gateway on PORT (default 4000).
import { loadConfig, onShutdownSignal, startTracingFromEnv } from '@tributary/kit';
import { gatewayEnv } from './config.js';
import { startGateway } from './gateway.js';

try {
  // Off unless OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_ENDPOINT asks (the root README's "Operating Tributary").
  const tracing = startTracingFromEnv('gateway');
  const server = await startGateway(loadConfig(gatewayEnv));
  onShutdownSignal(async () => {
    await server.close();
    await tracing?.shutdown();
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
