import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { injectTraceHeaders } from '@tributary/kit';
import type { ServiceName } from '@tributary/workflows';
import { SUBGRAPH_CREDENTIAL_HEADER_NAMES, type ClientCredentials } from './credentials.js';

export interface GatewayContext {
  credentials: ClientCredentials;
  requestId: string;
}

/**
 * Node's own fetch (undici): a keep-alive connection pool per subgraph origin. @apollo/gateway's default fetcher
 * (make-fetch-happen over agentkeepalive) keeps connections alive too, but its HTTP cache checks, minipass streams
 * and agent-base's per-request stack-trace probe (isSecureEndpoint) cost more CPU per subgraph call than the
 * gateway's own query work (gateway-query benchmark, gateway/README.md). No redirect is followed: a subgraph answers.
 */
export const subgraphFetcher: RemoteGraphQLDataSource['fetcher'] = (url, init) => fetch(url, { ...init, redirect: 'error' });

/** A subgraph data source that forwards only that subgraph's own credentials (as Authorization etc.) and the trace context. */
export class CredentialForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(private readonly subgraph: ServiceName, url: string) {
    super({ url, fetcher: subgraphFetcher });
  }

  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    const headers = options.request.http?.headers;
    if (!headers) return;
    // Whatever got there, no credential leaves unless it is this subgraph's own.
    for (const name of SUBGRAPH_CREDENTIAL_HEADER_NAMES) headers.delete(name);
    // W3C traceparent of the active span (Apollo's fetch span), so the subgraph's spans join the gateway's trace.
    injectTraceHeaders(headers);
    // The request-kind enum is not exported by @apollo/gateway; its value is part of the public type.
    if (options.kind !== 'incoming operation') return;
    const context = options.context as Partial<GatewayContext>;
    for (const [name, value] of Object.entries(context.credentials?.[this.subgraph] ?? {})) headers.set(name, value);
    if (context.requestId) headers.set('x-request-id', context.requestId);
  }
}
