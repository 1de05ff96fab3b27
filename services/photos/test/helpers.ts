// photos's test harness: the kit's real-service harness (fresh migrated database, free port) with photos's definition.
import { startServiceHarness, type ServiceHarness } from '@tributary/kit/testing';
import { photosService } from '../src/service.js';

export { postGraphql as gql, serviceSchemaDiff as ownSchemaDiff, type ServiceHarness as Harness } from '@tributary/kit/testing';
export const startHarness = (): Promise<ServiceHarness> => startServiceHarness(photosService);
