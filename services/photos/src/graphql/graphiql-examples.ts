// The tabs photos' GraphiQL page (GET /graphql in a browser) opens with: what a dashboard reads from this subgraph.
// tests/graphiql-examples.test.ts validates them against schema/subgraphs/photos.graphql.
import type { GraphiqlExample } from '@tributary/kit';

/** `Authorization` in the headers editor when no demo credential is configured. */
export const GRAPHIQL_AUTHORIZATION_PLACEHOLDER = 'Bearer <access token>';

export const GRAPHIQL_EXAMPLES: readonly GraphiqlExample[] = [
  {
    query: `query TeamProjects {
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
