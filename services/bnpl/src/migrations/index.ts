import type { MigrationObject } from '@mikro-orm/core';
import { webhookDeliveryMigration } from '@tributary/kit';
import { Migration20260701000000CreateMerchants } from './Migration20260701000000CreateMerchants.js';

/** Every migration of the bnpl database, in order. Checked in; never discovered by glob. */
export const migrations: MigrationObject[] = [
  // The shared webhook engine's tables (webhook_deliveries, webhook_delivery_attempts), owned by this database.
  webhookDeliveryMigration,
  { name: 'Migration20260701000000CreateMerchants', class: Migration20260701000000CreateMerchants },
];
