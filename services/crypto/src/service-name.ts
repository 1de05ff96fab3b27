import type { ServiceName } from '@tributary/workflows';

/** This service's name: its logs, Temporal task queue, webhook rows and rate-limit keys. */
export const SERVICE_NAME = 'crypto' satisfies ServiceName;
