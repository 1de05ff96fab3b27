// The tabs bnpl's GraphiQL page (GET /graphql in a browser) opens with: what a dashboard reads from this subgraph.
// tests/graphiql-examples.test.ts validates them against schema/subgraphs/bnpl.graphql.
import type { GraphiqlExample } from '@tributary/kit';

/** `Authorization` in the headers editor when no demo credential is configured. */
export const GRAPHIQL_AUTHORIZATION_PLACEHOLDER = 'Bearer <dashboard token>';

export const GRAPHIQL_EXAMPLES: readonly GraphiqlExample[] = [
  {
    query: `query MerchantApiKeys {
  bnplMerchant {
    id
    name
    settlementCadence
    createdAt
    apiKeys {
      id
      name
      publicKey
      environment
      createdAt
    }
  }
}
`,
  },
  {
    query: `query WebhookEndpointsAndDeliveries {
  bnplMerchant {
    webhookEndpoints {
      id
      url
      events
      isActive
    }
    webhookDeliveries(limit: 10) {
      id
      event
      endpointUrl
      status
      attemptCount
      lastStatusCode
      attempts {
        attemptNumber
        outcome
        statusCode
        attemptedAt
      }
    }
  }
}
`,
  },
  {
    query: `query RecentSessionsAndPlans {
  bnplMerchant {
    sessions(first: 10) {
      sessionToken
      status
      livemode
      amountCents
      currency
      orderReference
      expiresAt
    }
    plans {
      configured {
        plan
        isEnabled
      }
      available {
        plan
        name
        installmentCount
        feeBps
        minAmountCents
        maxAmountCents
      }
    }
  }
}
`,
  },
  {
    // Loans with their collection progress, and the test clock (advance it with
    // mutation { advanceBnplTestClock(by: "14d") { offsetSeconds now } }).
    query: `query LoansAndTestClock {
  bnplMerchant {
    testClock {
      offsetSeconds
      now
    }
    loans(first: 10) {
      loanNumber
      status
      livemode
      totalCents
      currency
      disbursedAt
      installments {
        installmentNumber
        dueDate
        status
        attemptCount
        paidAt
      }
      workflow {
        status
        nextTimerAt
        lastFailure
      }
    }
  }
}
`,
  },
  {
    // Reconciliation: sales (filters and keyset pages as GET /api/v1/merchant/sales), refunds, and settlement batches
    // with every sale, refund and adjustment they cover.
    query: `query SalesRefundsAndSettlements {
  bnplMerchant {
    sales(status: [ACTIVE, IN_ARREARS], limit: 10) {
      nodes {
        loanNumber
        status
        principalCents
        currency
        createdAt
      }
      nextCursor
    }
    refunds(limit: 10) {
      refunds {
        id
        loanId
        amountCents
        status
        failureReason
        processedAt
      }
      nextCursor
    }
    settlements(limit: 5) {
      settlements {
        batch
        status
        grossCents
        mdrCents
        refundsCents
        adjustmentsCents
        netCents
        currency
        lines {
          kind
          loanId
          refundId
          amountCents
          mdrCents
        }
      }
      nextCursor
    }
  }
}
`,
  },
];
