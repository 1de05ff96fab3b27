import type { ServiceName } from '@tributary/workflows';

/** This service's name: its logs, Temporal task queue and webhook rows. */
export const SERVICE_NAME = 'bnpl' satisfies ServiceName;
