import type { MigrationObject } from '@mikro-orm/core';
import { kitMigrations } from '@tributary/kit';
import { Migration20260701000000CreateAccounts } from './Migration20260701000000CreateAccounts.js';
import { Migration20260701000100CreateAssets } from './Migration20260701000100CreateAssets.js';
import { Migration20260701000200CreateAccountXpubs } from './Migration20260701000200CreateAccountXpubs.js';
import { Migration20260701000400CreatePaymentRequests } from './Migration20260701000400CreatePaymentRequests.js';
import { Migration20260701000300AddAccountSigningSecrets } from './Migration20260701000300AddAccountSigningSecrets.js';
import { Migration20260701000500AddApiKeyLastUsedAt } from './Migration20260701000500AddApiKeyLastUsedAt.js';
import { Migration20260701000600AddPaymentRequestIdempotencyKeys } from './Migration20260701000600AddPaymentRequestIdempotencyKeys.js';
import { Migration20260701000700AddPaymentRequestReferenceIndex } from './Migration20260701000700AddPaymentRequestReferenceIndex.js';
import { Migration20260701000800UniqueReceiveAddresses } from './Migration20260701000800UniqueReceiveAddresses.js';
import { Migration20261123000100StartInvoiceWorkflowsThroughOutbox } from './Migration20261123000100StartInvoiceWorkflowsThroughOutbox.js';
import { Migration20261125000100AddPaymentRequestNetwork } from './Migration20261125000100AddPaymentRequestNetwork.js';
import { Migration20261125000200AddChainWatch } from './Migration20261125000200AddChainWatch.js';
import { Migration20261126000100AddChainReorgs } from './Migration20261126000100AddChainReorgs.js';
import { Migration20261126000300AddReceiveKeyFirstIndex } from './Migration20261126000300AddReceiveKeyFirstIndex.js';
import { Migration20261126000400AddPaymentRequestListIndex } from './Migration20261126000400AddPaymentRequestListIndex.js';

/** Every migration of the crypto database, in order. Checked in; never discovered by glob. */
export const migrations: MigrationObject[] = [
  // The kit's tables in this database (webhook deliveries and their attempts, the workflow outbox).
  ...kitMigrations,
  { name: 'Migration20260701000000CreateAccounts', class: Migration20260701000000CreateAccounts },
  { name: 'Migration20260701000100CreateAssets', class: Migration20260701000100CreateAssets },
  { name: 'Migration20260701000200CreateAccountXpubs', class: Migration20260701000200CreateAccountXpubs },
  { name: 'Migration20260701000300AddAccountSigningSecrets', class: Migration20260701000300AddAccountSigningSecrets },
  { name: 'Migration20260701000400CreatePaymentRequests', class: Migration20260701000400CreatePaymentRequests },
  { name: 'Migration20260701000500AddApiKeyLastUsedAt', class: Migration20260701000500AddApiKeyLastUsedAt },
  { name: 'Migration20260701000600AddPaymentRequestIdempotencyKeys', class: Migration20260701000600AddPaymentRequestIdempotencyKeys },
  { name: 'Migration20260701000700AddPaymentRequestReferenceIndex', class: Migration20260701000700AddPaymentRequestReferenceIndex },
  { name: 'Migration20260701000800UniqueReceiveAddresses', class: Migration20260701000800UniqueReceiveAddresses },
  { name: 'Migration20261123000100StartInvoiceWorkflowsThroughOutbox', class: Migration20261123000100StartInvoiceWorkflowsThroughOutbox },
  { name: 'Migration20261125000100AddPaymentRequestNetwork', class: Migration20261125000100AddPaymentRequestNetwork },
  { name: 'Migration20261125000200AddChainWatch', class: Migration20261125000200AddChainWatch },
  { name: 'Migration20261126000100AddChainReorgs', class: Migration20261126000100AddChainReorgs },
  { name: 'Migration20261126000300AddReceiveKeyFirstIndex', class: Migration20261126000300AddReceiveKeyFirstIndex },
  { name: 'Migration20261126000400AddPaymentRequestListIndex', class: Migration20261126000400AddPaymentRequestListIndex },
];
