/** Where each service mounts its subgraph; the gateway's subgraph URLs end with it. Kept free of Apollo imports. */
export const SUBGRAPH_PATH = '/graphql';
