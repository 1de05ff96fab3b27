import type { MigrationObject } from '@mikro-orm/core';
import { kitMigrations } from '@tributary/kit';
import { Migration20260701000000CreateMerchants } from './Migration20260701000000CreateMerchants.js';
import { Migration20261123000000CreateCheckout } from './Migration20261123000000CreateCheckout.js';
import { Migration20261123100000DashboardLogin } from './Migration20261123100000DashboardLogin.js';
import { Migration20261123200000CreateWebhookEndpoints } from './Migration20261123200000CreateWebhookEndpoints.js';
import { Migration20261123300000WidgetSessionsByMerchant } from './Migration20261123300000WidgetSessionsByMerchant.js';
import { Migration20261123500000CreatePaymentLinks } from './Migration20261123500000CreatePaymentLinks.js';
import { Migration20261123600000WidgetSessionPaymentLink } from './Migration20261123600000WidgetSessionPaymentLink.js';
import { Migration20261125000000CreateRefunds } from './Migration20261125000000CreateRefunds.js';
import { Migration20261125100000CreateSettlements } from './Migration20261125100000CreateSettlements.js';
import { Migration20261125000000LoanLifecycle } from './Migration20261125000000LoanLifecycle.js';
import { Migration20261128100000PaymentLinkOpenSessions } from './Migration20261128100000PaymentLinkOpenSessions.js';

/** Every migration of the bnpl database, in order. Checked in; never discovered by glob. */
export const migrations: MigrationObject[] = [
  // The kit's tables in this database (webhook deliveries and their attempts, the workflow outbox).
  ...kitMigrations,
  { name: 'Migration20260701000000CreateMerchants', class: Migration20260701000000CreateMerchants },
  { name: 'Migration20261123000000CreateCheckout', class: Migration20261123000000CreateCheckout },
  { name: 'Migration20261123100000DashboardLogin', class: Migration20261123100000DashboardLogin },
  { name: 'Migration20261123200000CreateWebhookEndpoints', class: Migration20261123200000CreateWebhookEndpoints },
  { name: 'Migration20261123300000WidgetSessionsByMerchant', class: Migration20261123300000WidgetSessionsByMerchant },
  { name: 'Migration20261123500000CreatePaymentLinks', class: Migration20261123500000CreatePaymentLinks },
  { name: 'Migration20261123600000WidgetSessionPaymentLink', class: Migration20261123600000WidgetSessionPaymentLink },
  { name: 'Migration20261125000000CreateRefunds', class: Migration20261125000000CreateRefunds },
  { name: 'Migration20261125100000CreateSettlements', class: Migration20261125100000CreateSettlements },
  { name: 'Migration20261125000000LoanLifecycle', class: Migration20261125000000LoanLifecycle },
  { name: 'Migration20261128100000PaymentLinkOpenSessions', class: Migration20261128100000PaymentLinkOpenSessions },
];
