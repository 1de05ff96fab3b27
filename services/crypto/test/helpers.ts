// crypto's test harness: the kit's real-service harness (fresh migrated database, free port) with crypto's definition.
import { startServiceHarness, type ServiceHarness } from '@tributary/kit/testing';
import { cryptoService } from '../src/service.js';

export { postGraphql as gql, serviceSchemaDiff as ownSchemaDiff, type ServiceHarness as Harness } from '@tributary/kit/testing';
export const startHarness = (options: { env?: NodeJS.ProcessEnv } = {}): Promise<ServiceHarness> => startServiceHarness(cryptoService, options);
