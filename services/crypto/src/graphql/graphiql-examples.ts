// The tabs crypto's GraphiQL page (GET /graphql in a browser) opens with: what a merchant dashboard reads from this
// subgraph. tests/graphiql-examples.test.ts validates them against schema/subgraphs/crypto.graphql.
import type { GraphiqlExample } from '@tributary/kit';

/** `Authorization` in the headers editor when no demo credential is configured. */
export const GRAPHIQL_AUTHORIZATION_PLACEHOLDER = 'Bearer <KEY_ID>.<SECRET>';

export const GRAPHIQL_EXAMPLES: readonly GraphiqlExample[] = [
  {
    query: `query Account {
  cryptoAccount {
    id
    name
    status
    createdAt
    apiKeys {
      keyId
      name
      createdAt
      lastUsedAt
    }
  }
}
`,
  },
  {
    query: `query PaymentRequests($status: PaymentRequestStatus, $page: Int = 1) {
  paymentRequests(status: $status, page: $page, perPage: 10) {
    total
    currentPage
    data {
      id
      slug
      type
      title
      status
      asset
      amountRequested
      amountPaid
      amountOutstanding
      amountExcess
      expiresAt
      paidAt
      reference
      payments {
        txid
        outputIndex
        amount
        confirmations
        counted
      }
      webhookDeliveries {
        event
        status
        attemptCount
        lastStatusCode
        nextAttemptAt
      }
    }
  }
}
`,
    variables: { status: null, page: 1 },
  },
  {
    query: `query WebhookDeliveries {
  cryptoAccount {
    webhookDeliveries(limit: 20) {
      id
      event
      deliveryNumber
      endpointUrl
      status
      attemptCount
      lastStatusCode
      createdAt
      completedAt
      nextAttemptAt
      paymentRequest {
        slug
        title
      }
      attempts {
        attemptNumber
        outcome
        statusCode
        error
        attemptedAt
        durationMs
      }
    }
  }
}
`,
  },
];
