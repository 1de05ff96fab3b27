// `npm run codegen`: resolver types for each service, generated from its subgraph SDL (the contract) with
// GraphQL Code Generator. Each service owns its generated file (src/graphql/resolvers-types.ts, checked in);
// mappers point at the service's own MikroORM entities and contextType at its GraphQL context, both by paths
// relative to the generated file. test/codegen.test.ts fails when a checked-in file is stale.
import type { CodegenConfig } from '@graphql-codegen/cli';
import type { TypeScriptPluginConfig } from '@graphql-codegen/typescript';
import type { TypeScriptResolversPluginConfig } from '@graphql-codegen/typescript-resolvers';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));

interface ServiceTypes {
  /** `<path from src/graphql/>#<export>` of the service's GraphQL context type. */
  contextType: string;
  /** GraphQL object type -> `<path from src/graphql/>#<entity class>` of what its resolvers receive as parent. */
  mappers: Record<string, string>;
}

export const CODEGEN_SERVICES = {
  bnpl: {
    contextType: '../graphql-context.js#BnplContext',
    mappers: {
      BnplMerchant: '../modules/merchants/index.js#Merchant',
      BnplApiKey: '../modules/api-keys/index.js#ApiKey',
      BnplCreatedApiKey: '../modules/api-keys/index.js#CreatedApiKey',
      BnplWebhookEndpoint: '../modules/webhook-endpoints/index.js#WebhookEndpoint',
      BnplCreatedWebhookEndpoint: '../modules/webhook-endpoints/index.js#CreatedWebhookEndpoint',
      BnplWebhookDelivery: '@tributary/kit#DeliveryWithAttempts',
      BnplWebhookDeliveryAttempt: '@tributary/kit#WebhookDeliveryAttempt as WebhookDeliveryAttemptRow',
      BnplPaymentLink: '../modules/payment-links/index.js#PaymentLink',
      BnplLoan: '../modules/loans/index.js#Loan',
      BnplInstallment: '../modules/loans/index.js#Installment',
      BnplTestClock: '../modules/loans/index.js#TestClockReading',
      BnplWidgetSession: '../modules/widget-sessions/index.js#WidgetSession',
      BnplPlans: '../modules/plans/index.js#PlanOverview',
      BnplConfiguredPlan: '../modules/plans/index.js#ConfiguredPlan',
      BnplPlan: '../modules/plans/index.js#InstallmentPlan',
      BnplRefund: '../modules/refunds/index.js#Refund',
      BnplRefundPage: '../modules/refunds/index.js#RefundPage',
      BnplSettlement: '../modules/settlements/index.js#Settlement',
    },
  },
  crypto: {
    contextType: '../graphql-context.js#CryptoContext',
    mappers: {
      CryptoAccount: '../modules/accounts/index.js#Account',
      CryptoApiKey: '../modules/accounts/index.js#ApiKey',
      PaymentRequest: '../modules/payment-requests/index.js#PaymentRequest as PaymentRequestEntity',
      PaymentRequestPage: '../modules/payment-requests/index.js#PaymentRequestPage as PaymentRequestPageModel',
      CryptoPayment: '../modules/payments/index.js#Payment as PaymentEntity',
      CryptoWebhookDelivery: '@tributary/kit#DeliveryWithAttempts',
      CryptoWebhookDeliveryAttempt: '@tributary/kit#WebhookDeliveryAttempt as WebhookDeliveryAttemptRow',
      CryptoChainWatcher: '../modules/chain-watch/index.js#ChainWatchStatus',
    },
  },
  photos: {
    contextType: '../graphql-context.js#PhotosContext',
    mappers: {
      PhotosTeam: '../modules/teams/index.js#Team',
      PhotosProject: '../modules/projects/index.js#Project',
      PhotosWebhookEndpoint: '../modules/webhook-endpoints/index.js#WebhookEndpoint',
      PhotosCreatedWebhookEndpoint: '../modules/webhook-endpoints/index.js#CreatedWebhookEndpoint',
      PhotosDevice: '../modules/devices/index.js#Device',
      PhotosAccessToken: '../modules/auth/index.js#AccessToken',
      PhotosCreatedAccessToken: '../modules/auth/index.js#CreatedIntegrationToken',
      PhotosNearbyDecision: '../modules/projects/index.js#NearbyProjects',
      PhotosNearbyCandidate: '../modules/projects/index.js#ProjectMatchCandidate',
      PhotosPhoto: '../modules/photos/index.js#Photo',
      PhotosPhotoPage: '../modules/photos/index.js#PhotoPage',
      PhotosPhotoGroup: '../modules/photo-groups/index.js#PhotoGroup',
      PhotosPhotoGroupPage: '../modules/photo-groups/index.js#PhotoGroupPage',
      PhotosUserRef: '../modules/teams/index.js#User',
      PhotosChecklist: '../modules/checklists/index.js#Checklist',
      PhotosChecklistItem: '../modules/checklists/index.js#ChecklistItem',
      PhotosChecklistPage: '../modules/checklists/index.js#ChecklistPage',
      PhotosTask: '../modules/tasks/index.js#Task',
      PhotosTaskPage: '../modules/tasks/index.js#TaskPage',
      PhotosReport: '../modules/reports/index.js#Report',
      PhotosReportPhoto: '../modules/reports/index.js#ReportPhoto',
      PhotosReportPage: '../modules/reports/index.js#ReportPage',
      PhotosSharedReport: '../modules/reports/index.js#SharedReport',
      PhotosComment: '../modules/comments/index.js#Comment',
      PhotosCommentPage: '../modules/comments/index.js#CommentPage',
      PhotosCommentMention: '../modules/comments/index.js#CommentMention',
      PhotosNotification: '../modules/comments/index.js#Notification',
      PhotosNotificationPage: '../modules/comments/index.js#NotificationPage',
      PhotosPage: '../modules/pages/index.js#Page',
      PhotosPageList: '../modules/pages/index.js#PageList',
      PhotosCustomer: '../modules/customers/index.js#Customer',
      PhotosCustomerContact: '../modules/customers/index.js#CustomerContact',
      PhotosCustomerPage: '../modules/customers/index.js#CustomerPage',
    },
  },
} as const satisfies Record<string, ServiceTypes>;

export type CodegenService = keyof typeof CODEGEN_SERVICES;

/** Where a service's generated resolver types live (absolute path). */
export function generatedTypesPath(service: CodegenService): string {
  return `${repoRoot}services/${service}/src/graphql/resolvers-types.ts`;
}

const shared: TypeScriptPluginConfig & TypeScriptResolversPluginConfig = {
  federation: true,
  useTypeImports: true,
  // GraphQL enums become string unions ('DAILY' | 'WEEKLY' | ...), so resolvers return plain strings.
  enumsAsTypes: true,
};

const config: CodegenConfig = {
  overwrite: true,
  silent: true,
  generates: Object.fromEntries(
    Object.entries(CODEGEN_SERVICES).map(([service, types]) => [
      generatedTypesPath(service as CodegenService),
      {
        schema: `${repoRoot}schema/subgraphs/${service}.graphql`,
        plugins: [
          {
            add: {
              content: [
                `// Generated by \`npm run codegen\` from schema/subgraphs/${service}.graphql. Do not edit by hand.`,
                '/* eslint-disable */',
              ],
            },
          },
          'typescript',
          'typescript-resolvers',
        ],
        config: { ...shared, contextType: types.contextType, mappers: { ...types.mappers } },
      },
    ]),
  ),
};

export default config;
