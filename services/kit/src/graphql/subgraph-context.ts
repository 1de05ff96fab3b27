// The per-request context every subgraph's resolvers receive: the service's domain services plus a lazily
// authenticated caller. Resolver maps themselves are typed per service with the `Resolvers` type generated from its
// SDL (`npm run codegen`), whose contextType is the service's SubgraphContext.

/** A subgraph's GraphQL context: the service's domain services and the caller, authenticated on first use. */
export type SubgraphContext<TServices extends object, TPrincipal> = TServices & {
  /** Authenticates on first use (memoized per request); rejects with the one authentication error. */
  readonly principal: () => Promise<TPrincipal>;
};

/**
 * Builds a request's context. `authenticate` runs at most once, when a resolver first asks for the principal,
 * so a query that touches nothing protected never authenticates, and one that touches many fields does it once.
 */
export function subgraphContext<TServices extends object, TPrincipal>(
  services: TServices,
  authenticate: () => Promise<TPrincipal>,
): SubgraphContext<TServices, TPrincipal> {
  let principal: Promise<TPrincipal> | undefined;
  return { ...services, principal: () => (principal ??= authenticate()) };
}
