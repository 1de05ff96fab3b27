// The gateway's GraphiQL page (GET /graphql in a browser): each subgraph's credential header in the headers editor
// (the demo credentials under `npm start`, placeholders otherwise) and tabs with dashboard queries across the graph.
// tests/graphiql-examples.test.ts validates the queries against the supergraph's API schema and runs them.
import type { DemoAuthorization, GraphiqlExample } from '@tributary/kit';
import { SERVICE_NAMES, type ServiceName } from '@tributary/workflows';
import { CREDENTIAL_HEADERS } from './credentials.js';

/** What a subgraph's header shows without a demo credential (the forms the gateway README lists). */
const AUTHORIZATION_PLACEHOLDERS: Readonly<Record<ServiceName, string>> = {
  bnpl: 'Bearer <bnpl dashboard token>',
  crypto: 'Bearer <crypto KEY_ID>.<SECRET>',
  photos: 'Bearer <photos access token>',
};

/** The client header a subgraph receives as Authorization, spelled for people: `X-Bnpl-Authorization`. */
export function authorizationHeaderOf(subgraph: ServiceName): string {
  const [clientHeader] = Object.entries(CREDENTIAL_HEADERS[subgraph]).find(([, sentAs]) => sentAs === 'authorization') ?? [];
  if (!clientHeader) throw new Error(`No client header reaches ${subgraph} as Authorization`);
  return clientHeader.replace(/(^|-)[a-z]/g, (start) => start.toUpperCase());
}

/** The headers editor's content: one header per subgraph, in SERVICE_NAMES order. */
export function graphiqlHeaders(demo: DemoAuthorization): Record<string, string> {
  return Object.fromEntries(SERVICE_NAMES.map((name) => [authorizationHeaderOf(name), demo[name] ?? AUTHORIZATION_PLACEHOLDERS[name]]));
}

export const GATEWAY_GRAPHIQL_EXAMPLES: readonly GraphiqlExample[] = [
  {
    query: `# One query, three subgraphs: each answers with its own credential from the headers below.
query Dashboard {
  bnplMerchant {
    id
    name
    settlementCadence
  }
  cryptoAccount {
    id
    name
    status
  }
  photosTeam {
    id
    name
  }
  photosProjects {
    id
    name
    status
    lastActivityAt
  }
}
`,
  },
  {
    query: `query BnplMerchantApiKeys {
  bnplMerchant {
    id
    name
    settlementCadence
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
    query: `query CryptoPaymentRequests($status: PaymentRequestStatus, $page: Int = 1) {
  paymentRequests(status: $status, page: $page, perPage: 10) {
    total
    currentPage
    data {
      id
      slug
      title
      status
      asset
      amountRequested
      amountPaid
      amountOutstanding
      expiresAt
      reference
      payments {
        txid
        amount
        confirmations
        counted
      }
      webhookDeliveries {
        event
        status
        attemptCount
        lastStatusCode
      }
    }
  }
}
`,
    variables: { status: null, page: 1 },
  },
  {
    query: `query CryptoWebhookDeliveries {
  cryptoAccount {
    name
    webhookDeliveries(limit: 20) {
      id
      event
      endpointUrl
      status
      attemptCount
      lastStatusCode
      nextAttemptAt
      paymentRequest {
        slug
        title
      }
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
    query: `query PhotosTeamProjects {
  photosTeam {
    id
    name
    createdAt
  }
  photosProjects {
    id
    name
    status
    address
    coordinates {
      lat
      lng
      radiusM
    }
    lastActivityAt
  }
}
`,
  },
];
